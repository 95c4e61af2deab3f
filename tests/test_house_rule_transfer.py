"""A table's own rule set passed to another table (docs/api.md, "A rule set's file"): the file's
format read and written (worked examples), its import as a service and through the page, each refusal
named by its field, the QR code's link, and the password."""

from __future__ import annotations

import html
import io
import json
import re
import shutil
from pathlib import Path
from urllib.parse import unquote

import pytest
from segno import DataOverflowError

from scorekeeper import create_app
from scorekeeper.core.rulesets import transfer
from scorekeeper.network import addresses
from scorekeeper.services import house_rules
from scorekeeper.services import rule_set_transfer as service
from scorekeeper.services.verdicts import PROBLEMS, SAVED
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from tests.conftest import csrf_token
from tests.helpers import quick_hash

THURSDAY = {
    "format": "canasta-rule-set",
    "version": 1,
    "name": "Thursday rules",
    "base": "classic",
    "layout": "4",
    "values": {"canasta_natural": 600, "going_out_bonus": 300},
}


def text_of(**changed) -> str:
    """Thursday's file with some keys changed (None: left out)."""
    data = {**THURSDAY, **changed}
    return json.dumps({key: value for key, value in data.items() if value is not None})


# --- the format (pure) ---


def test_the_file_holds_name_base_layout_and_the_changed_values_in_order():
    data = transfer.document("Thursday rules", "classic", "4", {"going_out_bonus": 300, "canasta_natural": 600})
    assert data == THURSDAY and list(data["values"]) == ["canasta_natural", "going_out_bonus"]
    assert transfer.read_text(transfer.pretty(data)) == (
        {"name": "Thursday rules", "base": "classic", "layout": "4", "values": THURSDAY["values"]},
        [],
    )


def test_a_file_of_any_value_kind_reads():
    """Settings, yes or no, a list of numbers and a text (the table's own kinds) are all values."""
    values = {"opening_by_hand": [50, 90, 120], "own_1_name": "Escalera", "own_1_points": 1500, "x_ok": True}
    fields, problems = transfer.read_document({**THURSDAY, "values": values, "layout": None})
    assert problems == [] and fields["values"] == values and fields["layout"] is None


@pytest.mark.parametrize(
    "data, field, message",
    [
        ([THURSDAY], "document", "not a JSON object"),
        ({**THURSDAY, "format": "canasta-archive"}, "format", "its format is not canasta-rule-set"),
        ({**THURSDAY, "version": "1"}, "version", "a whole number from 1"),
        ({**THURSDAY, "version": 0}, "version", "a whole number from 1"),
        ({**THURSDAY, "version": True}, "version", "a whole number from 1"),
        ({**THURSDAY, "colour": "green"}, "document", "Unknown keys: colour."),
        ({key: v for key, v in THURSDAY.items() if key != "base"}, "base", "Missing from the file."),
        ({key: v for key, v in THURSDAY.items() if key != "layout"}, "layout", "Missing from the file."),
        ({**THURSDAY, "name": 7}, "name", "Give the name as text."),
        ({**THURSDAY, "base": ["classic"]}, "base", "rule set's id as text"),
        ({**THURSDAY, "layout": 4}, "layout", "layout as text, or null"),
        ({**THURSDAY, "values": [600]}, "values", "as an object"),
        ({**THURSDAY, "values": {"Canasta Natural": 600}}, "values", "Not a value's name: Canasta Natural."),
        ({**THURSDAY, "values": {"canasta_natural": 600.0}}, "canasta_natural", "Not a value of a rule set"),
        ({**THURSDAY, "values": {"canasta_natural": None}}, "canasta_natural", "Not a value of a rule set"),
        ({**THURSDAY, "values": {"canasta_natural": {"points": 600}}}, "canasta_natural", "Not a value"),
        ({**THURSDAY, "values": {"opening_by_hand": [[50]]}}, "opening_by_hand", "Not a value"),
        ({**THURSDAY, "values": {"own_1_name": "x" * 201}}, "own_1_name", "Not a value"),
        ({**THURSDAY, "values": {f"v{i}": 1 for i in range(501)}}, "values", "at most 500"),
    ],
)
def test_each_broken_field_is_named(data, field, message):
    fields, problems = transfer.read_document(data)
    assert [p.field for p in problems] == [field], problems
    assert message in problems[0].message


def test_a_newer_version_is_refused_with_what_to_do():
    _, problems = transfer.read_document({**THURSDAY, "version": 2, "colour": "green"})
    assert [p.field for p in problems] == ["version"]  # a newer file's new keys are not blamed
    assert problems[0].message == (
        "This file is of version 2, made by a newer app; this one reads version 1. "
        "Update the app, or make the file again on an app of this version."
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Choose a rule set's file, or paste its text."),
        ("{'format': 1}", "it is not JSON"),
        ('{"format": "canasta-rule-set", "format": "x"}', "The key format is given twice."),
        ('{"values": {"a": NaN}}', "it is not JSON"),
        ("[" * 100000, "larger than a rule set's file"),
        ("[" * 30000, "it is not JSON"),  # nested too deep for the parser
    ],
)
def test_a_text_that_is_no_file_is_named_as_the_document(text, message):
    fields, problems = transfer.read_text(text)
    assert fields == {} and [p.field for p in problems] == ["document"] and message in problems[0].message


def test_the_link_carries_the_compact_file_and_nothing_else():
    data = {**THURSDAY, "name": "Donnerstag – Größe"}
    carried = transfer.link_text(data)
    assert re.fullmatch(r"[A-Za-z0-9_-]+", carried)
    assert json.loads(transfer.from_link(carried)) == data
    assert transfer.from_link(carried + "==") == transfer.from_link(carried)
    for broken in ("", "not base64!", "_w", "A" * 50000):
        assert transfer.from_link(broken) is None, broken


@pytest.mark.parametrize(
    "name, file",
    [
        ("Thursday rules", "thursday-rules.canasta-rules.json"),
        ("Größe & Café", "groe-cafe.canasta-rules.json"),  # ß has no plain letters of its own: left out
        ("Пятница", "rule-set.canasta-rules.json"),
        ('a"b/..\\c', "a-b-c.canasta-rules.json"),
    ],
)
def test_the_download_is_named_after_the_rule_set_in_plain_letters(name, file):
    assert transfer.file_name(name) == file


# --- the service ---


def test_unknown_base_a_value_out_of_range_and_a_taken_name_are_named(app):
    with app.app_context():
        db = get_db()
        verdict = service.import_rule_set(db, text_of(base="klassik"))
        assert verdict.status == PROBLEMS and [(p.field, p.message) for p in verdict.problems] == [
            ("base", "Unknown rule set.")
        ]
        verdict = service.import_rule_set(db, text_of(values={"canasta_natural": 601, "no_such": 1}))
        assert {p.field for p in verdict.problems} == {"canasta_natural", "no_such"}
        verdict = service.import_rule_set(db, text_of(layout="9"))
        assert [p.field for p in verdict.problems] == ["layout"]
        assert service.import_rule_set(db, text_of()).status == SAVED
        taken = service.import_rule_set(db, text_of(name="thursday  RULES"))
        assert [(p.field, p.message) for p in taken.problems] == [("name", "A rule set of that name exists.")]
        other = service.import_rule_set(db, text_of(name="thursday RULES"), name="Friday rules")
        assert other.status == SAVED and records.get_house_rules(db, other.id).name == "Friday rules"


# --- the pages ---


def keep_thursday(app) -> int:
    with app.app_context():
        verdict = house_rules.create(get_db(), "Thursday rules", "classic", "4", THURSDAY["values"])
    return verdict.id


def import_text(client, text: str, name: str = "", **extra):
    token = csrf_token(client, "/house-rules/import")
    return client.post("/house-rules/import", data={"csrf_token": token, "document": text, "name": name, **extra})


def test_export_then_import_on_a_fresh_database_gives_the_same_rules(app, client, tmp_path, migrated_database):
    house_id = keep_thursday(app)
    download = client.get(f"/house-rules/{house_id}/export.json")
    assert download.status_code == 200 and download.mimetype == "application/json"
    assert download.headers["Content-Disposition"] == 'attachment; filename="thursday-rules.canasta-rules.json"'
    assert download.get_json() == THURSDAY
    shutil.copy(migrated_database, tmp_path / "other.sqlite")
    other = create_app({"TESTING": True, "SECRET_KEY": "other", "DATABASE": str(tmp_path / "other.sqlite")})
    there = other.test_client()
    token = csrf_token(there, "/house-rules/import")
    upload = (io.BytesIO(download.data), "thursday-rules.canasta-rules.json")
    response = there.post("/house-rules/import", data={"csrf_token": token, "file": upload, "name": ""})
    assert response.status_code == 302 and response.headers["Location"] == "/house-rules"
    assert "Kept: Thursday rules." in there.get("/house-rules").text
    with other.app_context():
        [kept] = records.all_house_rules(get_db())
        assert (kept.name, kept.base, kept.layout, dict(kept.changes)) == (
            "Thursday rules",
            "classic",
            "4",
            THURSDAY["values"],
        )
    assert there.get(f"/house-rules/{kept.id}/export.json").get_json() == THURSDAY


def test_a_refused_file_shows_each_problem_beside_its_field_and_keeps_the_text(client):
    text = text_of(values={"canasta_natural": 601}, base="classic")
    response = import_text(client, text)
    assert response.status_code == 422
    page = response.text
    assert html.escape(text, quote=False) in page.replace("&#34;", '"').replace("&quot;", '"')
    assert 'id="document-error"' in page and 'aria-invalid="true"' in page
    assert "Natural canastas: bonus each (canasta_natural): A multiple of 5 from 0 to 10000." in html.unescape(page)
    assert 'value="Thursday rules"' in page  # the file's name shown, as it would be kept


def test_an_unknown_base_and_a_newer_version_are_named(client):
    page = html.unescape(import_text(client, text_of(base="klassik")).text)
    assert "Built-in rule set (base): Unknown rule set." in page
    page = html.unescape(import_text(client, text_of(version=3)).text)
    assert "version: This file is of version 3, made by a newer app" in page


def test_a_taken_name_is_refused_beside_the_name_and_another_name_imports(app, client):
    keep_thursday(app)
    response = import_text(client, text_of())
    assert response.status_code == 422
    assert re.search(r'<p class="error" id="name-error">A rule set of that name exists.</p>', response.text)
    assert import_text(client, text_of(), name="Thursday at Anna's").status_code == 302
    assert "Kept: Thursday at Anna&#39;s." in client.get("/house-rules").text


def test_too_large_a_text_is_refused_beside_it_and_too_large_a_body_at_once(client):
    response = import_text(client, " " * (transfer.MOST_CHARS + 1))
    assert response.status_code == 422 and "larger than a rule set&#39;s file" in response.text
    token = csrf_token(client, "/house-rules/import")
    big = (io.BytesIO(b" " * (transfer.MOST_CHARS + 10)), "big.json")
    response = client.post("/house-rules/import", data={"csrf_token": token, "file": big})
    assert response.status_code == 422 and "larger than a rule set&#39;s file" in response.text
    huge = client.post("/house-rules/import", data={"csrf_token": token, "document": "x" * (2 * 1024 * 1024)})
    assert huge.status_code == 413
    assert "None yet." in client.get("/house-rules").text


def test_without_the_form_token_nothing_is_kept(client):
    response = client.post("/house-rules/import", data={"document": text_of(), "name": ""})
    assert response.status_code in (400, 422)
    assert "None yet." in client.get("/house-rules").text


def test_the_rule_set_page_offers_the_file_and_a_qr_code_of_the_import_link(app, client):
    house_id = keep_thursday(app)
    page = client.get(f"/house-rules/{house_id}").text
    assert "Pass to another table" in page and '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert f'href="/house-rules/{house_id}/export.json" download' in page
    link = html.unescape(re.search(r'class="transfer-link" href="([^"]+)"', page).group(1))
    assert re.fullmatch(r"http://[^/]+/house-rules/import\?rules=[A-Za-z0-9_-]+", link), link
    assert "Pass to another table" not in client.get("/house-rules/new/classic").text  # nothing to pass yet


def test_the_qr_link_opens_the_import_filled_in_and_keeps_nothing_by_itself(app, client):
    house_id = keep_thursday(app)
    page = client.get(f"/house-rules/{house_id}").text
    link = html.unescape(re.search(r'class="transfer-link" href="([^"]+)"', page).group(1))
    path = link[link.index("/house-rules/import") :]
    opened = client.get(path)
    assert opened.status_code == 200
    textarea = html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", opened.text, re.S).group(1))
    assert json.loads(textarea) == THURSDAY and textarea == transfer.pretty(THURSDAY)
    assert 'id="name" name="name" type="text" maxlength="60" value="Thursday rules"' in opened.text
    assert "From Classic Canasta (4 players, 2 partnerships); 2 values changed." in html.unescape(opened.text)
    with app.app_context():
        assert len(records.all_house_rules(get_db())) == 1  # opening the link kept nothing
    keep = re.search(r'href="data:application/json;charset=utf-8,([^"]+)" download="([^"]+)"', opened.text)
    assert keep.group(2) == "thursday-rules.canasta-rules.json"  # for a phone whose table runs another app
    assert json.loads(unquote(html.unescape(keep.group(1)))) == THURSDAY
    assert "keep-file" not in import_text(client, text_of(values={"canasta_natural": 601})).text  # a link's only
    broken = client.get("/house-rules/import?rules=not!base64")
    assert broken.status_code == 200 and "This link carries no rule set&#39;s file." in broken.text


def test_the_import_speaks_german(client):
    client.get("/prefs?lang=de&next=/")
    page = import_text(client, text_of(version=3)).text
    assert '<html lang="de"' in page and "Regelwerk importieren" in page


@pytest.fixture
def locked_app(tmp_path, migrated_database):
    shutil.copy(migrated_database, tmp_path / "locked.sqlite")
    config = {"TESTING": True, "SECRET_KEY": "test", "PASSWORD_HASH": quick_hash("rote drei")}
    return create_app({**config, "DATABASE": str(tmp_path / "locked.sqlite")})


def test_behind_the_password_and_back_to_the_filled_form_after_it(locked_app):
    house_id = keep_thursday(locked_app)
    stranger = locked_app.test_client()
    assert stranger.get(f"/house-rules/{house_id}/export.json").status_code == 401
    path = f"/house-rules/import?rules={transfer.link_text(THURSDAY)}"
    response = stranger.get(path)
    assert response.status_code == 302 and response.headers["Location"].startswith("/login?next=")
    assert stranger.post("/house-rules/import", data={"document": text_of(), "name": "Other"}).status_code == 401
    token = csrf_token(stranger, "/login")
    unlocked = stranger.post("/login", data={"csrf_token": token, "password": "rote drei", "next": path})
    assert unlocked.status_code == 302 and unlocked.headers["Location"] == path
    assert 'value="Thursday rules"' in stranger.get(path).text
    with locked_app.app_context():
        assert len(records.all_house_rules(get_db())) == 1


def test_the_docs_describe_every_key_and_their_example_is_a_file_that_imports(app):
    text = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("### A rule set's file") : text.index("## `GET /api/variants`")]
    example = re.search(r"^```\n(.*?)^```", section, re.M | re.S).group(1)
    assert json.loads(example) == THURSDAY
    assert set(re.findall(r"^\| `(\w+)` \|", section, re.M)) == set(transfer.KEYS)
    with app.app_context():
        assert service.import_rule_set(get_db(), example).status == SAVED


def test_a_rule_set_too_large_for_a_qr_code_still_offers_its_file(app, client, monkeypatch):
    def too_large(text, title="QR code"):
        raise DataOverflowError("too large")

    monkeypatch.setattr(addresses, "qr_svg", too_large)
    page = client.get(f"/house-rules/{keep_thursday(app)}").text
    assert "Too many changes for a QR code: pass the file." in page and "<svg" not in page.split("house-transfer")[1]
    assert "Download the file (JSON)" in page
