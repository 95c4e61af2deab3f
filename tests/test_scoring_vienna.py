"""Worked examples for Vienna Canasta (docs/rules.md#vienna), computed by hand from the rules.

Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`); see tests/worked_examples.py for
how each case
is read and scored.
"""

import pytest

from scorekeeper.core import checks, scoring
from tests import worked_examples as we
from tests.worked_examples import (
    CLASSIC_ROWS,
    case,
    empty_sides,
    going_out,
    going_out_problems,
    opening_rows,
    problems_of,
    read,
    red_three_rows,
    red_three_sides,
    result_case,
    rules_of,
    score_of,
)

# ---------------------------------------------------------------------------------------------
# Worked hand scores: (rule set, first side's entry, settings, score, breakdown items);
# docs/rules.md#vienna › Red and black threes: red threes plus only with a canasta; Hand-Canasta 1000; Verdeckt 200

VIENNA = [
    case(
        "docs/rules.md#vienna › Going out: Vienna going out 100",
        "vienna",
        {"went_out": "normal", "natural_canastas": 1, "melded_points": 100},
        None,
        700,
        {"going_out": 100, "natural_canastas": 500, "melded_cards": 100},
    ),
    # docs/rules.md#vienna › Red and black threes: red threes positive only with a canasta
    case(
        "docs/rules.md#vienna › Red and black threes: Vienna 1 red three with a canasta +100",
        "vienna",
        {"red_threes": 1, "mixed_canastas": 1, "melded_points": 60},
        None,
        460,
        {"red_threes": 100, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#vienna › Red and black threes: Vienna 2 red threes with a canasta +200",
        "vienna",
        {"red_threes": 2, "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"red_threes": 200, "natural_canastas": 500, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#vienna › Red and black threes: Vienna 4 red threes with a canasta +800",
        "vienna",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 50},
        None,
        1350,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 50},
    ),
    # docs/rules.md#vienna › Canastas, Red and black threes, House rules: melded but no canasta → minus by default, 0
    # with the setting
    case(
        "docs/rules.md#vienna › House rules: Vienna melded no canasta -100 each (default)",
        "vienna",
        {"red_threes": 2, "melded_points": 100},
        None,
        -100,
        {"red_threes": -200, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#vienna › House rules: Vienna melded no canasta 4 red threes -800",
        "vienna",
        {"red_threes": 4, "melded_points": 60},
        None,
        -740,
        {"red_threes": -800, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#vienna › House rules: Vienna setting: melded no canasta counts 0",
        "vienna",
        {"red_threes": 2, "melded_points": 100},
        {"red_three_melded_no_canasta": 0},
        100,
        {"red_threes": 0, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#vienna: Vienna nothing melded -100 each",
        "vienna",
        {"red_threes": 1, "hand_points": 20},
        None,
        -120,
        {"red_threes": -100, "cards_in_hand": -20},
    ),
    case(
        "docs/rules.md#vienna › House rules: Vienna setting 0 still minus with nothing melded",
        "vienna",
        {"red_threes": 4, "hand_points": 10},
        {"red_three_melded_no_canasta": 0},
        -810,
        {"red_threes": -800, "cards_in_hand": -10},
    ),
    # docs/rules.md#vienna › Going out: Hand-Canasta 1000 replaces 100 (docs/rules.md#vienna › Going out); the setting
    # adds the 100 (docs/rules.md#vienna › House rules)
    case(
        "docs/rules.md#vienna › Going out: Vienna Hand-Canasta 1000",
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        None,
        1535,
        {"hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#vienna › House rules: Vienna setting: Hand-Canasta 1000 + 100",
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        {"hand_canasta_adds": True},
        1635,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#vienna › Going out: Vienna Hand-Canasta with 2 red threes",
        "vienna",
        {"went_out": "hand_canasta", "mixed_canastas": 1, "red_threes": 2, "melded_points": 70},
        None,
        1570,
        {"hand_canasta": 1000, "mixed_canastas": 300, "red_threes": 200, "melded_cards": 70},
    ),
    # docs/rules.md#vienna › Card values: Verdeckt Ausmachen 200 instead of 100
    case(
        "docs/rules.md#vienna › Card values: Vienna Verdeckt 200",
        "vienna",
        {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 80},
        None,
        580,
        {"verdeckt": 200, "mixed_canastas": 300, "melded_cards": 80},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", VIENNA)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


@pytest.mark.parametrize(
    "variant_id, settings, total, minimum",
    opening_rows("docs/rules.md#vienna › Opening minimum", "vienna", CLASSIC_ROWS),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    """docs/rules.md#vienna › Opening minimum: the classic opening-minimum table."""
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going out (docs/rules.md#vienna › Going out): one canasta; the ways of going out are Vienna's own


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#vienna › Going out: Vienna no canasta refused", "vienna", {"melded_points": 100}, True
        ),
        going_out(
            "docs/rules.md#vienna › Going out: Vienna 1 canasta",
            "vienna",
            {"mixed_canastas": 1, "melded_points": 50},
            False,
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


def test_verdeckt_still_needs_a_canasta():
    """docs/rules.md#vienna › Canastas: Vienna Verdeckt still needs a canasta."""
    assert going_out_problems("vienna", {"went_out": "verdeckt", "melded_points": 60}) == [(0, "went_out")]


def test_there_is_no_concealed_going_out():
    problems = problems_of("vienna", [{"went_out": "concealed", "natural_canastas": 1, "melded_points": 100}, {}])
    assert any(p.field == "went_out" and '"hand_canasta"' in p.message for p in problems), problems


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows([("vienna", [2, 2], False), ("vienna", [2, 3], True), ("vienna", [5, 0], True)]),
)
def test_red_threes_the_deck_holds(variant_id, reds, refused):
    problems = problems_of(variant_id, red_three_sides(reds))
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


# ---------------------------------------------------------------------------------------------
# Game end (docs/rules.md#vienna): 5000


@pytest.mark.parametrize(
    "variant_id, settings, target, totals, expected",
    [
        result_case("docs/rules.md#vienna: vienna 5000", "vienna", (5000, 4000), True, 0, 1000, (0, 1000)),
        result_case("docs/rules.md#vienna: vienna below 5000", "vienna", (4995, 4000), False, None, None, ()),
    ],
)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


def test_target():
    """docs/rules.md#vienna › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of("vienna").target == 5000
    assert rules_of("vienna", target=3000).target == 3000


# ---------------------------------------------------------------------------------------------
# docs/rules.md#vienna › Opening minimum: plausibility: Hand-Canasta and Verdeckt waive the opening minimum


@pytest.mark.parametrize(
    "variant_id, side, minimum, warned, settings",
    [
        pytest.param(
            "vienna",
            {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
            50,
            False,
            None,
            id="docs/rules.md#vienna › Going out: Vienna Hand-Canasta waives the minimum",
        ),
        pytest.param(
            "vienna",
            {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 55},
            90,
            False,
            None,
            id="docs/rules.md#vienna › Opening minimum: Vienna Verdeckt waives the minimum",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    rules = rules_of(variant_id, settings)
    hands = read(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])


# docs/rules.md#vienna › House rules: Verdeckt 300 + mixed 300 + 80 = 680; Hand-Canasta 1500 + 500 + 35 = 2035
HOUSE = [
    we.case(
        "docs/rules.md#vienna › House rules: Verdeckt 300",
        "vienna",
        {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 80},
        {"verdeckt_bonus": 300},
        680,
        {"verdeckt": 300, "mixed_canastas": 300, "melded_cards": 80},
    ),
    we.case(
        "docs/rules.md#vienna › House rules: Hand-Canasta 1500",
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        {"hand_canasta_bonus": 1500},
        2035,
        {"hand_canasta": 1500, "natural_canastas": 500, "melded_cards": 35},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)
