"""A club night in the browser (docs/tournaments.md), as people do it on one machine:

- the organiser's page (a desktop window) creates "Tables with a final" for 12 players through the form,
  draws the seats and starts round 1; three phones (390 x 844, touch) open their table's link (what its
  QR code holds), land on the table's game seated as the draw says, and enter hands with the ordinary
  hand form; a big screen (1920 x 1080) shows the standings and follows every saved hand by itself,
  within 2 s, without a reload. Table 1 reaches the target (Classic, 5000), the other two finish the
  hand in progress, a further hand is refused on a phone, the phones say where each player goes next,
  the final table is played and the tournament closed: places 1 and 2 on the big screen are the final
  table's pairs.
- the standings of 16 tables (64 players) and of a Mitchell tournament of 24 pairs (12 tables) fit a
  1920 x 1080 screen: no scrolling, every table and every line of the ranking in view and whole, the
  text at least 20 px high (read from three metres).
- screenshots of the standings (big screen, 390 and 320 px, light and dark), the organiser's page and the
  new-tournament form go to tests/browser/screenshots/tournament-*.png; axe-core checks the standings and
  the organiser's page in light and dark.

Classic scores used (docs/rules.md#classic): going out 100 + 4 natural canastas 2000 + 4 red threes 800 +
melded 1100 = 4000 against the other side's melded 50; a hand where the stock ran out: melded points
only (150 against 130, each above the opening minimum 120 of a side at 3000 or more).
"""

from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.core import club_night
from tests.browser.conftest import PHONE, SCREENSHOTS, serve_fresh

pytestmark = pytest.mark.browser

ORGANISER = {"viewport": {"width": 1280, "height": 900}}
BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}}
PLAYERS = "Anna Bernd Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar".split()
WIN = ({"out": True, "natural": 4, "red": 4, "melded": 1100}, {"melded": 50})  # 4000 to 50
LOSE = (WIN[1], WIN[0])  # 50 to 4000
SMALL = ({"melded": 150}, {"melded": 130})  # the stock ran out: 150 to 130
REFRESH_LIMIT = 2.0  # seconds from a save's answer to the new total on the big screen
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # as tests/browser/test_accessibility.py
FIRST = (
    "Anna Ben Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar Maria Norbert Olga Peter Quirin Rosa "
    "Stefan Tanja Ulrich Vera Walter Xenia Yvonne Zoran Agnes Bruno Carola Detlef Elke Fritz Gudrun Horst Ilse Jens "
    "Katrin Lukas Monika Nils Oskar Paula Ralf Sabine Thomas Uwe Valentina Werner Andrea Bettina Christoph Doris "
    "Erwin Franziska Georg Hannelore Irmgard Joachim Konstanze Ludwig Magdalena Nikolaus Ottilie Maximilian"
).split()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive."""
    yield from serve_fresh(tmp_path_factory)


def shoot(page, name: str) -> Path:
    """A full-page screenshot: tests/browser/screenshots/tournament-NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"tournament-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def context(browser, options, **more):
    ctx = browser.new_context(**options, **more)
    ctx.set_default_timeout(10000)
    return ctx


# --- the organiser ---------------------------------------------------------------------------------


def create_by_form(page, base: str, name: str, fmt: str, entrants: list[str], six: str | None = None) -> str:
    """New tournament → its form (Classic rules, a round to the target; ``six``: the rules of a table of
    six) → the organiser's page; its URL."""
    page.goto(base + "/tournaments")
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label(fmt).check()
    page.get_by_label("Players or pairs, one a line").fill("\n".join(entrants))
    page.get_by_label("Rules", exact=True).select_option("classic")
    page.get_by_label("At the target score").check()
    if six:
        page.get_by_label("Rules at a table of six").select_option(six)
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    return page.url


def the_draw(page) -> dict[int, list[str]]:
    """The draw as the organiser's page shows it before round 1 ("1.3 Clara", each seat with "Replace"):
    each table's four names by seat."""
    tables: dict[int, list[str]] = {}
    for line in page.locator(".t-replace .t-seat").all_inner_texts():
        seat, name = line.split(maxsplit=1)
        table, number = (int(x) for x in seat.split("."))
        tables.setdefault(table, []).append(name)
        assert len(tables[table]) == number
    return tables


# --- a phone at a table ----------------------------------------------------------------------------


def open_hand(page, number: int) -> None:
    """Tap "Enter hand N" on the score sheet: the hand form, its script running."""
    page.get_by_role("link", name=f"Enter hand {number}").tap()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)


def fill_hand(page, sides) -> None:
    """Fill the hand form by its fields (as test_four_phones.py does): who went out (or the stock ran
    out), natural canastas, red threes, points melded."""
    form = page.locator("form.hand-form")
    out = next((i for i, s in enumerate(sides) if s.get("out")), None)
    form.locator(f'label[for="out-{"stock" if out is None else out}"]').tap()
    for i, s in enumerate(sides):
        for key, field in (("natural", "natural_canastas"), ("red", "red_threes"), ("melded", "melded_points")):
            if key in s:
                form.locator(f'input[name="sides-{i}-{field}"]').fill(str(s[key]))


def save_hand(page, number: int) -> float:
    """Tap "Save hand N"; the moment (time.monotonic) the server's answer came, once the scoreboard is
    in place with the hand's line."""
    expect(page.locator("form.hand-form[data-ready]:not([data-previewing])")).to_have_count(1)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/hands/new")) as answer:
        page.get_by_role("button", name=f"Save hand {number}").tap()
    answered = time.monotonic()
    assert answer.value.status == 200, answer.value.status
    expect(page.locator(f'.flash .saved-line[data-hand="{number}"]')).to_be_visible()
    return answered


def totals(page) -> list[int]:
    return [int(t.replace("\u2212", "-")) for t in page.locator("p.total").all_inner_texts()]


# --- the big screen --------------------------------------------------------------------------------


def tile(screen, number: int):
    """A table's tile on the standings."""
    return screen.locator(".s-table").filter(has=screen.locator(".s-no", has_text=re.compile(rf"^{number}$")))


def seen_within(screen, number: int, expected: list[int], since: float, limit: float = 3.0) -> float:
    """Seconds from ``since`` until the big screen shows these totals at the table (looked at every 50 ms,
    without touching the page: its own script must bring them)."""
    while True:
        shown = screen.evaluate(
            """(n) => Array.from(document.querySelectorAll('.s-table')).filter(
                 (t) => t.querySelector('.s-no').textContent.trim() === String(n)).map(
                 (t) => Array.from(t.querySelectorAll('.s-side b.num')).map((b) => Number(b.textContent)))[0] || []""",
            number,
        )
        elapsed = time.monotonic() - since
        if shown == expected:
            return elapsed
        assert elapsed < limit, f"table {number}: the big screen shows {shown}, not {expected}, after {elapsed:.2f} s"
        time.sleep(0.05)


def ranking(screen) -> list[tuple[int, str]]:
    """The ranking's lines: (place, names)."""
    places = screen.locator(".s-ranking li .s-place").all_inner_texts()
    names = screen.locator(".s-ranking li .s-name").all_inner_texts()
    return [(int(p), n) for p, n in zip(places, names)]


# --- 1. the club night -----------------------------------------------------------------------------


def test_a_club_night_from_the_form_to_the_final_standings(chromium, server):
    organiser_ctx = context(chromium, ORGANISER)
    organiser = organiser_ctx.new_page()
    # a table of six plays in two teams of three: three winning pairs do not fit it, so the two best
    # meet at a final table of four (docs/tournaments.md, "Tables with a final")
    url = create_by_form(organiser, server, "Club night", "Tables with a final", PLAYERS, six="six-2x3:6-trios")
    tid = int(url.rsplit("/", 1)[1])
    organiser.get_by_role("button", name="Draw the seats").click()
    expect(organiser.locator(".flash")).to_contain_text("The seats are drawn.")
    draw = the_draw(organiser)
    assert sorted(draw) == [1, 2, 3] and sorted(n for seats in draw.values() for n in seats) == sorted(PLAYERS)
    organiser.get_by_role("button", name="Start round 1").click()
    expect(organiser.locator(".flash")).to_contain_text("Round 1 has started.")
    expect(organiser.locator(".t-table")).to_have_count(3)

    screen_ctx = context(chromium, BIG_SCREEN)
    screen = screen_ctx.new_page()
    screen.goto(f"{server}/tournaments/{tid}/standings")
    expect(screen.locator(".s-table")).to_have_count(3)
    screen.evaluate("window.sameDocument = true")  # gone if the page were loaded again

    # three phones, one a table, each opens its table's link (its QR code): the game, seated by the draw
    phones = {}
    for n in (1, 2, 3):
        ctx = context(chromium, PHONE)
        page = ctx.new_page()
        page.goto(f"{server}/tournaments/{tid}/tables/{n}")
        page.wait_for_url(re.compile(r"/games/\d+$"))
        a, b, c, d = draw[n]
        expect(page.locator(".total-card h2")).to_have_text([f"{a} & {c}", f"{b} & {d}"])
        expect(page.locator(".tournament-banner")).to_contain_text(f"Club night · Round 1 · Table {n}")
        expect(page.locator(".dealer")).to_contain_text(f"Next deal: {a}")
        phones[n] = (ctx, page)

    delays = []

    def play(n: int, number: int, sides, expected: list[int], opened: bool = False) -> None:
        page = phones[n][1]
        if not opened:
            open_hand(page, number)
        fill_hand(page, sides)
        answered = save_hand(page, number)
        assert totals(page) == expected
        delays.append(seen_within(screen, n, expected, answered))

    play(1, 1, WIN, [4000, 50])
    play(2, 1, SMALL, [150, 130])
    play(3, 1, LOSE, [50, 4000])
    open_hand(phones[2][1], 2)  # tables 2 and 3 are counting their second hand …
    open_hand(phones[3][1], 2)
    play(1, 2, WIN, [8000, 100])  # … when table 1 reaches the target: the round stops
    expect(screen.locator(".s-clock")).to_contain_text("A table has reached the target")
    expect(tile(screen, 1)).to_have_class(re.compile(r"\bdone\b"))
    expect(phones[1][1].locator(".tournament-banner")).to_contain_text("Round over at this table")
    # the other tables' phones, a hand being typed, learn of the stop without being told their game changed
    phones[2][1].wait_for_timeout(2000)  # more than a poll of the table's version (1.5 s)
    for n in (2, 3):
        expect(phones[n][1].locator("#hand-panel")).not_to_contain_text("Another phone has just changed this game")
    play(2, 2, SMALL, [300, 260], opened=True)  # each finishes the hand in progress
    play(3, 2, SMALL, [200, 4130], opened=True)
    expect(screen.locator(".s-table.done")).to_have_count(3)

    # table 3's sheet offers no further hand; the hand form opened by its address leads back to the
    # sheet with the reason, before anything is typed in vain (a form open before the end is refused
    # on save with what was typed kept: tests/test_tournament_table_phone.py)
    third = phones[3][1]
    expect(third.locator(".tournament-banner")).to_contain_text("Round over at this table")
    expect(third.get_by_role("link", name="Enter hand 3")).to_have_count(0)
    third.goto(re.sub(r"/games/(\d+).*", r"/games/\1/hands/new", third.url))
    expect(third).to_have_url(re.compile(r"/games/\d+$"))
    expect(third.locator("main")).to_contain_text("The round is over at this table: no more hands.")
    expect(third.locator("form.hand-form")).to_have_count(0)

    # where to go next: the two best winning pairs by their lead per hand (table 1's 7900 in 2 hands,
    # table 3's 3930 in 2; table 2's 40 in 2) to the final table
    final_pairs = [[draw[1][0], draw[1][2]], [draw[3][1], draw[3][3]]]
    for n, (_ctx, page) in phones.items():
        page.goto(f"{server}/tournaments/{tid}/tables/{n}")
        expect(page.get_by_role("heading", name="Where to go next")).to_be_visible()
        where = dict(line.split(": ", 1) for line in page.locator(".where-next li").all_inner_texts())
        for name in draw[n]:
            finalist = any(name in pair for pair in final_pairs)
            assert where[name] == ("Table 1" if finalist else "has finished: thank you for playing"), where
    shoot(phones[2][1], "where-next-390")

    # the final table: table 1's winners at seats 1 and 3 (the better qualifier), table 3's at 2 and 4
    organiser.reload()
    organiser.get_by_role("button", name="Start the final table").click()
    expect(organiser.locator(".flash")).to_contain_text("Round 2 has started.")
    expect(screen.locator(".s-round")).to_contain_text("the final table")
    final = phones[1][1]
    final.goto(f"{server}/tournaments/{tid}/tables/1")
    final.wait_for_url(re.compile(r"/games/\d+$"))
    expect(final.locator(".total-card h2")).to_have_text([" & ".join(final_pairs[0]), " & ".join(final_pairs[1])])
    expect(final.locator(".tournament-banner")).to_contain_text("Round 2 · Table 1")
    play(1, 1, WIN, [4000, 50])
    play(1, 2, WIN, [8000, 100])
    expect(final.locator(".tournament-banner")).to_contain_text("Round over at this table")

    organiser.reload()
    organiser.get_by_label("Yes, the results are final: lock the games.").check()
    organiser.get_by_role("button", name="Close the tournament").click()
    expect(organiser.locator(".flash")).to_contain_text("The tournament is closed")
    expect(screen.locator(".s-round")).to_have_text("Final standings")
    places = ranking(screen)  # partners share a place: one line a pair
    assert [p for p, _ in places] == [1, 2, 3, 4, 5, 6]
    assert places[0][1].split(" & ") == final_pairs[0] and places[1][1].split(" & ") == final_pairs[1]
    assert sorted(n for _, line in places for n in line.split(" & ")) == sorted(PLAYERS)
    shoot(screen, "final-1920")

    # a result found wrong after the close: reopened (the box ticked), the standings are no longer final;
    # closed again, they are
    organiser.get_by_text("Found a wrong result?").click()
    shoot(organiser, "organiser-closed")
    organiser.get_by_role("button", name="Reopen the tournament").click()
    expect(organiser.locator(".flash")).to_contain_text("Tick the box to reopen the tournament.")
    organiser.get_by_text("Found a wrong result?").click()
    organiser.get_by_label("Yes, reopen it to correct a result.").check()
    organiser.get_by_role("button", name="Reopen the tournament").click()
    expect(organiser.locator(".flash")).to_contain_text("The tournament is open again")
    expect(screen.locator(".s-round")).not_to_have_text("Final standings")
    organiser.get_by_label("Yes, the results are final: lock the games.").check()
    organiser.get_by_role("button", name="Close the tournament").click()
    expect(organiser.locator(".flash")).to_contain_text("The tournament is closed")
    expect(screen.locator(".s-round")).to_have_text("Final standings")
    assert ranking(screen) == places
    assert screen.evaluate("window.sameDocument === true")  # every change came without a reload

    print(f"\nstandings refresh delays (s): {', '.join(f'{d:.2f}' for d in delays)}; max {max(delays):.2f}")
    assert len(delays) == 8 and max(delays) < REFRESH_LIMIT, delays
    for ctx in [organiser_ctx, screen_ctx] + [c for c, _ in phones.values()]:
        ctx.close()


# --- 2. a full room on the big screen --------------------------------------------------------------


def _token(request, url: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', request.get(url).text())
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def _post(request, url: str, page_url: str, data: dict) -> str:
    """Post a form as a browser does (the token of the page it is on); where the answer leads."""
    response = request.post(
        url, form={"csrf_token": _token(request, page_url), **data}, max_redirects=0, fail_on_status_code=False
    )
    assert response.status == 302, f"{url}: {response.status} {response.text()[:300]}"
    return response.headers["location"]


def room(request, base: str, name: str, fmt: str, entrants: list[str], three_sides=(), **more) -> int:
    """A tournament created through its form, drawn, round 1 started, and a hand or two at every table
    (sent as a phone's queue sends them; at the tables ``three_sides``, a third side melded 100); its id."""
    fields = {"name": name, "format": fmt, "rules": "classic", "round_end": "target", "entrants": "\n".join(entrants)}
    location = _post(request, base + "/tournaments/new", base + "/tournaments/new", {**fields, **more})
    tid = int(location.rsplit("/", 1)[1])
    organiser = f"{base}/tournaments/{tid}"
    _post(request, organiser + "/draw", organiser, {})
    _post(request, organiser + "/rounds", organiser, {})
    tables = (len(entrants) + 1) // 2 if fmt == "mitchell" else len(club_night.table_sizes(len(entrants)))
    for n in range(1, tables + 1):
        response = request.get(f"{organiser}/tables/{n}", max_redirects=0, fail_on_status_code=False)
        if response.status != 302:  # a Mitchell table whose North–South place is empty
            continue
        game = base + response.headers["location"]
        # side 0 went out with 1 to 3 natural canastas (500 each) and melded 300 + 10n; side 1 a mixed
        # canasta (300) on odd tables and melded 120 + 5n; every fourth table a second hand the other way
        hands = [
            [
                {"went_out": "normal", "natural_canastas": 1 + n % 3, "melded_points": 300 + 10 * n},
                {"mixed_canastas": n % 2, "melded_points": 120 + 5 * n},
            ]
        ]
        if n % 4 == 0:
            hands.append([{"melded_points": 90}, {"went_out": "normal", "natural_canastas": 2, "melded_points": 455}])
        if n in three_sides:
            hands = [sides + [{"melded_points": 100}] for sides in hands]
        for sides in hands:
            answer = request.post(
                game + "/hands.json",
                data={"client_key": uuid.uuid4().hex, "sides": sides, "stock_out": False},
                headers={"X-CSRFToken": _token(request, game + "/hands/new")},
                fail_on_status_code=False,
            )
            assert answer.status == 201, answer.text()
    return tid


ODD_PAIRS = [
    "Gertrude Schwarzenberger & Hildegard Oberhuber-Kainz",
    "Maximilian Pichler & Nora Steiner",
    "Quirin Fuchs & Rosa Brunner",
    "Anna Berger & Ben Huber",
    "Eva Hofmann & Franz Leitner",
]


@pytest.fixture(scope="module")
def rooms(chromium, server):
    """A tournament of 16 tables (64 players, tables with a final), a Mitchell one of 24 pairs (12 tables)
    and one of players changing partners whose round runs on a clock (3 tables)."""
    ctx = chromium.new_context()
    try:
        request = ctx.request
        big = room(request, server, "Spring open 2026", "final", FIRST[:64])
        # 16 tables of mixed sizes: fourteen of four, one of five (a pair against three), one of six (three pairs)
        mixed = room(
            request,
            server,
            "Autumn open 2026",
            "final",
            FIRST + ["Rainer", "Sieglinde", "Theodor"],
            three_sides=(16,),
            rules_5="austrian:5",
            rules_6="six-3x2:6-pairs",
        )
        pairs = [f"{FIRST[i]} & {FIRST[i + 1]}" for i in range(0, 48, 2)]
        mitchell = room(request, server, "Pairs night", "mitchell", pairs)
        timed = room(request, server, "Thursday club", "rotation", FIRST[:12], round_end="minutes", round_minutes="90")
        # one table, one hand a round: over after its hand, then closed
        small = room(request, server, "Small night", "final", FIRST[:4], round_end="hands", round_hands="1")
        _post(request, f"{server}/tournaments/{small}/close", f"{server}/tournaments/{small}", {"sure": "y"})
        # five pairs between tables, long names: one sits out a round, and once closed a line reads
        # "0 MP · 390 · 1 bye (average) · 6 season points"
        odd = room(request, server, "Pairs with a bye", "mitchell", ODD_PAIRS, round_end="hands", round_hands="1")
        _post(request, f"{server}/tournaments/{odd}/close", f"{server}/tournaments/{odd}", {"sure": "y"})
        # tables, ranking lines
        return {
            "16 tables": (big, 16, 32),
            "mitchell 12 tables": (mitchell, 12, 24),
            "timed rotation": (timed, 3, 12),
            "16 tables mixed": (mixed, 16, 33),
            "closed": (small, 1, 2),
            "closed with a bye": (odd, 3, 5),  # two tables and the pair that sits out
        }
    finally:
        ctx.close()


# Whether everything on the standings is in view on one screen: the page does not scroll, each table's
# tile and each ranking line lies inside the window and inside its own section (nothing clipped by the
# section's box), no name is cut off (ellipsis), and the smallest font size of what is read from afar.
FITS = r"""
() => {
  const root = document.documentElement;
  const W = window.innerWidth, H = window.innerHeight;
  const outside = [];
  const inside = (el, box) => {
    const r = el.getBoundingClientRect();
    const b = box ? box.getBoundingClientRect() : {left: 0, top: 0, right: W, bottom: H};
    return r.width > 0 && r.height > 0 && r.left >= Math.max(0, b.left) - 0.5 && r.top >= Math.max(0, b.top) - 0.5
      && r.right <= Math.min(W, b.right) + 0.5 && r.bottom <= Math.min(H, b.bottom) + 0.5;
  };
  const tiles = Array.from(document.querySelectorAll(".s-table"));
  const lines = Array.from(document.querySelectorAll(".s-ranking li"));
  const text = (el) => el.textContent.trim().replace(/\s+/g, " ").slice(0, 40);
  tiles.concat(lines).forEach((el) => { if (!inside(el, el.closest("section"))) outside.push(text(el)); });
  const cut = Array.from(document.querySelectorAll(".s-names, .s-name, .s-head h1"))
    .filter((el) => el.scrollWidth > el.clientWidth + 1).map(text);
  const all = (sel) => Array.from(document.querySelectorAll(sel));
  const px = (sel) => Math.min(...all(sel).map((el) => parseFloat(getComputedStyle(el).fontSize)));
  return {
    scroll: [root.scrollWidth, root.scrollHeight, W, H], tiles: tiles.length, lines: lines.length, outside, cut,
    fonts: {
      body: parseFloat(getComputedStyle(document.body).fontSize), number: px(".s-no"), names: px(".s-names"),
      totals: px(".s-side b"), ranking: px(".s-name"), place: px(".s-place"), figures: px(".s-fig"),
      hands: px(".s-state"), title: px(".s-head h1"), round: px(".s-round"),
    },
  };
}
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "which", ["16 tables", "16 tables mixed", "mitchell 12 tables", "timed rotation", "closed with a bye"]
)
def test_a_full_room_fits_the_big_screen_read_from_three_metres(chromium, server, rooms, which, scheme):
    tid, tables, lines = rooms[which]
    ctx = context(chromium, BIG_SCREEN, color_scheme=scheme)
    page = ctx.new_page()
    page.goto(f"{server}/tournaments/{tid}/standings")
    fit = page.evaluate(FITS)
    shoot(page, f"standings-{which.replace(' ', '-')}-1920-{scheme}")
    print(f"\n{which}, {scheme}: font sizes (px) {fit['fonts']}")
    width, height, inner_w, inner_h = fit["scroll"]
    assert width <= inner_w and height <= inner_h, f"{which}: the page scrolls ({width} x {height})"
    assert (fit["tiles"], fit["lines"]) == (tables, lines)
    assert fit["outside"] == [], f"{which}: out of view: {fit['outside']}"
    assert fit["cut"] == [], f"{which}: cut off: {fit['cut']}"
    small = {k: v for k, v in fit["fonts"].items() if v < 20}
    assert small == {}, f"{which}: smaller than 20 px: {small}"
    ctx.close()


def test_the_longest_pair_at_a_two_digit_table_is_not_cut_on_the_big_screen(chromium, server, rooms):
    """The draw decides who sits where: the longest pair of names at table 11 with a four-digit total
    (the widest number and total of a tile) takes two lines of its tile, nothing cut and all in view."""
    tid, tables, lines = rooms["16 tables"]
    ctx = context(chromium, BIG_SCREEN)
    page = ctx.new_page()
    page.goto(f"{server}/tournaments/{tid}/standings")
    page.evaluate(
        """() => {
        const tiles = Array.from(document.querySelectorAll(".s-table"));
        const tile = tiles.find((t) => t.querySelector(".s-no").textContent.trim() === "11");
        tile.querySelector(".s-names").textContent = "Maximilian & Magdalena";
        tile.querySelector(".s-side b").textContent = "2010";
        window.dispatchEvent(new Event("resize"));  // the page fits itself again, as after a fresh page
      }"""
    )
    fit = page.evaluate(FITS)
    shoot(page, "standings-16-tables-longest-pair-1920")
    width, height, inner_w, inner_h = fit["scroll"]
    assert width <= inner_w and height <= inner_h, f"the page scrolls ({width} x {height})"
    assert (fit["tiles"], fit["lines"]) == (tables, lines)
    assert fit["outside"] == [] and fit["cut"] == [], fit
    assert min(fit["fonts"].values()) >= 20, fit["fonts"]
    ctx.close()


# --- 3. what it looks like -------------------------------------------------------------------------


# a ranking line's names narrower than 7em (their figures took the line): each name is given a line of its
# own width before its figures, which then go below it
SQUEEZED = """() => [...document.querySelectorAll('.s-ranking li, .t-ranking li')].map((li) => {
  const name = li.querySelector('.s-name, .t-name');
  const em = parseFloat(getComputedStyle(name).fontSize);
  return name.getBoundingClientRect().width < 7 * em ? name.textContent.trim() : null;
}).filter(Boolean)"""


def _phone_fits(page, what: str) -> None:
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{what}: scrolls sideways ({width} > {client} px)"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_at_every_size(chromium, server, rooms, scheme):
    """tests/browser/screenshots/tournament-*.png: the standings on phones (on a big screen: the test
    above), the organiser's page on a phone, the new-tournament form on the narrowest phone; no page
    scrolls sideways."""
    mitchell, timed = rooms["mitchell 12 tables"][0], rooms["timed rotation"][0]
    for width in (390, 320):
        ctx = context(chromium, {**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
        page = ctx.new_page()
        for tid, name in ((mitchell, "mitchell"), (timed, "timed-rotation"), (rooms["closed with a bye"][0], "bye")):
            page.goto(f"{server}/tournaments/{tid}/standings")
            _phone_fits(page, f"standings {name} at {width} px")
            squeezed = page.evaluate(SQUEEZED)
            assert not squeezed, f"standings {name} at {width} px: names squeezed by their figures: {squeezed}"
            shoot(page, f"standings-{name}-{width}-{scheme}")
        page.goto(f"{server}/tournaments/{rooms['closed with a bye'][0]}")
        assert not page.evaluate(SQUEEZED), f"organiser's page with a bye at {width} px: {page.evaluate(SQUEEZED)}"
        page.goto(f"{server}/tournaments/{mitchell}")
        _phone_fits(page, f"organiser's page at {width} px")
        if width == 390:
            shoot(page, f"organiser-{width}-{scheme}")
        page.goto(f"{server}/tournaments/{rooms['closed'][0]}")
        page.get_by_text("Found a wrong result?").click()
        expect(page.get_by_role("button", name="Reopen the tournament")).to_be_visible()
        _phone_fits(page, f"a closed tournament's page at {width} px")
        shoot(page, f"organiser-closed-{width}-{scheme}")
        page.get_by_role("link", name="Score sheet").click()  # its table's game: read-only, and says so
        expect(page.locator(".tournament-banner")).to_contain_text("The tournament is closed")
        expect(page.get_by_text("Edit hand")).to_have_count(0)
        _phone_fits(page, f"a closed tournament's game at {width} px")
        shoot(page, f"closed-sheet-{width}-{scheme}")
        page.goto(f"{server}/tournaments/season")  # the closed rooms' season points, by player
        expect(page.locator("table.season tbody tr").first).to_be_visible()
        _phone_fits(page, f"the season at {width} px")
        box = "(b => [b.scrollWidth, b.clientWidth])(document.querySelector('table.season').parentElement)"
        inner, shown = page.evaluate(box)  # no column hidden beyond the table's own box either
        assert inner <= shown, f"the season at {width} px: its table runs {inner - shown} px out of its box"
        said = re.compile(r"\d+ tournaments? · \d+ wins?")  # the counts said under the name
        expect(page.locator("table.season tbody tr").first).to_contain_text(said)
        shoot(page, f"season-{width}-{scheme}")
        page.goto(f"{server}/tournaments/new")
        _phone_fits(page, f"new tournament at {width} px")
        if width == 320:
            shoot(page, f"new-{width}-{scheme}")
        ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_standings_and_the_organisers_page_pass_axe(chromium, server, rooms, scheme):
    """axe-core (tests/browser/test_accessibility.py): WCAG 2 A and AA, contrast included."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("axe-core is missing: scripts/setup.sh test installs it with npm")
        pytest.skip("axe-core is not installed (bash scripts/setup.sh test)")
    source = AXE.read_text()
    big, timed, closed = rooms["16 tables"][0], rooms["timed rotation"][0], rooms["closed"][0]
    failures = {}
    for options, size in ((BIG_SCREEN, "1920"), (PHONE, "390")):
        ctx = context(chromium, options, color_scheme=scheme, bypass_csp=True)
        page = ctx.new_page()
        pages = (
            f"/tournaments/{big}/standings",
            f"/tournaments/{timed}/standings",
            f"/tournaments/{big}",
            f"/tournaments/{closed}",
        )
        for url in pages + ("/tournaments/new",):
            page.goto(server + url)
            page.evaluate(source)
            result = page.evaluate(f"() => axe.run(document, {{runOnly: {{type: 'tag', values: {WCAG}}}}})")
            for v in result["violations"]:
                failures.setdefault(f"{url} at {size}", []).append(
                    (v["id"], [n["target"] for n in v["nodes"]][:3], v["nodes"][0].get("failureSummary", "")[:200])
                )
        ctx.close()
    assert failures == {}


@pytest.mark.parametrize("width", [320, 390])
def test_a_tournament_named_by_one_long_word_fits_the_phone(chromium, server, width):
    """A German club's name of one word, 42 letters: the tournaments list, the organiser's page and the
    standings break it where they must instead of scrolling sideways (a club night's review found
    the list 438 px and the standings 630 px wide at 320)."""
    name = "Vereinsmeisterschaftsqualifikationsturnier"
    ctx = context(chromium, {**PHONE, "viewport": {"width": width, "height": 740}})
    page = ctx.new_page()
    fields = {"name": name, "format": "final", "rules": "classic", "round_end": "target"}
    fields["entrants"] = "\n".join(["Anna", "Bert", "Carl", "Dora"])
    tid = int(_post(page.request, server + "/tournaments/new", server + "/tournaments/new", fields).rsplit("/", 1)[1])
    for path in ("/tournaments", f"/tournaments/{tid}", f"/tournaments/{tid}/standings"):
        page.goto(server + path)
        assert name in page.content()
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, (path, wide)
    ctx.close()
