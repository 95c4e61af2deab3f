"""A tournament through the JSON API (docs/api.md, "GET /api/tournaments/<id>"): the list, a Mitchell
evening with a bye as it stands, the draw (each entrant's draw number, every round's seats by the rules
of docs/tournaments.md, "The draw", "Pairs moving between tables", "Players changing partners",
"Tables with a final"), the standings final once closed and live again once reopened, an unknown id, and
the password. Every answer is also checked against the OpenAPI document."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.core import club_night
from scorekeeper.services import games, tournament_state
from scorekeeper.services import tournaments as service
from scorekeeper.services.verdicts import SAVED
from scorekeeper.storage import tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web import openapi
from tests.conftest import make_app
from tests.test_access import LOCKED
from tests.test_openapi import _field_table, _problems, _schema, doc_examples

PAIRS = [("Anna", "Bert"), ("Carl", "Dora"), ("Emil", "Fini")]
# Classic (docs/rules.md, "Classic Canasta"): going out 100, a natural canasta 500, melded 300: 900;
# the other side melded 120 and holds nothing
OUT = {"went_out": "normal", "natural_canastas": 1, "melded_points": 300}
MELDED = {"melded_points": 120}


def _valid(path: str, status: int, body) -> None:
    document = openapi.document()
    assert _problems(document, _schema(document, "get", path, str(status)), body) == [], body


def _pairs_night(app, **more) -> tuple[int, int]:
    """Three pairs between tables (Mitchell, 3 hands a round), drawn with seed 3, round 1 started and
    one hand saved at its only table: the tournament's id and that table's game."""
    with app.app_context():
        db = get_db()
        made = service.create(
            db,
            name="Thursday pairs",
            fmt="mitchell",
            variant="classic",
            layout="4",
            entrants=PAIRS,
            round_end="hands",
            round_hands=3,
            **more,
        )
        assert service.draw(db, made.id, seed=3).status == SAVED
        assert service.start_round(db, made.id).status == SAVED
        t = tournament_records.get(db, made.id)
        game = tournament_state.rounds(db, t)[0].tables[0].game_id
        assert games.add_hand(db, game, [OUT, MELDED], False).status == SAVED
        return made.id, game


def test_an_empty_archive_lists_no_tournament(client):
    response = client.get("/api/tournaments")
    assert response.status_code == 200 and response.get_json() == []


def test_the_list_says_how_far_each_tournament_has_come(app, client):
    tid, _game = _pairs_night(app)
    with app.app_context():
        later = service.create(
            get_db(),
            name="Spring open",
            fmt="final",
            variant="classic",
            layout="4",
            entrants=[(n,) for n in "ABCDEFGH"],
        ).id
    listed = client.get("/api/tournaments").get_json()
    _valid("/api/tournaments", 200, listed)
    assert listed == [
        {
            "id": later,
            "name": "Spring open",
            "format": "final",
            "entrants": 8,
            "rounds": 2,
            "rounds_started": 0,
            "drawn": False,
            "closed": False,
        },
        {
            "id": tid,
            "name": "Thursday pairs",
            "format": "mitchell",
            "entrants": 3,
            "rounds": 2,
            "rounds_started": 1,
            "drawn": True,
            "closed": False,
        },
    ]


def test_a_tournament_as_it_stands(app, client):
    tid, game = _pairs_night(app)
    answer = client.get(f"/api/tournaments/{tid}").get_json()
    _valid("/api/tournaments/{id}", 200, answer)
    assert (answer["format"], answer["variant"], answer["round_end"], answer["round_hands"]) == (
        "mitchell",
        "classic",
        "hands",
        3,
    )
    assert answer["entrants"] == [list(p) for p in PAIRS] and answer["rounds"] == 2
    assert answer["drawn_at"] and answer["closed_at"] is None and answer["evening"] is not None
    [played] = answer["played"]
    assert played["number"] == 1 and played["ended_at"] is None and played["over"] is False
    # three pairs: the last table has no North–South pair, and the East–West pair drawn to it sits out
    with app.app_context():
        t = tournament_records.get(get_db(), tid)
        north_south, east_west, bye = (list(PAIRS[u]) for u in t.order)
    [table] = played["tables"]
    assert table == {
        "table": 1,
        "game": game,
        "hands": 1,
        "over": False,
        "unconfirmed": [],
        "sides": [{"players": north_south, "total": 900}, {"players": east_west, "total": 120}],
    }
    assert answer["confirm_hands"] is False  # the other side confirms no hand: none waits (unconfirmed is empty)
    assert played["sitting_out"] == [bye]
    # match points: a win 2 (the game as it stands); the bye counts the pair's average, and it has played
    # no game yet: nothing counts for it, and it stands after the pairs with a result
    assert answer["bye_score"] == "average" and answer["ties"] == "shared"
    assert [
        (s["place"], s["players"], s["match_points"], s["points"], s["byes"], s["shared"]) for s in answer["standings"]
    ] == [(1, north_south, 2, 900, 0, 1), (2, east_west, 0, 120, 0, 1), (3, bye, 0, 0, 1, 1)]
    assert {s["season_points"] for s in answer["standings"]} == {None}  # not closed: none yet
    # the table's game is the ordinary game of the API
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [900, 120]


def test_closed_the_standings_carry_season_points_and_reopened_they_do_not(app, client):
    tid, game = _pairs_night(app, season_points=(5, 3))
    with app.app_context():
        db = get_db()
        assert service.end_round(db, tid, 1).status == SAVED
        assert service.start_round(db, tid).status == SAVED
        t = tournament_records.get(db, tid)
        assert service.end_round(db, tid, 2).status == SAVED
        assert service.close(db, tid).status == SAVED
    closed = client.get(f"/api/tournaments/{tid}").get_json()
    _valid("/api/tournaments/{id}", 200, closed)
    assert closed["closed_at"] is not None and [r["over"] for r in closed["played"]] == [True, True]
    assert [r["ended_at"] is not None for r in closed["played"]] == [True, True]
    assert [(s["place"], s["season_points"]) for s in closed["standings"]] == [(1, 5), (2, 3), (3, 0)]
    assert closed["standings"][0]["players"] == list(PAIRS[t.order[0]])
    assert client.get("/api/tournaments").get_json()[0]["closed"] is True
    with app.app_context():
        assert service.reopen(get_db(), tid).status == SAVED
    reopened = client.get(f"/api/tournaments/{tid}").get_json()
    assert reopened["closed_at"] is None and {s["season_points"] for s in reopened["standings"]} == {None}
    assert [s["players"] for s in reopened["standings"]] == [s["players"] for s in closed["standings"]]


def test_an_unknown_tournament_is_a_404_with_the_errors_shape(client):
    for url in ("/api/tournaments/7", f"/api/tournaments/{2**63}"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.get_json() == {
            "errors": [{"side": None, "field": "id", "message": "Not found.", "shared": False}]
        }
    _valid("/api/tournaments/{id}", 404, client.get("/api/tournaments/7").get_json())


def test_with_a_password_the_tournaments_are_not_shown_to_a_phone_without_it(tmp_path):
    app = make_app({**LOCKED, "DATABASE": str(tmp_path / "locked.sqlite")})
    tid, _game = _pairs_night(app)
    stranger = app.test_client()
    for url in ("/api/tournaments", f"/api/tournaments/{tid}"):
        refused = stranger.get(url)
        assert refused.status_code == 401 and refused.get_json()["errors"][0]["field"] == "password", url
        assert "Anna" not in refused.text


# --- the draw and every round's seats (docs/tournaments.md, "The draw") ----------------------------

API_MD = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
# Classic: going out 100, a mixed canasta 300, melded 100: 500 (less than OUT's 900)
OUT_SMALL = {"went_out": "normal", "mixed_canastas": 1, "melded_points": 100}


def _drawn(app, name, fmt, entrants, seed, **more) -> int:
    """A tournament created and drawn with this seed (no round started): its id."""
    with app.app_context():
        db = get_db()
        made = service.create(
            db,
            name=name,
            fmt=fmt,
            variant="classic",
            layout="4",
            entrants=entrants,
            round_end="hands",
            round_hands=1,
            **more,
        )
        assert service.draw(db, made.id, seed=seed).status == SAVED
        return made.id


def _answer(client, tid) -> dict:
    answer = client.get(f"/api/tournaments/{tid}").get_json()
    _valid("/api/tournaments/{id}", 200, answer)
    return answer


def _seats(table: dict) -> list[tuple[str, str]]:
    return [(seat["seat"], seat["name"]) for seat in table["seats"]]


def _dealer(table: dict) -> str:
    """The name in the seat that deals first."""
    return dict(_seats(table))[table["first_dealer"]]


def test_the_docs_example_of_the_draw_is_what_the_app_answers(app, client):
    """docs/api.md's example is the Thursday pairs drawn with seed 3: Carl & Dora first, Emil & Fini
    second, Anna & Bert third (tests/test_openapi.py checks the example against the document)."""
    tid, _game = _pairs_night(app)
    answer = _answer(client, tid)
    [example] = [e for m, p, s, e in doc_examples(API_MD) if (m, p, s) == ("get", "/api/tournaments/{id}", "200")]
    assert club_night.draw(len(PAIRS), 3) == [1, 2, 0]  # the core's draw order for this seed
    assert answer["draw_numbers"] == example["draw_numbers"] == [3, 1, 2]
    assert answer["seating"] == example["seating"]
    # the table's game is seated as the seating says, and its first dealer deals hand 1
    game = client.get(f"/api/games/{answer['played'][0]['tables'][0]['game']}").get_json()
    first = answer["seating"][0]["tables"][0]
    assert game["players"] == [name for _seat, name in _seats(first)] and game["hands"][0]["dealer"] == _dealer(first)


def test_the_docs_say_what_each_field_of_the_draw_means(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    section = API_MD[API_MD.index("## `GET /api/tournaments/<id>`") :]
    tabled = {
        "draw_numbers",
        "seating",
        "played",
        "bye_score",
        "ties",
        "table_sizes",
        "table_rules",
        "confirm_hands",
        "standings",
    }
    assert tabled <= set(schemas["Tournament"]["properties"])
    assert _field_table(section, "| field | meaning |") == tabled
    assert _field_table(section, "A round of `seating`") == set(schemas["DrawRound"]["properties"])


def test_before_the_draw_there_are_no_draw_numbers_and_no_seats(app, client):
    with app.app_context():
        tid = service.create(
            get_db(), name="Spring open", fmt="rotation", variant="classic", layout="4", entrants=[(n,) for n in "ABCD"]
        ).id
    answer = _answer(client, tid)
    assert answer["draw_numbers"] is None and answer["seating"] == [] and answer["drawn_at"] is None


def test_tables_with_a_final_seat_the_first_four_drawn_at_table_1_and_the_final_table_once_it_starts(app, client):
    players = [f"Player{c}" for c in "ABCDEFGH"]
    tid = _drawn(app, "Spring open", "final", [(p,) for p in players], seed=5)
    order = club_night.draw(8, 5)  # the lot: entrant order[0] is drawn first, …
    drawn = [players[u] for u in order]
    answer = _answer(client, tid)
    assert answer["draw_numbers"] == [order.index(u) + 1 for u in range(8)]
    # "The draw": the first four drawn at table 1, seats 1 to 4, the next four at table 2; seat 1 deals first.
    # Only round 1 before it starts: the final table comes from its results.
    tables = [
        {
            "table": k,
            "first_dealer": f"{k}.1",
            "seats": [{"seat": f"{k}.{s}", "name": drawn[4 * (k - 1) + s - 1]} for s in range(1, 5)],
        }
        for k in (1, 2)
    ]
    assert answer["seating"] == [{"number": 1, "started": False, "tables": tables, "sitting_out": []}]
    with app.app_context():
        db = get_db()
        assert service.start_round(db, tid).status == SAVED
        one, two = (table.game_id for table in tournament_state.rounds(db, tournament_records.get(db, tid))[0].tables)
        # table 1: seats 1 and 3 (drawn 1st and 3rd) score 900; table 2: seats 2 and 4 (drawn 6th and 8th) 500
        assert games.add_hand(db, one, [OUT, MELDED], False).status == SAVED
        assert games.add_hand(db, two, [MELDED, OUT_SMALL], False).status == SAVED
    started = _answer(client, tid)
    assert started["seating"] == [{"number": 1, "started": True, "tables": tables, "sitting_out": []}]
    with app.app_context():
        assert service.start_round(get_db(), tid).status == SAVED  # every table played its hand: the final
    final = _answer(client, tid)["seating"]
    # "Tables with a final": the better qualifying pair (900) at seats 1 and 3, dealing first; the other at 2 and 4
    assert final[1] == {
        "number": 2,
        "started": True,
        "sitting_out": [],
        "tables": [
            {
                "table": 1,
                "first_dealer": "1.1",
                "seats": [
                    {"seat": "1.1", "name": drawn[0]},
                    {"seat": "1.2", "name": drawn[5]},
                    {"seat": "1.3", "name": drawn[2]},
                    {"seat": "1.4", "name": drawn[7]},
                ],
            }
        ],
    }


def test_pairs_moving_between_tables_every_round_with_its_bye(app, client):
    pairs = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal"), ("Ida", "Jon")]
    tid = _drawn(app, "Pairs", "mitchell", pairs, seed=7)
    order = club_night.draw(5, 7)
    answer = _answer(client, tid)
    assert answer["draw_numbers"] == [order.index(u) + 1 for u in range(5)]
    # "Pairs moving between tables": five pairs, three tables; the last has no North–South pair. The
    # first half of the draw (drawn 1st and 2nd) sits North–South at tables 1 and 2 and stays; East–West
    # (drawn 3rd, 4th, 5th) start at tables 1, 2, 3 and move to the next higher table each round (the last
    # to table 1); the pair at the last table sits out. Each pair's players in the order entered.
    north_south = {1: pairs[order[0]], 2: pairs[order[1]]}
    east_west = [pairs[u] for u in order[2:]]  # starting at tables 1, 2, 3
    expected = []
    for rnd in (1, 2, 3):
        at = {(start + rnd - 1) % 3 + 1: pair for start, pair in enumerate(east_west)}
        tables = [
            {
                "table": k,
                "first_dealer": f"{k}.1",
                "seats": [
                    {"seat": f"{k}.1", "name": north_south[k][0]},
                    {"seat": f"{k}.2", "name": at[k][0]},
                    {"seat": f"{k}.3", "name": north_south[k][1]},
                    {"seat": f"{k}.4", "name": at[k][1]},
                ],
            }
            for k in (1, 2)
        ]
        expected.append({"number": rnd, "started": False, "tables": tables, "sitting_out": [list(at[3])]})
    assert answer["seating"] == expected
    # every East–West pair sits out once and meets each North–South pair once
    assert sorted(tuple(r["sitting_out"][0]) for r in expected) == sorted(east_west)
    with app.app_context():
        assert service.start_round(get_db(), tid).status == SAVED
    started = _answer(client, tid)
    assert started["seating"] == [{**expected[0], "started": True}] + expected[1:]
    assert started["played"][0]["sitting_out"] == expected[0]["sitting_out"]


def test_four_players_changing_partners_each_partie_with_its_first_dealer(app, client):
    players = [f"Player{c}" for c in "ABCDEFGH"]
    tid = _drawn(app, "Partners", "rotation", [(p,) for p in players], seed=2)
    order = club_night.draw(8, 2)
    answer = _answer(client, tid)
    assert answer["draw_numbers"] == [order.index(u) + 1 for u in range(8)]
    assert [(r["number"], r["started"], r["sitting_out"]) for r in answer["seating"]] == [
        (1, False, []),
        (2, False, []),
        (3, False, []),
    ]
    for k in (1, 2):  # "Players changing partners": the four drawn to a table stay there
        north, east, south, west = (players[u] for u in order[4 * (k - 1) : 4 * k])
        partnerships = [  # N–S against E–W, then N–E against S–W, then N–W against S–E
            {frozenset((north, south)), frozenset((east, west))},
            {frozenset((north, east)), frozenset((south, west))},
            {frozenset((north, west)), frozenset((south, east))},
        ]
        first_deal = [north, east, south]  # drawn first, then second, then third at the table
        for rnd in range(3):
            [table] = [x for x in answer["seating"][rnd]["tables"] if x["table"] == k]
            seats = _seats(table)
            assert [seat for seat, _name in seats] == [f"{k}.{s}" for s in range(1, 5)]
            names = [name for _seat, name in seats]
            assert {frozenset(names[0::2]), frozenset(names[1::2])} == partnerships[rnd], (k, rnd)
            assert _dealer(table) == first_deal[rnd], (k, rnd)
    with app.app_context():
        assert service.start_round(get_db(), tid).status == SAVED
    started = _answer(client, tid)
    assert (
        started["seating"][0] == {**answer["seating"][0], "started": True}
        and started["seating"][1:] == (answer["seating"][1:])
    )
    for table, played in zip(started["seating"][0]["tables"], started["played"][0]["tables"]):
        game = client.get(f"/api/games/{played['game']}").get_json()  # no hand yet: the next deal is the first
        assert game["players"] == [name for _seat, name in _seats(table)] and game["next_dealer"] == _dealer(table)


def test_a_table_of_six_in_three_pairs_has_three_sides_and_six_seats(app, client):
    """Players changing partners, 14 players: tables of 4, 4 and 6 (three pairs, docs/tournaments.md,
    "Players changing partners"); the table of six's game has three sides, its seats run 3.1 to 3.6."""
    with app.app_context():
        db = get_db()
        made = service.create(
            db,
            name="Partners",
            fmt="rotation",
            variant="classic",
            layout="4",
            entrants=[(f"P{i}",) for i in range(14)],
            table_rules={6: {"variant": "six-3x2", "layout": "6-pairs"}},
        )
        assert made.status == SAVED, made
        assert service.draw(db, made.id, seed=4).status == SAVED
        assert service.start_round(db, made.id).status == SAVED
    answer = client.get(f"/api/tournaments/{made.id}").get_json()
    _valid("/api/tournaments/{id}", 200, answer)
    assert answer["table_sizes"] == [4, 4, 6]
    assert answer["table_rules"] == [{"players": 6, "variant": "six-3x2", "layout": "6-pairs", "house_rules": None}]
    six = answer["played"][0]["tables"][2]
    assert len(six["sides"]) == 3 and all(len(side["players"]) == 2 for side in six["sides"])
    seated = answer["seating"][0]["tables"][2]
    assert [s["seat"] for s in seated["seats"]] == ["3.1", "3.2", "3.3", "3.4", "3.5", "3.6"]


def test_rules_for_tables_a_tournament_never_seats_are_not_listed(client, app):
    """Pairs between tables sit at tables of four only: rules the form keeps for tables of five and six
    (its defaults) say nothing about this night, and the API lists none (docs/api.md, "table_rules")."""
    with app.app_context():
        made = service.create(
            get_db(),
            name="Pairs",
            fmt="mitchell",
            variant="classic",
            layout="4",
            entrants=[("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay")],
            table_rules={5: {"variant": "austrian", "layout": "5"}, 6: {"variant": "six-3x2", "layout": "6-pairs"}},
        )
        assert made.status == SAVED, made
    answer = client.get(f"/api/tournaments/{made.id}").get_json()
    _valid("/api/tournaments/{id}", 200, answer)
    assert answer["table_sizes"] == [4] and answer["table_rules"] == []
