"""A club night (docs/tournaments.md) in every engine a phone or a big screen runs (Chromium, WebKit,
Firefox), through Selenium as the other engine tests (tests/engines/conftest.py), against the real
server (waitress, CSRF on):

- a table's phone (390 px) opens its table's link (what the QR code holds), lands on the game seated
  as the draw says, enters the round's one hand with the ordinary hand form, is refused a second hand
  (what was typed stays), and the link then says the round is over and it was the last;
- the standings (a desktop window; WebKit's full-screen MiniBrowser too) follow a hand saved by
  another phone within 2 s without a reload, and a timed round's clock counts down and warns 10
  minutes before its end;
- screenshots of the standings at 390 and 320 px, light and dark, to look at
  (tests/browser/screenshots/engine-<engine>-tournament-standings-<width>-<scheme>.png); nothing
  scrolls sideways and no word is broken.

The tournaments are made through the service layer (as tests/test_tournaments.py does); the other
phone's hands are posted over HTTP as the hand form posts them (tests/helpers.py side_fields).
Classic scores (docs/rules.md#classic): the stock ran out, melded points only, each above the opening
minimum (150 against 130)."""

from __future__ import annotations

import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper import create_app
from scorekeeper.services import tournament_state
from scorekeeper.services import tournaments as service
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import tournament_records
from scorekeeper.web.tournament_forms import rule_choices
from tests.browser.test_phone_widths import MEASURE
from tests.engines.conftest import ENGINES, SCREENSHOTS, launch, need
from tests.engines.test_table_flows import enter_hand, save, totals
from tests.helpers import as_the_form_posts, served, side_fields

pytestmark = pytest.mark.browser

REFRESH_LIMIT = 2.0  # seconds from the other phone's save to its totals on the standings
DESKTOP = (1280, 800)  # the standings' window where the engine allows it (WebKit: the X screen's 1280 x 1024)
ROOM = ["Maximilian & Konstanze", "Hannelore & Bartholomäus", "Friedrich & Magdalena"]
ROOM += ["Ann & Bob", "Wolfgang & Gisela", "Cid & Dee"]  # six pairs: three tables, one on a long name


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on the production server: (its address, the app)."""
    folder = tmp_path_factory.mktemp("tournament-engines")
    app = create_app({"TESTING": True, "SECRET_KEY": "t-engines", "DATABASE": str(folder / "t.sqlite")})
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", app


def tournament(app, pairs: list[str], **round_end) -> int:
    """A Mitchell tournament of these pairs (Classic rules) created, drawn and its round 1 started,
    through the service layer; its id."""
    layout = next(layout for value, _name, layout in rule_choices([]) if value == "classic")
    with app.app_context():
        db = dbmod.get_db()
        entrants = [tuple(name.strip() for name in pair.split("&")) for pair in pairs]
        made = service.create(
            db, name="Club night", fmt="mitchell", variant="classic", layout=layout, entrants=entrants, **round_end
        )
        assert made.id, made
        assert service.draw(db, made.id).id and service.start_round(db, made.id).id == 1
        return made.id


def seated(app, tid: int, table: int) -> tuple[int, list[str]]:
    """Table ``table``'s game of round 1 and its sides as the scoreboard heads them: the seats the draw
    gives, 1 and 3 (North–South) against 2 and 4 (East–West)."""
    with app.app_context():
        db = dbmod.get_db()
        state = tournament_state.rounds(db, tournament_records.get(db, tid))[0].table(table)
        seats = state.seats
        return state.game_id, [f"{seats[0]} & {seats[2]}", f"{seats[1]} & {seats[3]}"]


def started_minutes_ago(app, tid: int, minutes: int) -> None:
    """Move the round's start back (as tests/test_tournaments.py does)."""
    moment = (datetime.now(timezone.utc) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
    with app.app_context():
        db = dbmod.get_db()
        with db.conn:
            db.execute("update tournament_rounds set started_at = ? where tournament_id = ?", [moment, tid])


def post_over_http(base: str, game: int, melded: tuple[int, int]) -> None:
    """Another phone saves a hand (the stock ran out) through the hand form's POST, its own cookies
    and CSRF token; redirected to the scoreboard when saved."""
    jar = http.cookiejar.CookieJar()

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), Stay)
    url = f"{base}/games/{game}/hands/new"
    with opener.open(url, timeout=20) as answer:
        page = answer.read().decode()
    fields = {"csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)}
    for name in ("based_on", "client_key"):
        found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
        if found:
            fields[name] = found.group(1)
    fields.update(as_the_form_posts({**side_fields(0, melded=melded[0]), **side_fields(1, melded=melded[1])}, {}))
    try:
        opener.open(url, data=urllib.parse.urlencode(fields).encode(), timeout=20)
        raise AssertionError("the hand was not saved (no redirect)")
    except urllib.error.HTTPError as answer:
        assert answer.code == 302, f"{answer.code}: {answer.read().decode()[:300]}"


def shown_totals(phone, table: int) -> list[str]:
    """A table's totals on the standings, read at one moment."""
    return phone.js(
        """return Array.from(document.querySelectorAll('.s-table')).filter(
             (t) => t.querySelector('.s-no').textContent.trim() === String(arguments[0])).map(
             (t) => Array.from(t.querySelectorAll('.s-side b.num')).map((b) => b.textContent.trim()))[0] || []""",
        table,
    )


# --- 1. a table's phone ----------------------------------------------------------------------------


def test_a_tables_phone_plays_its_round_and_is_refused_a_hand_after_it(phone, server):
    base, app = server
    tid = tournament(app, ["Ann & Bob", "Cid & Dee"])  # the round ends at the target, or by the organiser
    game, sides = seated(app, tid, 1)
    phone.fresh(base)
    phone.go(f"{base}/tournaments/{tid}/tables/1")  # the table's QR code
    phone.until(lambda: phone.url.endswith(f"/games/{game}"), "the table's game")
    assert phone.texts(".total-card h2") == sides
    assert "Club night · Round 1 · Table 1" in phone.text(".tournament-banner")
    # a hand by the ordinary hand form: the stock ran out, 150 against 130
    enter_hand(phone, 1)
    phone.tap('form.hand-form label[for="out-stock"]')
    phone.type('input[name="sides-0-melded_points"]', "150")
    phone.type('input[name="sides-1-melded_points"]', "130")
    save(phone, 1)
    assert totals(phone) == ["150", "130"]
    # the next hand is being typed when the organiser ends the round: saving it is refused, what was
    # typed stays on the form
    enter_hand(phone, 2)
    phone.tap('form.hand-form label[for="out-stock"]')
    phone.type('input[name="sides-0-melded_points"]', "120")
    phone.type('input[name="sides-1-melded_points"]', "125")
    with app.app_context():
        assert service.end_round(dbmod.get_db(), tid, 1).id == 1
    phone.settled()
    phone.tap_text("button", "Save hand 2")
    refusal = "The round is over at this table: no more hands."
    phone.until(lambda: refusal in phone.text("#hand-panel"), "the refusal")
    assert phone.value('input[name="sides-0-melded_points"]') == "120"
    assert phone.value('input[name="sides-1-melded_points"]') == "125"
    assert phone.all('input[name="out"][value="stock"]:checked')
    # the score sheet says so and offers no next hand
    phone.go(f"{base}/games/{game}")
    phone.until(lambda: "Round over at this table" in phone.text(".tournament-banner"), "the round over")
    assert "Enter hand 2" not in phone.text("main")
    # the table's link says the round is over, and that it was the last (2 pairs: one round)
    phone.go(f"{base}/tournaments/{tid}/tables/1")
    shown = phone.text("main")
    assert "Round 1 is over at this table" in shown and "That was the last round" in shown, shown


# --- 2. the standings ------------------------------------------------------------------------------


def test_the_standings_follow_another_phone_and_count_down_the_round(phone, server):
    base, app = server
    tid = tournament(app, ["Ann & Bob", "Cid & Dee"], round_end="minutes", round_minutes=50)
    game, _sides = seated(app, tid, 1)
    phone.fresh(base)
    phone.go(f"{base}/tournaments/{tid}/standings")
    width = phone.size(*DESKTOP)
    assert width == DESKTOP[0]
    phone.find(".s-table")
    assert shown_totals(phone, 1) == ["0", "0"]
    phone.js("window.sameDocument = true")  # gone if the page were loaded again

    # another phone saves a hand: the standings show it within 2 s, by themselves
    post_over_http(base, game, (150, 130))
    saved = time.monotonic()
    while shown_totals(phone, 1) != ["150", "130"]:
        elapsed = time.monotonic() - saved
        assert elapsed < REFRESH_LIMIT, f"{phone.engine}: {shown_totals(phone, 1)} after {elapsed:.2f} s"
        time.sleep(0.05)
    delay = time.monotonic() - saved
    assert "1 hand" in phone.text(".s-table .s-state")
    assert phone.js("return window.sameDocument === true"), "the page was loaded again"
    print(f"\n{phone.engine}: the standings showed the hand {delay:.2f} s after it was saved")

    # the round's clock counts down: 50 minutes, just started
    first = phone.text(".s-clock .s-time")
    time.sleep(1.5)
    second = phone.text(".s-clock .s-time")
    assert re.fullmatch(r"(49:[0-5]\d|50:00)", first) and second != first, (first, second)
    assert phone.text(".s-clock-note") == ""

    # 45 minutes later: 5 minutes left, the warning shown
    started_minutes_ago(app, tid, 45)
    phone.driver.refresh()
    phone.until(lambda: phone.all(".s-clock.warn"), "the clock's warning")
    assert "10 minutes left" in phone.text(".s-clock")
    assert re.fullmatch(r"[45]:[0-5]\d", phone.text(".s-clock .s-time")), phone.text(".s-clock .s-time")


# --- 3. what it looks like -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def room(server):
    """Six pairs at three tables, a round of 50 minutes started 45 minutes ago (the clock warns), a
    hand at two tables: the standings' address."""
    base, app = server
    tid = tournament(app, ROOM, round_end="minutes", round_minutes=50)
    for table, melded in ((1, (150, 130)), (2, (125, 160))):
        post_over_http(base, seated(app, tid, table)[0], melded)
    started_minutes_ago(app, tid, 45)
    return f"{base}/tournaments/{tid}/standings"


@contextmanager
def phone_in(engines, display, engine_name: str, scheme: str):
    """A phone of the engine in the colour scheme (dark: a browser of its own, quit after; light: the
    shared one, set back to 390 px after)."""
    need(engine_name)
    phone = engines(engine_name) if scheme == "light" else launch(engine_name, display, dark=True)
    try:
        yield phone
    finally:
        if scheme == "dark":
            phone.quit()
        else:
            phone.size(390)


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("engine_name", ENGINES)
def test_screenshots_of_the_standings_on_a_phone(engines, display, server, room, engine_name, scheme):
    with phone_in(engines, display, engine_name, scheme) as phone:
        phone.fresh(server[0])
        phone.go(room)
        phone.find(".s-clock.warn")
        assert phone.js("return matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        problems = []
        for asked in (390, 320):
            width = phone.size(asked)  # WebKit: 334 for 320 (its window's narrowest)
            found = phone.js(f"return ({MEASURE})()")
            if found["width"] > found["viewport"]:
                problems.append(f"{width} px: {found['width']} px wide")
            problems += [f"{width} px: {word}" for word in found["broken"]]
            clock = phone.js(
                "const r = document.querySelector('.s-clock').getBoundingClientRect();"
                "return [r.left, r.right, parseFloat(getComputedStyle(document.querySelector('.s-time')).fontSize)]"
            )
            if clock[0] < 0 or clock[1] > width + 0.5 or clock[2] < 20:
                problems.append(f"{width} px: the clock at {clock[:2]}, {clock[2]} px high")
            phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-tournament-standings-{asked}-{scheme}.png")
        assert not problems, f"{engine_name}, {scheme}:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def closed_room(server):
    """Two pairs, one hand a round, its hand saved and the tournament closed: the organiser's page and
    the table's score sheet."""
    base, app = server
    tid = tournament(app, ["Maximilian & Konstanze", "Hannelore & Bartholomäus"], round_end="hands", round_hands=1)
    game = seated(app, tid, 1)[0]
    post_over_http(base, game, (150, 130))
    with app.app_context():
        assert service.close(dbmod.get_db(), tid).id == tid
    return f"{base}/tournaments/{tid}", f"{base}/games/{game}"


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("engine_name", ENGINES)
def test_screenshots_of_a_closed_tournament_on_a_phone(engines, display, server, closed_room, engine_name, scheme):
    """The organiser's page of a closed tournament (its "Found a wrong result?" fold) and a table's
    score sheet, read-only and saying so: nothing scrolls sideways, no word is broken."""
    organiser, sheet = closed_room
    with phone_in(engines, display, engine_name, scheme) as phone:
        phone.fresh(server[0])
        problems = []
        for url, name, mark in (
            (organiser, "closed", "details.t-reopen"),
            (sheet, "closed-sheet", ".tournament-banner"),
        ):
            phone.go(url)
            assert "closed" in phone.find(mark).text.lower() or name == "closed"
            assert not phone.all(".hand-actions"), "a closed tournament's sheet offers a change"
            for asked in (390, 320):
                width = phone.size(asked)
                found = phone.js(f"return ({MEASURE})()")
                if found["width"] > found["viewport"]:
                    problems.append(f"{name} at {width} px: {found['width']} px wide")
                problems += [f"{name} at {width} px: {word}" for word in found["broken"]]
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-tournament-{name}-{asked}-{scheme}.png")
        assert not problems, f"{engine_name}, {scheme}:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def director_pages(server, room):
    """The director's grid of the room (a round of 50 minutes, two tables with a hand), its guide cards
    and its score cards: their addresses."""
    tournament_page = room.rsplit("/", 1)[0]
    return {
        "grid": (f"{tournament_page}/grid", ".g-cell"),
        "guide-cards": (f"{tournament_page}/guide-cards", ".guide-card"),
        "score-cards": (f"{tournament_page}/score-cards/1", ".score-card"),
    }


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("engine_name", ENGINES)
def test_screenshots_of_the_directors_pages_on_a_phone(engines, display, server, director_pages, engine_name, scheme):
    """The director's grid and the paper pages (guide cards, score cards) at 390 and 320 px, light and
    dark: nothing scrolls sideways (the grid scrolls inside its own box), no word is broken."""
    with phone_in(engines, display, engine_name, scheme) as phone:
        phone.fresh(server[0])
        problems = []
        for name, (url, mark) in director_pages.items():
            phone.go(url)
            phone.find(mark)
            for asked in (390, 320):
                width = phone.size(asked)
                found = phone.js(f"return ({MEASURE})()")
                if found["width"] > found["viewport"]:
                    problems.append(f"{name} at {width} px: {found['width']} px wide")
                problems += [f"{name} at {width} px: {word}" for word in found["broken"]]
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-tournament-{name}-{asked}-{scheme}.png")
        assert not problems, f"{engine_name}, {scheme}:\n" + "\n".join(problems)


@pytest.fixture(scope="module")
def confirming(server):
    """Two pairs whose tournament asks the other side to confirm each hand, round 1 started: its table's
    game (a hand is posted there by each test that needs one)."""
    base, app = server
    tid = tournament(app, ["Maximilian & Konstanze", "Hannelore & Bartholomäus"], confirm_hands=True)
    return seated(app, tid, 1)[0]


@pytest.mark.parametrize("scheme", ("light", "dark"))
@pytest.mark.parametrize("engine_name", ENGINES)
def test_the_other_side_confirms_a_hand_in_every_engine(engines, display, server, confirming, engine_name, scheme):
    """A hand saved at a table that confirms: the sheet's box asks the other side, at 390 and 320 px
    nothing scrolls sideways and no word is broken; a tap on a side's button confirms it and the box
    and the mark are gone."""
    base, _app = server
    post_over_http(base, confirming, (150, 130))
    with phone_in(engines, display, engine_name, scheme) as phone:
        phone.fresh(base)
        phone.go(f"{base}/games/{confirming}")
        box = phone.find(".confirm-hand")
        assert "the other side checks it" in box.text
        problems = []
        for asked in (390, 320):
            width = phone.size(asked)
            found = phone.js(f"return ({MEASURE})()")
            if found["width"] > found["viewport"]:
                problems.append(f"at {width} px: {found['width']} px wide")
            problems += [f"at {width} px: {word}" for word in found["broken"]]
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            phone.screenshot(SCREENSHOTS / f"engine-{engine_name}-tournament-confirm-{asked}-{scheme}.png")
        assert not problems, f"{engine_name}, {scheme}:\n" + "\n".join(problems)
        assert len(phone.all(".confirm-hand")) == 1, "a hand of an earlier run is still waiting"
        buttons = {b.text: b for b in phone.all(".confirm-hand button")}  # one a side, in the game's order
        assert sorted(buttons) == ["Confirmed by Hannelore & Bartholomäus", "Confirmed by Maximilian & Konstanze"]
        phone.tap(buttons["Confirmed by Hannelore & Bartholomäus"])
        phone.gone(".confirm-hand")
        assert "confirmed by Hannelore & Bartholomäus" in phone.find(".flash").text
        assert not phone.all(".unconfirmed-mark")
