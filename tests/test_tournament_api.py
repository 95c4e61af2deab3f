"""A tournament through the JSON API (docs/api.md, "GET /api/tournaments/<id>"): the list, a Mitchell
evening with a bye as it stands, the standings final once closed and live again once reopened, an
unknown id, and the password. Every answer is also checked against the OpenAPI document."""

from __future__ import annotations

from scorekeeper import create_app
from scorekeeper.services import games
from scorekeeper.services import tournaments as service
from scorekeeper.services.verdicts import SAVED
from scorekeeper.storage import tournament_reads
from scorekeeper.storage.db import get_db
from scorekeeper.web import openapi
from tests.test_access import LOCKED
from tests.test_openapi import _problems, _schema

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
            db, name="Thursday pairs", fmt="mitchell", variant="classic", layout="4", entrants=PAIRS,
            round_end="hands", round_hands=3, **more,
        )  # fmt: skip
        assert service.draw(db, made.id, seed=3).status == SAVED
        assert service.start_round(db, made.id).status == SAVED
        t = tournament_reads.get(db, made.id)
        game = tournament_reads.rounds(db, t)[0].tables[0].game_id
        assert games.add_hand(db, game, [OUT, MELDED], False).status == SAVED
        return made.id, game


def test_an_empty_archive_lists_no_tournament(client):
    response = client.get("/api/tournaments")
    assert response.status_code == 200 and response.get_json() == []


def test_the_list_says_how_far_each_tournament_has_come(app, client):
    tid, _game = _pairs_night(app)
    with app.app_context():
        later = service.create(
            get_db(), name="Spring open", fmt="final", variant="classic", layout="4",
            entrants=[(n,) for n in "ABCDEFGH"],
        ).id  # fmt: skip
    listed = client.get("/api/tournaments").get_json()
    _valid("/api/tournaments", 200, listed)
    assert listed == [
        {"id": later, "name": "Spring open", "format": "final", "entrants": 8, "rounds": 2, "rounds_started": 0,
         "drawn": False, "closed": False},
        {"id": tid, "name": "Thursday pairs", "format": "mitchell", "entrants": 3, "rounds": 2, "rounds_started": 1,
         "drawn": True, "closed": False},
    ]  # fmt: skip


def test_a_tournament_as_it_stands(app, client):
    tid, game = _pairs_night(app)
    answer = client.get(f"/api/tournaments/{tid}").get_json()
    _valid("/api/tournaments/{id}", 200, answer)
    assert (answer["format"], answer["variant"], answer["round_end"], answer["round_hands"]) == (
        "mitchell", "classic", "hands", 3,
    )  # fmt: skip
    assert answer["entrants"] == [list(p) for p in PAIRS] and answer["rounds"] == 2
    assert answer["drawn_at"] and answer["closed_at"] is None and answer["evening"] is not None
    [played] = answer["played"]
    assert played["number"] == 1 and played["ended_at"] is None and played["over"] is False
    # three pairs: the last table has no North–South pair, and the East–West pair drawn to it sits out
    with app.app_context():
        t = tournament_reads.get(get_db(), tid)
        north_south, east_west, bye = (list(PAIRS[u]) for u in t.order)
    [table] = played["tables"]
    assert table == {
        "table": 1, "game": game, "hands": 1, "over": False,
        "sides": [{"players": north_south, "total": 900}, {"players": east_west, "total": 120}],
    }  # fmt: skip
    assert played["sitting_out"] == [bye]
    # match points: a win 2 (the game as it stands); the bye counts the pair's average, and it has played
    # no game yet: nothing counts for it, and it stands after the pairs with a result
    assert answer["bye_score"] == "average" and answer["ties"] == "shared"
    assert [(s["place"], s["players"], s["match_points"], s["points"], s["byes"], s["shared"])
            for s in answer["standings"]] == [
        (1, north_south, 2, 900, 0, 1),
        (2, east_west, 0, 120, 0, 1),
        (3, bye, 0, 0, 1, 1),
    ]  # fmt: skip
    assert {s["season_points"] for s in answer["standings"]} == {None}  # not closed: none yet
    # the table's game is the ordinary game of the API
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [900, 120]


def test_closed_the_standings_carry_season_points_and_reopened_they_do_not(app, client):
    tid, game = _pairs_night(app, season_points=(5, 3))
    with app.app_context():
        db = get_db()
        assert service.end_round(db, tid, 1).status == SAVED
        assert service.start_round(db, tid).status == SAVED
        t = tournament_reads.get(db, tid)
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
        assert response.get_json() == {"errors": [{"side": None, "field": "id", "message": "Not found."}]}
    _valid("/api/tournaments/{id}", 404, client.get("/api/tournaments/7").get_json())


def test_with_a_password_the_tournaments_are_not_shown_to_a_phone_without_it(tmp_path):
    app = create_app({**LOCKED, "DATABASE": str(tmp_path / "locked.sqlite")})
    tid, _game = _pairs_night(app)
    stranger = app.test_client()
    for url in ("/api/tournaments", f"/api/tournaments/{tid}"):
        refused = stranger.get(url)
        assert refused.status_code == 401 and refused.get_json()["errors"][0]["field"] == "password", url
        assert "Anna" not in refused.text
