"""The OpenAPI 3.1 description of the JSON API, served at ``GET /api/openapi.json``.

It says the same as docs/api.md (tests/test_openapi.py compares the endpoints and statuses of the
two) and is what the app answers (tests/test_schemathesis.py sends it generated requests and checks
every status code and body against it). The rule sets' ids, setting keys, going-out ways and side
fields are read from the rule tables, so they cannot fall behind; the shapes of the answers are
written out here.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from scorekeeper.core import checks, variants
from scorekeeper.storage import reads
from scorekeeper.web import teams

_POINT_FIELDS = ("melded_points", "hand_points", "penalties")
_CARD_FIELDS = ("melded_cards", "hand_cards")
_FLAG_FIELDS = ("has_melded", "exact_cut")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema or null."""
    return {"oneOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, Any], required: tuple[str, ...] | None = None, **more: Any) -> dict[str, Any]:
    """An object with exactly these properties (all required unless ``required`` says which)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties if required is None else required),
        "additionalProperties": False,
        **more,
    }


def _configured_rule_sets() -> list[variants.RuleSet]:
    """Every rule set in every layout, with every house rule at each of its values (the side fields
    and ways of going out differ with them)."""
    out = []
    for rules in variants.RULE_SETS.values():
        for layout in rules.layouts:
            out.append(variants.configure(rules, {}, layout.key))
            for setting in rules.settings:
                for value, _label in setting.choices:
                    out.append(variants.configure(rules, {setting.key: value}, layout.key))
    return out


def _side_schema() -> dict[str, Any]:
    """SIDE: one side's figures for one hand; every field of any rule set (each rule set refuses
    the fields it does not have, with a 422)."""
    configured = _configured_rule_sets()
    fields = sorted(set().union(*(checks.known_fields(r) for r in configured)))
    ways = sorted({g.key for r in configured for g in r.going_out})
    count = {"type": ["integer", "null"], "minimum": 0}
    points = {"type": ["integer", "null"], "minimum": 0, "multipleOf": 5}
    cards = {
        "type": ["object", "null"],
        "properties": {key: {"type": ["integer", "null"], "minimum": 0} for key in variants.CARD_GROUP_KEYS},
        "additionalProperties": False,
    }
    properties: dict[str, Any] = {}
    for name in fields:
        if name == "went_out":
            properties[name] = {"enum": [*ways, None], "description": "how the side went out; null: it did not"}
        elif name in _FLAG_FIELDS:
            properties[name] = {"type": ["boolean", "null"]}
        elif name in _CARD_FIELDS:
            properties[name] = {**cards, "description": "card counts by value, instead of the points figure"}
        elif name in _POINT_FIELDS:
            properties[name] = {**points}
        else:
            properties[name] = {**count}
    return {
        "type": "object",
        "description": "One side's figures for one hand (docs/api.md, SIDE); missing counts and points are 0.",
        "properties": properties,
        "additionalProperties": False,
    }


def _errors(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref("Errors")}}}


def _json(description: str, schema: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}, **more}


# The refusals every endpoint can give, by status.
LOCKED = _errors("A password is set and this phone has not entered it (`field`: `password`).")
TOO_LARGE = _errors("The body is far larger than any score (`field`: `body`).")
NOT_FOUND = _errors("No game with this id (`field`: `id` or `game`).")

GAME_ID = {
    "name": "id",
    "in": "path",
    "required": True,
    "description": "a game's id",
    "schema": {"type": "integer", "minimum": 1, "maximum": reads.MAX_ID},
    "examples": {"first": {"value": 1}, "second": {"value": 2}},
}

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


TEAM_IDS = "^[0-9]{1,19}(,[0-9]{1,19})*$"  # teams.team_request reads the same


def _paths() -> dict[str, Any]:
    return {
        "/api/variants": {
            "get": {
                "operationId": "listVariants",
                "summary": "Every rule set with all its tables",
                "responses": {
                    "200": _json("The rule sets", _object({"variants": {"type": "array", "items": _ref("Variant")}}))
                },
            }
        },
        "/api/score": {
            "post": {
                "operationId": "scoreHand",
                "summary": "Score one hand from the totals before it; nothing is stored",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": _ref("ScoreRequest"),
                            "examples": {"classic": {"value": SCORE_EXAMPLE}},
                        }
                    },
                },
                "responses": {
                    "200": _json("Each side's score, breakdown, total and minimum; the result", _ref("ScoreAnswer")),
                    "400": _errors("The body is not a JSON object (`field`: `body`)."),
                    "413": TOO_LARGE,
                    "415": _errors("The body was not sent as `Content-Type: application/json` (`field`: `body`)."),
                    "422": _errors("Every problem with the request and the hand, each naming its side and field."),
                },
            }
        },
        "/api/games/{id}": {
            "get": {
                "operationId": "getGame",
                "summary": "A stored game: sides, every hand's entry and breakdown, totals, minimums, result",
                "parameters": [GAME_ID],
                "responses": {
                    "200": _json("The game's sheet", _ref("Game")),
                    "401": LOCKED,
                    "404": NOT_FOUND,
                },
            }
        },
        "/api/games/{id}/changes": {
            "get": {
                "operationId": "getGameChanges",
                "summary": "A game's change log, oldest first: when, what, which hand, which phone, before and after",
                "parameters": [GAME_ID],
                "responses": {
                    "200": _json("The change log", {"type": "array", "items": _ref("Change")}),
                    "401": LOCKED,
                    "404": NOT_FOUND,
                },
            }
        },
        "/api/games/{id}/version": {
            "get": {
                "operationId": "getGameVersion",
                "summary": "The game's version: it rises with every change (the phones following it poll this)",
                "parameters": [GAME_ID],
                "responses": {
                    "200": _json(
                        "The version, never cached",
                        _object({"version": {"type": "integer", "minimum": 0}}),
                        headers={
                            "Cache-Control": {"schema": {"type": "string", "const": "no-store"}, "required": True}
                        },
                    ),
                    "401": LOCKED,
                    "404": NOT_FOUND,
                },
            }
        },
        "/games/{id}/hands.json": {
            "post": {
                "operationId": "addHand",
                "summary": "Store the next hand of a game (a phone's queue sends the hands entered offline)",
                "parameters": [
                    GAME_ID,
                    {
                        "name": "X-CSRFToken",
                        "in": "header",
                        "required": True,
                        "description": "the CSRF token of the game's pages (their forms' `csrf_token`), with "
                        "the session cookie of the same phone",
                        "schema": {"type": "string"},
                    },
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": _ref("HandRequest"),
                            "examples": {"first hand": {"value": HAND_EXAMPLE}},
                        }
                    },
                },
                "responses": {
                    "201": _json("Stored", _ref("HandStored")),
                    "200": _json("Stored before with this `client_key`: not stored twice", _ref("HandStored")),
                    "400": _errors(
                        "The body is not a JSON object (`field`: `body`), or the CSRF token is missing or stale "
                        "(`field`: `csrf_token`: take a fresh one from the page)."
                    ),
                    "401": LOCKED,
                    "404": NOT_FOUND,
                    "409": _errors(
                        "The game is finished and locked (`field`: `game`), or another phone saved a hand since "
                        "`based_on` (`field`: `based_on`)."
                    ),
                    "413": TOO_LARGE,
                    "422": _errors("Every problem with the hand, each naming its side and field."),
                    "503": _errors(
                        "The disk could not take it (busy, read-only, full or failing; `field`: `database`): "
                        "nothing was stored, send it again after `Retry-After` seconds."
                    )
                    | {"headers": {"Retry-After": {"schema": {"type": "string", "pattern": "^[0-9]+$"}}}},
                },
            }
        },
        "/api/players": {
            "get": {
                "operationId": "listPlayers",
                "summary": "Every player with his rating (docs/ratings.md)",
                "responses": {
                    "200": _json("The players by name", {"type": "array", "items": _ref("RatedPlayer")}),
                    "401": LOCKED,
                },
            }
        },
        "/api/teams": {
            "get": {
                "operationId": "proposeTeams",
                "summary": "Fair partners: every seating of 4 or 6 players, the most even predicted chances first",
                "parameters": [
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
                        "schema": {"enum": [r.id for r in teams.partner_rule_sets()]},
                    },
                    {
                        "name": "layout",
                        "in": "query",
                        "required": False,
                        "description": "a layout of the rule set with partnerships for that many (default: its first)",
                        "schema": {"type": "string"},
                    },
                ],
                "responses": {
                    "200": _json("The seatings", _ref("Teams")),
                    "401": LOCKED,
                    "422": _errors(
                        "Not 4 or 6 different players of the archive (`field`: `players`), or rules or a layout "
                        "without partnerships for that many (`field`: `variant` or `layout`)."
                    ),
                },
            }
        },
        "/api/openapi.json": {
            "get": {
                "operationId": "getOpenAPI",
                "summary": "This document",
                "responses": {
                    "200": _json(
                        "The OpenAPI 3.1 description of the JSON API",
                        {"type": "object", "required": ["openapi", "info", "paths"]},
                    )
                },
            }
        },
    }


def _schemas() -> dict[str, Any]:
    integer = {"type": "integer"}
    text = {"type": "string"}
    line = _object({"item": text, "label": text, "points": integer})
    side_score = _object(
        {
            "score": {**integer, "description": "the hand score"},
            "breakdown": {"type": "array", "items": line, "description": "named lines that add up to the score"},
            "total": {**integer, "description": "the side's total after the hand"},
            "opening_minimum": {**integer, "description": "the side's opening minimum for the next hand"},
        }
    )
    result = {
        "finished": {"type": "boolean"},
        "winner": {"type": ["integer", "null"], "minimum": 0, "description": "the winning side, or null"},
        "margin": {"type": ["integer", "null"], "description": "the winner's lead, or null"},
        "tie": {"type": "boolean", "description": "sides level at the top at or above the target"},
        "leads": _nullable({"type": "array", "items": integer}),
    }
    deduction = _object(
        {"key": text, "label": text, "points": integer, "max_count": integer, "spec": text},
    )
    cards = _object({key: integer for key in variants.CARD_GROUP_KEYS})
    choice = {"type": ["string", "integer", "boolean"]}
    setting_keys = sorted({s.key for r in variants.RULE_SETS.values() for s in r.settings})
    return {
        "Error": _object(
            {
                "side": {"type": ["integer", "null"], "minimum": 0, "description": "the side's index, or null"},
                "field": {**text, "description": "the field (`field.key` inside card counts)"},
                "message": {**text, "minLength": 1, "description": "what is wrong, in the reader's language"},
            }
        ),
        "Errors": _object({"errors": {"type": "array", "items": _ref("Error"), "minItems": 1}}),
        "Side": _side_schema(),
        "SideScore": side_score,
        "ScoreRequest": {
            "type": "object",
            "properties": {
                "variant": {"enum": list(variants.RULE_SETS), "description": "a rule set's id"},
                "layout": {"type": ["string", "null"], "description": "a layout of the rule set (default: its first)"},
                "settings": {
                    "type": ["object", "null"],
                    "propertyNames": {"enum": setting_keys},
                    "additionalProperties": choice,
                    "description": "house rules: setting key → value; left out: the default",
                },
                "target": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "maximum": 100000,
                    "multipleOf": 5,
                    "description": "a custom target; 0 or null: the rule set's",
                },
                "totals_before": {
                    "type": "array",
                    "items": {"type": "integer", "multipleOf": 5, "minimum": -(10**7), "maximum": 10**7},
                    "description": "each side's total before the hand; default all 0",
                },
                "sides": {"type": "array", "items": _ref("Side"), "minItems": 2, "maxItems": 3},
                "lone": {"type": ["integer", "null"], "minimum": 0, "description": "classic-3p: who played alone"},
                "stock_out": {"type": ["boolean", "null"], "description": "true: nobody went out; null: unchecked"},
            },
            "required": ["variant", "sides"],
        },
        "ScoreAnswer": _object(
            {
                "variant": text,
                "sides": {"type": "array", "items": _ref("SideScore")},
                **result,
                "warnings": {"type": "array", "items": _ref("Error"), "description": "possible but unlikely figures"},
            }
        ),
        "HandRequest": {
            "type": "object",
            "properties": {
                "client_key": {
                    "type": "string",
                    "minLength": 8,
                    "maxLength": 64,
                    "description": "the phone's key for this hand: sent again, it is stored once",
                },
                "based_on": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "the number of hands the phone knew of; another phone's hand since: 409",
                },
                "sides": {"type": "array", "items": _ref("Side"), "minItems": 2, "maxItems": 3},
                "stock_out": {"type": ["boolean", "null"], "description": "true: nobody went out (left out: false)"},
                "lone": {"type": ["integer", "null"], "minimum": 0, "description": "classic-3p: who played alone"},
            },
            "required": ["client_key", "sides"],
        },
        "Change": _object(
            {
                "at": {**text, "description": "when, ISO 8601 in UTC"},
                "action": {"enum": sorted(reads.ACTIONS)},
                "hand": {"type": ["integer", "null"], "minimum": 1, "description": "the hand's id, null for the game"},
                "phone": {"type": ["string", "null"], "description": 'the phone\'s name (or "phone N"), if known'},
                "before": {"type": ["object", "null"], "description": "what it was (a hand's entry), null if new"},
                "after": {"type": ["object", "null"], "description": "what it became, null if deleted"},
            }
        ),
        "HandStored": _object(
            {
                "id": {"type": "integer", "minimum": 1, "description": "the hand's id"},
                "duplicate": {"type": "boolean", "description": "true: stored before with this client_key"},
            }
        ),
        "Variant": _object(
            {
                "id": {"enum": list(variants.RULE_SETS)},
                "name": text,
                "spec": text,
                "summary": text,
                "players": integer,
                "sides": integer,
                "target": integer,
                "layouts": {
                    "type": "array",
                    "items": _object(
                        {
                            "key": text,
                            "label": text,
                            "players": integer,
                            "sides": {"type": "array", "items": {"type": "array", "items": integer}},
                            "playing": {"type": ["integer", "null"]},
                        }
                    ),
                },
                "card_values": cards,
                "cards_in_deck": cards,
                "canastas": {
                    "type": "array",
                    "items": _object(
                        {
                            "field": text,
                            "label": text,
                            "bonus": integer,
                            "natural": {"type": "boolean"},
                            "wild": {"type": "boolean"},
                        }
                    ),
                },
                "going_out": {
                    "type": "array",
                    "items": _object(
                        {
                            "value": text,
                            "label": text,
                            "bonus": integer,
                            "special": {"type": "boolean"},
                            "waives_minimum": {"type": "boolean"},
                        }
                    ),
                },
                "canastas_to_go_out": integer,
                "natural_canastas_to_go_out": integer,
                "wild_canastas_to_go_out": integer,
                "red_three_values": {"type": "array", "items": integer},
                "red_three_sign": text,
                "black_three_values": _nullable({"type": "array", "items": integer}),
                "black_three_in_hand": {"type": ["integer", "null"]},
                "exact_cut_bonus": {"type": ["integer", "null"]},
                "incomplete_melds": {"type": "array", "items": deduction},
                "holding_penalties": {"type": "array", "items": deduction},
                "penalty_catalogue": {"type": "array", "items": deduction},
                "side_fields": {"type": "array", "items": text},
                "count_fields": {"type": "object", "additionalProperties": integer},
                "opening_minimums": {
                    "type": "array",
                    "items": _object(
                        {
                            "from": {"type": ["integer", "null"]},
                            "to": {"type": ["integer", "null"]},
                            "label": text,
                            "minimum": integer,
                        }
                    ),
                },
                "settings": {
                    "type": "array",
                    "items": _object(
                        {
                            "key": {"enum": setting_keys},
                            "label": text,
                            "default": choice,
                            "choices": {"type": "array", "items": choice},
                            "spec": text,
                        }
                    ),
                },
            }
        ),
        "RatedPlayer": _object(
            {
                "id": {"type": "integer", "minimum": 1},
                "name": text,
                "games": {"type": "integer", "minimum": 0, "description": "rated games (finished, with another side)"},
                "rating": {
                    "type": ["integer", "null"],
                    "description": "(mu - 3 sigma) × 100, rounded; null before the first rated game",
                },
                "uncertainty": {"type": ["integer", "null"], "minimum": 0, "description": "sigma × 100, rounded"},
                "provisional": {"type": "boolean", "description": "fewer than 5 rated games"},
            }
        ),
        "Teams": _object(
            {
                "variant": {"enum": list(variants.RULE_SETS)},
                "layout": text,
                "seatings": {
                    "type": "array",
                    "minItems": 1,
                    "items": _object(
                        {
                            "sides": {
                                "type": "array",
                                "items": _object(
                                    {
                                        "players": {"type": "array", "items": _object({"id": integer, "name": text})},
                                        "chance": {"type": "number", "minimum": 0, "maximum": 1},
                                    }
                                ),
                            },
                            "seats": {
                                "type": "array",
                                "items": _object({"id": integer, "name": text}),
                                "description": "the players in seat order, as the new-game form takes them",
                            },
                            "start": {**text, "description": "the new-game page with these seats filled in"},
                        }
                    ),
                },
            }
        ),
        "Game": _object(
            {
                "id": {"type": "integer", "minimum": 1},
                "variant": {"enum": list(variants.RULE_SETS)},
                "layout": text,
                "settings": {"type": "object", "additionalProperties": choice},
                "target": integer,
                "players": {"type": "array", "items": text},
                "sides": {
                    "type": "array",
                    "items": _object({"name": text, "players": {"type": "array", "items": text}}),
                },
                "hands": {
                    "type": "array",
                    "items": _object(
                        {
                            "id": {"type": "integer", "minimum": 1},
                            "number": {"type": "integer", "minimum": 1},
                            "dealer": text,
                            "sitting_out": {"type": "array", "items": text},
                            "stock_out": {"type": ["boolean", "null"]},
                            "lone": {"type": ["integer", "null"]},
                            "entry": {
                                "type": "array",
                                "items": _ref("Side"),
                                "description": "the SIDE objects as typed",
                            },
                            "sides": {"type": "array", "items": _ref("SideScore")},
                            "after_end": {
                                "type": "boolean",
                                "description": "recorded after the hand that ended the game",
                            },
                        }
                    ),
                },
                "totals": {"type": "array", "items": integer},
                "opening_minimums": {"type": "array", "items": integer},
                "next_dealer": text,
                **result,
            }
        ),
    }


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Canasta score keeper",
            "version": "1",
            "description": (
                'The JSON API (docs/api.md). Every refusal has one shape: `{"errors": [{"side", "field", '
                '"message"}]}`. With a password set, every endpoint but /api/variants, /api/score and this '
                "document answers 401 until the phone has entered it in the browser (its session cookie)."
            ),
        },
        "paths": _paths(),
        "components": {"schemas": _schemas()},
    }


def document() -> dict[str, Any]:
    """The OpenAPI document (a fresh copy: the caller may change it)."""
    return copy.deepcopy(_document())
