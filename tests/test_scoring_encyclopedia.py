"""Worked examples for the encyclopedia's Canasta (docs/rules.md#encyclopedia), computed by hand from the rules.

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
    rules_of,
    score_of,
)

# ---------------------------------------------------------------------------------------------
# Worked hand scores: (rule set, first side's entry, settings, score, breakdown items)

ENCYCLOPEDIA = [
    case(
        "docs/rules.md#encyclopedia › Going out: encyclopedia going out 100",
        "encyclopedia",
        {"went_out": "normal", "mixed_canastas": 1, "melded_points": 80, "hand_points": 20},
        None,
        460,
        {"going_out": 100, "mixed_canastas": 300, "melded_cards": 80, "cards_in_hand": -20},
    ),
    case(
        "docs/rules.md#encyclopedia › Going out: encyclopedia concealed +100 more",
        "encyclopedia",
        {"went_out": "concealed", "natural_canastas": 1, "melded_points": 60},
        None,
        760,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia 3 red threes 300",
        "encyclopedia",
        {"red_threes": 3, "melded_points": 50},
        None,
        350,
        {"red_threes": 300, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia all four red threes 800",
        "encyclopedia",
        {"red_threes": 4, "melded_points": 50},
        None,
        850,
        {"red_threes": 800, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia 4 red threes, not melded -800",
        "encyclopedia",
        {"red_threes": 4},
        None,
        -800,
        {"red_threes": -800},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia 1 red three not melded, hand also",
        "encyclopedia",
        {"red_threes": 1, "hand_points": 10},
        None,
        -110,
        {"red_threes": -100, "cards_in_hand": -10},
    ),
    # docs/rules.md#encyclopedia › Penalties
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia red three not laid out -500",
        "encyclopedia",
        {"melded_points": 100, "offence_red_three_not_laid": 1},
        None,
        -400,
        {"melded_cards": 100, "offence_red_three_not_laid": -500},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia two red threes not laid out -1000",
        "encyclopedia",
        {"melded_points": 100, "offence_red_three_not_laid": 2},
        None,
        -900,
        {"melded_cards": 100, "offence_red_three_not_laid": -1000},
    ),
    case(
        "docs/rules.md#encyclopedia: encyclopedia drawing error -50",
        "encyclopedia",
        {"melded_points": 100, "offence_drawing_error": 1},
        None,
        50,
        {"melded_cards": 100, "offence_drawing_error": -50},
    ),
    case(
        "docs/rules.md#encyclopedia › Going out: encyclopedia drew out of turn -100",
        "encyclopedia",
        {"melded_points": 100, "offence_drew_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_drew_out_of_turn": -100},
    ),
    case(
        "docs/rules.md#encyclopedia › Going out: encyclopedia melded out of turn -100",
        "encyclopedia",
        {"melded_points": 100, "offence_melded_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_melded_out_of_turn": -100},
    ),
    # docs/rules.md#encyclopedia: encyclopedia: more worked hands
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia all four red threes 800, 60 melded",
        "encyclopedia",
        {"red_threes": 4, "melded_points": 60},
        None,
        860,
        {"red_threes": 800, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#encyclopedia › Red and black threes: encyclopedia 2 red threes not melded, hand also",
        "encyclopedia",
        {"red_threes": 2, "hand_points": 10},
        None,
        -210,
        {"red_threes": -200, "cards_in_hand": -10},
    ),
    case(
        "docs/rules.md#encyclopedia › Penalties: encyclopedia four penalties at once",
        "encyclopedia",
        {
            "melded_points": 1000,
            "offence_red_three_not_laid": 1,
            "offence_drawing_error": 1,
            "offence_drew_out_of_turn": 1,
            "offence_melded_out_of_turn": 1,
        },
        None,
        250,
        {
            "melded_cards": 1000,
            "offence_red_three_not_laid": -500,
            "offence_drawing_error": -50,
            "offence_drew_out_of_turn": -100,
            "offence_melded_out_of_turn": -100,
        },
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", ENCYCLOPEDIA)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


@pytest.mark.parametrize(
    "variant_id, settings, total, minimum",
    opening_rows("docs/rules.md#encyclopedia › Opening minimum", "encyclopedia", CLASSIC_ROWS),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    """docs/rules.md#encyclopedia › Opening minimum: the classic opening-minimum table."""
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#encyclopedia › Going out: encyclopedia no canasta refused",
            "encyclopedia",
            {"melded_points": 100},
            True,
        ),
        going_out(
            "docs/rules.md#encyclopedia › Going out: encyclopedia 1 canasta",
            "encyclopedia",
            {"mixed_canastas": 1, "melded_points": 50},
            False,
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows([("encyclopedia", [1, 3], False), ("encyclopedia", [3, 3], True)]),
)
def test_red_threes_the_deck_holds(variant_id, reds, refused):
    """docs/rules.md#classic › Card values: 4 red threes in a 108-card deck."""
    problems = problems_of(variant_id, red_three_sides(reds))
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


def test_game_result():
    """docs/rules.md#encyclopedia › End of the game: 5000; the higher total wins by the difference."""
    result = scoring.game_result(rules_of("encyclopedia"), (4995, 5005))
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == (True, 1, 10, (10, 0), False)


def test_target():
    """docs/rules.md#encyclopedia › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of("encyclopedia").target == 5000
    assert rules_of("encyclopedia", target=3000).target == 3000


@pytest.mark.parametrize(
    "variant_id, side, minimum, warned, settings",
    [
        pytest.param(
            "encyclopedia",
            {"went_out": "concealed", "natural_canastas": 1, "melded_points": 40},
            50,
            True,
            None,
            id="docs/rules.md#encyclopedia › Opening minimum: encyclopedia concealed does not waive the minimum",
        ),
        pytest.param(
            "encyclopedia",
            {"went_out": "concealed", "natural_canastas": 1, "melded_points": 40},
            50,
            False,
            {"minimum_on_concealed": False},
            id="docs/rules.md#encyclopedia › House rules: encyclopedia setting: concealed waives the minimum",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    """docs/rules.md#encyclopedia › Opening minimum: plausibility: melded points below the opening minimum."""
    rules = rules_of(variant_id, settings)
    hands = read(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])


# docs/rules.md#encyclopedia › House rules: each offence changed, once, with 100 melded: 100 − its points
HOUSE = [
    we.case(
        f"docs/rules.md#encyclopedia › House rules: {key} {points}",
        "encyclopedia",
        {"melded_points": 100, f"offence_{key}": 1},
        {f"offence_{key}": points},
        100 - points,
        {"melded_cards": 100, f"offence_{key}": -points},
    )
    for key, points in (("red_three_not_laid", 600), ("drawing_error", 100), ("melded_out_of_turn", 150))
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)
