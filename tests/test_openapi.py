"""The OpenAPI document (``GET /api/openapi.json``) and docs/api.md say the same: the same endpoints,
each with the same statuses; the document is served without a password and is valid OpenAPI 3.1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.web import openapi
from tests.helpers import quick_hash

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
    assert len(spec_endpoints(document)) == 9
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
        if rule.endpoint in ("archive.export_json", "games.manifest"):
            continue  # a file to download, the web app manifest: not answers of an API
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            routes.add(_endpoint(method, rule.rule))
    assert routes == documented


def test_the_document_is_served_without_a_password(client):
    client.application.config["WTF_CSRF_ENABLED"] = False
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response.get_json() == openapi.document()
    assert response.get_json()["openapi"].startswith("3.1")


def test_the_document_is_open_when_a_password_locks_the_rest(tmp_path):
    locked = create_app(
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
        ("GET", "/api/openapi.json"),
    }


def test_the_examples_in_the_document_are_answered_as_it_says(client):
    """The request examples are real: the score example scores 1250 and 315, the hand example is stored."""
    from tests.helpers import start_game

    document = openapi.document()
    score = document["paths"]["/api/score"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    response = client.post("/api/score", json=score["classic"]["value"])
    assert [side["score"] for side in response.get_json()["sides"]] == [1250, 315]
    game_id = start_game(client)
    client.application.config["WTF_CSRF_ENABLED"] = False
    hand = document["paths"]["/games/{id}/hands.json"]["post"]["requestBody"]["content"]["application/json"]
    response = client.post(f"/games/{game_id}/hands.json", json=hand["examples"]["first hand"]["value"])
    assert response.status_code == 201, response.get_json()
