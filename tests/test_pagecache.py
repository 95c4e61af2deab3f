"""The score sheet served from the page cache and gzip: the same page, each phone's own token,
and never a stale figure after a change."""

import gzip
import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.web import pagecache
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields, start_game, totals

GZ = {"Accept-Encoding": "gzip, deflate"}
ROOT = Path(__file__).resolve().parent.parent


def _unzipped(response):
    assert response.headers.get("Content-Encoding") == "gzip"
    return gzip.decompress(response.data).decode()


def test_gzipped_sheet_is_the_plain_sheet_with_the_phones_own_token(app, client):
    game_id = start_game(client)
    post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50, hand=30)
    )
    client.get(f"/games/{game_id}")  # the flash of the saved hand is shown once, uncached
    plain = client.get(f"/games/{game_id}").text
    zipped = client.get(f"/games/{game_id}", headers=GZ)
    assert _unzipped(zipped) == plain
    assert pagecache.MARKER not in plain
    other = app.test_client()
    theirs = _unzipped(other.get(f"/games/{game_id}", headers=GZ))
    mine_token = re.search(r'name="csrf_token" value="([^"]+)"', plain).group(1)
    their_token = re.search(r'name="csrf_token" value="([^"]+)"', theirs).group(1)
    assert mine_token != their_token
    assert re.sub(r'value="[^"]+"', "", theirs) == re.sub(r'value="[^"]+"', "", plain)
    # the token from the cached page works: deleting the hand succeeds
    hand_id = re.search(r"/hands/(\d+)/delete", theirs).group(1)
    assert other.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": their_token}).status_code == 302


def test_every_change_shows_at_once(client):
    game_id = start_game(client, names=["Anna", "Bert", "Carl", "Dora"])
    client.get(f"/games/{game_id}", headers=GZ)
    post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50, hand=30)
    )
    client.get(f"/games/{game_id}")  # flash
    assert totals(_unzipped(client.get(f"/games/{game_id}", headers=GZ))) == [800, 20]
    players = client.get("/players").text
    anna = re.search(r'href="/players/(\d+)">\s*<span class="game-title">Anna<', players).group(1)
    client.post(
        f"/players/{anna}/rename", data={"csrf_token": csrf_token(client, f"/players/{anna}"), "name": "Annemarie"}
    )
    client.get(f"/games/{game_id}")  # flash, if any
    assert "Annemarie" in client.get(f"/games/{game_id}").text


def test_language_and_text_size_are_part_of_the_page(client):
    game_id = start_game(client)
    assert '<html lang="en"' in client.get(f"/games/{game_id}").text
    client.get(f"/prefs?lang=de&next=/games/{game_id}")
    assert '<html lang="de"' in client.get(f"/games/{game_id}").text
    client.get(f"/prefs?large=1&next=/games/{game_id}")
    assert 'class="large"' in client.get(f"/games/{game_id}").text


def test_static_files_and_pages_are_gzipped_when_asked(client):
    css = client.get("/static/style.css", headers=GZ)
    plain_css = client.get("/static/style.css")
    assert gzip.decompress(css.data) == plain_css.data and len(css.data) < len(plain_css.data) / 2
    assert "Accept-Encoding" in css.headers["Vary"]
    home = client.get("/", headers=GZ)
    assert _unzipped(home) == client.get("/").text


OTHER_PROCESS = """
import re, sys
from scorekeeper import create_app
app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": sys.argv[1]})
client = app.test_client()
page = client.get("/players/" + sys.argv[2]).text
token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
answer = client.post("/players/" + sys.argv[2] + "/rename", data={"csrf_token": token, "name": "Annemarie"})
assert answer.status_code == 302, answer.status_code
"""


def test_a_change_made_by_another_process_shows_at_once(app, client):
    """The page cache learns of a change from the archive's change stamp (storage/stamp.py, read by
    storage.db.peek_generation), which every process of the app changes after its commit: a change
    made by another process (here a second app in its own process, as ``flask restore`` would be)
    shows on the next request."""
    game_id = start_game(client, names=["Anna", "Bert", "Carl", "Dora"])
    client.get(f"/games/{game_id}")
    for _ in range(2):  # the second is served from the page cache
        assert "Anna" in client.get(f"/games/{game_id}").text
    players = client.get("/players").text
    anna = re.search(r'href="/players/(\d+)">\s*<span class="game-title">Anna<', players).group(1)
    subprocess.run([sys.executable, "-c", OTHER_PROCESS, app.config["DATABASE"], anna], check=True, cwd=ROOT)
    assert "Annemarie" in client.get(f"/games/{game_id}").text


def test_phones_opening_the_sheet_at_once_after_a_change_render_it_once(app, client, monkeypatch):
    """After a saved hand every phone at the table loads the score sheet again at the same moment: one
    of them renders it, the others wait for that page (PageCache.get_or_render); against the real
    server (waitress, 8 threads, real HTTP), 16 phones opening it at once, each with its own token."""
    import threading
    import time
    import urllib.request

    from scorekeeper.web.games import sheets
    from tests.helpers import served

    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50))
    renders = []
    render = sheets._render_scoreboard

    def slow_render(*args, **kwargs):
        renders.append(threading.get_ident())
        time.sleep(0.2)  # long enough for every phone to ask while it renders
        return render(*args, **kwargs)

    monkeypatch.setattr(sheets, "_render_scoreboard", slow_render)
    pages: list[str] = []
    start = threading.Barrier(16)

    def phone(port: int) -> None:
        start.wait()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{game_id}", timeout=30) as answer:
            pages.append(answer.read().decode())

    with served(app, threads=8) as port:
        phones = [threading.Thread(target=phone, args=(port,)) for _ in range(16)]
        for thread in phones:
            thread.start()
        for thread in phones:
            thread.join()
    assert len(pages) == 16 and len(renders) == 1, (len(pages), len(renders))
    tokens = {re.search(r'name="csrf_token" value="([^"]+)"', page).group(1) for page in pages}
    assert len(tokens) == 16  # each phone its own token in the one page
    assert len({re.sub(r'value="[^"]+"', "", page) for page in pages}) == 1
    assert all("200" in page for page in pages)  # the hand's figures, from the one render


def test_a_rendering_that_fails_leaves_the_others_to_render_their_own():
    """The phone whose rendering fails gets its error; those waiting for it render the page themselves."""
    import threading
    import time

    cache = pagecache.PageCache()
    started, results, errors = threading.Event(), [], []

    def failing() -> str:
        started.set()
        time.sleep(0.1)
        raise RuntimeError("the disk")

    def owner() -> None:
        try:
            cache.get_or_render(("k",), failing)
        except RuntimeError as error:
            errors.append(str(error))

    first = threading.Thread(target=owner)
    first.start()
    started.wait()
    waiters = [
        threading.Thread(target=lambda: results.append(cache.get_or_render(("k",), lambda: "page"))) for _ in range(3)
    ]
    for thread in waiters:
        thread.start()
    for thread in [first, *waiters]:
        thread.join()
    assert errors == ["the disk"]
    assert [entry.body(b"", False) for entry in results] == [b"page"] * 3
