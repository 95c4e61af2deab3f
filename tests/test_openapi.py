"""The OpenAPI document (``GET /api/openapi.json``), generated from the types of ``web/api_models.py``:
docs/api.md names the same endpoints with the same statuses and its examples are valid against it; the
app's answers are what it declares; it is served without a password and is valid OpenAPI 3.1."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorekeeper.core import checks, rulesets
from scorekeeper.web import api_models, openapi
from tests.conftest import make_app
from tests.helpers import complete_game, post_hand, quick_hash, side_fields, start_game

API_MD = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
HEADING = re.compile(r"^(#{2,6}) `([A-Z]+) (/[^`\s]*)`\s*$", re.M)
ROW = re.compile(r"^\|\s*`?([A-Z]+)`?\s*\|\s*`?(/[^`|\s]*)`?\s*\|([^|]*)\|", re.M)
STATUS = re.compile(r"`([1-5][0-9]{2})`")


def _endpoint(method: str, path: str) -> tuple[str, str]:
    """("GET", "/api/games/{}"): the path's parameters, ``<id>`` or ``{id}``, all written ``{}``."""
    return method.upper(), re.sub(r"<[^>]*>|\{[^}]*\}", "{}", path)


def doc_endpoints(text: str) -> dict[tuple[str, str], dict[str, set[str]]]:
    """Every endpoint docs/api.md names, each with the statuses its table row lists ("table") and
    those its own section mentions (`201`, `404`, ...: "section"). An endpoint is named by a heading
    (## `GET /api/variants`) or by a row of a table (| `GET` | `/api/variants` | `200` |)."""
    found: dict[tuple[str, str], dict[str, set[str]]] = {}

    def entry(method: str, path: str) -> dict[str, set[str]]:
        return found.setdefault(_endpoint(method, path), {"table": set(), "section": set(), "named": set()})

    headings = list(HEADING.finditer(text))
    for k, match in enumerate(headings):
        level = len(match.group(1))
        end = len(text)
        for later in re.finditer(r"^(#{2,6}) ", text[match.end() :], re.M):
            if len(later.group(1)) <= level:
                end = match.end() + later.start()
                break
        section = text[match.end() : end]
        found_entry = entry(match.group(2), match.group(3))
        found_entry["named"].add("heading")
        found_entry["section"] |= set(STATUS.findall(section))
    for row in ROW.finditer(text):
        if row.group(1).lower() not in METHODS:
            continue
        found_entry = entry(row.group(1), row.group(2))
        found_entry["named"].add("table")
        found_entry["table"] |= set(STATUS.findall(row.group(3)))
    return found


def spec_endpoints(document: dict) -> dict[tuple[str, str], set[str]]:
    """Every operation of the OpenAPI document with its response statuses."""
    return {
        _endpoint(method, path): set(operation.get("responses", {}))
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    }


def mismatches(text: str, document: dict) -> list[str]:
    """Every endpoint or status one of docs/api.md and the OpenAPI document has and the other has not."""
    docs, spec = doc_endpoints(text), spec_endpoints(document)
    out = []
    for endpoint in sorted(set(spec) - set(docs)):
        out.append(f"{endpoint} is in the OpenAPI document, not in docs/api.md")
    for endpoint in sorted(set(docs) - set(spec)):
        out.append(f"{endpoint} is in docs/api.md, not in the OpenAPI document")
    for endpoint in sorted(set(docs) & set(spec)):
        documented, statuses = docs[endpoint], spec[endpoint]
        for place in ("heading", "table"):
            if place not in documented["named"]:
                out.append(f"{endpoint} has no {place} in docs/api.md")
        if documented["table"] != statuses:
            out.append(
                f"{endpoint}: docs/api.md's table lists {sorted(documented['table'])}, "
                f"the OpenAPI document {sorted(statuses)}"
            )
        if documented["section"] - statuses:
            out.append(
                f"{endpoint}: docs/api.md mentions {sorted(documented['section'] - statuses)}, the OpenAPI document not"
            )
    return out


def test_docs_and_the_document_name_the_same_endpoints_and_statuses():
    assert mismatches(API_MD, openapi.document()) == []


def test_the_comparison_finds_what_is_missing_on_either_side():
    document = openapi.document()
    assert len(spec_endpoints(document)) == 12
    # an endpoint missing from the document
    fewer = openapi.document()
    del fewer["paths"]["/api/games/{id}/version"]
    assert any("version" in m and "not in the OpenAPI" in m for m in mismatches(API_MD, fewer))
    # a status missing from the document
    fewer = openapi.document()
    del fewer["paths"]["/games/{id}/hands.json"]["post"]["responses"]["409"]
    assert any("hands.json" in m and "409" in m for m in mismatches(API_MD, fewer))
    # an endpoint missing from the docs (its heading, section and table row)
    start = API_MD.index("## `GET /api/games/<id>/version`")
    end = API_MD.index("## ", start + 3)
    text = API_MD[:start] + API_MD[end:]
    text = re.sub(r"^\| `GET` \| `/api/games/<id>/version` \|.*\n", "", text, flags=re.M)
    assert any("version" in m and "not in docs/api.md" in m for m in mismatches(text, document))
    # a status missing from the docs' table, or mentioned in a section only
    text = API_MD.replace("| `200`, `401`, `404` |", "| `200`, `404` |", 1)
    assert any("table lists" in m for m in mismatches(text, document))
    text = API_MD.replace("Never cached", "Never cached, never `418`", 1)
    assert any("mentions ['418']" in m for m in mismatches(text, document))


def test_every_json_endpoint_is_in_the_document(app):
    """Every route that answers JSON (the API blueprint and the .json routes) is documented."""
    documented = set(spec_endpoints(openapi.document()))
    routes = set()
    for rule in app.url_map.iter_rules():
        if not (rule.rule.startswith("/api/") or rule.rule.endswith(".json")):
            continue
        if rule.endpoint in ("archive.export_json", "house_transfer.export_house", "appfiles.manifest"):
            continue  # files to download (their formats: docs/api.md), the web app manifest: not answers of an API
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add(_endpoint(method, rule.rule))
    assert routes == documented


def test_the_document_is_served_without_a_password(client):
    client.application.config["WTF_CSRF_ENABLED"] = False
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.get_json() == openapi.document()
    assert response.get_json()["openapi"].startswith("3.1")


def test_the_document_is_open_when_a_password_locks_the_rest(tmp_path):
    locked = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "locked.sqlite"),
            "PASSWORD_HASH": quick_hash("rote drei"),
        }
    ).test_client()
    assert locked.get("/api/openapi.json").status_code == 200
    refused = locked.get("/api/games/1")  # as the document says: 401 for a phone without the password
    assert refused.status_code == 401 and refused.get_json()["errors"][0]["field"] == "password"


def test_the_document_is_valid_openapi_3_1():
    schemathesis = pytest.importorskip("schemathesis")
    schema = schemathesis.openapi.from_dict(openapi.document())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {(op.method.upper(), op.path) for op in operations} == {
        ("GET", "/api/variants"),
        ("POST", "/api/score"),
        ("GET", "/api/games/{id}"),
        ("GET", "/api/games/{id}/changes"),
        ("GET", "/api/games/{id}/version"),
        ("POST", "/games/{id}/hands.json"),
        ("GET", "/api/players"),
        ("GET", "/api/teams"),
        ("GET", "/api/tournaments"),
        ("GET", "/api/tournaments/{id}"),
        ("GET", "/api/matches/{id}"),
        ("GET", "/api/openapi.json"),
    }


def test_the_examples_in_the_document_are_answered_as_it_says(client):
    """The request examples are real: the score example scores 1250 and 315, the hand example is stored."""
    document = openapi.document()
    score = document["paths"]["/api/score"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    response = client.post("/api/score", json=score["classic"]["value"])
    assert [side["score"] for side in response.get_json()["sides"]] == [1250, 315]
    game_id = start_game(client)
    client.application.config["WTF_CSRF_ENABLED"] = False
    hand = document["paths"]["/games/{id}/hands.json"]["post"]["requestBody"]["content"]["application/json"]
    response = client.post(f"/games/{game_id}/hands.json", json=hand["examples"]["first hand"]["value"])
    assert response.status_code == 201, response.get_json()


# ---------------------------------------------------------------------------------------------
# The document is generated from the types: its paths, statuses and schemas


STATUSES = {
    ("get", "/api/variants"): {"200"},
    ("post", "/api/score"): {"200", "400", "413", "415", "422"},
    ("get", "/api/games/{id}"): {"200", "401", "404"},
    ("get", "/api/games/{id}/changes"): {"200", "401", "404"},
    ("get", "/api/games/{id}/version"): {"200", "401", "404"},
    ("post", "/games/{id}/hands.json"): {"200", "201", "400", "401", "404", "409", "413", "422", "503"},
    ("get", "/api/players"): {"200", "401"},
    ("get", "/api/teams"): {"200", "401", "422"},
    ("get", "/api/tournaments"): {"200", "401"},
    ("get", "/api/tournaments/{id}"): {"200", "401", "404"},
    ("get", "/api/matches/{id}"): {"200", "401", "404"},
    ("get", "/api/openapi.json"): {"200"},
}


def test_every_operation_has_its_statuses():
    paths = openapi.document()["paths"]
    found = {(method, path): set(op["responses"]) for path, item in paths.items() for method, op in item.items()}
    assert found == STATUSES


def _schema(document: dict, method: str, path: str, status: str | None = None) -> dict:
    """The schema of an operation's request body (status None) or of one of its answers."""
    operation = document["paths"][path][method]
    part = operation["requestBody"] if status is None else operation["responses"][status]
    return part["content"]["application/json"]["schema"]


def _validator(document: dict, schema: dict):
    """A JSON Schema 2020-12 validator for ``schema``, its references into the document's components."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    return jsonschema_rs.Draft202012Validator({**schema, "components": document["components"]})


def _problems(document: dict, schema: dict, instance) -> list[str]:
    """What ``instance`` breaks of ``schema``."""
    return [f"{list(e.instance_path)}: {e.message}" for e in _validator(document, schema).iter_errors(instance)]


def test_the_schemas_are_read_from_the_rule_tables():
    schemas = openapi.document()["components"]["schemas"]
    request = schemas["ScoreRequest"]
    assert request["required"] == ["variant", "sides"]
    assert request["properties"]["variant"]["enum"] == list(rulesets.RULE_SETS)
    assert request["properties"]["sides"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Side"},
        "minItems": 2,
        "maxItems": 3,
    }
    fields = set()
    for rules in rulesets.RULE_SETS.values():
        for layout in rules.layouts:
            for setting in [None, *rules.settings]:
                for value, _label in setting.choices if setting else [(None, None)]:
                    chosen = {setting.key: value} if setting else {}
                    fields |= checks.known_fields(rulesets.configure(rules, chosen, layout.key))
    fields |= {"own_1_canastas", "own_2_canastas", "own_3_canastas"}  # a table's own kinds of canasta
    side = schemas["Side"]
    assert set(side["properties"]) == fields and "required" not in side
    assert side["properties"]["melded_points"]["anyOf"][0] == {"type": "integer", "minimum": 0, "multipleOf": 5}
    assert set(schemas["CardCounts"]["properties"]) == set(rulesets.CARD_GROUP_KEYS)
    assert schemas["HandRequest"]["required"] == ["client_key", "sides"]
    assert schemas["Errors"]["properties"]["errors"]["minItems"] == 1
    assert set(schemas["Error"]["properties"]) == {"side", "field", "message", "shared"}


def test_every_answer_object_has_exactly_its_keys():
    """Every object an answer holds says which keys it has, all of them given (Side: those typed)."""
    schemas = openapi.document()["components"]["schemas"]
    # unknown keys of a phone's hand are left alone (an older server, a newer phone); POST /api/score refuses
    # them (a misspelt "values" must not score with the defaults)
    open_ones = {"HandRequest", "OpenAPIDocument"}
    for name, schema in schemas.items():
        if name in open_ones:
            assert schema.get("additionalProperties", True) is True, name
            continue
        assert schema["additionalProperties"] is False, name
        if name not in ("Side", "CardCounts", "ScoreRequest"):  # a request's fields may be left out
            assert set(schema["required"]) == set(schema["properties"]), name


def _tournament(app) -> int:
    """Four players at a table with a final, drawn and playing round 1 (tests/test_tournament_api.py
    goes further): its id."""
    from scorekeeper.services import tournaments
    from scorekeeper.storage.db import get_db

    with app.app_context():
        db = get_db()
        made = tournaments.create(
            db, name="Club night", fmt="final", variant="classic", layout="4", entrants=[(n,) for n in "ABCD"]
        )
        tournaments.draw(db, made.id, seed=1)
        tournaments.start_round(db, made.id)
        return made.id


def test_the_document_declares_the_app_s_answers(client):
    """A game with a hand, its sheet, log and version, the rule sets, the players, a score and its
    refusals: each answer is valid against the schema of its status."""
    document = openapi.document()
    game_id = start_game(client)
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=300, red=1),
        side_fields(1, melded_cards={"high": 5}, hand=40),
    )
    requests = [
        ("get", "/api/variants", "/api/variants", None),
        ("get", "/api/games/{id}", f"/api/games/{game_id}", None),
        ("get", "/api/games/{id}", "/api/games/42", None),
        ("get", "/api/games/{id}/changes", f"/api/games/{game_id}/changes", None),
        ("get", "/api/games/{id}/version", f"/api/games/{game_id}/version", None),
        ("get", "/api/players", "/api/players", None),
        ("get", "/api/teams", "/api/teams?players=1,2,3,4", None),
        ("get", "/api/teams", "/api/teams?players=1,2", None),
        ("post", "/api/score", "/api/score", openapi.SCORE_EXAMPLE),
        ("post", "/api/score", "/api/score", {"variant": "classic", "sides": [{"colour": 1}, {}]}),
        ("post", "/api/score", "/api/score", []),
        ("get", "/api/openapi.json", "/api/openapi.json", None),
        ("get", "/api/tournaments", "/api/tournaments", None),
        ("get", "/api/tournaments/{id}", f"/api/tournaments/{_tournament(client.application)}", None),
        ("get", "/api/tournaments/{id}", "/api/tournaments/42", None),
        ("get", "/api/matches/{id}", f"/api/matches/{complete_game(client)}", None),
        ("get", "/api/matches/{id}", f"/api/matches/{game_id}", None),
    ]
    statuses = set()
    for method, path, url, body in requests:
        response = client.post(url, json=body) if method == "post" else client.get(url)
        status = str(response.status_code)
        statuses.add(status)
        assert _problems(document, _schema(document, method, path, status), response.get_json()) == [], url
    assert statuses == {"200", "400", "404", "422"}


@pytest.mark.parametrize(
    "body",
    [
        {"sides": [{}, {}]},
        {"variant": "bridge", "sides": [{}, {}]},
        {"variant": "classic", "layout": 4, "sides": [{}, {}]},
        {"variant": "classic", "settings": [], "sides": [{}, {}]},
        {"variant": "classic", "settings": {"colour": 1}, "sides": [{}, {}]},
        {"variant": "classic", "settings": {"tie_rule": [1]}, "sides": [{}, {}]},
        {"variant": "classic", "target": 1234, "sides": [{}, {}]},
        {"variant": "classic", "target": True, "sides": [{}, {}]},
        {"variant": "classic", "target": 100005, "sides": [{}, {}]},
        {"variant": "classic", "totals_before": [3, 0], "sides": [{}, {}]},
        {"variant": "classic", "totals_before": None, "sides": [{}, {}]},
        {"variant": "classic", "totals_before": [10**7 + 5, 0], "sides": [{}, {}]},
    ],
)
def test_what_the_document_forbids_the_type_refuses_and_the_app_too(client, body):
    """The request type checks at run time what its schema says: a body the schema forbids is refused by
    the type (``api_models.refusals``) and answered 422."""
    document = openapi.document()
    assert _problems(document, _schema(document, "post", "/api/score"), body)
    assert api_models.refusals(api_models.ScoreRequest, body)
    assert client.post("/api/score", json=body).status_code == 422


def test_the_type_takes_what_the_document_allows():
    document = openapi.document()
    bodies = [
        openapi.SCORE_EXAMPLE,
        {
            "variant": "austrian",
            "layout": "2",
            "settings": {"hand_canasta_adds": True},
            "target": 1500,
            "totals_before": [0, -(10**7)],
            "sides": [{}, {}],
            "lone": None,
            "stock_out": None,
            "values": {},
        },
    ]
    for body in bodies:
        assert _problems(document, _schema(document, "post", "/api/score"), body) == []
        assert api_models.refusals(api_models.ScoreRequest, body) == {}


# ---------------------------------------------------------------------------------------------
# docs/api.md: its examples are valid against the document


ENDPOINT_HEADING = re.compile(r"^## `([A-Z]+) (/[^`]+)`$", re.M)


def _doc_sections(text: str):
    """(method, document path, text) of each endpoint's section of docs/api.md."""
    for heading in ENDPOINT_HEADING.finditer(text):
        later = re.search(r"^## ", text[heading.end() :], re.M)
        end = heading.end() + later.start() if later else len(text)
        path = re.sub(r"<([^>]*)>", r"{\1}", heading.group(2))
        yield heading.group(1).lower(), path, text[heading.end() : end]


def doc_examples(text: str):
    """Every example of docs/api.md that is whole JSON: (method, path, status or None for a request,
    the JSON). A ``$ curl`` block gives the request it sends (``-d '…'``) and the answer under it; a
    ```` ```json```` block is a request to ``POST /api/score``; an ``{"errors": …}`` block a 422."""
    for method, path, section in _doc_sections(text):
        for block in re.findall(r"^```(?:json)?\n(.*?)^```", section, re.M | re.S):
            if block.startswith("$ curl"):
                sent = re.search(r"-d '(.*?)'", block, re.S)
                answer = block[sent.end() :] if sent else block.split("\n", 1)[1]
                status = "201" if path.endswith("hands.json") else "200"
                parts = ([(None, sent.group(1))] if sent else []) + [(status, answer)]
            elif block.lstrip().startswith('{"errors"'):
                parts = [("422", block)]
            else:
                parts = [(None, block)]
            for status, raw in parts:
                try:
                    yield method, path, status, json.loads(raw)
                except json.JSONDecodeError:
                    continue  # shortened with "...": not whole JSON
    for block in re.findall(r"^```json\n(.*?)^```", text[text.index("## Examples, one per rule set") :], re.M | re.S):
        yield "post", "/api/score", None, json.loads(block)


def test_the_examples_in_the_docs_are_valid_against_the_document():
    document = openapi.document()
    checked = set()
    for method, path, status, example in doc_examples(API_MD):
        schema = _schema(document, method, path, status)
        assert _problems(document, schema, example) == [], (method, path, status, example)
        checked.add((method, path, status))
    assert checked >= {
        ("post", "/api/score", None),
        ("post", "/api/score", "200"),
        ("post", "/api/score", "422"),
        ("get", "/api/games/{id}/version", "200"),
        ("post", "/games/{id}/hands.json", None),
        ("post", "/games/{id}/hands.json", "201"),
        ("get", "/api/players", "200"),
        ("get", "/api/tournaments", "200"),
        ("get", "/api/tournaments/{id}", "200"),
        ("get", "/api/matches/{id}", "200"),
    }
    assert sum(1 for *_, status, _ in doc_examples(API_MD) if status is None) == len(rulesets.RULE_SETS) + 2


def test_the_comparison_finds_an_example_the_document_forbids():
    document = openapi.document()
    text = API_MD.replace('"red_threes": 2, "went_out": "concealed"}', '"red_threes": 2, "went_out": "sideways"}', 1)
    bad = [e for m, p, s, e in doc_examples(text) if _problems(document, _schema(document, m, p, s), e)]
    assert len(bad) == 1 and bad[0]["sides"][0]["went_out"] == "sideways"


def test_the_document_s_examples_are_those_of_the_docs(client):
    """The request examples of the document are the docs' ``curl`` examples, and the docs show what
    the app answers to the score example."""
    examples = {}
    for method, path, status, example in doc_examples(API_MD):
        examples.setdefault((method, path, status), example)  # the first: the curl example of the section
    assert examples[("post", "/api/score", None)] == openapi.SCORE_EXAMPLE
    assert examples[("post", "/games/{id}/hands.json", None)] == openapi.HAND_EXAMPLE
    answer = client.post("/api/score", json=openapi.SCORE_EXAMPLE).get_json()
    assert answer == examples[("post", "/api/score", "200")]


def _field_table(text: str, after: str) -> set[str]:
    """The fields a table of docs/api.md names: the first table after the line starting ``after``."""
    start = text.index(after)
    table = re.search(r"^\| field \| meaning \|\n\|---\|---\|\n((?:\|.*\n)+)", text[start:], re.M)
    return set(re.findall(r"^\| `([a-z0-9_]+)` \|", table.group(1), re.M))


def test_the_docs_tables_name_the_fields_of_the_schemas():
    """docs/api.md says what each field means, the document what it is: the same fields in both."""
    schemas = openapi.document()["components"]["schemas"]
    score = API_MD[API_MD.index("## `POST /api/score`") :]
    hands = API_MD[API_MD.index("## `POST /games/<id>/hands.json`") :]
    assert _field_table(score, "Request body") == set(schemas["ScoreRequest"]["properties"])
    assert _field_table(score, "SIDE:") == set(schemas["Side"]["properties"])
    assert _field_table(hands, "Request body") == set(schemas["HandRequest"]["properties"])
