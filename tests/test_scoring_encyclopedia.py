"""Worked examples for the encyclopedia's Canasta (§11), computed by hand from the spec.

Sections (§) refer to shared/rules/scoring-spec.md; see tests/worked_examples.py for how each case
is read and scored.
"""

import pytest

from scorekeeper.core import checks, scoring
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
        "§11.5 encyclopedia going out 100",
        "encyclopedia",
        {"went_out": "normal", "mixed_canastas": 1, "melded_points": 80, "hand_points": 20},
        None,
        460,
        {"going_out": 100, "mixed_canastas": 300, "melded_cards": 80, "cards_in_hand": -20},
    ),
    case(
        "§11.5 encyclopedia concealed +100 more",
        "encyclopedia",
        {"went_out": "concealed", "natural_canastas": 1, "melded_points": 60},
        None,
        760,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "melded_cards": 60},
    ),
    case(
        "§11.5 encyclopedia 3 red threes 300",
        "encyclopedia",
        {"red_threes": 3, "melded_points": 50},
        None,
        350,
        {"red_threes": 300, "melded_cards": 50},
    ),
    case(
        "§11.5 encyclopedia all four red threes 800",
        "encyclopedia",
        {"red_threes": 4, "melded_points": 50},
        None,
        850,
        {"red_threes": 800, "melded_cards": 50},
    ),
    case(
        "§11.5 encyclopedia 4 red threes, not melded -800",
        "encyclopedia",
        {"red_threes": 4},
        None,
        -800,
        {"red_threes": -800},
    ),
    case(
        "§11.5/§13 D21 encyclopedia 1 red three not melded, hand also",
        "encyclopedia",
        {"red_threes": 1, "hand_points": 10},
        None,
        -110,
        {"red_threes": -100, "cards_in_hand": -10},
    ),
    # §11.5 penalties
    case(
        "§11.5 encyclopedia red three not laid out -500",
        "encyclopedia",
        {"melded_points": 100, "offence_red_three_not_laid": 1},
        None,
        -400,
        {"melded_cards": 100, "offence_red_three_not_laid": -500},
    ),
    case(
        "§11.5 encyclopedia two red threes not laid out -1000",
        "encyclopedia",
        {"melded_points": 100, "offence_red_three_not_laid": 2},
        None,
        -900,
        {"melded_cards": 100, "offence_red_three_not_laid": -1000},
    ),
    case(
        "§11.5 encyclopedia drawing error -50",
        "encyclopedia",
        {"melded_points": 100, "offence_drawing_error": 1},
        None,
        50,
        {"melded_cards": 100, "offence_drawing_error": -50},
    ),
    case(
        "§11.5 encyclopedia drew out of turn -100",
        "encyclopedia",
        {"melded_points": 100, "offence_drew_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_drew_out_of_turn": -100},
    ),
    case(
        "§11.5 encyclopedia melded out of turn -100",
        "encyclopedia",
        {"melded_points": 100, "offence_melded_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_melded_out_of_turn": -100},
    ),
    # §11.5 encyclopedia: more worked hands
    case(
        "§11.5 encyclopedia all four red threes 800, 60 melded",
        "encyclopedia",
        {"red_threes": 4, "melded_points": 60},
        None,
        860,
        {"red_threes": 800, "melded_cards": 60},
    ),
    case(
        "§11.5/§13 D21 encyclopedia 2 red threes not melded, hand also",
        "encyclopedia",
        {"red_threes": 2, "hand_points": 10},
        None,
        -210,
        {"red_threes": -200, "cards_in_hand": -10},
    ),
    case(
        "§11.5 encyclopedia four penalties at once",
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


@pytest.mark.parametrize("variant_id, settings, total, minimum", opening_rows("§11.3", "encyclopedia", CLASSIC_ROWS))
def test_opening_minimum(variant_id, settings, total, minimum):
    """§11.3: the classic opening-minimum table."""
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out("§11.4 encyclopedia no canasta refused", "encyclopedia", {"melded_points": 100}, True),
        going_out("§11.4 encyclopedia 1 canasta", "encyclopedia", {"mixed_canastas": 1, "melded_points": 50}, False),
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
    """§2.1: 4 red threes in a 108-card deck."""
    problems = problems_of(variant_id, red_three_sides(reds))
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


def test_game_result():
    """§11.6: 5000; the higher total wins by the difference."""
    result = scoring.game_result(rules_of("encyclopedia"), (4995, 5005))
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == (True, 1, 10, (10, 0), False)


def test_target():
    """§12.1 targets; configure(target=...) overrides it."""
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
            id="§11.3 encyclopedia concealed does not waive the minimum",
        ),
        pytest.param(
            "encyclopedia",
            {"went_out": "concealed", "natural_canastas": 1, "melded_points": 40},
            50,
            False,
            {"minimum_on_concealed": False},
            id="§15.8 encyclopedia setting: concealed waives the minimum",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    """§13a plausibility: melded points below the opening minimum."""
    rules = rules_of(variant_id, settings)
    hands = read(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])
