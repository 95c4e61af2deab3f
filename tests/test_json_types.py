"""A figure sent as JSON is a JSON integer, as GET /api/openapi.json says (docs/architecture.md, "Rules
the code keeps"): ``"100"``, ``" 100"``, ``100.0`` and ``true`` where a whole number goes are refused
with 422 by ``POST /api/score`` and ``POST /games/<id>/hands.json`` alike, each naming its side and
field, nothing stored; both read their body through the request types the document is generated from
(``api_models.ScoreRequest``, ``api_models.HandRequest``). ``null`` stands for 0 where the document
allows it, and is refused where it does not.
"""

from __future__ import annotations

import sqlite3

import pytest

from scorekeeper.web import api_models, openapi
from tests.conftest import csrf_token
from tests.helpers import start_game
from tests.test_openapi import _problems, _schema

NOT_INTEGERS = ["100", " 100", "100 ", 100.0, True, "１００", [100], {"n": 100}]
TYPE_MESSAGE = "A whole number here, written as a JSON number: not in quotes, no decimal point, not true or false."


def _score(client, sides, **more):
    return client.post("/api/score", json={"variant": "classic", "sides": sides, **more})


def _queue(client, game_id, body):
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    return client.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": token})


def _hands(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("select count(*) from hands").fetchone()[0]


def _stock_out(**first):
    """A hand the stock ended: side 0 melded 100 (or ``first``'s figures), side 1 melded 50."""
    return [{"melded_points": 100, **first}, {"melded_points": 50}]


def _errors(response) -> set[tuple]:
    assert response.status_code == 422, response.get_json()
    return {(e["side"], e["field"], e["message"]) for e in response.get_json()["errors"]}


def test_the_document_says_integer():
    document = openapi.document()
    side = document["components"]["schemas"]["Side"]["properties"]["melded_points"]
    assert {"type": "integer", "minimum": 0, "multipleOf": 5} in side["anyOf"]
    for value in NOT_INTEGERS:
        body = {"variant": "classic", "sides": _stock_out(melded_points=value), "stock_out": True}
        if not isinstance(value, float):  # JSON Schema counts 100.0 as an integer; the types refuse it (strict)
            assert _problems(document, _schema(document, "post", "/api/score"), body), value
        assert "sides" in api_models.refusals(api_models.ScoreRequest, body), value
        assert "sides" in api_models.refusals(api_models.HandRequest, {"client_key": "k" * 8, **body}), value


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
@pytest.mark.parametrize("field", ["melded_points", "hand_points", "red_threes", "natural_canastas", "penalties"])
def test_score_refuses_a_figure_that_is_no_json_integer(client, field, value):
    errors = _errors(_score(client, _stock_out(**{field: value}), stock_out=True))
    assert (0, field, TYPE_MESSAGE if isinstance(value, (str, float)) else "Enter a whole number.") in errors
    assert {(side, name) for side, name, _message in errors if side == 0} == {(0, field)}


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_the_phones_queue_refuses_a_figure_that_is_no_json_integer_and_stores_nothing(client, app, value):
    game_id = start_game(client)
    body = {"client_key": "queued-hand-1", "stock_out": True, "sides": _stock_out(melded_points=value)}
    errors = _errors(_queue(client, game_id, body))
    assert [(side, name) for side, name, _message in errors] == [(0, "melded_points")]
    assert _hands(app) == 0
    assert _queue(client, game_id, body | {"sides": _stock_out()}).status_code == 201  # the same hand in numbers


def test_a_figure_in_quotes_is_told_how_to_write_it(client, app):
    game_id = start_game(client)
    sides = _stock_out(melded_points="100", hand_points=10.0)
    sides[1]["melded_cards"], sides[1]["melded_points"] = {"high": "5"}, None
    expected = {
        (0, "melded_points", TYPE_MESSAGE),
        (0, "hand_points", TYPE_MESSAGE),
        (1, "melded_cards.high", TYPE_MESSAGE),
    }
    assert _errors(_score(client, sides, stock_out=True)) == expected
    assert (
        _errors(_queue(client, game_id, {"client_key": "queued-hand-2", "stock_out": True, "sides": sides})) == expected
    )
    assert _hands(app) == 0


def test_the_checks_own_message_stands_where_they_found_the_field_wrong(client):
    sides = _stock_out(melded_points="abc", penalties=True, hand_points=12.0, red_threes="9")
    sides[1]["natural_canastas"] = -1
    assert _errors(_score(client, sides, stock_out=True)) == {
        (0, "melded_points", "Enter a whole number."),  # what the phone's live score shows for a typo
        (0, "penalties", "Enter a whole number."),
        (0, "hand_points", TYPE_MESSAGE),  # not "a multiple of 5": 12.0 is no whole number to begin with
        (0, "red_threes", TYPE_MESSAGE),  # not "at most 4"
        (1, "natural_canastas", "Cannot be negative."),
    }


def test_null_stands_for_0_where_the_document_allows_it(client, app):
    sides = [{"melded_points": 100, "hand_points": None, "red_threes": None}, {"melded_points": 50, "penalties": None}]
    assert _score(client, sides, stock_out=True, target=None, lone=None).status_code == 200
    game_id = start_game(client)
    body = {"client_key": "queued-hand-3", "stock_out": None, "based_on": None, "lone": None, "sides": sides}
    assert _queue(client, game_id, body | {"stock_out": True}).status_code == 201


@pytest.mark.parametrize("value", [None, "0", 0.0, True, [0]], ids=repr)
def test_score_refuses_totals_that_are_no_json_integers(client, value):
    errors = _errors(_score(client, _stock_out(), stock_out=True, totals_before=[value, 0]))
    assert [(side, name) for side, name, _message in errors] == [(None, "totals_before")]


@pytest.mark.parametrize("value", ["0", " 0", 0.0, True, -1, [0]], ids=repr)
def test_the_phones_queue_refuses_a_based_on_that_is_no_json_integer(client, app, value):
    game_id = start_game(client)
    body = {"client_key": "queued-hand-4", "stock_out": True, "based_on": value, "sides": _stock_out()}
    errors = _errors(_queue(client, game_id, body))
    assert [(side, name) for side, name, _message in errors] == [(None, "based_on")]
    assert _hands(app) == 0


@pytest.mark.parametrize(
    "more, field",
    [
        ({"stock_out": "true"}, "stock_out"),
        ({"stock_out": 1}, "stock_out"),
        ({"lone": "0"}, "lone"),
        ({"lone": 0.0}, "lone"),
        ({"lone": True}, "lone"),
    ],
    ids=repr,
)
def test_the_phones_queue_refuses_stock_out_and_lone_of_another_type(client, app, more, field):
    game_id = start_game(client, "classic-3p", names=["Anna", "Bert", "Carl"])
    sides = [{"melded_points": 100}, {"melded_points": 50}, {"melded_points": 60}]
    body = {"client_key": "queued-hand-5", "stock_out": True, "lone": None, "sides": sides, **more}
    errors = _errors(_queue(client, game_id, body))
    assert field in {name for _side, name, _message in errors}
    assert _hands(app) == 0
