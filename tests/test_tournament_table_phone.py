"""A tournament table's phone: the ordinary score sheet of a game that belongs to a tournament
(docs/tournaments.md, "Running a club night", "When a round ends"). It offers no "Delete this game"
(the organiser ends a round; the games' service refuses it too) and its header names what ends the
round."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import csrf_token
from tests.helpers import post_hand, start_game
from tests.test_tournaments import small_hand, started, table_game

PAIRS = "Ann & Bob\nCid & Dee"  # two pairs: one table (pairs moving between tables), two rounds


def _header(page: str) -> str:
    """The sheet's first line: the rules, what ends the game, the link to the rules."""
    return " ".join(re.search(r'<p class="meta">(.*?)</p>', page, re.S).group(1).split())


def _flashes(client, game: int) -> list[str]:
    """The messages the sheet shows next (a refusal told after a redirect), as read."""
    page = client.get(f"/games/{game}").text
    found = re.findall(r'<div class="flash"[^>]*>(.*?)</div>', page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split()) for text in found]


# --- no "Delete this game" --------------------------------------------------------------------------


def test_a_tournament_game_offers_no_delete_and_a_tap_that_gets_through_is_still_refused(client):
    ordinary = start_game(client)
    assert "Delete this game" in client.get(f"/games/{ordinary}").text  # an ordinary game offers it
    tid = started(client, format="mitchell", entrants=PAIRS, round_end="hands", round_hands="3")
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    page = client.get(f"/games/{game}").text
    assert "Delete this game" not in page and f"/games/{game}/delete" not in page
    assert "Edit hand 1" in page  # the sheet still takes corrections
    # a page from before (or a tap sent by hand) is refused by the games' service, with the reason
    token = csrf_token(client, f"/games/{game}")
    refused = client.post(f"/games/{game}/delete", data={"csrf_token": token})
    assert refused.status_code == 302 and refused.headers["Location"].endswith(f"/games/{game}")
    assert _flashes(client, game) == ["A tournament's game cannot be deleted: the organiser ends its round."]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [150, 130]


# --- the header names what ends the round ----------------------------------------------------------


@pytest.mark.parametrize(
    "fields, header, german",
    [
        ({"round_end": "hands", "round_hands": "2"}, "round: 2 hands", "Durchgang: 2 Runden"),
        ({"round_end": "hands", "round_hands": "1"}, "round: 1 hand", "Durchgang: 1 Runde"),
        ({"round_end": "minutes", "round_minutes": "50"}, "round: 50 minutes", "Durchgang: 50 Minuten"),
        ({"round_end": "target"}, "game to 5000", "Spiel bis 5000"),  # Classic's target (docs/rules.md#classic)
    ],
)
def test_the_header_names_what_ends_the_round(client, fields, header, german):
    tid = started(client, format="mitchell", entrants=PAIRS, **fields)
    game = table_game(client, tid, 1)
    line = _header(client.get(f"/games/{game}").text)
    assert header in line
    if header != "game to 5000":
        assert "game to" not in line
    view = re.search(r'href="[^"]*(/view/[^"]+)"', client.get(f"/games/{game}").text).group(1)
    assert header in _header(client.get(view).text)  # the read-only link says the same
    client.get(f"/prefs?lang=de&next=/games/{game}")
    assert german in _header(client.get(f"/games/{game}").text)


def test_an_ordinary_game_keeps_its_target_in_the_header(client):
    game = start_game(client, target=3000)
    assert "game to 3000" in _header(client.get(f"/games/{game}").text)
