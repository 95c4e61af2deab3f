"""The side-entry table (scorekeeper/core/entry.py) is the one definition of a side's hand entry: the form,
the page, the page's script, the checks and storage all follow it, for every rule set, seating and
house rule. Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`)."""

import html
import json
import re

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.core import checks, entry, rulesets
from scorekeeper.web import forms, hand_entry
from tests.helpers import post_hand, side_fields, start_game

NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def _configurations():
    """Every rule set in every seating, with its defaults and with each other choice of each house rule."""
    for rule_id, base in rulesets.RULE_SETS.items():
        for layout in base.layouts + base.partie_layouts:
            yield pytest.param(base, layout.key, {}, id=f"{rule_id}-{layout.key}")
            for setting in base.settings:
                for value, _label in setting.choices:
                    if value != setting.default:
                        yield pytest.param(
                            base, layout.key, {setting.key: value}, id=f"{rule_id}-{layout.key}-{setting.key}={value}"
                        )


CONFIGURATIONS = list(_configurations())
DEFAULTS = [pytest.param(rules, id=rule_id) for rule_id, rules in rulesets.RULE_SETS.items()]


def _inputs(fields):
    """The hand form's inputs of one side, as the table says them: each field's, and the choice
    between points and card counts."""
    names = {name for f in fields if f.form for name in f.inputs}
    return names | {f.mode for f in fields if f.form and f.mode}


@pytest.mark.parametrize("base, layout, settings", CONFIGURATIONS)
def test_table_is_well_formed_and_agrees_with_the_checks(base, layout, settings):
    rules = rulesets.configure(base, settings, layout)
    fields = entry.side_fields(rules)
    names = [f.name for f in fields]
    assert len(names) == len(set(names))
    assert all(f.kind in entry.KINDS and f.group in entry.GROUPS for f in fields)
    # the order the page shows them: group after group
    order = [entry.GROUPS.index(f.group) for f in fields]
    assert order == sorted(order)
    # limits: the checks' count fields are the table's, with the same most
    assert checks.count_fields(rules) == {f.name: f.max for f in fields if f.kind == "count"}
    assert checks.known_fields(rules) == set(names)
    # every field that is no count has the same kind and pairing in every rule set (entry.shape), so a
    # stored entry is stored and put back into the form without its rule set
    for f in fields:
        assert entry.shape(f.name).kind == f.kind
        assert entry.shape(f.name).pair == f.pair and entry.shape(f.name).default == f.default
    # points and card counts come in pairs of one group (docs/rules.md#classic › Card values: M and H)
    by_name = {f.name: f for f in fields}
    for f in fields:
        if f.pair:
            assert by_name[f.pair].pair == f.name and by_name[f.pair].group == f.group
            assert {f.kind, by_name[f.pair].kind} == {"points", "cards"}
    # the card groups counted are the rule set's, each up to what its deck holds (docs/rules.md#modern › Card values;
    # docs/rules.md#canadian)
    assert [c.key for c in by_name["melded_cards"].cards] == list(rules.melded_card_groups)
    assert [c.key for c in by_name["hand_cards"].cards] == list(rules.hand_card_groups)
    pooled = rules.black_threes_with_low_in_hand
    for c in (c for f in fields for c in f.cards):
        assert c.max == rules.cards_in_deck[c.key] + sum(rules.cards_in_deck[k] for k in c.pooled), c
    # where a black three left in hand counts as a 7 to 4 (docs/rules.md#classic › Card values: 5 and 5), the
    # 7 to 4 in hand hold them and the pad has no row of their own; nor where they cost a penalty of their
    # own, counted in the threes' row (docs/rules.md, "A table's own rules")
    in_hand = {c.key: c for c in by_name["hand_cards"].cards}
    assert (in_hand["low"].pooled == ("black_threes",)) == pooled
    same = rules.card_values["black_threes"] == rules.card_values["low"]
    assert pooled == (same and "black_threes" in in_hand and not rules.black_three_in_hand)
    assert [k for k, c in in_hand.items() if not c.on_pad] == (["black_threes"] if "black_threes" in in_hand else [])
    # the ways of going out are the ones this seating offers (docs/rules.md#austrian › Going out: glatt only with
    # partners)
    assert [value for value, _label in by_name["went_out"].choices] == [g.key for g in rules.going_out_offered]


@pytest.mark.parametrize("base, layout, settings", CONFIGURATIONS)
def test_form_has_exactly_the_tables_inputs(base, layout, settings):
    rules = rulesets.configure(base, settings, layout)
    form = forms.side_form_class(rules)()
    assert set(form._fields) == _inputs(entry.side_fields(rules))
    assert not entry.HAS_MELDED.form and "has_melded" not in form._fields  # the API's only (docs/rules.md#classic)


def _side_inputs(page, side=0):
    """The inputs of one side on the rendered hand page: name → its tag."""
    tags = re.findall(r"<input [^>]*>", page)
    found = {}
    for tag in tags:
        match = re.search(rf'name="sides-{side}-([^"]+)"', tag)
        if match:
            found.setdefault(match.group(1), tag)
    return found


def _page_rules(client, rule_id, layout):
    base = rulesets.get(rule_id)
    players = base.layout(layout).players
    game_id = start_game(client, rule_id, names=NAMES[:players], layout=layout if len(base.layouts) > 1 else None)
    return game_id, rulesets.configure(base, {}, layout)


@pytest.mark.parametrize(
    "rule_id, layout",
    [(rule_id, layout.key) for rule_id, rules in rulesets.RULE_SETS.items() for layout in rules.layouts],
)
def test_page_renders_exactly_the_tables_fields_with_their_limits(client, rule_id, layout):
    game_id, rules = _page_rules(client, rule_id, layout)
    page = client.get(f"/games/{game_id}/hands/new").text
    fields = entry.side_fields(rules)
    # each side's own inputs; how the hand ended and points-or-counts are asked once for the hand
    once = {f.name for f in fields if f.kind == "choice"} | {f.mode for f in fields if f.mode}
    once |= {c.input for f in fields for c in f.cards if not c.on_pad}  # shown for a hand stored with it only
    for side in range(rules.sides):
        assert set(_side_inputs(page, side)) == _inputs(fields) - once
    assert set(re.findall(r'<input [^>]*name="out" value="([^"]+)"', page)) == {str(i) for i in range(rules.sides)} | {
        "stock"
    }
    kinds = [g.key for g in rules.going_out_offered]
    offered = re.findall(r'<input [^>]*name="how" value="([^"]+)"', page) + re.findall(r'<option value="([^"]+)"', page)
    assert offered == kinds
    assert set(re.findall(r'<input [^>]*name="mode" value="([^"]+)"', page)) == {"points", "counts"}
    # each stepper goes up to the table's most: counts (canastas, threes, melds, offences) and cards
    inputs = _side_inputs(page)
    limits = {f.name: f.max for f in fields if f.kind == "count"}
    limits.update({c.input: c.max for f in fields if f.kind == "cards" for c in f.cards if c.on_pad})
    for name, most in limits.items():
        assert f'data-max="{most}"' in inputs[name], name
    # and the page's script is given the table
    attribute = re.search(r'data-fields="([^"]*)"', page).group(1)
    assert json.loads(html.unescape(attribute)) == [f.as_json() for f in fields if f.form]


def _stored(rules, counts):
    """A stored entry of every form field of the table, with some figures: points, or card counts."""
    side = {}
    for f in entry.side_fields(rules):
        if not f.form or (f.mode and (f.kind == "cards") != counts):
            continue
        if f.kind == "cards":
            side[f.name] = {c.key: i % 3 for i, c in enumerate(f.cards)}
        elif f.kind == "choice":  # the first side went out (the form asks once who did)
            side[f.name] = f.choices[0][0] if not counts else None
        elif f.kind == "flag":
            side[f.name] = True
        elif f.kind == "points":
            side[f.name] = 35
        else:
            side[f.name] = min(1, f.max)
    return side


@pytest.mark.slow  # a sweep over every case: run by CI, left out of the quick loop
@pytest.mark.parametrize("counts", [False, True], ids=["points", "counts"])
@pytest.mark.parametrize("base, layout, settings", CONFIGURATIONS)
def test_stored_entry_round_trips_through_the_form(app, base, layout, settings, counts):
    # a correction opens with what is stored and, saved unchanged, stores the same entry
    rules = rulesets.configure(base, settings, layout)
    other = {**_stored(rules, counts), "went_out": None}  # the page asks once who went out
    stored = [_stored(rules, counts), other] + [{} for _ in range(rules.sides - 2)]
    stored = checks.stored_entry(stored)
    with app.test_request_context():
        form = forms.hand_form_class(rules)(data=hand_entry.form_data(stored, stock_out=False, rules=rules))
        posted = hand_entry.posted_hand(rules, _as_the_page_posts(form))
    back = checks.stored_entry(posted.entry)  # read as the service reads it
    assert posted.problems == ()
    assert back[:2] == stored[:2]


def _as_the_page_posts(form) -> MultiDict:
    """The form data a browser sends for this form as the page shows it: every input's value, a box
    only when ticked, a choice only when one is chosen."""
    pairs = []

    def add(field):
        if hasattr(field, "entries"):  # one entry per side
            for entry_ in field.entries:
                add(entry_)
        elif field.type == "FormField":
            for sub in field.form:
                add(sub)
        elif field.type == "BooleanField":
            if field.data:
                pairs.append((field.name, "y"))
        elif field.type in ("RadioField", "SelectField"):
            if field.data not in (None, ""):
                pairs.append((field.name, str(field.data)))
        elif field.type != "CSRFTokenField":
            pairs.append((field.name, field._value()))

    for field in form:
        add(field)
    return MultiDict(pairs)


def test_stored_entry_keeps_each_kind():
    # figures as whole numbers, not going out as null, a flag as true or false (has_melded may be left out)
    raw = {
        "melded_points": "50",
        "hand_cards": {"low": " 2 ", "high": "", "jokers": None},
        "went_out": "no",
        "red_threes": 1.0,
        "exact_cut": "",
        "has_melded": None,
        "incomplete_wild": "",
    }
    assert checks.stored_entry([raw]) == [
        {
            "melded_points": 50,
            "hand_cards": {"low": 2},
            "went_out": None,
            "red_threes": 1,
            "exact_cut": False,
            "has_melded": None,
            "incomplete_wild": 0,
        }
    ]


@pytest.mark.parametrize("rules", DEFAULTS)
def test_limits_are_the_checks_limits(rules):
    # the most of each count is accepted, one more is refused beside that field; a field of
    # another rule set is an unknown field
    rules = rulesets.configure(rules)
    for f in entry.side_fields(rules):
        if f.kind != "count":
            continue
        problems = []
        checks.read_side(rules, {f.name: f.max}, 0, problems)
        assert problems == [], f.name
        checks.read_side(rules, {f.name: f.max + 1}, 0, problems)
        assert [(p.field, p.message) for p in problems] == [(f.name, f"At most {f.max}.")]
    for f in entry.side_fields(rules):
        if (
            f.kind == "points"
        ):  # docs/rules.md › How a hand is scored: multiples of 5, within the deck (or a penalty's most)
            problems = []
            checks.read_side(rules, {f.name: f.max + 5}, 0, problems)
            assert [p.field for p in problems] == [f.name] and str(f.max) in problems[0].message
    problems = []
    checks.read_side(rules, {"offence_nonsense": 1}, 0, problems)
    assert [p.field for p in problems] == ["offence_nonsense"]


def test_a_problem_of_a_card_count_is_shown_beside_its_input(client):
    # docs/rules.md#classic › Card values: 4 jokers in 108 cards: 5 counted in hand is refused beside the jokers'
    # stepper, and a count given the wrong way (not an object) beside the choice of points or counts
    game_id = start_game(client)
    response = post_hand(client, game_id, side_fields(0, melded=60), side_fields(1, hand_cards={"jokers": 5}))
    assert response.status_code == 422
    inputs = _side_inputs(response.text, 1)
    assert 'aria-invalid="true"' in inputs["hand_jokers"]
    fields = forms.hand_form_class(rulesets.configure(rulesets.get("classic"))).side_fields
    problem = checks.Problem(0, "melded_cards", "x")
    assert hand_entry.form_field_name(problem, fields) == "melded_jokers"  # beside the first count of the part
    assert hand_entry.form_field_name(checks.Problem(0, "hand_cards.low", "x"), fields) == "hand_low"
    assert hand_entry.form_field_name(checks.Problem(0, "red_threes", "x"), fields) == "red_threes"
