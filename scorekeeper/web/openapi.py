"""The OpenAPI 3.1 description of the JSON API, served at ``GET /api/openapi.json``.

Generated: the schemas from the request and answer types of ``api_models``,
``api_tournament_models`` and ``api_match_models`` (pydantic's JSON Schema, draft 2020-12 as OpenAPI
3.1 takes it), the paths from the table of operations below: for each endpoint its method, path,
request type and example, and each status with its meaning and answer type. tests/test_openapi.py
checks that docs/api.md names the same endpoints and statuses and that its examples are valid
against this document; tests/test_schemathesis.py sends the app requests generated from it and
checks every answer against it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import GenerateJsonSchema

from scorekeeper.storage import records
from scorekeeper.web import api_match_models as mm
from scorekeeper.web import api_models as m
from scorekeeper.web import api_tournament_models as tm
from scorekeeper.web import partner_requests

REF = "#/components/schemas/{model}"


@dataclass(frozen=True)
class Answer:
    """One status of an operation: what it means and the type of its body (``Errors`` for a refusal)."""

    meaning: str
    body: Any = m.Errors
    headers: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Operation:
    """One endpoint: its method and path, what it takes and what it answers."""

    method: str
    path: str
    id: str
    summary: str
    answers: dict[int, Answer]
    request: type | None = None
    example: tuple[str, dict[str, Any]] | None = None
    parameters: tuple[dict[str, Any], ...] = ()


# The refusals every endpoint can give, by status.
LOCKED = Answer("A password is set and this phone has not entered it (`field`: `password`).")
TOO_LARGE = Answer("The body is far larger than any score (`field`: `body`).")
NOT_FOUND = Answer("No game with this id (`field`: `id` or `game`).")
NO_TOURNAMENT = Answer("No tournament with this id (`field`: `id`).")
NO_MATCH = Answer("No complete Game with this id, the id of its first Partie (`field`: `id`).")

GAME_ID = {
    "name": "id",
    "in": "path",
    "required": True,
    "description": "a game's id",
    "schema": {"type": "integer", "minimum": 1, "maximum": records.MAX_ID},
    "examples": {"first": {"value": 1}, "second": {"value": 2}},
}
TOURNAMENT_ID = {
    **GAME_ID,
    "description": "a tournament's id",
    "examples": {"first": {"value": 1}, "second": {"value": 2}},
}
MATCH_ID = {
    **GAME_ID,
    "description": "a complete Game's id: the id of its first Partie's game",
    "examples": {"first": {"value": 1}, "fifth": {"value": 5}},
}
CSRF_TOKEN = {
    "name": "X-CSRFToken",
    "in": "header",
    "required": True,
    "description": "the CSRF token of the game's pages (their forms' `csrf_token`), with the session cookie of "
    "the same phone",
    "schema": {"type": "string"},
}
# what to send; partner_requests.team_request reads digits of other scripts too, as every number typed (core/numbers.py)
TEAM_IDS = "^[0-9]{1,19}(,[0-9]{1,19})*$"


def _team_parameters() -> tuple[dict[str, Any], ...]:
    """``?players=``, ``?variant=`` and ``?layout=`` of ``GET /api/teams``."""
    return (
        {
            "name": "players",
            "in": "query",
            "required": True,
            "description": "4 or 6 different players' ids joined by commas",
            "schema": {"type": "string", "pattern": TEAM_IDS},
            "examples": {"four": {"value": "1,2,3,4"}},
        },
        {
            "name": "variant",
            "in": "query",
            "required": False,
            "description": "rules with partnerships for that many (default: classic for 4, six-3x2 for 6)",
            "schema": {"enum": [r.id for r in partner_requests.partner_rule_sets()]},
        },
        {
            "name": "layout",
            "in": "query",
            "required": False,
            "description": "a layout of the rule set with partnerships for that many (default: its first)",
            "schema": {"type": "string"},
        },
    )


# The examples are those of docs/api.md (tests/test_openapi.py checks they are the same).
SCORE_EXAMPLE = {
    "variant": "classic",
    "totals_before": [4700, 5100],
    "sides": [
        {"melded_points": 350, "natural_canastas": 1, "red_threes": 2, "went_out": "concealed"},
        {
            "melded_cards": {"jokers": 1, "twos_aces": 2, "high": 9},
            "mixed_canastas": 1,
            "hand_points": 65,
            "penalties": 100,
        },
    ],
}
HAND_EXAMPLE = {
    "client_key": "3f2b6c1e-queued-hand",
    "based_on": 0,
    "stock_out": False,
    "sides": [
        {"went_out": "normal", "natural_canastas": 1, "melded_points": 300, "red_threes": 1},
        {"melded_cards": {"high": 5}, "hand_points": 40},
    ],
}

OPERATIONS = (
    Operation(
        "get",
        "/api/variants",
        "listVariants",
        "Every rule set with all its tables",
        {200: Answer("The rule sets", m.Variants)},
    ),
    Operation(
        "post",
        "/api/score",
        "scoreHand",
        "Score one hand from the totals before it; nothing is stored",
        {
            200: Answer("Each side's score, breakdown, total and minimum; the result", m.ScoreAnswer),
            400: Answer("The body is not a JSON object (`field`: `body`)."),
            413: TOO_LARGE,
            415: Answer("The body was not sent as `Content-Type: application/json` (`field`: `body`)."),
            422: Answer("Every problem with the request and the hand, each naming its side and field."),
        },
        request=m.ScoreRequest,
        example=("classic", SCORE_EXAMPLE),
    ),
    Operation(
        "get",
        "/api/games/{id}",
        "getGame",
        "A stored game: sides, every hand's entry and breakdown, totals, minimums, result",
        {200: Answer("The game's sheet", m.Game), 401: LOCKED, 404: NOT_FOUND},
        parameters=(GAME_ID,),
    ),
    Operation(
        "get",
        "/api/games/{id}/changes",
        "getGameChanges",
        "A game's change log, oldest first: when, what, which hand, which phone, before and after",
        {200: Answer("The change log", list[m.Change]), 401: LOCKED, 404: NOT_FOUND},
        parameters=(GAME_ID,),
    ),
    Operation(
        "get",
        "/api/games/{id}/version",
        "getGameVersion",
        "The game's version: it rises with every change (the phones following it poll this)",
        {
            200: Answer(
                "The version, never cached",
                m.Version,
                {"Cache-Control": {"schema": {"type": "string", "const": "no-store"}, "required": True}},
            ),
            401: LOCKED,
            404: NOT_FOUND,
        },
        parameters=(GAME_ID,),
    ),
    Operation(
        "get",
        "/api/matches/{id}",
        "getMatch",
        "A complete Game of three Partien (the Austrian rulebook): its Partien and each player's net balance",
        {200: Answer("The complete Game", mm.Match), 401: LOCKED, 404: NO_MATCH},
        parameters=(MATCH_ID,),
    ),
    Operation(
        "post",
        "/games/{id}/hands.json",
        "addHand",
        "Store the next hand of a game (a phone's queue sends the hands entered offline)",
        {
            201: Answer("Stored", m.HandStored),
            200: Answer(
                "Stored before with this `client_key` and these figures (those it was first saved with): not "
                "stored twice",
                m.HandStored,
            ),
            400: Answer(
                "The body is not a JSON object (`field`: `body`), or the CSRF token is missing or stale "
                "(`field`: `csrf_token`: take a fresh one from the page)."
            ),
            401: LOCKED,
            404: NOT_FOUND,
            409: Answer(
                "The game is finished and locked (`field`: `game`), or another phone saved a hand since "
                "`based_on` (`field`: `based_on`), or a hand was stored with this `client_key` and other "
                "figures (`field`: `client_key`; nothing stored: the message names the hand to correct)."
            ),
            413: TOO_LARGE,
            422: Answer("Every problem with the hand, each naming its side and field."),
            503: Answer(
                "The disk could not take it (busy, read-only, full or failing; `field`: `database`): nothing "
                "was stored, send it again after `Retry-After` seconds.",
                headers={"Retry-After": {"schema": {"type": "string", "pattern": "^[0-9]+$"}}},
            ),
        },
        request=m.HandRequest,
        example=("first hand", HAND_EXAMPLE),
        parameters=(GAME_ID, CSRF_TOKEN),
    ),
    Operation(
        "get",
        "/api/players",
        "listPlayers",
        "Every player with his rating (docs/ratings.md)",
        {200: Answer("The players by name", list[m.RatedPlayer]), 401: LOCKED},
    ),
    Operation(
        "get",
        "/api/teams",
        "proposeTeams",
        "Fair partners: every seating of 4 or 6 players, the most even predicted chances first",
        {
            200: Answer("The seatings", m.Teams),
            401: LOCKED,
            422: Answer(
                "Not 4 or 6 different players of the archive (`field`: `players`), or rules or a layout without "
                "partnerships for that many (`field`: `variant` or `layout`)."
            ),
        },
        parameters=_team_parameters(),
    ),
    Operation(
        "get",
        "/api/tournaments",
        "listTournaments",
        "Every tournament, the newest first (docs/tournaments.md)",
        {200: Answer("The tournaments", list[tm.TournamentListed]), 401: LOCKED},
    ),
    Operation(
        "get",
        "/api/tournaments/{id}",
        "getTournament",
        "A tournament: settings, entrants, every round started with its tables as they stand, the standings",
        {200: Answer("The tournament", tm.Tournament), 401: LOCKED, 404: NO_TOURNAMENT},
        parameters=(TOURNAMENT_ID,),
    ),
    Operation(
        "get",
        "/api/openapi.json",
        "getOpenAPI",
        "This document",
        {200: Answer("The OpenAPI 3.1 description of the JSON API", m.OpenAPIDocument)},
    ),
)


class _Schemas(GenerateJsonSchema):
    """pydantic's JSON Schema without a title on every property (the names say it)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        """No titles on properties."""
        return False


def _schemas() -> tuple[dict[tuple[str, str], dict[str, Any]], dict[str, Any]]:
    """The schema of every request and answer body, by (operation, status), and their components."""
    inputs = []
    for op in OPERATIONS:
        if op.request is not None:
            inputs.append(((op.id, "request"), "validation", TypeAdapter(op.request)))
        for status, answer in op.answers.items():
            inputs.append(((op.id, str(status)), "serialization", TypeAdapter(answer.body)))
    by_key, definitions = TypeAdapter.json_schemas(inputs, ref_template=REF, schema_generator=_Schemas)
    return {key: schema for (key, _mode), schema in by_key.items()}, definitions.get("$defs", {})


def _json(schema: dict[str, Any], example: tuple[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """A JSON body with its schema (and an example)."""
    body: dict[str, Any] = {"schema": schema}
    if example is not None:
        body["examples"] = {example[0]: {"value": example[1]}}
    return {"application/json": body}


def _paths(schemas: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """The paths object: every operation of the table."""
    paths: dict[str, Any] = {}
    for op in OPERATIONS:
        operation: dict[str, Any] = {"operationId": op.id, "summary": op.summary}
        if op.parameters:
            operation["parameters"] = list(op.parameters)
        if op.request is not None:
            content = _json(schemas[op.id, "request"], op.example)
            operation["requestBody"] = {"required": True, "content": content}
        operation["responses"] = {
            str(status): {
                "description": answer.meaning,
                "content": _json(schemas[op.id, str(status)]),
                **({"headers": answer.headers} if answer.headers else {}),
            }
            for status, answer in op.answers.items()
        }
        paths.setdefault(op.path, {})[op.method] = operation
    return paths


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    schemas, components = _schemas()
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Canasta score keeper",
            "version": "1",
            "description": (
                'The JSON API (docs/api.md). Every refusal has one shape: `{"errors": [{"side", "field", '
                '"message", "shared"}]}`. With a password set, every endpoint but /api/variants, /api/score and this '
                "document answers 401 until the phone has entered it in the browser (its session cookie)."
            ),
        },
        "paths": _paths(schemas),
        "components": {"schemas": components},
    }


def document() -> dict[str, Any]:
    """The OpenAPI document (a fresh copy: the caller may change it)."""
    return copy.deepcopy(_document())
