"""Worked examples for Austrian Canasta, as the rulebook has it, with 4 and 6 players (docs/rules.md#austrian),
computed by hand from the rules.

Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`); see tests/worked_examples.py for
how each case
is read and scored.
"""

import pytest

from scorekeeper.core import checks, scoring
from tests import worked_examples as we
from tests.worked_examples import (
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
# Worked hand scores: (rule set, first side's entry, settings, score, breakdown items)

AUSTRIAN = [
    case(
        "docs/rules.md#austrian › Going out: Austrian going out 100",
        "austrian",
        {"went_out": "normal", "mixed_canastas": 1, "melded_points": 100},
        None,
        500,
        {"going_out": 100, "mixed_canastas": 300, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#austrian › Going out: Austrian glatt ausmachen 200 in all",
        "austrian",
        {"went_out": "glatt", "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"going_out": 100, "glatt": 100, "natural_canastas": 500, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#austrian › Going out: Austrian Hand-Canasta 1000",
        "austrian",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 50},
        None,
        1550,
        {"hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#austrian › House rules: Austrian setting: Hand-Canasta + 100",
        "austrian",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 50},
        {"hand_canasta_adds": True},
        1650,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 50},
    ),
    # red threes need a canasta
    case(
        "docs/rules.md#austrian › Red and black threes: Austrian 2 red threes with a canasta +200",
        "austrian",
        {"red_threes": 2, "mixed_canastas": 1, "melded_points": 60},
        None,
        560,
        {"red_threes": 200, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#austrian › Red and black threes: Austrian 4 red threes with a canasta +800",
        "austrian",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › Canastas, Red and black threes: Austrian melded but no canasta -100 each",
        "austrian",
        {"red_threes": 2, "melded_points": 60},
        None,
        -140,
        {"red_threes": -200, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#austrian › House rules: Austrian setting: melded no canasta counts 0",
        "austrian",
        {"red_threes": 2, "melded_points": 60},
        {"red_three_melded_no_canasta": 0},
        60,
        {"red_threes": 0, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#austrian › Red and black threes: Austrian 4 red threes, nothing melded -800",
        "austrian",
        {"red_threes": 4, "hand_points": 10},
        None,
        -810,
        {"red_threes": -800, "cards_in_hand": -10},
    ),
    # docs/rules.md#austrian › Penalties: penalty catalogue, each item
    case(
        "docs/rules.md#austrian › Penalties: Austrian minimum failed -50",
        "austrian",
        {"melded_points": 100, "offence_minimum_failed": 1},
        None,
        50,
        {"melded_cards": 100, "offence_minimum_failed": -50},
    ),
    case(
        "docs/rules.md#austrian › Penalties: Austrian pile before meld -200",
        "austrian",
        {"melded_points": 100, "offence_pile_before_meld": 1},
        None,
        -100,
        {"melded_cards": 100, "offence_pile_before_meld": -200},
    ),
    case(
        "docs/rules.md#austrian › Penalties: Austrian drew out of turn -100",
        "austrian",
        {"melded_points": 100, "offence_drew_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_drew_out_of_turn": -100},
    ),
    case(
        "docs/rules.md#austrian › Penalties: Austrian drew out of turn, kept -200",
        "austrian",
        {"melded_points": 100, "offence_drew_out_of_turn_kept": 1},
        None,
        -100,
        {"melded_cards": 100, "offence_drew_out_of_turn_kept": -200},
    ),
    case(
        "docs/rules.md#austrian › Penalties: Austrian pile out of turn -100",
        "austrian",
        {"melded_points": 100, "offence_pile_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_pile_out_of_turn": -100},
    ),
    case(
        "docs/rules.md#austrian: Austrian an offence twice",
        "austrian",
        {"melded_points": 100, "offence_minimum_failed": 2},
        None,
        0,
        {"melded_cards": 100, "offence_minimum_failed": -100},
    ),
    case(
        "docs/rules.md#austrian › Penalties: Austrian manual penalties",
        "austrian",
        {"melded_points": 100, "penalties": 150},
        None,
        -50,
        {"melded_cards": 100, "penalties": -150},
    ),
    # docs/rules.md#austrian: Austrian rulebook: more worked hands
    case(
        "docs/rules.md#austrian › Going out: Austrian Hand-Canasta 1000 with a mixed canasta",
        "austrian",
        {"went_out": "hand_canasta", "mixed_canastas": 1, "melded_points": 90},
        None,
        1390,
        {"hand_canasta": 1000, "mixed_canastas": 300, "melded_cards": 90},
    ),
    case(
        "docs/rules.md#austrian › Red and black threes: Austrian 1 red three, melded but no canasta -100",
        "austrian",
        {"red_threes": 1, "melded_points": 90},
        None,
        -10,
        {"red_threes": -100, "melded_cards": 90},
    ),  # docs/rules.md#austrian › Red and black threes
    case(
        "docs/rules.md#austrian › Penalties: Austrian penalty catalogue, five offences at once",
        "austrian",
        {
            "melded_points": 300,
            "offence_minimum_failed": 1,
            "offence_pile_before_meld": 1,
            "offence_drew_out_of_turn": 1,
            "offence_drew_out_of_turn_kept": 1,
            "offence_pile_out_of_turn": 2,
        },
        None,
        -450,
        {
            "melded_cards": 300,
            "offence_minimum_failed": -50,
            "offence_pile_before_meld": -200,
            "offence_drew_out_of_turn": -100,
            "offence_drew_out_of_turn_kept": -200,
            "offence_pile_out_of_turn": -200,
        },
    ),
]

AUSTRIAN_6 = [
    case(
        "docs/rules.md#austrian › Card values: austrian-6 3 red threes with a canasta +300",
        "austrian-6",
        {"red_threes": 3, "natural_canastas": 1, "melded_points": 35},
        None,
        835,
        {"red_threes": 300, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › Card values: austrian-6 4 red threes 400 (default)",
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        935,
        {"red_threes": 400, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › House rules: austrian-6 setting: 4 red threes 800",
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        {"four_red_threes": 800},
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › Card values: austrian-6 5 red threes 1000",
        "austrian-6",
        {"red_threes": 5, "natural_canastas": 1, "melded_points": 35},
        None,
        1535,
        {"red_threes": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › Card values: austrian-6 6 red threes 1200",
        "austrian-6",
        {"red_threes": 6, "natural_canastas": 1, "melded_points": 35},
        None,
        1735,
        {"red_threes": 1200, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#austrian › Red and black threes: austrian-6 4 red threes without a canasta -400",
        "austrian-6",
        {"red_threes": 4, "melded_points": 60},
        None,
        -340,
        {"red_threes": -400, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#austrian › House rules: austrian-6 setting 800: without a canasta -800",
        "austrian-6",
        {"red_threes": 4, "melded_points": 60},
        {"four_red_threes": 800},
        -740,
        {"red_threes": -800, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#austrian › Red and black threes: austrian-6 6 red threes nothing melded -1200",
        "austrian-6",
        {"red_threes": 6},
        None,
        -1200,
        {"red_threes": -1200},
    ),
    case(
        "docs/rules.md#austrian › Going out: austrian-6 glatt 200",
        "austrian-6",
        {"went_out": "glatt", "natural_canastas": 2, "melded_points": 80},
        None,
        1280,
        {"going_out": 100, "glatt": 100, "natural_canastas": 1000, "melded_cards": 80},
    ),
    case(
        "docs/rules.md#austrian › House rules: austrian-6 setting: Hand-Canasta + 100",
        "austrian-6",
        {"went_out": "hand_canasta", "natural_canastas": 2, "melded_points": 70},
        {"hand_canasta_adds": True},
        2170,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#austrian › Penalties: austrian-6 penalty catalogue",
        "austrian-6",
        {"melded_points": 300, "offence_pile_before_meld": 1},
        None,
        100,
        {"melded_cards": 300, "offence_pile_before_meld": -200},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", AUSTRIAN + AUSTRIAN_6)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


# ---------------------------------------------------------------------------------------------
# docs/rules.md#austrian › Opening minimum: opening-minimum table with its boundaries; docs/rules.md#austrian › House
# rules: the setting of 15 for a negative total

AUSTRIAN_ROWS = [
    (-1000, 50),
    (-5, 50),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2350, 90),
    (2995, 90),
    (3000, 120),
    (7000, 120),
]


@pytest.mark.parametrize(
    "variant_id, settings, total, minimum",
    opening_rows("docs/rules.md#austrian › Opening minimum", "austrian", AUSTRIAN_ROWS)
    + opening_rows(
        "docs/rules.md#austrian › House rules",
        "austrian",
        [(-1000, 15), (-5, 15), (0, 50), (3000, 120)],
        {"negative_minimum": 15},
    )
    + opening_rows("docs/rules.md#austrian-6 › Opening minimum", "austrian-6", AUSTRIAN_ROWS)
    + opening_rows(
        "docs/rules.md#austrian-6 › House rules", "austrian-6", [(-5, 15), (0, 50)], {"negative_minimum": 15}
    ),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going out (docs/rules.md#austrian › Going out, Card values): one canasta, two with 6 players in pairs


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#austrian › Going out: Austrian no canasta refused", "austrian", {"melded_points": 100}, True
        ),
        going_out(
            "docs/rules.md#austrian › Going out: Austrian 1 canasta",
            "austrian",
            {"natural_canastas": 1, "melded_points": 35},
            False,
        ),
        going_out(
            "docs/rules.md#austrian › Card values: austrian-6 1 canasta refused",
            "austrian-6",
            {"natural_canastas": 1, "melded_points": 35},
            True,
        ),
        going_out(
            "docs/rules.md#austrian › Card values: austrian-6 2 canastas",
            "austrian-6",
            {"natural_canastas": 2, "melded_points": 70},
            False,
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


def test_austrian_glatt_with_a_canasta():
    """docs/rules.md#austrian › Going out: Austrian glatt with a canasta."""
    assert going_out_problems("austrian", {"went_out": "glatt", "mixed_canastas": 1, "melded_points": 50}) == []


# ---------------------------------------------------------------------------------------------
# Card conservation: 4 red threes in a 108-card deck (docs/rules.md#classic › Card values), 6 in a 162-card deck
# (docs/rules.md#austrian › Card values)


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows(
        [
            ("austrian-6", [2, 2, 2], False),
            ("austrian-6", [2, 2, 3], True),
            ("austrian", [0, 4], False),
            ("austrian", [1, 4], True),
        ]
    ),
)
def test_red_threes_the_deck_holds(variant_id, reds, refused):
    problems = problems_of(variant_id, red_three_sides(reds))
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


# ---------------------------------------------------------------------------------------------
# Game end (docs/rules.md#austrian › End of the game): 5000, also with 6 in pairs


@pytest.mark.parametrize(
    "variant_id, settings, target, totals, expected",
    [
        result_case(
            "docs/rules.md#austrian › End of the game: austrian 5000 (5620 v 2750)",
            "austrian",
            (5620, 2750),
            True,
            0,
            2870,
            (0, 2870),
        ),
        result_case(
            "docs/rules.md#austrian › End of the game: austrian 5000 (5000 v 100)",
            "austrian",
            (5000, 100),
            True,
            0,
            4900,
            (0, 4900),
        ),
        result_case(
            "docs/rules.md#austrian › End of the game: austrian-6 5000, three pairs",
            "austrian-6",
            (3000, 5100, 4000),
            True,
            1,
            1100,
            (2100, 0, 1100),
        ),
    ],
)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


@pytest.mark.parametrize("variant_id, target", [("austrian", 5000), ("austrian-6", 5000)])
def test_targets(variant_id, target):
    """docs/rules.md#austrian › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of(variant_id).target == target
    assert rules_of(variant_id, target=3000).target == 3000


# ---------------------------------------------------------------------------------------------
# docs/rules.md#austrian › Opening minimum: plausibility: a Hand-Canasta waives the opening minimum, glatt does not


@pytest.mark.parametrize(
    "variant_id, side, minimum, warned, settings",
    [
        pytest.param(
            "austrian",
            {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
            50,
            False,
            None,
            id="docs/rules.md#austrian › Going out: Austrian Hand-Canasta waives the minimum",
        ),
        pytest.param(
            "austrian",
            {"went_out": "glatt", "natural_canastas": 1, "melded_points": 35},
            50,
            True,
            None,
            id="docs/rules.md#austrian › Going out: Austrian glatt does not waive the minimum",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    rules = rules_of(variant_id, settings)
    hands = read(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])


# docs/rules.md#austrian › House rules: glatt 200: 100 + 200 + 500 + 100 = 900; each offence changed, once, with
# 100 melded
HOUSE = [
    we.case(
        "docs/rules.md#austrian › House rules: glatt ausmachen 200",
        "austrian",
        {"went_out": "glatt", "natural_canastas": 1, "melded_points": 100},
        {"glatt_bonus": 200},
        900,
        {"going_out": 100, "glatt": 200, "natural_canastas": 500, "melded_cards": 100},
    ),
] + [
    we.case(
        f"docs/rules.md#austrian › House rules: {key} {points}",
        "austrian",
        {"melded_points": 100, f"offence_{key}": 1},
        {f"offence_{key}": points},
        100 - points,
        {"melded_cards": 100, f"offence_{key}": -points},
    )
    for key, points in (
        ("minimum_failed", 100),
        ("pile_before_meld", 300),
        ("drew_out_of_turn", 150),
        ("drew_out_of_turn_kept", 250),
        ("pile_out_of_turn", 150),
    )
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)
