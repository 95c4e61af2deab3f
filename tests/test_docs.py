"""The docs cannot fall behind the code: every rule set, layout, setting and field is documented,
and every example in docs/api.md answers what the docs say."""

import importlib.util
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper.core import checks, rulesets

API = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
EXAMPLES = API[API.index("## Examples, one per rule set") :]


def test_every_rule_set_is_documented():
    for rules in rulesets.RULE_SETS.values():
        row = re.search(
            rf"^\| `{re.escape(rules.id)}` \| (.+?) \| (docs/rules\.md#[a-z0-9-]+) \| (\d+) \| (\d+) \| (\d+) \|$",
            API,
            re.M,
        )
        assert row, f"{rules.id} missing from docs/api.md"
        assert row.groups() == (
            rules.name,
            rules.spec,
            str(rules.players),
            str(rules.target),
            str(rules.canastas_to_go_out),
        )


def test_every_layout_and_setting_is_documented():
    for rules in rulesets.RULE_SETS.values():
        for layout in rules.layouts:
            assert re.search(rf"^\| `{re.escape(layout.key)}` \| {layout.players} \|", API, re.M), layout.key
        for setting in rules.settings:
            row = re.search(rf"^\| `{setting.key}` \| ([^|]+) \| ([^|]+) \|", API, re.M)
            assert row, f"setting {setting.key} missing from docs/api.md"
            assert rules.id in row.group(1) or row.group(1).strip() == "all", f"{setting.key} does not name {rules.id}"
            for value, _label in setting.choices:
                assert f"`{json.dumps(value)}`" in row.group(2), f"{setting.key} value {value!r} undocumented"


def test_every_side_field_is_documented():
    for rules in rulesets.RULE_SETS.values():
        for setting_values in ({}, {"wild_melds": True}):
            configured = rulesets.configure(
                rules, {k: v for k, v in setting_values.items() if k in {s.key for s in rules.settings}}
            )
            for field in checks.known_fields(configured):
                assert f"| `{field}` |" in API, f"{field} of {rules.id} missing from docs/api.md"


def test_every_card_group_is_documented():
    for key in rulesets.CARD_GROUP_KEYS:
        assert f"`{key}`" in API


def _examples():
    for match in re.finditer(r"### `([^`]+)`\n.*?```json\n(.*?)```\nScores: `([^`]+)`", EXAMPLES, re.S):
        yield pytest.param(json.loads(match.group(2)), [int(x) for x in match.group(3).split(",")], id=match.group(1))


def test_there_is_an_example_per_rule_set():
    assert sorted(p.id for p in _examples()) == sorted(rulesets.RULE_SETS)


@pytest.mark.parametrize("body, scores", list(_examples()))
def test_examples_answer_as_documented(client, body, scores):
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert [side["score"] for side in response.get_json()["sides"]] == scores


# ---------------------------------------------------------------------------------------------
# docs/rules.md: the project's own rules reference, written by scripts/rules_doc.py from rulesets.py

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"
# The prefix of a path into the folder outside the repository, spelled in two pieces so that a grep
# of the tree for it finds nothing but comments.
OUTSIDE = "shared" + "/"


def _load_rules_doc_script():
    spec = importlib.util.spec_from_file_location("rules_doc", ROOT / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rules_doc = _load_rules_doc_script()


def _sections(text):
    """The document cut at each rule set's anchor: {id: text up to the next anchor}."""
    parts = re.split(r'^<a id="([^"]+)"></a>$', text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def _table(section, heading):
    """The rows (lists of cells) of the first table under a ### heading, header and rule left out."""
    match = re.search(rf"^### {re.escape(heading)}\n(.*?)(?=^### |\Z)", section, re.M | re.S)
    if not match:
        return None
    lines = [line for line in match.group(1).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip()[1:-1].split("|")] for line in lines[2:]]


def doc_mismatches(text, rule_sets):
    """Every place where docs/rules.md says another number (or misses a rule set or setting) than the tables.

    Read from the document's own tables and sentences, independently of how the script writes them."""
    found = []
    sections = _sections(text)

    def expect(what, got, wanted):
        if got != wanted:
            found.append(f"{what}: docs/rules.md has {got!r}, rulesets.py {wanted!r}")

    for base in rule_sets.values():
        section = sections.get(base.id)
        if section is None:
            found.append(f"{base.id}: no section")
            continue
        rules = rulesets.configure(base)
        expect(f"{base.id} heading", f"## {base.name}" in section, True)
        expect(
            f"{base.id} card values",
            _table(section, "Card values"),
            [[label, str(rules.card_values[key]), str(rules.cards_in_deck[key])] for key, label in rulesets.CARD_GROUPS]
            + [["Red threes", "bonus only", str(rules.red_threes_in_deck)]],
        )
        deck = re.search(r"The deck has \*\*(\d+)\*\* cards", section)
        expect(
            f"{base.id} deck",
            deck and int(deck.group(1)),
            sum(rules.cards_in_deck.values()) + rules.red_threes_in_deck,
        )
        expect(
            f"{base.id} canastas",
            _table(section, "Canastas"),
            [[kind.label, str(kind.bonus)] for kind in rules.canasta_kinds],
        )
        threes = []
        for n in range(1, len(rules.red_three_values)):
            row = [str(n), str(rules.red_three_values[n])]
            if rules.black_three_values:
                row.append(str(rules.black_three_values[n]) if n < len(rules.black_three_values) else "")
            threes.append(row)
        expect(f"{base.id} threes", _table(section, "Red and black threes"), threes)
        going_out = _table(section, "Going out")
        expect(
            f"{base.id} going out",
            going_out and [row[:2] for row in going_out],
            [[g.label, str(g.bonus)] for g in rules.going_out],
        )
        needs = re.search(
            r"Going out needs \*\*(\d+)\*\* completed canastas?(?:, \*\*(\d+)\*\* of them natural)?"
            r"(?:,? and \*\*(\d+)\*\* of them wild-card)?",
            section,
        )
        expect(
            f"{base.id} canastas to go out",
            needs and tuple(int(x or 0) for x in needs.groups()),
            (rules.canastas_to_go_out, rules.natural_canastas_to_go_out, rules.wild_canastas_to_go_out),
        )
        cut = re.search(r"Exact cut: the team that did not deal scores \*\*(\d+)\*\*", section)
        expect(f"{base.id} exact cut", int(cut.group(1)) if cut else 0, rules.exact_cut_bonus)
        penalties = (
            [[d.label, f"−{d.points}"] for d in rules.incomplete_melds]
            + [[f"{d.label}, each player (at most {d.max_count})", f"−{d.points}"] for d in rules.holding_penalties]
            + [[d.label, f"−{d.points}"] for d in rules.penalty_catalogue]
            + (
                [["Black three left in a hand, each", f"−{rules.black_three_in_hand}"]]
                if rules.black_three_in_hand
                else []
            )
        )
        expect(f"{base.id} penalties", _table(section, "Penalties") or [], penalties)
        expect(
            f"{base.id} opening minimums",
            _table(section, "Opening minimum"),
            [[row.label, str(row.minimum)] for row in rules.opening_minimums],
        )
        target = re.search(r"The target is \*\*(\d+)\*\*", section)
        expect(f"{base.id} target", target and int(target.group(1)), rules.target)
        settings = _table(section, "House rules") or []
        expect(
            f"{base.id} house rules", [row[0] for row in settings], [rules_doc.plain(s.label) for s in base.settings]
        )
        for row, setting in zip(settings, base.settings):
            expect(
                f"{base.id} {setting.key} choices",
                row[1].split(" · "),
                [rules_doc.plain(label) for _value, label in setting.choices],
            )
            expect(f"{base.id} {setting.key} default", row[2], rules_doc.choice_label(setting, setting.default))
    return found


def test_rules_doc_is_written_from_the_tables():
    """docs/rules.md is exactly what scripts/rules_doc.py writes from rulesets.py today."""
    assert RULES_DOC.read_text(encoding="utf-8") == rules_doc.render(), (
        "docs/rules.md is out of date: run .venv/bin/python scripts/rules_doc.py"
    )


def test_rules_doc_numbers_match_the_rule_sets():
    assert doc_mismatches(RULES_DOC.read_text(encoding="utf-8"), rulesets.RULE_SETS) == []


CHANGES = {
    "target": lambda r: replace(r, target=r.target + 500),
    "card value": lambda r: replace(r, card_values={**r.card_values, "high": 15}),
    "deck": lambda r: replace(r, cards_in_deck={**r.cards_in_deck, "jokers": 6}),
    "canasta bonus": lambda r: replace(
        r, canasta_kinds=(replace(r.canasta_kinds[0], bonus=550),) + r.canasta_kinds[1:]
    ),
    "red threes": lambda r: replace(r, red_three_values=r.red_three_values[:-1] + (900,)),
    "going out": lambda r: replace(
        r, going_out=(replace(r.going_out[0], lines=(("going_out", "Going out", 150),)),) + r.going_out[1:]
    ),
    "canastas to go out": lambda r: replace(r, canastas_to_go_out=r.canastas_to_go_out + 1),
    "opening minimum": lambda r: replace(
        r, opening_minimums=r.opening_minimums[:-1] + (replace(r.opening_minimums[-1], minimum=125),)
    ),
    "penalty": lambda r: replace(
        r, penalty_catalogue=(replace(r.penalty_catalogue[0], points=75),) + r.penalty_catalogue[1:]
    ),
    "setting default": lambda r: replace(
        r, settings=(replace(r.settings[0], default=r.settings[0].choices[1][0]),) + r.settings[1:]
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_number_changed_in_variants_is_caught(change):
    """A copy of the rule sets with one number changed: the document no longer matches, both ways of checking."""
    victim = "austrian"  # has a penalty catalogue and settings
    changed = dict(rulesets.RULE_SETS)
    changed[victim] = CHANGES[change](changed[victim])
    text = RULES_DOC.read_text(encoding="utf-8")
    assert rules_doc.render(changed) != text
    assert doc_mismatches(text, changed), f"{change} changed but the document's check did not notice"


@pytest.mark.parametrize(
    "old, new",
    [
        ("The target is **7500**", "The target is **7000**"),
        ("| Natural canastas | 500 |", "| Natural canastas | 550 |"),
        ("| 3000 – 4995 | 155 |", "| 3000 – 4995 | 150 |"),
        ("| Incomplete 7s meld | −2500 |", "| Incomplete 7s meld | −2000 |"),
        ("| 4 | 800 |", "| 4 | 400 |"),
        ("| Jokers | 50 | 4 |", "| Jokers | 50 | 6 |"),
    ],
)
def test_a_number_changed_in_the_document_is_caught(old, new):
    text = RULES_DOC.read_text(encoding="utf-8")
    assert old in text
    assert doc_mismatches(text.replace(old, new, 1), rulesets.RULE_SETS)


def test_every_rule_set_and_setting_is_in_the_rules_doc():
    text = RULES_DOC.read_text(encoding="utf-8")
    sections = _sections(text)
    assert list(sections) == list(rulesets.RULE_SETS) + ["house-values"]  # the table's own rules last
    for rules in rulesets.RULE_SETS.values():
        assert f"- [{rules.name}](#{rules.id})" in text
        section = sections[rules.id]
        for layout in rules.layouts:
            assert f"- {layout.label}" in section
        for setting in rules.settings:
            assert f"| {rules_doc.plain(setting.label)} |" in section, setting.key
            assert f"- *{rules_doc.plain(setting.label)}*: {rules_doc.SETTING_NOTES[setting.key]}" in section
            for _value, label in setting.choices:
                assert rules_doc.plain(label) in section


def test_every_changeable_value_is_in_the_rules_doc_with_its_default():
    """docs/rules.md#house-values lists every value of every rule set's list, with its default."""
    section = _sections(RULES_DOC.read_text(encoding="utf-8"))["house-values"]
    for rules in rulesets.RULE_SETS.values():
        for value in rulesets.values_of(rules):
            row = next((line for line in section.splitlines() if line.startswith(f"| `{value.name}` |")), None)
            assert row is not None, value.name
            default = rules_doc.house_doc._default(value.default)
            assert f"| {default} |" in row or f"{default} (" in row, (rules.id, value.name, row)


def test_rules_doc_names_its_sources_and_cites_no_spec():
    text = RULES_DOC.read_text(encoding="utf-8")
    for name in ("John McLeod", "pagat.com", "German", "Italian", "Estonian", '"Spielregeln"', "encyclopedia article"):
        assert name in text
    assert "\N{SECTION SIGN}" not in text and OUTSIDE not in text and "scoring-spec" not in text
    assert not re.search(r"\[00\d\]", text), "a source tag instead of the source's name"


def test_readme_links_the_rules_doc_and_cites_no_spec():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme
    assert "\N{SECTION SIGN}" not in readme and OUTSIDE not in readme and "scoring-spec" not in readme


def test_nothing_users_read_points_into_the_shared_folder():
    """README, docs, templates, static files, scripts: no path into the project's outside folder."""
    files = [ROOT / "README.md"]
    for folder in ("docs", "templates", "static", "scripts"):
        files += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file()
            and p.suffix in {".md", ".html", ".js", ".css", ".json", ".py", ".sh", ".webmanifest", ".txt"}
        ]
    offenders = [str(p.relative_to(ROOT)) for p in files if OUTSIDE in p.read_text(encoding="utf-8", errors="ignore")]
    assert offenders == []
