"""The director's grid in Chromium (docs/tournaments.md): the organiser watches every table of every round.

- A club night (tables with a final, 8 players): the grid open on a laptop (1280 px) shows a hand saved
  at a table's phone by itself, without a reload, within a few seconds (measured, printed). The
  organiser, on a phone (390 px), taps table 2's cell: its ordinary score sheet opens, the hand form
  says the hand goes on record as the organiser's, the hand is saved, the grid shows it; a second hand
  entered with the network gone waits on the organiser's phone and is sent with its mark when the
  network is back; the game's change log says "by the organiser (from the grid)" for those two hands
  only (the table's own hand after them stays the phone's).
- A pairs night on time (9 pairs: 4 tables and a bye, 5 rounds) whose round has stopped: tables finished,
  stopped owing their last hand, one without any hand, a pair sitting out, the rounds ahead seated. At 390
  and 320 px, light and dark, the page never scrolls sideways; the grid scrolls inside its own box with
  the tables' column staying in view. Screenshots: tests/browser/screenshots/grid-*.png, and a Mitchell
  of 16 pairs (8 tables, 8 rounds) on a laptop.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.test_tournament_browser import SMALL, _post, _token, context, fill_hand, open_hand, save_hand

pytestmark = pytest.mark.browser

LAPTOP = {"viewport": {"width": 1280, "height": 800}}
FOLLOW_LIMIT = 3.0  # seconds from a save's answer to its totals on the grid (it polls every second)
PAIRS = [
    "Franziska & Maximilian",
    "Anna & Ben",
    "Clara & Dieter",
    "Emma & Frank",
    "Gisela & Heinz",
    "Ingrid & Jürgen",
    "Karin & Lothar",
    "Maria & Norbert",
    "Hannelore & Konstanze",
]

BIG = (
    "Agnes Bruno Carola Detlef Elke Fritz Gudrun Horst Ilse Jens Katrin Lukas Monika Nils Oskar Paula Ralf Sabine "
    "Thomas Uwe Vera Walter Xenia Yvonne Zoran Andrea Bettina Christoph Doris Erwin Georg Irmgard"
).split()  # 32 players: 16 pairs


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive, and its database file (to move a round's start back)."""
    database = tmp_path_factory.mktemp("grid-server") / "scorekeeper.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, name="grid-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}", database
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def night(request, base: str, name: str, fmt: str, entrants: list[str], **more) -> int:
    """A tournament created through its form, drawn, round 1 started; its id."""
    fields = {"name": name, "format": fmt, "rules": "classic", "round_end": "target", "entrants": "\n".join(entrants)}
    location = _post(request, base + "/tournaments/new", base + "/tournaments/new", {**fields, **more})
    tid = int(location.rsplit("/", 1)[1])
    organiser = f"{base}/tournaments/{tid}"
    _post(request, organiser + "/draw", organiser, {})
    _post(request, organiser + "/rounds", organiser, {})
    return tid


def game_of(request, base: str, tid: int, table: int) -> str:
    """A table's game, as its QR code opens it."""
    answer = request.get(f"{base}/tournaments/{tid}/tables/{table}", max_redirects=0)
    assert answer.status == 302, answer.status
    return base + answer.headers["location"]


def queued_hand(request, game: str, melded=(150, 130)) -> None:
    """A hand as a phone's queue sends it: the stock ran out, each side's melded points."""
    sides = [{"melded_points": melded[0]}, {"melded_points": melded[1]}]
    answer = request.post(
        game + "/hands.json",
        data={"client_key": uuid.uuid4().hex, "sides": sides, "stock_out": True},
        headers={"X-CSRFToken": _token(request, game + "/hands/new")},
    )
    assert answer.status == 201, answer.text()


def back_date(database, tid: int, round_minutes: float, games: list[str], hand_minutes: float = 0) -> None:
    """Round 1 started, and these games' hands saved, that many minutes ago."""

    def ago(minutes):
        return (datetime.now(timezone.utc) - timedelta(minutes=minutes)).isoformat(timespec="seconds")

    ids = [int(g.rsplit("/", 1)[1]) for g in games]
    with sqlite3.connect(database) as db:
        db.execute("update tournament_rounds set started_at = ? where tournament_id = ?", [ago(round_minutes), tid])
        db.execute(
            f"update hands set created_at = ? where game_id in ({', '.join('?' * len(ids))})", [ago(hand_minutes), *ids]
        )
    db.close()


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"grid-{name}.png"), full_page=True)


def widths(page) -> dict:
    """The page's width against the window's, and the grid's box: its width, how far its table reaches."""
    return page.evaluate(
        """() => { const box = document.querySelector('.grid-scroll');
          return {page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
                  box: box ? box.clientWidth : 0, grid: box ? box.scrollWidth : 0}; }"""
    )


def totals_at(page, number: int, table: int) -> list[int]:
    """The totals a cell shows (read without touching the page)."""
    return page.evaluate(
        "([r, t]) => Array.from(document.querySelectorAll(`#g-${r}-${t} .g-side b`)).map((b) => Number(b.textContent))",
        [number, table],
    )


def seen_within(page, number: int, table: int, expected: list[int], since: float) -> float:
    """Seconds from ``since`` until the grid shows these totals at the cell (looked at every 50 ms)."""
    while True:
        shown = totals_at(page, number, table)
        elapsed = time.monotonic() - since
        if shown == expected:
            return elapsed
        assert elapsed < FOLLOW_LIMIT, f"the grid shows {shown}, not {expected}, after {elapsed:.2f} s"
        time.sleep(0.05)


# --- 1. following the tables, and the organiser's hand -------------------------------------------------


def test_the_grid_follows_a_save_and_a_hand_from_it_is_the_organisers(chromium, server):
    base, _database = server
    setup = chromium.new_context()
    tid = night(setup.request, base, "Club night", "final", [f"Player{c}" for c in "ABCDEFGH"])
    setup.close()

    laptop_ctx = context(chromium, LAPTOP)
    laptop = laptop_ctx.new_page()
    laptop.goto(f"{base}/tournaments/{tid}")
    laptop.get_by_role("link", name="The director's grid").click()
    laptop.wait_for_url(re.compile(rf"/tournaments/{tid}/grid$"))
    expect(laptop.locator("#g-1-1")).to_contain_text("playing · 0 hands")
    expect(laptop.locator("#g-2-1")).to_contain_text("the tables' winners")
    laptop.evaluate("window.sameDocument = true")  # gone if the page were loaded again

    delays = []
    phone_ctx = context(chromium, PHONE)  # table 1's own phone
    phone = phone_ctx.new_page()
    phone.goto(f"{base}/tournaments/{tid}/tables/1")
    phone.wait_for_url(re.compile(r"/games/\d+$"))
    for number, expected in ((1, [150, 130]), (2, [300, 260])):
        open_hand(phone, number)
        fill_hand(phone, SMALL)
        delays.append(seen_within(laptop, 1, 1, expected, save_hand(phone, number)))
    expect(laptop.locator("#g-1-1")).to_contain_text("playing · 2 hands")

    # the organiser's phone: table 2's phone has died; a tap on its cell opens its game
    organiser_ctx = context(chromium, PHONE)
    organiser = organiser_ctx.new_page()
    organiser.goto(f"{base}/tournaments/{tid}/grid")
    organiser.locator("#g-1-2 a.g-link").tap()
    organiser.wait_for_url(re.compile(r"/games/\d+$"))
    game = organiser.url
    expect(organiser.locator(".tournament-banner").first).to_contain_text("Round 1 · Table 2")
    expect(organiser.locator(".by-organiser")).to_contain_text("goes on record as the organiser's")
    shoot(organiser, "organiser-sheet-390-light")
    open_hand(organiser, 1)
    expect(organiser.locator(".by-organiser")).to_contain_text("this hand goes on record as the organiser's")
    shoot(organiser, "organiser-hand-390-light")
    fill_hand(organiser, SMALL)
    delays.append(seen_within(laptop, 1, 2, [150, 130], save_hand(organiser, 1)))

    # the organiser's Wi-Fi drops for hand 2: the hand waits on the phone with the organiser's mark
    expect(organiser.locator('a[href$="/hands/new"][data-kept="1"]')).to_have_count(1)  # the next form, kept
    organiser_ctx.set_offline(True)
    organiser.get_by_role("link", name="Enter hand 2").tap()
    fill_hand(organiser, SMALL)
    organiser.get_by_role("button", name="Save hand 2").tap()
    expect(organiser.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    assert organiser.evaluate("import('/static/app.js').then((app) => app.queue.items()[0].body.by)") == "organiser"
    organiser_ctx.set_offline(False)
    expect(organiser.locator("#waiting-hands")).to_have_count(0, timeout=15000)
    expect(laptop.locator("#g-1-2")).to_contain_text("2 hands")

    table_two_ctx = context(chromium, PHONE)  # table 2's phone back on: its own hand is its own
    table_two = table_two_ctx.new_page()
    table_two.goto(game)
    open_hand(table_two, 3)
    expect(table_two.locator(".by-organiser")).to_have_count(0)
    fill_hand(table_two, SMALL)
    delays.append(seen_within(laptop, 1, 2, [450, 390], save_hand(table_two, 3)))

    organiser.goto(game)
    organiser.get_by_role("link", name="Changes").tap()
    lines = organiser.locator("ol.changes li")
    expect(lines).to_have_count(4)  # newest first: hands 3, 2 and 1, the game
    for line, number in ((1, 2), (2, 1)):
        expect(lines.nth(line)).to_contain_text(f"hand added · Hand {number}")
        expect(lines.nth(line)).to_contain_text("by the organiser (from the grid)")
    expect(lines.nth(0)).to_contain_text("hand added · Hand 3")
    expect(lines.nth(0)).not_to_contain_text("organiser")
    shoot(organiser, "changes-390-light")

    assert laptop.evaluate("window.sameDocument === true")  # every change came without a reload
    shoot(laptop, "final-1280-light")
    print(f"\ngrid follow delays (s): {', '.join(f'{d:.2f}' for d in delays)}; max {max(delays):.2f}")
    assert max(delays) < FOLLOW_LIMIT
    for ctx in (laptop_ctx, phone_ctx, organiser_ctx, table_two_ctx):
        ctx.close()


# --- 2. a round that has stopped, on a phone and on a laptop ---------------------------------------------


@pytest.fixture(scope="module")
def rooms(chromium, server):
    """A pairs night on time whose round 1 has stopped (table 1 and 2 owe their last hand, table 3 finished
    it, table 4 saved nothing, table 5 is the bye), and a Mitchell of 16 pairs with a hand at every table."""
    base, database = server
    ctx = chromium.new_context()
    try:
        request = ctx.request
        pairs = night(request, base, "Pairs night", "mitchell", PAIRS, round_end="minutes", round_minutes="50")
        games = [game_of(request, base, pairs, n) for n in (1, 2, 3)]
        for game, count in zip(games, (2, 1, 1)):
            for _ in range(count):
                queued_hand(request, game)
        back_date(database, pairs, 60, games, 20)  # the round stopped 10 minutes ago
        queued_hand(request, games[2], (90, 200))  # table 3 saves the hand in progress: its round is over
        names = [f"{BIG[i]} & {BIG[i + 1]}" for i in range(0, 32, 2)]
        big = night(request, base, "Spring pairs", "mitchell", names)
        for n in range(1, 9):
            queued_hand(request, game_of(request, base, big, n), (100 + 10 * n, 120))
        # the same nine pairs in round 3: the grid opens at the current round, beside the tables' column
        third = night(request, base, "Third round", "mitchell", PAIRS)
        for number in (1, 2):
            organiser = f"{base}/tournaments/{third}"
            _post(request, f"{organiser}/rounds/{number}/end", organiser, {"sure": "y"})
            _post(request, f"{organiser}/rounds", organiser, {})
        return {"pairs": pairs, "big": big, "third": third}
    finally:
        ctx.close()


STICKY = """() => { const box = document.querySelector('.grid-scroll');
  box.scrollLeft = box.scrollWidth;
  const no = document.querySelector('tbody th.g-no').getBoundingClientRect();
  const head = document.querySelector('thead th.g-round:last-child').getBoundingClientRect();
  return {scrolled: box.scrollLeft, boxLeft: box.getBoundingClientRect().left, noLeft: no.left,
          headRight: head.right, boxRight: box.getBoundingClientRect().right}; }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_stopped_round_reads_on_a_phone_without_sideways_scrolling(chromium, server, rooms, scheme):
    base, _database = server
    for width in (390, 320):
        ctx = context(chromium, {**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
        page = ctx.new_page()
        page.goto(f"{base}/tournaments/{rooms['pairs']}/grid")
        expect(page.locator("#g-1-1")).to_contain_text("stopped · 2 hands")
        expect(page.locator("#g-1-1")).to_contain_text("⚠ last hand not saved yet")
        expect(page.locator("#g-1-2")).to_contain_text("stopped · 1 hand")
        expect(page.locator("#g-1-3")).to_contain_text("finished · 2 hands")
        expect(page.locator("#g-1-3 .g-flag")).to_have_count(0)
        expect(page.locator("#g-1-4")).to_contain_text("⚠ no hand saved")
        expect(page.locator("#g-1-5")).to_contain_text("sits out")
        expect(page.locator("#g-5-1")).to_contain_text("not started")
        expect(page.locator(".g-missing-list h2")).to_have_text("⚠ 3 results missing")
        size = widths(page)
        print(f"\n{width} px {scheme}: {size}")
        assert size["page"] <= size["window"], f"the page scrolls sideways at {width} px: {size}"
        assert size["grid"] > size["box"]  # five rounds: the grid scrolls inside its box
        shoot(page, f"pairs-{width}-{scheme}")
        sticky = page.evaluate(STICKY)
        assert sticky["scrolled"] > 0 and abs(sticky["noLeft"] - sticky["boxLeft"]) < 2, sticky  # tables' column stays
        assert sticky["headRight"] <= sticky["boxRight"] + 1, sticky  # the last round came into view
        ctx.close()


CURRENT = """() => { const now = document.querySelector('thead th.g-now').getBoundingClientRect();
  const tables = document.querySelector('thead th.g-corner').getBoundingClientRect();
  const box = document.querySelector('.grid-scroll');
  return {nowLeft: now.left, tablesRight: tables.right, scrolled: box.scrollLeft}; }"""


def test_a_later_round_opens_in_view_beside_the_tables_column_on_a_phone(chromium, server, rooms):
    """Round 3 of five: the grid opens scrolled to it, its first letters not under the tables' column, and
    the page itself never scrolls sideways (the cells' hidden labels stay inside the grid's box)."""
    base, _database = server
    for width in (390, 320):
        ctx = context(chromium, {**PHONE, "viewport": {"width": width, "height": 844}})
        page = ctx.new_page()
        page.goto(f"{base}/tournaments/{rooms['third']}/grid")
        expect(page.locator("thead th.g-now")).to_contain_text("3")
        size = widths(page)
        assert size["page"] <= size["window"], f"the page scrolls sideways at {width} px: {size}"
        current = page.evaluate(CURRENT)
        assert current["scrolled"] > 0 and current["nowLeft"] >= current["tablesRight"] - 1, (width, current)
        shoot(page, f"third-round-{width}")
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_laptop_shows_eight_rounds_of_a_big_mitchell(chromium, server, rooms, scheme):
    base, _database = server
    ctx = context(chromium, LAPTOP, color_scheme=scheme)
    page = ctx.new_page()
    page.goto(f"{base}/tournaments/{rooms['big']}/grid")
    expect(page.locator("tbody tr")).to_have_count(8)
    expect(page.locator("thead th.g-round")).to_have_count(8)
    expect(page.locator("#g-1-8")).to_contain_text("playing · 1 hand")
    size = widths(page)
    print(f"\n1280 px {scheme}: {size}")
    assert size["page"] <= size["window"] and size["grid"] <= size["box"]  # all eight rounds in view
    shoot(page, f"mitchell-1280-{scheme}")
    ctx.close()


def test_a_round_whose_time_runs_out_turns_stopped_on_the_grid_by_itself(chromium, server):
    """Nothing is saved when a round's time runs out: the page says when that is (data-refresh-in) and
    its script fetches the grid again then."""
    base, database = server
    setup = chromium.new_context()
    tid = night(setup.request, base, "Timed night", "mitchell", PAIRS[:4], round_end="minutes", round_minutes="50")
    setup.close()
    back_date(database, tid, 50 - 4 / 60, [])  # 4 seconds left
    ctx = context(chromium, PHONE)
    page = ctx.new_page()
    page.goto(f"{base}/tournaments/{tid}/grid")
    expect(page.locator("#g-1-1")).to_contain_text("playing · 0 hands")
    page.evaluate("window.sameDocument = true")
    opened = time.monotonic()
    expect(page.locator("#g-1-1")).to_contain_text("stopped ⚠ no hand saved", timeout=10000)
    expect(page.locator(".g-missing-list h2")).to_have_text("⚠ 2 results missing")
    print(f"\nstopped on the grid {time.monotonic() - opened:.1f} s after the page opened (4 s left)")
    assert page.evaluate("window.sameDocument === true")
    ctx.close()
