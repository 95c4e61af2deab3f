"""The result as a picture in headless Chromium: the Share button hands the PNG to the share sheet
where the browser can share files, and otherwise downloads it (headless Chromium on Linux has no
share sheet: the download is what it gets). The pictures are kept in tests/browser/screenshots/
(result-*.png) with how a phone shows them at 390 px, light and dark."""

from __future__ import annotations

import os
import re
import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.browser.live import SHOTS, browser  # noqa: F401 - the fixture
from tests.helpers import post_hand, start_game, win_hand
from tests.test_result_pictures import _evening
from tests.test_tournaments import act, small_hand, started, table_game

pytestmark = pytest.mark.browser
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A live server with a finished game of an evening and a closed tournament: their pages' addresses."""
    db = tmp_path_factory.mktemp("pictures") / "live.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-test", "DATABASE": str(db)})
    client = app.test_client()
    evening_id = _evening(client, names=("Anna-Lena", "Bartholomäus", "Cleo", "Dirk"))
    game_id = start_game(client, names=["Anna-Lena", "Bartholomäus", "Cleo", "Dirk"])
    post_hand(client, game_id, *win_hand())
    post_hand(client, game_id, *win_hand())
    # the game into the evening: start it from the evening's page
    from tests.conftest import csrf_token  # noqa: PLC0415 - only this fixture needs it

    url = "/games/new/classic"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": "0", "evening": str(evening_id)}
    data.update({f"players-{n}": name for n, name in enumerate(["Anna-Lena", "Bartholomäus", "Cleo", "Dirk"])})
    evening_game = int(client.post(url, data=data).headers["Location"].rsplit("/", 1)[1])
    post_hand(client, evening_game, *win_hand())
    post_hand(client, evening_game, *win_hand())
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="1")
    post_hand(client, table_game(client, tid, 1), *small_hand())
    assert act(client, tid, "/close").status_code == 302
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    yield {
        "game": f"{base}/games/{game_id}",
        "evening": f"{base}/evenings/{evening_id}",
        "tournament": f"{base}/tournaments/{tid}",
    }
    server.shutdown()


def _share(browser, url, tmp_path, can_share_files: bool | None):  # noqa: F811
    """Tap Share on the page; the file downloaded (None: the share sheet was given it)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, accept_downloads=True
    )
    if can_share_files is not None:  # a browser with the Web Share API: can it share these files?
        context.add_init_script(
            "navigator.canShare = (data) => %s; navigator.share = (data) => { window.sharedFiles = data.files; "
            "return Promise.resolve(); };" % ("true" if can_share_files else "false")
        )
    page = context.new_page()
    page.goto(url)
    button = page.get_by_role("link", name="Share the result as a picture")
    if can_share_files:
        button.click()
        for _ in range(100):  # polled: the CSP forbids eval, so no wait_for_function
            if page.evaluate("window.sharedFiles !== undefined"):
                break
            page.wait_for_timeout(100)
        shared = page.evaluate("[window.sharedFiles.length, window.sharedFiles[0].name, window.sharedFiles[0].type]")
        context.close()
        assert shared == [1, "result.png", "image/png"]
        return None
    with page.expect_download() as caught:
        button.click()
    path = tmp_path / "download.png"
    caught.value.save_as(path)
    context.close()
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["game", "evening", "tournament"])
def test_share_falls_back_to_a_download_in_headless_chromium(browser, archive, tmp_path, kind):  # noqa: F811
    data = _share(browser, archive[kind], tmp_path, None)
    assert data[:8] == PNG
    os.makedirs(SHOTS, exist_ok=True)
    with open(os.path.join(SHOTS, f"result-{kind}.png"), "wb") as out:
        out.write(data)


def test_a_browser_that_cannot_share_files_downloads_and_one_that_can_shares(browser, archive, tmp_path):  # noqa: F811
    assert _share(browser, archive["game"], tmp_path, False)[:8] == PNG
    assert _share(browser, archive["game"], tmp_path, True) is None


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_picture_as_a_phone_shows_it(browser, archive, scheme):  # noqa: F811
    """The picture opened on a 390 px phone: it fits the width, whole (kept as screenshots to look at)."""
    for kind, url in archive.items():
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
            color_scheme=scheme,
            device_scale_factor=3,
        )
        page = context.new_page()
        page.goto(url)
        picture = page.get_by_role("link", name="Show the picture").get_attribute("href")
        assert re.fullmatch(r"/(games|evenings|tournaments)/\d+/result\.png", picture)
        origin = "/".join(url.split("/", 3)[:3])
        page.goto(origin + picture)  # the picture itself opens (behind no script)
        assert page.evaluate("document.images[0].naturalWidth") == 1080
        # as a phone's gallery or chat shows it: the screen's width, on a light or a dark page
        paper = {"light": "#ffffff", "dark": "#121212"}[scheme]
        page.close()
        page = context.new_page()  # a blank page: the app's own pages allow no inline style (CSP)
        page.set_content(
            '<meta name="viewport" content="width=device-width">'
            f'<body style="margin:0;background:{paper}"><img src="{origin + picture}" style="width:100%;display:block">'
        )
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.images[0].complete && document.images[0].naturalWidth") == 1080
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=os.path.join(SHOTS, f"result-{kind}-390-{scheme}.png"), full_page=True)
        context.close()
