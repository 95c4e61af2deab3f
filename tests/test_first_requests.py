"""The first requests after a start come at once (every phone's live follow, a service worker
filling its cache): one of them migrates the archive and the others wait for it. Against the
real server (waitress, threads, real HTTP); before, two migrations ran side by side and phones got
"database is locked" pages (500 and 503)."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

from tests.conftest import make_app
from tests.helpers import served

PAGES = ["/", "/games/new/classic", "/history", "/stats", "/players", "/evenings"]


def test_the_first_requests_at_once_are_all_answered(tmp_path):
    app = make_app({"TESTING": True, "SECRET_KEY": "first", "DATABASE": str(tmp_path / "first.sqlite")})
    statuses: list[int] = []
    lock = threading.Lock()
    with served(app, threads=8) as port:
        start = threading.Barrier(len(PAGES) * 3)

        def get(path: str) -> None:
            start.wait()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
            with lock:
                statuses.append(status)

        threads = [threading.Thread(target=get, args=(path,)) for path in PAGES * 3]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses == [200] * len(statuses) and len(statuses) == len(PAGES) * 3, statuses
