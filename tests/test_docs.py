"""The docs cannot fall behind the code: every rule set, layout, setting and field is documented,
and every example in docs/api.md answers what the docs say."""

import json
import re
from pathlib import Path

import pytest

from scorekeeper import checks, variants

API = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
EXAMPLES = API[API.index("## Examples, one per rule set") :]


def test_every_rule_set_is_documented():
    for rules in variants.RULE_SETS.values():
        row = re.search(rf"^\| `{re.escape(rules.id)}` \| (.+?) \| (§\d+) \| (\d+) \| (\d+) \| (\d+) \|$", API, re.M)
        assert row, f"{rules.id} missing from docs/api.md"
        assert row.groups() == (
            rules.name,
            rules.spec,
            str(rules.players),
            str(rules.target),
            str(rules.canastas_to_go_out),
        )


def test_every_layout_and_setting_is_documented():
    for rules in variants.RULE_SETS.values():
        for layout in rules.layouts:
            assert re.search(rf"^\| `{re.escape(layout.key)}` \| {layout.players} \|", API, re.M), layout.key
        for setting in rules.settings:
            row = re.search(rf"^\| `{setting.key}` \| ([^|]+) \| ([^|]+) \|", API, re.M)
            assert row, f"setting {setting.key} missing from docs/api.md"
            assert rules.id in row.group(1) or row.group(1).strip() == "all", f"{setting.key} does not name {rules.id}"
            for value, _label in setting.choices:
                assert f"`{json.dumps(value)}`" in row.group(2), f"{setting.key} value {value!r} undocumented"


def test_every_side_field_is_documented():
    for rules in variants.RULE_SETS.values():
        for setting_values in ({}, {"wild_melds": True}):
            configured = variants.configure(
                rules, {k: v for k, v in setting_values.items() if k in {s.key for s in rules.settings}}
            )
            for field in checks.known_fields(configured):
                assert f"| `{field}` |" in API, f"{field} of {rules.id} missing from docs/api.md"


def test_every_card_group_is_documented():
    for key in variants.CARD_GROUP_KEYS:
        assert f"`{key}`" in API


def _examples():
    for match in re.finditer(r"### `([^`]+)`\n.*?```json\n(.*?)```\nScores: `([^`]+)`", EXAMPLES, re.S):
        yield pytest.param(json.loads(match.group(2)), [int(x) for x in match.group(3).split(",")], id=match.group(1))


def test_there_is_an_example_per_rule_set():
    assert sorted(p.id for p in _examples()) == sorted(variants.RULE_SETS)


@pytest.mark.parametrize("body, scores", list(_examples()))
def test_examples_answer_as_documented(client, body, scores):
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert [side["score"] for side in response.get_json()["sides"]] == scores
