"""A tournament table's phone: the ordinary score sheet of a game that belongs to a tournament
(docs/tournaments.md, "Running a club night", "When a round ends"). It offers no "Delete this game"
(the organiser ends a round; the games' service refuses it too), its header names what ends the round,
a closed tournament's game says that the organiser reopens the tournament to correct a result (its
sheet cannot be reopened), and after the organiser's "End round now" a table takes no new hand while
its hands can still be corrected (docs/api.md, "GET /api/tournaments/<id>", stops_at)."""

from __future__ import annotations

import html
import re

import pytest

from tests.conftest import csrf_token
from tests.helpers import as_the_form_posts, post_hand, side_fields, start_game, win_hand
from tests.test_tournaments import EIGHT, act, four_pairs, small_hand, started, table_game

PAIRS = "Ann & Bob\nCid & Dee"  # two pairs: one table (pairs moving between tables), two rounds
CLOSED = (
    "The tournament is closed: its games are read-only. To correct a result, the organiser reopens the tournament "
    "on its page."
)
ROUND_OVER = "The round is over at this table: no more hands."


def _header(page: str) -> str:
    """The sheet's first line: the rules, what ends the game, the link to the rules."""
    return " ".join(re.search(r'<p class="meta">(.*?)</p>', page, re.S).group(1).split())


def _flashes(client, game: int) -> list[str]:
    """The messages the sheet shows next (a refusal told after a redirect), as read."""
    page = client.get(f"/games/{game}").text
    found = re.findall(r'<div class="flash"[^>]*>(.*?)</div>', page, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split()) for text in found]


def _post(client, url: str, token: str, *sides):
    """A hand posted as the hand form posts it, from a page kept open before (its CSRF token)."""
    data = {"csrf_token": token}
    for side in sides:
        data.update(side)
    return client.post(url, data=as_the_form_posts(data, {}))


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


# --- a closed tournament's game: the organiser reopens the tournament ---------------------------------


def _closed_with_a_finished_game(client) -> tuple[int, int]:
    """Four players at one table (no final): the game reaches 5000 (8000 to 100), the round is over, the
    tournament closed. Its id and the game's."""
    tid = started(client, entrants="\n".join(EIGHT[:4]))
    game = table_game(client, tid, 1)
    post_hand(client, game, *win_hand())
    post_hand(client, game, *win_hand())
    assert act(client, tid, "/close").status_code == 302
    assert "The tournament is closed: its standings are final." in client.get(f"/tournaments/{tid}").text
    return tid, game


def test_a_closed_tournaments_game_says_the_organiser_reopens_the_tournament(client):
    tid, game = _closed_with_a_finished_game(client)
    page = client.get(f"/games/{game}").text
    banner = re.search(r'<p class="tournament-banner">(.*?)</p>', page, re.S).group(1)
    assert "The tournament is closed: its games are read-only." in banner
    assert f'href="/tournaments/{tid}"' in banner and (
        "To correct a result, the organiser reopens the tournament on its page." in banner
    )
    assert "Reopen for corrections" not in page
    # each way a phone may ask for a change gives the tournament's reason, never "reopen it" (refused)
    new_hand = client.get(f"/games/{game}/hands/new")
    assert new_hand.status_code == 302 and _flashes(client, game) == [CLOSED]
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    edit = f"/games/{game}/hands/{hand}/edit"
    assert client.get(edit).status_code == 302 and _flashes(client, game) == [CLOSED]
    token = csrf_token(client, f"/tournaments/{tid}")  # the sheet's forms are gone: a page kept from before
    corrected = _post(client, edit, token, side_fields(0, melded=200), side_fields(1, melded=130))
    # the form again with the reason and the figures typed, which the phone keeps (never a redirect
    # that its script would take for "stored")
    assert corrected.status_code == 409 and CLOSED in " ".join(html.unescape(corrected.text).split())
    assert 'name="sides-0-melded_points"' in corrected.text and 'value="200"' in corrected.text
    more = _post(client, f"/games/{game}/hands/new", token, *small_hand())
    assert more.status_code == 409 and CLOSED in " ".join(html.unescape(more.text).split())
    deleted = client.post(f"/games/{game}/hands/{hand}/delete", data={"csrf_token": token})
    assert deleted.status_code == 302 and _flashes(client, game) == [CLOSED]
    reopened = client.post(f"/games/{game}/reopen", data={"csrf_token": token})
    assert reopened.status_code == 302 and _flashes(client, game) == [CLOSED]
    body = {"client_key": "closed-night-1", "stock_out": True, "sides": [{"melded_points": 100}, {}]}
    queued = client.post(f"/games/{game}/hands.json", json=body, headers={"X-CSRFToken": token})
    assert queued.status_code == 409 and queued.get_json()["errors"][0]["message"] == CLOSED
    for text in (client.get(f"/games/{game}").text, more.text):
        assert "Reopen it to correct a hand" not in text and "Reopen for corrections” to change it" not in text
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [8000, 100]  # nothing changed


def test_the_closed_tournament_s_reason_speaks_the_readers_language(client):
    _tid, game = _closed_with_a_finished_game(client)
    client.get(f"/prefs?lang=it&next=/games/{game}")
    client.get(f"/games/{game}/hands/new")
    assert _flashes(client, game) == [
        "Il torneo è chiuso: le sue partite sono in sola lettura. Per correggere un risultato, l'organizzatore "
        "riapre il torneo dalla sua pagina."
    ]


# --- "End round now": the tables stop at once ---------------------------------------------------------


def test_end_round_now_asks_for_its_box_to_be_ticked_first(client, app):
    """One tap on "End round 1 now" stops every table: like closing, it is done only with its box ticked."""
    tid = started(client, format="mitchell", entrants=PAIRS, round_end="hands", round_hands="3")
    page = client.get(f"/tournaments/{tid}").text
    form = page[page.index('class="t-end"') :]
    form = form[: form.index("</form>")]
    assert 'name="sure"' in form and "End round 1 now" in form and "a hand not saved yet is not counted" in form
    token = csrf_token(client, f"/tournaments/{tid}")
    untick = client.post(f"/tournaments/{tid}/rounds/1/end", data={"csrf_token": token})
    assert untick.status_code == 302 and "Tick the box to end the round." in client.get(untick.location).text
    game = table_game(client, tid, 1)
    assert post_hand(client, game, *small_hand()).status_code == 302  # still playing
    ticked = client.post(f"/tournaments/{tid}/rounds/1/end", data={"csrf_token": token, "sure": "y"})
    assert ticked.status_code == 302 and "Round 1 is over at every table." in client.get(ticked.location).text
    assert post_hand(client, game, *small_hand()).status_code == 409  # stopped


def test_after_end_round_now_a_table_takes_no_new_hand_but_a_correction(client):
    tid = started(client, format="mitchell", entrants=PAIRS, round_end="hands", round_hands="3")
    game = table_game(client, tid, 1)
    assert post_hand(client, game, *small_hand()).status_code == 302  # hand 1: 150 to 130
    assert act(client, tid, "/rounds/1/end").status_code == 302  # the organiser's "End round now"
    # the hand in progress (hand 2) is not saved: the table's round is over at once
    refused = post_hand(client, game, side_fields(0, melded=200), side_fields(1, melded=100))
    assert refused.status_code == 409 and ROUND_OVER in refused.text
    assert 'value="200"' in refused.text  # what was typed stays on the form
    token = csrf_token(client, f"/games/{game}")
    body = {"client_key": "after-the-end-1", "stock_out": True, "sides": [{"melded_points": 100}, {}]}
    queued = client.post(f"/games/{game}/hands.json", json=body, headers={"X-CSRFToken": token})
    assert queued.status_code == 409 and queued.get_json()["errors"][0]["message"] == ROUND_OVER
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [150, 130]
    page = client.get(f"/games/{game}").text
    assert "Round over at this table" in page and "finish the hand in progress" not in page
    assert "Enter hand 2" not in page
    # the hand form itself (a link followed): back to the sheet with the reason, nothing to type in vain
    form = client.get(f"/games/{game}/hands/new")
    assert form.status_code == 302 and form.location.endswith(f"/games/{game}")
    assert ROUND_OVER in html.unescape(client.get(form.location).text)
    # a correction of a hand saved before the end is still taken (until the close)
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    edit = f"/games/{game}/hands/{hand}/edit"
    fixed = post_hand(client, game, side_fields(0, melded=120), side_fields(1, melded=130), url=edit)
    assert fixed.status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [120, 130]
    answer = client.get(f"/api/tournaments/{tid}").get_json()["played"][0]
    assert answer["over"] is True and answer["ended_at"] == answer["stops_at"]
    assert answer["tables"][0]["hands"] == 1 and answer["tables"][0]["over"] is True


def test_the_phone_that_loses_the_race_for_the_rounds_last_hand_is_told_so(client, app):
    """Rounds of one hand: two phones at table 1 open hand 1; B saves 350, then A saves 300. A is told
    that another phone saved the round's last hand (and to look at its figures), not only that the
    round is over (a club night's review); its values stay on the form; the JSON queue says the same."""
    tid = four_pairs(client, 1)
    game = table_game(client, tid, 1)
    other = app.test_client()
    based_on = re.search(r'name="based_on"[^>]*value="([^"]*)"', client.get(f"/games/{game}/hands/new").text).group(1)
    assert post_hand(other, game, side_fields(0, melded=350), side_fields(1, melded=130)).status_code == 302
    late = post_hand(client, game, side_fields(0, melded=300), side_fields(1, melded=130), extra={"based_on": based_on})
    page = " ".join(html.unescape(late.text).split())
    assert late.status_code == 409 and "Meanwhile another phone saved hand 1, the last of the round" in page
    assert re.search(r'name="sides-0-melded_points"[^>]*value="300"', late.text)
    token = csrf_token(client, f"/games/{game}/hands/new")
    queued = client.post(
        f"/games/{game}/hands.json",
        json={
            "client_key": "q" * 16,
            "based_on": 0,
            "sides": [{"melded_points": 300}, {"melded_points": 130}],
            "stock_out": True,
        },
        headers={"X-CSRFToken": token},
    )
    assert queued.status_code == 409
    assert "another phone saved hand 1, the last of the round" in queued.get_json()["errors"][0]["message"]
    # a phone that saw hand 1 is told the round is over, as before
    fresh = post_hand(client, game, *small_hand(), extra={"based_on": "1"})
    assert fresh.status_code == 409 and "The round is over at this table" in html.unescape(fresh.text)
