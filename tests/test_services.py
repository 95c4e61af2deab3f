"""The services for evenings, players, phones and the archive on an in-memory database, the results
the core works out for storage to keep, and the pages that call them."""

from __future__ import annotations

import re

import pytest

from benchmarks.load import TYPICAL
from scorekeeper.core import results as worked_out
from scorekeeper.core import rulesets, sheet
from scorekeeper.core.models import Game, Hand
from scorekeeper.services import archive, evenings, phones, players
from scorekeeper.services.verdicts import MISSING, REFUSED, SAVED
from scorekeeper.storage import backup, records
from scorekeeper.storage import db as dbmod
from scorekeeper.storage.export_check import NotAnExport
from scorekeeper.web.games.changelog import ACTION_NAMES
from tests.helpers import new_game, post_hand, side_fields, start_game

NAMES4 = ["Anna", "Bert", "Carl", "Dora"]


@pytest.fixture
def db():
    database = dbmod.open_db(":memory:")
    yield database
    database.close()


def test_a_renamed_player_keeps_his_games_and_a_taken_name_is_refused_inside_the_write(db):
    new_game(db, "classic", NAMES4)
    ids = {p.name: p.id for p in records.list_players(db)}
    assert players.rename_player(db, ids["Anna"], "Anne").status == SAVED
    assert records.get_game(db, 1).players[0] == "Anne"
    refused = players.rename_player(db, ids["Bert"], "anne")
    assert refused.status == REFUSED and refused.problems[0].args == {"name": "anne"}
    assert players.rename_player(db, 999, "Zed").status == MISSING


def test_a_merge_is_refused_for_two_at_one_table_and_for_a_player_gone(db):
    new_game(db, "classic", NAMES4)
    new_game(db, "classic", ["Eve", "Fritz", "Gus", "Hal"])
    ids = {p.name: p.id for p in records.list_players(db)}
    assert players.merge_players(db, ids["Anna"], ids["Bert"]).status == REFUSED  # same game: two people
    assert players.merge_players(db, ids["Anna"], ids["Anna"]).status == REFUSED
    merged = players.merge_players(db, ids["Anna"], ids["Eve"])
    assert merged.status == SAVED and merged.extra == {"name": "Eve"}
    assert players.merge_players(db, ids["Anna"], ids["Eve"]).status == REFUSED  # Eve is gone now
    assert players.merge_players(db, ids["Eve"], ids["Anna"]).status == MISSING


def test_an_evening_moved_to_another_date_moves_its_games_day(db):
    evening = evenings.create_evening(db, "2026-11-01", NAMES4).id
    new_game(db, "classic", NAMES4, evening_id=evening)
    assert evenings.update_evening(db, evening, "2026-11-08", NAMES4).status == SAVED
    assert {r[0] for r in db.execute("select day from game_results")} == {"2026-11-08"}
    assert {r[0] for r in db.execute("select day from player_results")} == {"2026-11-08"}
    assert evenings.update_evening(db, 999, "2026-11-08", NAMES4).status == MISSING


def test_a_phone_is_named_once(db):
    assert phones.name_phone(db, "token-1", "Anna's phone").status == SAVED
    assert phones.name_phone(db, "token-1", "Bert's phone").status == REFUSED
    assert records.phone_name(db, "token-1") == "Anna's phone"


def test_a_restore_into_an_archive_that_is_not_empty_is_refused_and_changes_nothing(db):
    new_game(db, "classic", NAMES4)
    data = backup.export(db)
    with pytest.raises(NotAnExport):
        archive.restore_archive(db, data)
    assert archive.restore_archive(db, data, replace=True)["games"] == 1
    count, same = archive.rebuild_ratings(db)
    assert count == 0 and same


def test_every_action_of_the_log_has_its_words_on_the_page():
    assert set(ACTION_NAMES) == set(records.ACTIONS)


# --- what the core works out for storage to keep ------------------------------------------------


def _game() -> tuple[Game, rulesets.RuleSet]:
    game = Game(7, "classic", NAMES4, 0, "2026-11-01T20:00:00+00:00")
    return game, sheet.rules_for(game)


def test_each_players_row_says_his_side_whether_it_won_and_his_margin():
    game, rules = _game()
    running = sheet.running_of_hands(rules, [((5000, 100), (1, 0), 0)])
    rows = worked_out.player_rows(game, rules, running, {0: 10, 1: 11, 2: 12}, "2026-11-01")  # seat 3: a guest
    by_player = {r["player_id"]: r for r in rows}
    assert [r["player_id"] for r in rows] == [10, 12, 11]  # side 0 (seats 0, 2), then side 1
    assert by_player[10]["won"] == by_player[12]["won"] == 1 and by_player[11]["won"] == 0
    assert by_player[10]["margin"] == -by_player[11]["margin"] and by_player[10]["margin"] > 0
    assert sum(worked_out.settlement_balance(rules, running).values()) == 0


def test_hands_stored_without_scores_are_scored_once_and_given_back_to_keep():
    game, rules = _game()
    sides = [{"melded_points": 100, "hand_points": 0}, {"melded_points": 80, "hand_points": 0}]
    stored = [
        (Hand(1, game.id, sides, "", "", True, None), (120, 80)),
        (Hand(2, game.id, sides, "", "", True, None), None),
    ]
    scored, new = worked_out.score_hands(rules, stored)
    assert scored[0][0] == (120, 80) and list(new) == [2] and scored[1][0] == new[2]


def test_a_rating_step_rates_a_newly_finished_last_game_alone_and_anything_else_again():
    game, rules = _game()
    running = sheet.running_of_hands(rules, [((5000, 100), (1, 0), 0)])
    outcome = worked_out.rating_outcome(rules, running, [(10, 0), (11, 1)])
    key = worked_out.outcome_key(outcome)
    assert outcome is not None and worked_out.rating_outcome(rules, running, [(10, 0)]) is None  # one side: no rating
    assert worked_out.rating_step(5, outcome, key, 4) == worked_out.RATED_AS_BEFORE
    assert worked_out.rating_step(5, outcome, None, 4) == worked_out.RATE_NEXT
    assert worked_out.rating_step(5, outcome, None, None) == worked_out.RATE_NEXT
    assert worked_out.rating_step(3, outcome, None, 4) == worked_out.RATE_AGAIN
    assert worked_out.rating_step(5, None, key, 4) == worked_out.RATE_AGAIN


# --- the pages --------------------------------------------------------------------------------


def test_play_again_passes_the_deal_past_a_player_sitting_out(client):
    names = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    game_id = start_game(client, variant="austrian", names=names, first_dealer=2, layout="5")
    sides = (side_fields(0, melded=100, hand=0), side_fields(1, melded=80, hand=0))
    post_hand(client, game_id, *sides, extra={"stock_out": "y", "confirm": "y"})
    page = client.get(f"/games/new/austrian?again={game_id}").text
    checked = re.search(r'name="first_dealer" value="(\d)" checked', page)
    # hand 2 would be seat 3's deal, but seat 3 sits that hand out (seats 2-4 take turns): seat 4 deals
    assert checked and checked.group(1) == "4"


@pytest.mark.parametrize("settings", [{}, {"opening_by_hand": [50, 90, 120]}, {"opening_per_hand": 40}])
def test_the_next_hands_figures_from_the_kept_figures_are_the_replayed_sheets(tmp_path, settings):
    """The hand form takes the next hand's number, the totals before it and the opening minimums from
    the game's kept running figures (sheet.next_hand); after every hand they are the replayed sheet's,
    with minimums by the total and by the hand's number (docs/rules.md, "Opening minimum")."""
    from scorekeeper.core import sheet
    from scorekeeper.storage import records
    from scorekeeper.storage.db import open_db
    from tests.helpers import new_game, saved_hand

    db = open_db(str(tmp_path / "next.sqlite"))
    game_id = new_game(db, "classic", settings=settings)
    for hand in TYPICAL * 3:  # three hands of a Classic evening, as the phones send them (load.py's game)
        saved_hand(db, game_id, hand)
        game = records.get_game(db, game_id)
        replay = sheet.build(game, records.hands(db, game_id))
        kept = sheet.next_hand(sheet.rules_for(game), records.running_of(db, game_id))
        assert kept == (len(replay.rows) + 1, replay.state.totals, replay.state.opening_minimums)
    assert kept[0] == 10 and kept[1] != (0, 0)
