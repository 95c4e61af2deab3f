"""Every page in every engine, at 320 and 390 px: nothing scrolls sideways and no word is broken
inside itself (the same measurement as tests/browser/test_phone_widths.py, run in the page); and
screenshots of the scoreboard and the hand form in each engine, light and dark, to look at
(tests/browser/screenshots/engine-*.png).

The pages are found by following the app's own links from the home page over an archive with
evenings, finished and running games of several rule sets and a deleted hand."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlparse

import pytest

from scorekeeper import create_app
from tests.browser.test_phone_widths import MEASURE
from tests.engines.conftest import ENGINES, SCREENSHOTS, launch, need
from tests.helpers import fill_archive, post_hand, served, side_fields, start_game

pytestmark = pytest.mark.browser

SKIP = re.compile(r"^/(static/|prefs|logout|sw\.js|manifest)|\.(csv|json|svg|png|pem|der|crt)$|/export|/download")
MOST = 40  # pages: one of each kind (addresses with the numbers taken out)


def _crawl(client) -> list[str]:
    """One address of each kind of page reachable by links from the home page."""
    seen_kinds, found, queue = set(), [], ["/"]
    while queue and len(found) < MOST:
        path = queue.pop(0)
        kind = re.sub(r"\d+", "N", path)
        if kind in seen_kinds or SKIP.search(urlparse(path).path):
            continue
        seen_kinds.add(kind)
        answer = client.get(path)
        if answer.status_code != 200 or "text/html" not in answer.content_type:
            continue
        found.append(path)
        for href in re.findall(r'href="([^"#]+)"', answer.text):
            target = urlparse(urljoin("http://x" + path, href.replace("&amp;", "&")))
            if target.netloc == "x":
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return found


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The archive, on the production server: (its address, the pages, a running game's number)."""
    folder = tmp_path_factory.mktemp("every-page")
    app = create_app({"TESTING": True, "SECRET_KEY": "pages", "DATABASE": str(folder / "pages.sqlite")})
    client = app.test_client()
    fill_archive(client)
    game = start_game(client, "modern", names=["Elisabeth", "Friedrich", "Konstanze", "Maximilian"])
    # docs/rules.md#modern › Canastas, Red and black threes: nobody out; 260 melded, a red three with
    # a canasta 100, a natural canasta 500; the other side 130 melded less 25 in hand
    answer = post_hand(client, game, side_fields(0, melded=260, red=1, natural=1), side_fields(1, melded=130, hand=25))
    assert answer.status_code == 302, answer.text
    pages = _crawl(client)
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", pages, game


@pytest.mark.parametrize("width", (390, 320))
def test_no_page_scrolls_sideways_or_breaks_a_word(phone, site, width):
    base, pages, _ = site
    assert len(pages) >= 15, pages  # the crawl found the archive's pages
    phone.fresh(base)
    phone.go(base + "/")
    width = phone.size(width)  # WebKit: 334 when asked for 320 (its window's narrowest)
    problems = []
    for path in pages:
        phone.go(base + path)
        found = phone.js(f"return ({MEASURE})()")
        if found["width"] > found["viewport"]:
            problems.append(f"{path}: {found['width']} px wide in {found['viewport']}")
        problems += [f"{path}: {word}" for word in found["broken"]]
    assert not problems, f"{phone.engine} at {width} px:\n" + "\n".join(problems)


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("engine_name", ENGINES)
def test_screenshots_of_the_scoreboard_and_the_hand_form(engines, display, site, engine_name, scheme):
    need(engine_name)
    base, _, game = site
    phone = engines(engine_name) if scheme == "light" else launch(engine_name, display, dark=True)
    try:
        phone.fresh(base)
        phone.go(f"{base}/games/{game}")
        phone.find("p.total")
        dark = phone.js("return matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-scoreboard-390-{scheme}.png")
        phone.go(f"{base}/games/{game}/hands/new")
        phone.settled()
        phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-hand-390-{scheme}.png")
        # counting cards: the cards left in hand end with "7 to 4, black 3s" (docs/quick-entry.md)
        phone.tap("form.hand-form .mode-row label:last-of-type")
        assert "7 to 4, black 3s (5)" in phone.text('[data-row="hand_low"] .pad-label')
        phone.settled()
        phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-hand-counts-390-{scheme}.png")
    finally:
        if scheme == "dark":
            phone.quit()
