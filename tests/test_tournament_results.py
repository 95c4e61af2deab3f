"""A tournament table's game ends with its round (docs/tournaments.md, "When a round ends"): once a
later round has started or the tournament is closed, the game is finished, won by the higher total
(level totals: drawn), and counts in the statistics, the history and the evening like any finished game."""

from __future__ import annotations

import io
import json
import re
import sqlite3

from scorekeeper.core import scoring
from scorekeeper.storage.db import open_db
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, side_fields
from tests.test_tournaments import act, small_hand, started, table_game

PAIRS = "Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal"


def _night(client) -> tuple[int, int, int]:
    """Four pairs at two tables, rounds of one hand: table 1 scores 150 : 130 (docs/rules.md#classic ›
    Card values: melded points only), table 2 130 : 130."""
    tid = started(client, format="mitchell", entrants=PAIRS, round_end="hands", round_hands="1")
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    assert post_hand(client, one, *small_hand()).status_code == 302
    assert post_hand(client, two, side_fields(0, melded=130), side_fields(1, melded=130)).status_code == 302
    return tid, one, two


def _finished(client) -> dict[str, tuple[str, str]]:
    """Each player's games finished and won, as the players list says them."""
    page = client.get("/players").text
    found = re.findall(r'>(\w+)</span>\s*<span class="game-meta">([^<]*)</span>', page)
    return {
        name: (meta.split(" · ")[0], next(p for p in meta.split(" · ") if p.endswith("won"))) for name, meta in found
    }


def test_a_round_once_past_finishes_its_tables_games_for_the_statistics(client):
    tid, one, two = _night(client)
    # round 1 is over at both tables, but still the current round: its games are not decided yet
    assert not client.get(f"/api/games/{one}").get_json()["finished"]
    assert all(games == "0 games finished" for games, _won in _finished(client).values())
    assert act(client, tid, "/rounds").status_code == 302  # round 2 starts: round 1 is past
    game = client.get(f"/api/games/{one}").get_json()
    assert game["finished"] and game["winner"] == 0 and game["margin"] == 20
    drawn = client.get(f"/api/games/{two}").get_json()
    assert drawn["finished"] and drawn["winner"] is None and drawn["tie"]
    counted = _finished(client)
    assert {games for games, _won in counted.values()} == {"1 game finished"} and len(counted) == 8
    winners = sorted(name for name, (_games, won) in counted.items() if won == "1 won")
    side = client.get(f"/api/games/{one}").get_json()["sides"][0]
    assert winners == sorted(side["players"])
    history = client.get("/history").text
    assert f"{side['name']} won by 20" in history.replace("&amp;", "&") and "drawn" in history
    # the sheet says it too, and takes a correction only once reopened, like any finished game
    sheet = client.get(f"/games/{one}").text
    assert "Reopen for corrections" in sheet
    assert "Play again with the same players" not in sheet  # the table plays its next round instead


def test_the_close_finishes_the_last_round_and_a_reopening_opens_it_again(client):
    tid, one, _two = _night(client)
    assert act(client, tid, "/close").status_code == 302
    assert client.get(f"/api/games/{one}").get_json()["finished"]
    assert act(client, tid, "/reopen").status_code == 302
    assert not client.get(f"/api/games/{one}").get_json()["finished"]  # corrections go on at the table
    assert all(games == "0 games finished" for games, _won in _finished(client).values())
    assert act(client, tid, "/close").status_code == 302
    assert {games for games, _won in _finished(client).values()} == {"1 game finished"}


def test_a_table_without_a_hand_is_no_game_played(client):
    tid = started(client, format="mitchell", entrants=PAIRS, round_end="hands", round_hands="1")
    one, empty = table_game(client, tid, 1), table_game(client, tid, 2)
    assert post_hand(client, one, *small_hand()).status_code == 302
    act(client, tid, "/rounds/1/end")
    assert act(client, tid, "/close").status_code == 302
    assert not client.get(f"/api/games/{empty}").get_json()["finished"]
    counted = _finished(client)
    assert sorted(games for games, _won in counted.values()).count("1 game finished") == 4


def test_an_archive_kept_before_games_ended_with_their_round_counts_them_when_opened(app, client):
    tid, one, _two = _night(client)
    assert act(client, tid, "/rounds").status_code == 302
    path = app.config["DATABASE"]
    with sqlite3.connect(path) as db:  # as the figures were kept before: round 1's games still in play
        for (game_id,) in db.execute("select game_id from tournament_games where round = 1").fetchall():
            kept = json.loads(db.execute("select kept from game_results where game_id = ?", [game_id]).fetchone()[0])
            kept["result"] = {"finished": False, "winner": None, "margin": None, "tie": False, "leads": []}
            kept["ended_after"], kept["end_totals"] = None, None
            db.execute(
                "update game_results set kept = ?, finished = 0, winner = null where game_id = ?",
                [json.dumps(kept), game_id],
            )
        db.execute("update player_results set finished = 0, won = 0")
        db.execute("update player_totals set finished = 0, won = 0")
        db.execute("delete from _sqlite_migrations where name = 'm025_tournament_games_end_with_their_round'")
    db.close()
    assert all(games == "0 games finished" for games, _won in _finished(client).values())
    open_db(path).close()  # the app opening its archive after an upgrade
    assert {games for games, _won in _finished(client).values()} == {"1 game finished"}


def test_an_export_imported_keeps_the_games_that_ended_with_their_round(client, tmp_path):
    tid, one, _two = _night(client)
    assert act(client, tid, "/rounds").status_code == 302
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    other = fresh.test_client()
    data = client.get("/export.json").data
    answer = other.post(
        "/import",
        data={"csrf_token": csrf_token(other, "/export"), "file": (io.BytesIO(data), "archive.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 302
    assert other.get(f"/api/games/{one}").get_json()["finished"]
    assert _finished(other) == _finished(client) and {games for games, _won in _finished(other).values()} == {
        "1 game finished"
    }


def test_the_result_of_a_game_ended_by_its_round_worked_out():
    """docs/tournaments.md, "When a round ends" and "Ranking and ties": the higher total wins by its
    lead over the next; three sides 300, 500, 450: the second wins by 50 (leads 200, 0, 50); level at
    the top: drawn."""
    won = scoring.round_result((300, 500, 450))
    assert (won.finished, won.winner, won.margin, won.leads, won.tie) == (True, 1, 50, (200, 0, 50), False)
    level = scoring.round_result((500, 500, 450))
    assert (level.finished, level.winner, level.tie) == (True, None, True)
