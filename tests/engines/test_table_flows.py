"""The table's flows in every engine a phone runs (Chromium, WebKit, Firefox): one set of tests,
parametrised by engine (tests/engines/conftest.py), against the real server (waitress, CSRF on).

Worked figures: docs/rules.md#classic › Going out, Canastas, Red and black threes, Card values
(going out 100, natural canasta 500, mixed 300, red three 100; card points by their values)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from scorekeeper import create_app
from scorekeeper.network import addresses
from tests.browser.cut import Cut
from tests.helpers import served

pytestmark = pytest.mark.browser

# the number of hands in the phone's queue, read through the page's own module (static/app.js)
QUEUE_LENGTH = """const done = arguments[arguments.length - 1];
import("/static/app.js").then((app) => done(app.queue.items().length), (error) => done(String(error)));"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app on the production server; yields its address."""
    folder = tmp_path_factory.mktemp("engines")
    app = create_app({"TESTING": True, "SECRET_KEY": "engines", "DATABASE": str(folder / "engines.sqlite")})
    with served(app) as port:
        yield f"http://127.0.0.1:{port}"


def start(phone, base: str, variant: str = "classic") -> str:
    """A new game with the default players; the scoreboard's address."""
    phone.fresh(base)
    phone.go(f"{base}/games/new/{variant}")
    phone.tap_text("button", "Start game")
    phone.until(lambda: re.search(r"/games/\d+$", phone.url), "the new game's scoreboard")
    return phone.url


def enter_hand(phone, number: int) -> None:
    phone.tap_text("a", f"Enter hand {number}")
    phone.settled()


def plus(phone, side: int, label: str, times: int = 1) -> None:
    for _ in range(times):
        phone.settled()
        phone.tap(f'form.hand-form .cell[data-side="{side}"] button[aria-label^="{label} plus one, "]')


def went_out(phone, side) -> None:
    phone.settled()
    phone.tap(f'form.hand-form label[for="out-{side}"]')


def save(phone, number: int) -> None:
    phone.settled()
    phone.tap_text("button", f"Save hand {number}")
    phone.until(lambda: not phone.all("form.hand-form"), f"hand {number} saved")


def totals(phone) -> list[str]:
    phone.find("p.total")
    return phone.texts("p.total")


def stored_hands(base: str, game_url: str) -> list[dict]:
    with urllib.request.urlopen(f"{base}/api/games/{game_url.rsplit('/', 1)[1]}", timeout=20) as answer:
        return json.load(answer)["hands"]


@pytest.mark.parametrize("width", (390, 320))
def test_hands_by_points_and_by_card_counts_with_the_live_preview(phone, server, width):
    start(phone, server)
    phone.size(width)  # WebKit: its narrowest, 334, for 320
    # Hand 1, points: A out 100 + natural 500 + mixed 300 + red three 100 + 380 = 1380; B 150 − 45 = 105
    enter_hand(phone, 1)
    went_out(phone, 0)
    plus(phone, 0, "Natural canastas")
    plus(phone, 0, "Mixed canastas")
    plus(phone, 0, "Red threes")
    phone.type('input[name="sides-0-melded_points"]', "380")
    phone.type('input[name="sides-1-melded_points"]', "150")
    phone.type('input[name="sides-1-hand_points"]', "45")
    phone.settled()
    phone.until(lambda: "+1380" in phone.text('[data-score="0"]'), "the preview of side A")
    phone.until(lambda: "+105" in phone.text('[data-score="1"]'), "the preview of side B")
    save(phone, 1)
    assert totals(phone) == ["1380", "105"]
    # Hand 2, card counts: B out 100 + mixed 300 + 2 twos 40 + 8 kings–eights 80 + 5 sevens–fours 25
    # = 545; A melded 1 joker 50 + 4 low 20 = 70, less 2 high in hand 20 → 50
    enter_hand(phone, 2)
    phone.tap("form.hand-form .mode-row label:last-of-type")
    phone.until(lambda: phone.all('input[name="mode"][value="counts"]:checked'), "the count pad")
    went_out(phone, 1)
    plus(phone, 1, "Mixed canastas")
    for name, count in (
        ("sides-1-melded_twos_aces", "2"),
        ("sides-1-melded_high", "8"),
        ("sides-1-melded_low", "5"),
        ("sides-0-melded_jokers", "1"),
        ("sides-0-melded_low", "4"),
        ("sides-0-hand_high", "2"),
    ):
        phone.type(f'input[name="{name}"]', count)
    phone.settled()
    phone.until(lambda: "+545" in phone.text('[data-score="1"]'), "the preview of side B")
    save(phone, 2)
    assert totals(phone) == ["1430", "650"]


def test_a_refused_hand_shows_why_beside_the_field_and_keeps_what_was_typed(phone, server):
    start(phone, server)
    enter_hand(phone, 1)
    went_out(phone, 0)
    plus(phone, 0, "Natural canastas")
    phone.type('input[name="sides-0-melded_points"]', "212")
    phone.type('input[name="sides-1-melded_points"]', "100")
    phone.settled()
    phone.tap_text("button", "Save hand 1")
    # the server's answer (its message has the field's own id; the live check's, shown as typed, has not):
    # read after it has replaced the form, not while it does
    phone.until(lambda: phone.all("#sides-0-melded_points-error"), "the server's message beside the field")
    phone.settled()
    message = phone.until(lambda: " ".join(phone.texts(".row-errors p")), "the message")
    assert "multiple of 5; 212 is not" in message
    assert phone.value('input[name="sides-0-melded_points"]') == "212"
    assert phone.value('input[name="sides-1-melded_points"]') == "100"
    assert phone.until(lambda: phone.all('input[name="out"][value="0"]:checked'), "side 0 still out")


@pytest.mark.parametrize("width", (390, 320))
def test_correct_delete_and_undo(phone, server, width):
    start(phone, server)
    phone.size(width)
    enter_hand(phone, 1)
    phone.tap('form.hand-form label[for="out-stock"]')
    phone.type('input[name="sides-0-melded_points"]', "120")
    phone.type('input[name="sides-1-melded_points"]', "65")
    save(phone, 1)
    assert totals(phone) == ["120", "65"]
    # correct: 120 → 150
    phone.tap("#hand-1 > summary")
    phone.tap_text("a", "Edit hand 1")
    field = phone.find('input[name="sides-0-melded_points"]')
    field.clear()
    field.send_keys("150")
    phone.settled()
    phone.tap_text("button", "Save correction")
    phone.until(lambda: totals(phone) == ["150", "65"], "the corrected totals")
    # delete, then Undo
    phone.tap("#hand-1 > summary")
    phone.tap_text("#hand-1 button", "Delete")
    phone.until(lambda: "Hand deleted." in phone.text(".flash"), "Hand deleted.")
    assert totals(phone) == ["0", "0"]
    phone.tap_text(".flash button", "Undo")
    phone.until(lambda: "Hand restored." in phone.text(".flash"), "Hand restored.")
    assert totals(phone) == ["150", "65"]


def test_a_second_phone_follows_the_game_live(phone, server):
    game_url = start(phone, server)
    phone.second_window()  # the other phone at the table, watching the scoreboard
    phone.go(game_url)
    phone.find("p.total")
    phone.window(0)
    enter_hand(phone, 1)
    phone.tap('form.hand-form label[for="out-stock"]')
    phone.type('input[name="sides-0-melded_points"]', "90")
    phone.type('input[name="sides-1-melded_points"]', "55")
    save(phone, 1)
    phone.window(1)
    phone.until(lambda: totals(phone) == ["90", "55"], "the other phone's totals, followed live")


def _network_address() -> str:
    """An address of this machine that is not loopback: plain http:// there is not a secure
    context, as at the table (no service worker; the phone's own queue keeps the hand)."""
    found = addresses.lan_addresses()
    return found[0] if found else "127.0.0.1"


@pytest.fixture(scope="module")
def cut_server(tmp_path_factory):
    """The app reached through a cut (a proxy the test stops and starts) on this machine's network
    address; yields (the phone's base URL, the server's own URL, the cut)."""
    host = _network_address()
    folder = tmp_path_factory.mktemp("engines-cut")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "engines-cut",
            "DATABASE": str(folder / "cut.sqlite"),
            "EXTRA_HOSTS": [host],
        }
    )
    with served(app) as port:
        cut = Cut(port, host=host)
        yield f"http://{host}:{cut.port}", f"http://127.0.0.1:{port}", cut
        cut.stop()


def test_the_phones_queue_keeps_a_hand_through_a_cut_and_stores_it_once(phone, cut_server):
    base, direct, cut = cut_server
    game_url = start(phone, base)
    phone.find("a[data-kept]")  # the next hand's form is kept in the page
    cut.stop()
    try:
        enter_hand(phone, 1)
        phone.tap('form.hand-form label[for="out-stock"]')
        phone.type('input[name="sides-0-melded_points"]', "120")
        phone.type('input[name="sides-1-melded_points"]', "65")
        phone.tap_text("button", "Save hand 1")
        phone.until(lambda: "1 hand is waiting to be sent" in phone.text("#waiting-hands"), "the waiting hand")
        assert stored_hands(direct, game_url) == []
    finally:
        cut.start()
    phone.gone("#waiting-hands")
    phone.until(lambda: totals(phone) == ["120", "65"], "the sent hand's totals")
    stored = stored_hands(direct, game_url)
    assert len(stored) == 1 and [s["melded_points"] for s in stored[0]["entry"]] == [120, 65]
    assert phone.driver.execute_async_script(QUEUE_LENGTH) == 0


def test_the_language_switch_keeps_the_page(phone, server):
    game_url = start(phone, server)
    phone.tap('footer a[lang="de"]')
    phone.until(lambda: "Runde 1 eintragen" in phone.find("main").text, "the scoreboard in German")
    assert phone.url == game_url
    phone.tap('footer a[lang="en"]')
    phone.until(lambda: "Enter hand 1" in phone.find("main").text, "the scoreboard in English")
