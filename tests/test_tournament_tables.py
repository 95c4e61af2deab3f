"""Tables of four, five and six through the pages (docs/tournaments.md, "Tables of four, five and six"):
13, 14 and 15 players seated without a reserve, each table's game made with its size's rules, the
players changing partners at a table of five and six, the final table of three pairs; bad counts and
missing rules refused beside their field."""

from __future__ import annotations

import html
import re

from scorekeeper.core import club_night
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.helpers import post_hand
from tests.test_tournaments import act, create, small_hand, started, state, table_game

NAMES = [f"Player{c}" for c in "ABCDEFGHIJKLMNO"]


def _games(app, tid) -> list:
    """The games of the tournament's latest round, table 1 first."""
    t, rounds = state(app, tid)
    with app.app_context():
        return [records.get_game(dbmod.get_db(), table.game_id) for table in rounds[-1].tables]


def test_thirteen_fourteen_fifteen_players_sit_without_a_reserve(client, app):
    """13 players: tables of 4, 4, 5; 14: 4, 4, 6; 15: 4, 5, 6 — each game with its size's rule set."""
    for count, sizes in ((13, [4, 4, 5]), (14, [4, 4, 6]), (15, [4, 5, 6])):
        tid = started(
            client,
            name=f"Night of {count}",
            entrants="\n".join(NAMES[:count]),
            rules_5="austrian:5",
            rules_6="six-3x2:6-pairs",
        )
        games = _games(app, tid)
        assert [len(g.players) for g in games] == sizes, count
        variants = [(g.variant, g.layout) for g in games]
        assert variants == [{4: ("classic", "4"), 5: ("austrian", "5"), 6: ("six-3x2", "6-pairs")}[s] for s in sizes]
        page = html.unescape(client.get(f"/tournaments/{tid}").text)
        assert page.count("t-table") >= len(sizes)
        # the page says what a table of five and of six plays: the draw's, and the final table's (three
        # tables' winning pairs sit at a table of six; a winning side of three at one of five or six)
        assert "A table of 5 plays Austrian rulebook" in page
        assert "A table of 6 plays Classic Canasta, 6 players in three teams of 2" in page
        t, _rounds = state(app, tid)
        assert f"{len(sizes)}.{sizes[-1]}" in page  # the last seat of the draw, e.g. "3.5"
        assert sorted(u for table in _rounds[0].tables for side in table.units for u in side) == list(range(count))
        assert client.get(f"/api/tournaments/{tid}").get_json()["table_sizes"] == sizes


def test_players_changing_partners_at_a_table_of_five_sit_out_in_turn(client, app):
    """Players changing partners, 9 players: a table of four and one of five; five rounds, the table of
    four done after three; the table of five's phone says who sits out."""
    tid = started(client, format="rotation", entrants="\n".join(NAMES[:9]), round_end="hands", round_hands="1")
    t, rounds = state(app, tid)
    assert t.rounds == 5 and [len(x.seats) for x in rounds[0].tables] == [4, 4]
    sitting = t.names[rounds[0].byes[0].unit]
    assert sitting == t.names[t.order[4]]  # the first drawn to the table of five sits out Partie 1
    for number in (1, 2, 3, 4, 5):
        for table in sorted(x.table for x in state(app, tid)[1][-1].tables):
            assert post_hand(client, table_game(client, tid, table), *small_hand()).status_code == 302
        if number < 5:
            assert act(client, tid, "/rounds").status_code == 302
    t, rounds = state(app, tid)
    assert [len(r.tables) for r in rounds] == [2, 2, 2, 1, 1]
    assert {b.unit for r in rounds for b in r.byes} == set(t.order[4:])  # each of the five sat out once
    act(client, tid, "/close")
    page = client.get(f"/tournaments/{tid}").text
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert "a Partie" in page  # tables of different sizes: the points per Partie are shown


def test_eight_players_name_no_table_of_five_or_six(client, app):
    """Two tables of four: the final is two pairs at a table of four; the page names no other table."""
    tid = started(client, name="Eight", entrants="\n".join(NAMES[:8]))
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert "A table of 5 plays" not in page and "A table of 6 plays" not in page


def test_a_count_or_rules_that_cannot_seat_everyone_are_refused(client):
    seven = create(client, entrants="\n".join(NAMES[:7]))
    assert seven.status_code == 422
    assert "7 players: tables seat four to six. Add one more or leave one out." in html.unescape(seven.text)
    # "Tables of four, five and six": 4 to 6 players at one table; from 8, tables of four and one of five or
    # six or one of each, n // 4 tables in all, at most 16: 8 to 67 players
    for count in range(0, 101):
        seated = 4 <= count <= 6 or 8 <= count <= 67
        assert (club_night.entrant_problems("final", [(f"P{i}",) for i in range(count)]) == []) == seated, count
    # the form says the same at each edge (a page per count, 0 to 100, took seconds and found no more)
    edges = (0, 3, 4, 6, 7, 8, 67, 68, 100)
    for count in edges:
        response = create(client, name=f"Count {count}", entrants="\n".join(f"P{i}" for i in range(count)))
        seated = 4 <= count <= 6 or 8 <= count <= 67
        assert response.status_code == (302 if seated else 422), count
        if not seated:
            assert 'id="entrants-error"' in response.text, count
    listed = client.get("/tournaments").text
    assert [n for n in edges if f"Count {n}<" in listed] == [4, 6, 8, 67]
    wrong = create(client, entrants="\n".join(NAMES[:5]), rules_5="austrian:6-rotating")
    assert wrong.status_code == 422 and re.search(r'id="rules_5-error"', wrong.text)
