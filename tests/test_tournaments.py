"""Running a tournament through its pages (docs/tournaments.md): the form and its messages, the draw,
the rounds, each table's link, a round's end (the target at one table, a number of hands, a time, the
organiser), the final table, corrections until the close, the standings, the season; and two
organisers at once against the real server."""

from __future__ import annotations

import html
import re
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper.core import club_night
from scorekeeper.services import tournament_state
from scorekeeper.services import tournaments as service
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, tournament_records
from tests.helpers import csrf_token, post_hand, side_fields, win_hand

EIGHT = [f"Player{c}" for c in "ABCDEFGH"]


def lose_hand():
    """The same hand the other way round: side 1 scores 4000, side 0 50 (tests.helpers.win_hand)."""
    return side_fields(1, went_out="normal", natural=4, red=4, melded=1100), side_fields(0, melded=50)


def small_hand():
    """The stock ran out: side 0 scores 150, side 1 130 (melded points only, each above the opening minimum
    of a side at 3000 or more, 120)."""
    return side_fields(0, melded=150), side_fields(1, melded=130)


def create(client, **fields):
    data = {
        "csrf_token": csrf_token(client, "/tournaments/new"),
        "name": "Club night",
        "format": "final",
        "rules": "classic",
        "round_end": "target",
        "entrants": "\n".join(EIGHT),
        "season_points": "10, 8, 6, 5, 4, 3, 2, 1",
        **fields,
    }
    return client.post("/tournaments/new", data=data)


def act(client, tid, path):
    """An organiser's button on the tournament's page (closing and deleting: with the box ticked)."""
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "sure": "y"}
    return client.post(f"/tournaments/{tid}{path}", data=data)


def started(client, **fields) -> int:
    """A tournament created, drawn and with round 1 started; its id."""
    response = create(client, **fields)
    assert response.status_code == 302, response.text
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    assert act(client, tid, "/draw").status_code == 302
    assert act(client, tid, "/rounds").status_code == 302
    return tid


FOUR_PAIRS = "Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal"


def four_pairs(client, round_hands: int) -> int:
    """Four pairs between two tables (Mitchell), rounds of ``round_hands`` hands, round 1 started: its id."""
    return started(client, format="mitchell", entrants=FOUR_PAIRS, round_end="hands", round_hands=str(round_hands))


def table_game(client, tid, number) -> int:
    """The game a table's link (its QR code) opens."""
    response = client.get(f"/tournaments/{tid}/tables/{number}")
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def messages(page: str) -> list[str]:
    return [" ".join(m.split()) for m in re.findall(r'class="(?:error|flash)"[^>]*>(.*?)</', page, re.S)]


def state(app, tid):
    with app.app_context():
        db = dbmod.get_db()
        t = tournament_records.get(db, tid)
        return t, tournament_state.rounds(db, t)


# --- the form ---------------------------------------------------------------------------------------


def test_an_empty_archive_says_what_a_tournament_is(client):
    page = client.get("/tournaments").text
    assert "No tournament yet" in page and 'href="/tournaments/new"' in page
    assert "Tournaments" in client.get("/").text  # reached from home


@pytest.mark.parametrize(
    "fields, field, message",
    [
        ({"name": "  "}, "name", "Give the tournament a name."),
        (
            {"entrants": "A\nB\nC\nD\nE\nF\nG"},
            "entrants",
            "7 players: tables seat four to six. Add one more or leave one",
        ),
        ({"entrants": "A\nB\nC\nD\nE", "rules_5": "classic:4"}, "rules_5", "Not a valid choice"),
        (
            {"format": "rotation", "entrants": "A\nB\nC\nD\nE\nF", "rules_6": "encyclopedia:6-trios"},
            "rules_6",
            "Players changing partners at a table of six play in three pairs.",
        ),
        ({"entrants": "A\nB\nC"}, "entrants", "Enter at least four players"),
        ({"entrants": "A\nB\nC\nA"}, "entrants", "A is on the list twice"),
        ({"format": "mitchell", "entrants": "A & B\nC"}, "entrants", "Each line is a pair"),
        ({"format": "mitchell", "entrants": "A & B"}, "entrants", "Enter at least two pairs"),
        ({"round_end": "hands", "round_hands": ""}, "round_hands", "Give the number."),
        ({"round_end": "minutes", "round_minutes": "5"}, "round_minutes", "Between 15 and 300."),
        ({"target": "5003"}, "target", "Scores are multiples of 5."),
        ({"season_points": "ten, 8"}, "season_points", "Whole numbers with commas between them"),
        ({"entrants": "\n".join(f"P{i}" for i in range(68))}, "entrants", "At most 16 tables."),
    ],
)
def test_the_form_refuses_with_the_reason_beside_the_field_and_keeps_what_was_typed(client, fields, field, message):
    response = create(client, **fields)
    assert response.status_code == 422
    error = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', response.text, re.S)
    assert error and message in " ".join(error.group(1).split()).replace("&amp;", "&").replace("&#34;", '"')
    typed = fields.get("entrants", "\n".join(EIGHT)).split("\n")[0].strip()
    assert html.escape(typed, quote=False) in response.text
    assert client.get("/tournaments").text.count("Club night") == 0  # nothing was stored


def test_a_name_that_looks_like_a_player_kept_asks_did_you_mean(client):
    started(client)  # PlayerA … PlayerH play a round: they are kept now
    looks_alike = "\n".join(["PlayerА"] + EIGHT[1:])  # a Cyrillic А
    response = create(client, name="Second night", entrants=looks_alike)
    assert response.status_code == 422 and "Did you mean PlayerA?" in response.text
    assert 'name="someone_new"' in response.text
    assert create(client, name="Second night", entrants=looks_alike, someone_new="y").status_code == 302


def test_before_the_draw_the_players_and_settings_can_be_changed(client, app):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    form = client.get(f"/tournaments/{tid}/edit").text
    assert "PlayerA\nPlayerB" in form and 'value="Club night"' in form and 'name="version" value="0"' in form
    token = csrf_token(client, f"/tournaments/{tid}/edit")
    fields = {"csrf_token": token, "version": "0", "name": "Club night", "format": "mitchell", "rules": "modern"}
    fields.update(round_end="hands", round_hands="3", entrants="Ann & Bob\nCid & Dee\nEve & Fay", season_points="5, 3")
    assert client.post(f"/tournaments/{tid}/edit", data=fields).status_code == 302
    t, _rounds = state(app, tid)
    assert (t.format, t.variant, t.round_hands, t.season_points) == ("mitchell", "modern", 3, (5, 3))
    assert t.entrants == (("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"))
    assert "Tournament changed" in client.get(f"/tournaments/{tid}").text
    stale = client.post(f"/tournaments/{tid}/edit", data={**fields, "name": "Other name"})  # still at version 0
    assert stale.status_code == 422 and "Another phone changed this tournament meanwhile" in stale.text
    assert 'value="Other name"' in stale.text  # what was typed stays
    act(client, tid, "/draw")
    assert client.get(f"/tournaments/{tid}/edit").status_code == 302
    late = client.post(f"/tournaments/{tid}/edit", data={**fields, "version": "2"})
    assert late.status_code == 302 and state(app, tid)[0].name == "Club night"


def test_the_evening_is_made_when_the_first_round_starts_with_the_players_as_they_are(client, app):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    assert state(app, tid)[0].evening_id is None
    act(client, tid, "/draw")
    act(client, tid, "/rounds")
    t, _rounds = state(app, tid)
    with app.app_context():
        evening = records.get_evening(dbmod.get_db(), t.evening_id)
    assert evening.place == "Club night" and sorted(p.name for p in evening.players) == sorted(EIGHT)


def test_a_tournament_is_deleted_before_its_first_round_once_the_box_is_ticked(client, app):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/tournaments/{tid}").text
    assert "Delete this tournament" in page
    token = csrf_token(client, f"/tournaments/{tid}")
    assert client.post(f"/tournaments/{tid}/delete", data={"csrf_token": token}).status_code == 302
    assert "Tick the box to delete the tournament." in client.get(f"/tournaments/{tid}").text
    response = client.post(f"/tournaments/{tid}/delete", data={"csrf_token": token, "sure": "y"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/tournaments")
    assert "Tournament Club night deleted." in client.get("/tournaments").text
    assert client.get(f"/tournaments/{tid}").status_code == 404
    played = started(client)
    assert "Delete this tournament" not in client.get(f"/tournaments/{played}").text
    token = csrf_token(client, f"/tournaments/{played}")
    client.post(f"/tournaments/{played}/delete", data={"csrf_token": token, "sure": "y"})
    assert "A round has started: the tournament can no longer be deleted." in client.get(f"/tournaments/{played}").text


def test_only_rule_sets_with_a_table_of_four_in_partnerships_are_offered(client):
    page = client.get("/tournaments/new").text
    offered = re.findall(r'<option value="([^"]+)"', page)
    assert "classic" in offered and "canadian" in offered and "austrian" in offered
    assert "classic-3p" not in offered and "six-3x2" not in offered
    assert create(client, rules="classic-3p").status_code == 422


# --- tables with a final ----------------------------------------------------------------------------


def test_tables_with_a_final_from_the_draw_to_the_season(client, app):
    tid = started(client)
    t, rounds = state(app, tid)
    assert len(rounds[0].tables) == 2 and [len(x.seats) for x in rounds[0].tables] == [4, 4]
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    # each table's game is seated by the draw: table k's seats are the players drawn 4(k-1)+1 … 4k
    with app.app_context():
        seats = {n: records.get_game(dbmod.get_db(), g).players for n, g in ((1, one), (2, two))}
    assert seats[1] == [t.entrants[u][0] for u in t.order[:4]] and seats[2] == [t.entrants[u][0] for u in t.order[4:]]
    assert "1.1" in client.get(f"/tournaments/{tid}").text

    assert post_hand(client, one, *win_hand()).status_code == 302  # table 1: 4000 to 50
    assert post_hand(client, two, *lose_hand()).status_code == 302  # table 2: 50 to 4000
    assert post_hand(client, one, *win_hand()).status_code == 302  # table 1 reaches 5000: the round stops
    # table 2 finishes the hand in progress, then stops
    assert post_hand(client, two, *small_hand()).status_code == 302
    refused = post_hand(client, two, *small_hand())
    assert refused.status_code == 409 and "The round is over at this table: no more hands." in refused.text
    assert 'value="150"' in refused.text  # what was typed is still on the form

    # the table's link now says where its players go: the winning pair to the final table
    page = client.get(f"/tournaments/{tid}/tables/2").text
    winners = [seats[2][1], seats[2][3]]
    for name in winners:
        assert re.search(rf"<strong>{name}</strong>: Table 1", page)
    assert re.search(rf"<strong>{seats[2][0]}</strong>: has finished", page)
    sheet = client.get(f"/games/{two}").text
    assert "Round over at this table" in sheet
    for offer in ("Next deal", 'class="minimum"', "Enter hand"):  # no next hand at this table
        assert offer not in sheet, offer

    assert act(client, tid, "/rounds").status_code == 302  # the final table
    final = table_game(client, tid, 1)
    with app.app_context():
        final_seats = records.get_game(dbmod.get_db(), final).players
    # the better qualifying pair (8000 points, table 1's seats 1 and 3) sits at seats 1 and 3
    assert final_seats == [seats[1][0], seats[2][1], seats[1][2], seats[2][3]]
    post_hand(client, final, *win_hand())
    post_hand(client, final, *win_hand())
    _t, rounds = state(app, tid)
    assert rounds[1].complete
    assert act(client, tid, "/close").status_code == 302
    # places: final winners 1, final losers 2, then table 2's losers (50 + 150) before table 1's (100)
    season = client.get("/tournaments/season").text
    points = dict(
        re.findall(r"<td>([^<]+)<span class=\"hint season-more\">.*?</span></td><td class=\"num\">(\d+)</td>", season)
    )
    expected = {seats[1][0]: "10", seats[1][2]: "10", seats[2][1]: "8", seats[2][3]: "8"}
    expected.update({seats[2][0]: "6", seats[2][2]: "6", seats[1][1]: "5", seats[1][3]: "5"})
    assert points == expected
    # closed: the games are read-only, the standings final
    refused = post_hand(client, two, *small_hand())
    assert refused.status_code == 409 and "The tournament is closed" in refused.text
    assert "Final standings" in client.get(f"/tournaments/{tid}/standings").text
    assert "10 season points" in client.get(f"/tournaments/{tid}").text.replace("\xa0", " ")  # no-break spaces


def test_the_tournaments_games_are_ordinary_games_of_its_evening(client, app):
    tid = started(client)
    t, _rounds = state(app, tid)
    page = client.get(f"/evenings/{t.evening_id}").text
    assert f'href="/tournaments/{tid}"' in page and "Tournament: Club night" in page
    for number in (1, 2):
        assert f'href="/games/{table_game(client, tid, number)}"' in page
    assert all(name in client.get("/players").text for name in EIGHT)


def test_closing_asks_for_the_box_and_needs_every_round_over(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="1")
    post_hand(client, table_game(client, tid, 1), *small_hand())
    token = csrf_token(client, f"/tournaments/{tid}")
    assert client.post(f"/tournaments/{tid}/close", data={"csrf_token": token}).status_code == 302
    assert "Tick the box to close the tournament." in client.get(f"/tournaments/{tid}").text
    assert state(app, tid)[0].closed_at is None
    assert act(client, tid, "/close").status_code == 302
    t, rounds = state(app, tid)
    north_south, east_west = t.order  # North–South won 150 to 130
    assert t.closed_at and t.places == (
        (1, north_south, 2, 150, 1, 1, 0, 1, -1),
        (2, east_west, 0, 130, 0, 1, 0, 1, -1),
    )
    assert club_night.ranking(t, rounds) == [club_night.Place(*row) for row in t.places]  # kept at the close


def test_a_closed_tournament_reopens_for_a_correction_and_counts_again_once_closed(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="1")
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())  # North–South 150, East–West 130
    assert act(client, tid, "/reopen").status_code == 302
    assert "The tournament is not closed." in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/close")
    t, _rounds = state(app, tid)
    north_south, east_west = t.order
    assert "Ann" in client.get("/tournaments/season").text
    # the game did not reach the target: asking for its hand form leads to the sheet, which says why
    # nothing more can be entered
    asked = client.get(f"/games/{game}/hands/new")
    assert asked.status_code == 302 and asked.location.endswith(f"/games/{game}")
    assert "The tournament is closed: its games are read-only." in client.get(asked.location).text
    assert "Edit hand" not in client.get(f"/games/{game}").text
    # without the box nothing changes
    token = csrf_token(client, f"/tournaments/{tid}")
    assert client.post(f"/tournaments/{tid}/reopen", data={"csrf_token": token}).status_code == 302
    assert "Tick the box to reopen the tournament." in client.get(f"/tournaments/{tid}").text
    assert state(app, tid)[0].closed_at is not None
    # reopened: the game takes a correction, the places and season points are no longer kept
    act(client, tid, "/reopen")
    page = client.get(f"/tournaments/{tid}").text
    assert "The tournament is open again" in page and "Tournament reopened" in page and "Close the tournament" in page
    t, _rounds = state(app, tid)
    assert t.closed_at is None and t.places is None
    assert "No closed tournament in this season yet" in client.get("/tournaments/season").text
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    fixed = post_hand(
        client, game, side_fields(0, melded=120), side_fields(1, melded=130), url=f"/games/{game}/hands/{hand}/edit"
    )
    assert fixed.status_code == 302
    act(client, tid, "/close")  # closed again: the corrected result decides (East–West 130 to 120)
    t, _rounds = state(app, tid)
    assert t.places == ((1, east_west, 2, 130, 1, 1, 0, 1, -1), (2, north_south, 0, 120, 0, 1, 0, 1, -1))
    page = client.get(f"/tournaments/{tid}").text
    assert page.count("Tournament closed") == 2 and page.count("Tournament reopened") == 1


def test_a_player_renamed_during_the_evening_keeps_his_seat_and_his_season(client, app):
    tid = started(client, format="rotation", entrants="\n".join(EIGHT[:4]), round_end="hands", round_hands="1")
    post_hand(client, table_game(client, tid, 1), *small_hand())
    with app.app_context():
        ann = next(p.id for p in records.list_players(dbmod.get_db()) if p.name == "PlayerA")
    token = csrf_token(client, f"/players/{ann}")
    assert client.post(f"/players/{ann}/rename", data={"csrf_token": token, "name": "Anna Berg"}).status_code == 302
    act(client, tid, "/rounds")
    game = table_game(client, tid, 1)
    with app.app_context():
        db = dbmod.get_db()
        assert "Anna Berg" in records.get_game(db, game).players
        assert not any(p.name == "PlayerA" for p in records.list_players(db))  # no second player made
    assert "Anna Berg" in client.get(f"/tournaments/{tid}/standings").text


def test_two_entrants_of_one_tournament_cannot_be_merged_into_one_player(client, app):
    tid = started(client)
    t, rounds = state(app, tid)
    first, other = rounds[0].tables[0].seats[0], rounds[0].tables[1].seats[0]  # never at one table
    with app.app_context():
        ids = {p.name: p.id for p in records.list_players(dbmod.get_db())}
    token = csrf_token(client, f"/players/{ids[first]}")
    response = client.post(f"/players/{ids[first]}/merge", data={"csrf_token": token, "other": ids[other], "sure": "y"})
    assert response.status_code == 422
    assert "Both play in the tournament Club night, so they are two people." in html.unescape(response.text)
    for table in (1, 2):  # a table without a hand sends nobody to the final
        assert post_hand(client, table_game(client, tid, table), *small_hand()).status_code == 302
    assert act(client, tid, "/rounds/1/end").status_code == 302 and act(client, tid, "/rounds").status_code == 302
    assert len(state(app, tid)[1]) == 2  # the final table starts: nobody holds two seats


def test_a_player_renamed_between_the_draw_and_the_first_round_keeps_his_seat(client, app):
    started(client, name="Last week")  # PlayerA … PlayerH are players of the archive now
    tid = int(create(client, name="Tonight").headers["Location"].rsplit("/", 1)[1])
    act(client, tid, "/draw")
    with app.app_context():
        ann = next(p.id for p in records.list_players(dbmod.get_db()) if p.name == "PlayerA")
    token = csrf_token(client, f"/players/{ann}")
    assert client.post(f"/players/{ann}/rename", data={"csrf_token": token, "name": "Anna Berg"}).status_code == 302
    act(client, tid, "/rounds")
    t, rounds = state(app, tid)
    assert "Anna Berg" in [name for table in rounds[0].tables for name in table.seats]
    with app.app_context():
        assert not any(p.name == "PlayerA" for p in records.list_players(dbmod.get_db()))
    assert [e for e in t.entrant_ids if ann in e]


def test_times_without_their_zone_are_read_as_utc(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    with app.app_context():
        db = dbmod.get_db()
        with db.conn:  # as an edited or very old file may hold them
            db.execute("update tournament_rounds set started_at = '2026-01-01T19:30:00'")
    for url in (
        f"/games/{game}",
        f"/tournaments/{tid}",
        f"/tournaments/{tid}/standings",
        f"/tournaments/games/{game}/version",
    ):
        assert client.get(url).status_code == 200, url
    assert post_hand(client, game, *small_hand()).status_code == 302  # long past its time: the hand in progress


def test_an_archive_from_before_the_kept_columns_is_brought_up_to_date(tmp_path):
    """A tournament stored by the first version of the tournaments (migration m017 alone) opens, draws
    and plays after the next migration added what a tournament keeps."""
    from sqlite_utils import Database

    from tests.conftest import make_app

    path = tmp_path / "older.sqlite"
    db = Database(path)
    dbmod.migrations.apply(db, stop_before="m018_tournament_kept")
    db["tournaments"].insert(
        {
            "id": 1,
            "name": "Older",
            "format": "final",
            "variant": "classic",
            "layout": "4",
            "settings": "{}",
            "round_end": "target",
            "season_points": "[10, 8]",
            "entrants": '[["A"], ["B"], ["C"], ["D"]]',
            "version": 0,
            "created_at": "2026-11-26T08:00:00+00:00",
            "updated_at": "2026-11-26T08:00:00+00:00",
        }
    )
    db.close()
    client = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(path)}).test_client()
    assert "Older" in client.get("/tournaments").text
    act(client, 1, "/draw")
    act(client, 1, "/rounds")
    assert client.get("/tournaments/1/tables/1").status_code == 302


def test_a_locked_phone_polling_a_tables_version_is_answered_401(tmp_path):
    from tests.conftest import make_app
    from tests.helpers import quick_hash

    app = make_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "l.sqlite"), "PASSWORD_HASH": quick_hash("pw")}
    )
    response = app.test_client().get("/tournaments/games/1/version")
    assert response.status_code == 401 and response.is_json
    assert app.test_client().get("/tournaments/1/standings/version").status_code == 401


def test_the_next_round_ends_the_one_before_for_good(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal")
    first = table_game(client, tid, 1)
    post_hand(client, first, *small_hand())
    act(client, tid, "/rounds/1/end")
    act(client, tid, "/rounds")
    _t, rounds = state(app, tid)
    assert rounds[0].ended is not None and rounds[0].complete
    # the table's game has ended with its round (150 : 130): read-only like any finished game
    game = client.get(f"/api/games/{first}").get_json()
    assert game["finished"] and game["winner"] == 0 and game["margin"] == 20
    token = csrf_token(client, f"/games/{first}")
    assert client.post(f"/games/{first}/reopen", data={"csrf_token": token}).status_code == 302
    hand = client.get(f"/api/games/{first}").get_json()["hands"][0]["id"]
    client.post(f"/games/{first}/hands/{hand}/delete", data={"csrf_token": token})
    assert client.get(f"/api/games/{first}").get_json()["hands"] == []
    refused = post_hand(client, first, *small_hand())  # a correction does not reopen an earlier round
    assert refused.status_code == 409 and "The round is over at this table" in refused.text


def test_once_the_final_table_starts_the_first_rounds_results_stand(client, app):
    tid = started(client)
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, one, *win_hand())
    post_hand(client, one, *win_hand())
    post_hand(client, two, *small_hand())
    act(client, tid, "/rounds")  # the final table
    hand = client.get(f"/api/games/{two}").get_json()["hands"][0]["id"]
    client.post(f"/games/{two}/hands/{hand}/delete", data={"csrf_token": csrf_token(client, f"/games/{two}")})
    page = html.unescape(client.get(f"/games/{two}").text)
    assert "The final table has started: the first round's results stand as they are." in page
    assert len(client.get(f"/api/games/{two}").get_json()["hands"]) == 1


def test_a_pair_on_a_line_is_refused_outside_the_pairs_format(client):
    response = create(client, entrants="Ann & Bob\n" + "\n".join(EIGHT[:3]))
    assert response.status_code == 422 and "One player a line here" in response.text


def test_an_odd_number_of_pairs_plays_at_the_tables_it_fills(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal\nIda & Jon")
    assert "2 tables" in client.get(f"/tournaments/{tid}").text
    assert len(re.findall(r'<svg[^>]*class="qr"', client.get(f"/tournaments/{tid}/qr").text)) == 2
    assert client.get(f"/tournaments/{tid}/tables/3").status_code == 404
    title = re.search(r"<title>(.*?)</title>", client.get(f"/tournaments/{tid}").text, re.S).group(1)
    assert "<form" not in title and "Delete" not in title


def test_a_result_can_be_corrected_until_the_close(client, app):
    tid = started(client, entrants="\n".join(EIGHT[:4]))
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    assert act(client, tid, "/rounds/1/end").status_code == 302
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    fixed = post_hand(
        client, game, side_fields(0, melded=170), side_fields(1, melded=130), url=f"/games/{game}/hands/{hand}/edit"
    )
    assert fixed.status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"][0] == 170
    assert act(client, tid, "/close").status_code == 302
    refused = post_hand(
        client, game, side_fields(0, melded=200), side_fields(1, melded=130), url=f"/games/{game}/hands/{hand}/edit"
    )
    assert "The tournament is closed: its games are read-only." in " ".join(
        messages(client.get(f"/games/{game}").text) + [refused.text]
    )
    assert client.get(f"/api/games/{game}").get_json()["totals"][0] == 170
    deleted = client.post(
        f"/games/{game}/hands/{hand}/delete", data={"csrf_token": csrf_token(client, f"/tournaments/{tid}")}
    )
    assert deleted.status_code == 302 and client.get(f"/api/games/{game}").get_json()["totals"][0] == 170


def test_a_tournament_game_is_not_deleted_on_its_own(client, app):
    tid = started(client, entrants="\n".join(EIGHT[:4]))
    game = table_game(client, tid, 1)
    # its sheet offers no delete (tests/test_tournament_table_phone.py): a tap sent anyway is refused
    response = client.post(f"/games/{game}/delete", data={"csrf_token": csrf_token(client, f"/tournaments/{tid}")})
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/games/{game}")
    assert "cannot be deleted" in client.get(f"/games/{game}").text
    assert client.get(f"/api/games/{game}").status_code == 200


def test_the_organisers_steps_out_of_order_are_refused_with_the_reason(client, app):
    response = create(client)
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    act(client, tid, "/rounds")
    assert "Draw the seats first." in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/close")
    assert "No round has been played yet." in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/draw")
    act(client, tid, "/draw")
    assert "The seats are drawn already." in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/rounds")
    act(client, tid, "/rounds")
    assert "Round 1 is still being played." in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/close")
    assert "Round 1 is still being played." in client.get(f"/tournaments/{tid}").text
    _t, rounds = state(app, tid)
    assert len(rounds) == 1
    assert act(client, tid, "/rounds/2/end").status_code == 404
    page = client.get(f"/tournaments/{tid}").text
    for action in ("Tournament created", "Seats drawn by lot", "Round 1 started"):
        assert action in page


@pytest.mark.parametrize(
    "url",
    [
        "/tournaments/9",
        "/tournaments/9/standings",
        "/tournaments/9/qr",
        "/tournaments/9/tables/1",
        "/tournaments/9/standings/version",
    ],
)
def test_an_unknown_tournament_is_a_404(client, url):
    assert client.get(url).status_code == 404


def test_a_table_that_does_not_exist_is_a_404_and_one_before_its_round_says_so(client):
    response = create(client)
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    assert client.get(f"/tournaments/{tid}/tables/3").status_code == 404
    assert client.get(f"/tournaments/{tid}/tables/0").status_code == 404
    assert "the organiser starts the round" in client.get(f"/tournaments/{tid}/tables/1").text
    for number in (9999, 0):
        assert (
            client.post(
                f"/tournaments/{number}/draw", data={"csrf_token": csrf_token(client, "/tournaments/new")}
            ).status_code
            == 404
        )


def test_every_table_has_a_qr_code_that_opens_its_link(client):
    tid = started(client)
    page = client.get(f"/tournaments/{tid}/qr", base_url="http://192.168.1.20:8000").text
    assert len(re.findall(r'<svg[^>]*class="qr"', page)) == 2
    assert f"http://192.168.1.20:8000/tournaments/{tid}/tables/2" in page


# --- pairs moving between tables, players changing partners ------------------------------------


def test_pairs_moving_a_number_of_hands_a_round(client, app):
    pairs = "Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal\nIda & Jon"
    tid = started(client, format="mitchell", entrants=pairs, round_end="hands", round_hands="1")
    t, rounds = state(app, tid)
    assert t.rounds == 3 and len(rounds[0].tables) == 2 and len(rounds[0].byes) == 1
    # before a hand is played nothing counts, the bye neither (by the pair's average: no game yet)
    assert [(p.place, p.match_points, p.tied) for p in club_night.ranking(t, rounds)] == [(1, 0, 5)] * 5
    for table in (1, 2):
        game = table_game(client, tid, table)
        assert post_hand(client, game, *small_hand()).status_code == 302
        refused = post_hand(client, game, *small_hand())  # one hand a round
        assert refused.status_code == 409
    page = client.get(f"/tournaments/{tid}/tables/1").text
    assert "Table 2" in page  # East–West move one table up
    assert "Round 1 ended by the organiser" not in client.get(f"/tournaments/{tid}").text
    for _round in (2, 3):
        assert act(client, tid, "/rounds").status_code == 302
        # starting a round ends the one before for good, on record: over at every table by itself, not
        # ended by the organiser (a club night's review read "ended by the organiser" there)
        page = client.get(f"/tournaments/{tid}").text
        assert f"Round {_round - 1} over: the next round started" in page
        assert f"Round {_round - 1} ended by the organiser" not in page
        for table in (1, 2):
            post_hand(client, table_game(client, tid, table), *small_hand())
    t, rounds = state(app, tid)
    assert all(r.complete for r in rounds) and club_night.start_problem(t, rounds) is not None
    assert "That was the last round" in client.get(f"/tournaments/{tid}/tables/1").text
    places = club_night.ranking(t, rounds)
    # North–South won every game (150 to 130), East–West lost theirs; each East–West pair had one bye,
    # counted as its average: 0 match points and 130 points (docs/tournaments.md, "A pair that sits out")
    by_name = {t.names[p.unit]: p for p in places}
    north_south = [t.names[u] for u in t.order[:2]]
    for name in north_south:
        assert by_name[name].match_points == 6 and by_name[name].points == 450
    east_west = [t.names[u] for u in t.order[2:]]
    for name in east_west:
        assert by_name[name].match_points == 0 and by_name[name].byes == 1 and by_name[name].points == 260 + 130
    # level on everything: the two North–South pairs (never met) share 1st, the three East–West pairs 3rd
    assert [p.place for p in places] == [1, 1, 3, 3, 3]
    standings = client.get(f"/tournaments/{tid}/standings").text
    assert standings.index(north_south[0].split(" & ")[0]) < standings.index(east_west[0].split(" & ")[0])


def test_four_players_changing_partners_each_total_decides(client, app):
    tid = started(client, format="rotation", entrants="\n".join(EIGHT[:4]), round_end="hands", round_hands="1")
    seats_by_round = []
    for rnd in (1, 2, 3):
        if rnd > 1:
            assert act(client, tid, "/rounds").status_code == 302
        game = table_game(client, tid, 1)
        with app.app_context():
            g = records.get_game(dbmod.get_db(), game)
        seats_by_round.append((g.players, g.first_dealer))
        post_hand(client, game, *small_hand())  # seats 1 and 3 score 150, seats 2 and 4 130
    t, rounds = state(app, tid)
    drawn = [t.entrants[u][0] for u in t.order]
    # partners: N–S, then N–E, then N–W; the first deal passes to the left
    assert [set(p[0::2]) for p, _ in seats_by_round] == [
        {drawn[0], drawn[2]},
        {drawn[0], drawn[1]},
        {drawn[0], drawn[3]},
    ]
    assert [p[d] for p, d in seats_by_round] == drawn[:3]
    totals = {t.names[p.unit]: p.points for p in club_night.ranking(t, rounds)}
    assert totals == {drawn[0]: 450, drawn[1]: 410, drawn[2]: 410, drawn[3]: 410}
    # level players: match points are level too (one win each), so the draw decides
    assert [t.names[p.unit] for p in club_night.ranking(t, rounds)] == drawn


def test_closing_locks_a_game_left_open_for_corrections_and_its_sheets_are_read_only_after(client, app):
    tid = started(client, entrants="\n".join(EIGHT[:4]))  # one table: no final, one round
    game = table_game(client, tid, 1)
    post_hand(client, game, *win_hand())
    post_hand(client, game, *win_hand())  # 8000 to 100: the game is over, and the round
    token = csrf_token(client, f"/games/{game}")
    assert client.post(f"/games/{game}/reopen", data={"csrf_token": token}).status_code == 302
    act(client, tid, "/close")  # the sheet was left open for corrections: the close locks it
    assert state(app, tid)[0].closed_at is not None
    with app.app_context():
        assert records.get_game(dbmod.get_db(), game).reopened is False
    actions = [c["action"] for c in client.get(f"/api/games/{game}/changes").get_json()]
    assert actions[-2:] == ["game reopened", "game locked"]
    # closed: the sheet says so and offers no change; a phone following it is told (its version changes)
    url = f"/tournaments/games/{game}/version"
    closed = client.get(url).get_json()["version"]
    page = client.get(f"/games/{game}").text
    assert "The tournament is closed: its games are read-only." in page and f'data-live-version="{closed}"' in page
    for offer in ("Edit hand", "Reopen for corrections", "Corrections done", "Enter hand"):
        assert offer not in page, offer
    new_hand = client.get(f"/games/{game}/hands/new", follow_redirects=True).text  # the game is over: its sheet
    assert "The tournament is closed: its games are read-only." in new_hand
    # reopened: the sheet can be opened for a correction again
    act(client, tid, "/reopen")
    reopened = client.get(url).get_json()["version"]
    assert reopened != closed and reopened.split(".")[0] == closed.split(".")[0]  # the game itself did not change
    page = client.get(f"/games/{game}").text
    assert "Reopen for corrections" in page and "The tournament is closed" not in page


def test_a_sheet_opened_before_the_final_table_can_still_be_locked(client, app):
    tid = started(client)  # two tables, then the final
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, one, *win_hand())
    post_hand(client, one, *win_hand())  # table 1 reaches the target: the round stops
    post_hand(client, two, *small_hand())  # table 2 finishes the hand in progress
    token = csrf_token(client, f"/games/{one}")
    assert client.post(f"/games/{one}/reopen", data={"csrf_token": token}).status_code == 302
    act(client, tid, "/rounds")  # the final table: round 1 stands from now on
    hand = client.get(f"/api/games/{one}").get_json()["hands"][0]["id"]
    edit = f"/games/{one}/hands/{hand}/edit"
    refused = post_hand(client, one, side_fields(0, melded=200), side_fields(1, melded=130), url=edit)
    assert "The final table has started" in " ".join(messages(client.get(f"/games/{one}").text) + [refused.text])
    assert client.post(f"/games/{one}/lock", data={"csrf_token": token}).status_code == 302
    assert "The sheet is locked again." in client.get(f"/games/{one}").text
    with app.app_context():
        assert records.get_game(dbmod.get_db(), one).reopened is False


def test_a_read_only_link_follows_its_tables_round(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="3")
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    view = re.search(r'href="[^"]*(/view/[^"]+)"', client.get(f"/games/{game}").text).group(1)
    page = client.get(view).text
    playing = client.get(view + "/version").get_json()["version"]
    assert playing.endswith(".p") and f'data-live-version="{playing}"' in page and "Next deal" in page
    act(client, tid, "/rounds/1/end")  # the organiser ends the round: nothing saved at this table
    over = client.get(view + "/version").get_json()["version"]
    assert over == playing[:-1] + "d"
    page = client.get(view).text
    assert f'data-live-version="{over}"' in page and "Next deal" not in page


def test_the_season_of_a_year_written_otherwise_is_not_found(client):
    assert client.get("/tournaments/season?year=2026").status_code == 200
    for year in ("26", "20266", "²⁰²⁶", "2O26", "2_026"):
        assert client.get("/tournaments/season", query_string={"year": year}).status_code == 404, year
    # digits of another script are read as their values (core/numbers.py): the season of 2026
    page = client.get("/tournaments/season", query_string={"year": "２０２６"})
    assert page.status_code == 200 and "Season 2026" in page.text


# --- a round on time --------------------------------------------------------------------------------


def _started_minutes_ago(app, tid, minutes):
    moment = (datetime.now(timezone.utc) - timedelta(minutes=minutes)).isoformat(timespec="seconds")
    with app.app_context():
        db = dbmod.get_db()
        with db.conn:
            db.execute("update tournament_rounds set started_at = ? where tournament_id = ?", [moment, tid])


def test_a_round_on_time_warns_then_lets_the_hand_in_progress_finish(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    page = client.get(f"/tournaments/{tid}/standings").text
    assert re.search(r'class="s-clock"[^>]*data-left="(29\d\d|3000)"', page)  # 50 minutes, just started
    assert "The round has stopped" not in client.get(f"/tournaments/{tid}").text
    _started_minutes_ago(app, tid, 45)
    page = client.get(f"/tournaments/{tid}/standings").text
    assert 'class="s-clock warn"' in page and "10 minutes left" in page
    _started_minutes_ago(app, tid, 51)
    page = client.get(f"/tournaments/{tid}/standings").text
    assert "Time is up: finish the hand in progress." in page
    assert "The round has stopped: each table finishes the hand in progress." in client.get(f"/tournaments/{tid}").text
    assert post_hand(client, game, *small_hand()).status_code == 302  # the hand in progress
    assert post_hand(client, game, *small_hand()).status_code == 409
    _t, rounds = state(app, tid)
    assert rounds[0].complete


def test_undo_brings_back_a_hand_played_in_time_but_not_a_second_after_the_clock(client, app):
    """docs/tournaments.md, "When a round ends": when time is up each table finishes the hand in progress,
    one hand. A table that deleted the hand it finished after the clock, saved another and tapped Undo
    counted both (a review found 3 hands, two after the clock); a hand it played in time comes back."""
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    assert post_hand(client, game, *small_hand()).status_code == 302  # in time
    in_time = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    _started_minutes_ago(app, tid, 51)
    with app.app_context():  # hand 1 was saved 20 minutes into the round
        db = dbmod.get_db()
        with db.conn:
            moment = (datetime.now(timezone.utc) - timedelta(minutes=31)).isoformat(timespec="seconds")
            db.execute("update hands set created_at = ? where id = ?", [moment, in_time])
    token = csrf_token(client, f"/games/{game}")
    assert post_hand(client, game, *small_hand()).status_code == 302  # the hand in progress, after the clock
    late = client.get(f"/api/games/{game}").get_json()["hands"][1]["id"]
    client.post(f"/games/{game}/hands/{late}/delete", data={"csrf_token": token})
    assert post_hand(client, game, *small_hand()).status_code == 302  # entered again
    restored = client.post(f"/games/{game}/hands/{late}/restore", data={"csrf_token": token}, follow_redirects=True)
    assert "The round is over at this table" in html.unescape(restored.text)
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 2
    client.post(f"/games/{game}/hands/{in_time}/delete", data={"csrf_token": token})  # by mistake
    assert client.post(f"/games/{game}/hands/{in_time}/restore", data={"csrf_token": token}).status_code == 302
    assert [h["id"] for h in client.get(f"/api/games/{game}").get_json()["hands"]][0] == in_time


def test_undo_brings_back_the_one_hand_finished_after_the_clock_once_the_round_is_ended(client, app):
    """docs/tournaments.md, "When a round ends": a table finishes its hand in progress after the clock, the
    organiser then ends the round, and the table deletes that hand by mistake: Undo brings it back (it is
    the table's one hand after the clock; a first version of the rule refused it, a review found)."""
    tid = started(client, format="mitchell", entrants=FOUR_PAIRS, round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    _started_minutes_ago(app, tid, 51)
    assert post_hand(client, game, *small_hand()).status_code == 302  # the hand in progress
    act(client, tid, "/rounds/1/end")  # table 2 had not finished its own
    _t, rounds = state(app, tid)
    assert rounds[0].ended is not None
    token = csrf_token(client, f"/games/{game}")
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    client.post(f"/games/{game}/hands/{hand}/delete", data={"csrf_token": token})
    assert client.post(f"/games/{game}/hands/{hand}/restore", data={"csrf_token": token}).status_code == 302
    assert [h["id"] for h in client.get(f"/api/games/{game}").get_json()["hands"]] == [hand]


def test_undo_brings_back_the_organisers_hands_from_a_score_card(client, app):
    """docs/tournaments.md, "The director's grid": after the clock the organiser enters a silent table's hands
    from its paper score card, deletes the second by mistake and undoes it: it comes back (they are the
    organiser's, not a second hand of the table's phone after the clock)."""
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    _started_minutes_ago(app, tid, 51)
    act(client, tid, "/rounds/1/end")
    client.get(f"/tournaments/{tid}/grid/games/{game}")  # opened from the grid
    for _ in range(3):
        assert post_hand(client, game, *small_hand(), extra={"by": "organiser"}).status_code == 302
    token = csrf_token(client, f"/games/{game}")
    second = client.get(f"/api/games/{game}").get_json()["hands"][1]["id"]
    client.post(f"/games/{game}/hands/{second}/delete", data={"csrf_token": token})
    assert client.post(f"/games/{game}/hands/{second}/restore", data={"csrf_token": token}).status_code == 302
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 3


def test_undo_brings_back_no_hand_past_the_rounds_number_of_hands(client):
    """docs/tournaments.md, "When a round ends": a round of 2 hands; the table deleted its second, entered
    it again and tapped Undo: a third hand is refused as a new one would be."""
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="2")
    game = table_game(client, tid, 1)
    token = csrf_token(client, f"/games/{game}")
    for _ in range(2):
        assert post_hand(client, game, *small_hand()).status_code == 302
    second = client.get(f"/api/games/{game}").get_json()["hands"][1]["id"]
    client.post(f"/games/{game}/hands/{second}/delete", data={"csrf_token": token})
    assert post_hand(client, game, *small_hand()).status_code == 302
    restored = client.post(f"/games/{game}/hands/{second}/restore", data={"csrf_token": token}, follow_redirects=True)
    assert "The round is over at this table" in html.unescape(restored.text)
    assert len(client.get(f"/api/games/{game}").get_json()["hands"]) == 2


def test_a_table_at_the_target_stops_the_clock_of_tables_with_a_final(client):
    """docs/tournaments.md, "Tables with a final": the round ends for everyone when a side at one table reaches
    the target, time limit or not. The big screen went on counting down 30:00 and the organiser's page said
    "Time left: 30 min" beside "The round has stopped" (a review found it); the other table, finishing its
    hand in progress, read "playing"."""
    tid = started(client, round_end="minutes", round_minutes="30")
    one = table_game(client, tid, 1)
    screen = client.get(f"/tournaments/{tid}/standings").text
    assert 'class="s-time"' in screen and "reached the target" not in screen
    for _ in range(2):  # 4000 each: past the target of 5000 (docs/rules.md#classic › End of the game)
        assert post_hand(client, one, *win_hand()).status_code == 302
    screen = html.unescape(client.get(f"/tournaments/{tid}/standings").text)
    assert 'class="s-time"' not in screen and "A table has reached the target: finish the hand in progress." in screen
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert "Time left" not in page and "The round has stopped" in page
    states = re.findall(r'class="t-state">([^<]*)<', page)
    assert [x.split(" · ")[1] for x in states] == ["round over", "stopped"], states


def test_a_tables_phone_follows_its_rounds_state_without_a_save_at_its_table(client, app):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="minutes", round_minutes="50")
    game = table_game(client, tid, 1)
    url = f"/tournaments/games/{game}/version"
    page = client.get(f"/games/{game}").text
    playing = client.get(url).get_json()["version"]
    assert playing.endswith(".p") and f'data-live-version="{playing}"' in page and f'data-live-url="{url}"' in page
    assert "The round ends at" in page and "Enter hand 1" in page
    _started_minutes_ago(app, tid, 51)  # time is up: nothing was saved anywhere
    stopped = client.get(url).get_json()["version"]
    assert stopped == playing[:-1] + "s"
    page = client.get(f"/games/{game}").text
    assert "The round has stopped: finish the hand in progress." in page and f'data-live-version="{stopped}"' in page
    assert "The round has stopped" in client.get(f"/games/{game}/hands/new").text
    post_hand(client, game, *small_hand())  # the hand in progress
    done = client.get(url).get_json()["version"]
    assert done.endswith(".d")
    page = client.get(f"/games/{game}").text
    assert "Round over at this table: where to go next" in page and "Enter hand 2" not in page
    assert client.get("/tournaments/games/999/version").status_code == 404
    other = client.get(f"/games/{game}").text  # an ordinary game keeps the game's own version
    assert f'data-live-url="/api/games/{game}/version"' not in other


# --- the standings ----------------------------------------------------------------------------------


def test_the_standings_page_polls_a_version_that_every_saved_hand_raises(client):
    tid = started(client)
    url = f"/tournaments/{tid}/standings/version"
    first = client.get(url)
    assert first.headers["Cache-Control"] == "no-store"
    page = client.get(f"/tournaments/{tid}/standings").text
    assert f'data-version="{first.get_json()["version"]}"' in page and "/static/standings.js" in page
    post_hand(client, table_game(client, tid, 1), *small_hand())
    assert client.get(url).get_json()["version"] > first.get_json()["version"]
    page = client.get(f"/tournaments/{tid}/standings").text
    assert "1 hand" in page and "Round 1 of 2" in page


def test_the_standings_say_so_before_the_first_round(client):
    response = create(client)
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/tournaments/{tid}/standings").text
    assert "The round has not started yet" in page and "No hand has been played yet." in page


# --- two organisers at once -------------------------------------------------------------------------


def _rooms_on_a_server(tmp_path, count, fmt, entrants_of, steps=()):
    """An app with ``count`` tournaments (``entrants_of(n)`` the n-th one's), each taken through the
    service's ``steps`` ("draw", "start_round"): the app and their ids."""
    from tests.conftest import make_app

    app = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "race.sqlite")})
    with app.app_context():
        db = dbmod.get_db()
        ids = []
        for n in range(count):
            tid = service.create(db, name=f"T{n}", fmt=fmt, variant="classic", layout="4", entrants=entrants_of(n)).id
            for step in steps:
                getattr(service, step)(db, tid)
            ids.append(tid)
    return app, ids


def _two_taps_at_once(base, tid, path):
    """Two phones on the tournament's page tap the same button at the same instant (a ticked box
    where one is asked): their answers' statuses and the two phones."""
    from tests.test_concurrency import Phone, _at_once

    phones = [Phone(base), Phone(base)]
    tokens = [p.form(f"/tournaments/{tid}")["csrf_token"] for p in phones]
    calls = [
        (lambda p=p, t=t: p.post(f"/tournaments/{tid}{path}", {"csrf_token": t, "sure": "y"}))
        for p, t in zip(phones, tokens)
    ]
    return [status for status, _, _ in _at_once(calls)], phones


@pytest.mark.slow
def test_two_taps_on_start_round_at_once_start_one_round(tmp_path):
    from tests.helpers import served

    app, ids = _rooms_on_a_server(tmp_path, 8, "final", lambda n: [(f"{n}{x}",) for x in EIGHT], steps=("draw",))
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in ids:
            statuses, phones = _two_taps_at_once(base, tid, "/rounds")
            assert statuses == [302, 302]
            with app.app_context():
                db = dbmod.get_db()
                rounds = db.execute("select count(*) from tournament_rounds where tournament_id = ?", [tid]).fetchone()[
                    0
                ]
                tables = db.execute("select count(*) from tournament_games where tournament_id = ?", [tid]).fetchone()[
                    0
                ]
            assert (rounds, tables) == (1, 2)
            pages = [p.get(f"/tournaments/{tid}") for p in phones]
            assert sum("Round 1 is still being played." in page for page in pages) == 1


@pytest.mark.slow
def test_the_organisers_double_taps_at_once_act_once(tmp_path):
    """Two phones tap the same button at the same instant: one draw, one end of the round, one close, one
    reopening, each once on record; the other phone is told why."""
    from tests.helpers import served

    app, ids = _rooms_on_a_server(tmp_path, 5, "final", lambda n: [(f"{n}{x}",) for x in EIGHT])

    def log(tid, action):
        with app.app_context():
            return (
                dbmod.get_db()
                .execute("select count(*) from tournament_log where tournament_id = ? and action = ?", [tid, action])
                .fetchone()[0]
            )

    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in ids:
            for path, action, told in (
                ("/draw", "draw", "The seats are drawn already."),
                ("/rounds", "round started", "Round 1 is still being played."),
                ("/rounds/1/end", "round ended", "Round 1 is over already."),
                ("/close", "closed", "The tournament is closed."),
                ("/reopen", "reopened", "The tournament is not closed."),
            ):
                statuses, phones = _two_taps_at_once(base, tid, path)
                assert statuses == [302, 302]
                assert log(tid, action) == 1, (tid, action)
                pages = [p.get(f"/tournaments/{tid}") for p in phones]
                assert sum(told in page for page in pages) == 1, (tid, path)


@pytest.mark.slow
def test_a_hand_saved_as_the_organiser_ends_the_round_is_either_saved_first_or_refused(tmp_path):
    from tests.helpers import as_the_form_posts, served
    from tests.test_concurrency import Phone, _at_once

    app, ids = _rooms_on_a_server(
        tmp_path, 8, "mitchell", lambda n: [(f"A{n}", f"B{n}"), (f"C{n}", f"D{n}")], steps=("draw", "start_round")
    )
    with app.app_context():
        db = dbmod.get_db()
        games = [
            (tid, tournament_state.rounds(db, tournament_records.get(db, tid))[0].tables[0].game_id) for tid in ids
        ]
    outcomes = set()
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid, game in games:
            organiser, table = Phone(base), Phone(base)
            end = {"csrf_token": organiser.form(f"/tournaments/{tid}")["csrf_token"], "sure": "y"}
            hand = {
                **table.form(f"/games/{game}/hands/new"),
                **as_the_form_posts({k: v for side in small_hand() for k, v in side.items()}, {}),
            }
            results = _at_once(
                [
                    lambda: organiser.post(f"/tournaments/{tid}/rounds/1/end", end),
                    lambda: table.post(f"/games/{game}/hands/new", hand),
                ]
            )
            ended, saved = results[0][0], results[1][0]
            with app.app_context():
                hands = records.hand_count(dbmod.get_db(), game)
            assert ended == 302 and saved in (302, 409) and hands == (1 if saved == 302 else 0), (ended, saved, hands)
            outcomes.add(saved)
    assert outcomes  # which one came first is the server's to decide; both are consistent


def test_a_club_night_begun_after_midnight_is_listed_on_its_evening(client, monkeypatch):
    """docs/tournaments.md: a tournament's games are its evening's; a night whose tournament was made at
    00:30 is still the evening before (until 6), as its evening in the archive says: the list said the
    next day's date (a club night's review)."""
    import time

    from scorekeeper.core import clock
    from scorekeeper.storage import transaction

    monkeypatch.setenv("TZ", "Europe/Vienna")  # 00:30 in Vienna is 23:30 UTC in November
    time.tzset()
    try:
        now = datetime.fromisoformat("2026-11-29T00:30").astimezone().astimezone(timezone.utc)
        monkeypatch.setattr(transaction, "utc_now", lambda: now.isoformat(timespec="seconds"))
        monkeypatch.setattr(clock, "today", lambda: clock.evening_of(now.astimezone().replace(tzinfo=None)))
        made = create(client, name="Late night")
        assert made.status_code == 302
        listed = re.search(r"Late night</strong>\s*<span>([^<]*)</span>", client.get("/tournaments").text).group(1)
        assert "2026-11-28" in listed, listed
        tid = int(made.headers["Location"].rsplit("/", 1)[1])
        act(client, tid, "/draw")
        act(client, tid, "/rounds")  # its evening, made now: the 28th's
        listed = re.search(r"Late night</strong>\s*<span>([^<]*)</span>", client.get("/tournaments").text).group(1)
        assert "2026-11-28" in listed, listed
    finally:
        monkeypatch.undo()
        time.tzset()
