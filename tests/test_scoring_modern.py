"""Worked examples for Modern American Canasta (docs/rules.md#modern), computed by hand from the rules.

Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`); see tests/worked_examples.py for
how each case
is read and scored.
"""

import pytest

from scorekeeper.core import checks, scoring
from tests import worked_examples as we
from tests.worked_examples import (
    breakdown,
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

MODERN = [
    # docs/rules.md#modern › Canastas: each canasta kind (one canasta: threes not scored, melded cards added)
    case(
        "docs/rules.md#modern › Canastas: Modern mixed canasta 300",
        "modern",
        {"mixed_canastas": 1, "melded_points": 65},
        None,
        365,
        {"mixed_canastas": 300, "melded_cards": 65},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern natural canasta 500",
        "modern",
        {"natural_canastas": 1, "melded_points": 35},
        None,
        535,
        {"natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern natural aces/7s canasta 2500",
        "modern",
        {"natural_aces_sevens_canastas": 1, "melded_points": 140},
        None,
        2640,
        {"natural_aces_sevens_canastas": 2500, "melded_cards": 140},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern seven 2s canasta 3000",
        "modern",
        {"twos_canastas": 1, "melded_points": 140},
        None,
        3140,
        {"twos_canastas": 3000, "melded_cards": 140},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern joker canasta 2500",
        "modern",
        {"jokers_canastas": 1, "melded_points": 260},
        None,
        2760,
        {"jokers_canastas": 2500, "melded_cards": 260},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern other wild canasta 2000",
        "modern",
        {"wild_canastas": 1, "melded_points": 170},
        None,
        2170,
        {"wild_canastas": 2000, "melded_cards": 170},
    ),
    case(
        "docs/rules.md#modern › Going out: Modern going out 100 with 2 canastas",
        "modern",
        {"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 200},
        None,
        1100,
        {"going_out": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 200},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern mixed 300 + natural 500",
        "modern",
        {"mixed_canastas": 1, "natural_canastas": 1, "melded_points": 200},
        None,
        1000,
        {"mixed_canastas": 300, "natural_canastas": 500, "melded_cards": 200},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern natural aces/7s 2500 + seven 2s 3000",
        "modern",
        {"natural_aces_sevens_canastas": 1, "twos_canastas": 1, "melded_points": 280},
        None,
        5780,
        {"natural_aces_sevens_canastas": 2500, "twos_canastas": 3000, "melded_cards": 280},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern joker canasta 2500 + other wild 2000",
        "modern",
        {"jokers_canastas": 1, "wild_canastas": 1, "melded_points": 430},
        None,
        4930,
        {"jokers_canastas": 2500, "wild_canastas": 2000, "melded_cards": 430},
    ),
    # docs/rules.md#modern › Penalties: incomplete melds, in every column
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete pure aces -2500 (0 canastas, melded minus)",
        "modern",
        {"incomplete_aces": 1, "melded_points": 60},
        None,
        -2560,
        {"incomplete_aces": -2500, "melded_cards": -60},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete 7s -2500",
        "modern",
        {"incomplete_sevens": 1, "melded_points": 15},
        None,
        -2515,
        {"incomplete_sevens": -2500, "melded_cards": -15},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete wild -2000",
        "modern",
        {"incomplete_wild": 1, "melded_points": 60},
        None,
        -2060,
        {"incomplete_wild": -2000, "melded_cards": -60},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete aces with a canasta: cards still added",
        "modern",
        {"incomplete_aces": 1, "natural_canastas": 1, "melded_points": 95},
        None,
        -1905,
        {"incomplete_aces": -2500, "natural_canastas": 500, "melded_cards": 95},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete 7s -2500 with a natural canasta",
        "modern",
        {"incomplete_sevens": 1, "natural_canastas": 1, "melded_points": 50},
        None,
        -1950,
        {"incomplete_sevens": -2500, "natural_canastas": 500, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern incomplete wild -2000 with 2 mixed canastas",
        "modern",
        {"incomplete_wild": 1, "mixed_canastas": 2, "melded_points": 200},
        None,
        -1200,
        {"incomplete_wild": -2000, "mixed_canastas": 600, "melded_cards": 200},
    ),
    # docs/rules.md#modern › Penalties: players holding 3 or more aces / 7s, per player
    case(
        "docs/rules.md#modern › Penalties: Modern one player holding 3+ aces -1500",
        "modern",
        {"holding_aces": 1, "hand_points": 60},
        None,
        -1560,
        {"holding_aces": -1500, "cards_in_hand": -60},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern one player holding 3+ 7s -1500",
        "modern",
        {"holding_sevens": 1, "hand_points": 15},
        None,
        -1515,
        {"holding_sevens": -1500, "cards_in_hand": -15},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern two players holding 3 aces -3000",
        "modern",
        {"holding_aces": 2, "hand_points": 120},
        None,
        -3120,
        {"holding_aces": -3000, "cards_in_hand": -120},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern two players holding 3 7s -3000",
        "modern",
        {"holding_sevens": 2, "hand_points": 30},
        None,
        -3030,
        {"holding_sevens": -3000, "cards_in_hand": -30},
    ),
    # docs/rules.md#modern › Penalties: incomplete 7s and a player holding 3 sevens: 2500 + 1500 = 4000 in all, not an
    # extra 4000
    case(
        "docs/rules.md#modern › Penalties: Modern 4000 in total (0 canastas)",
        "modern",
        {"incomplete_sevens": 1, "holding_sevens": 1, "melded_points": 15, "hand_points": 15},
        None,
        -4030,
        {"incomplete_sevens": -2500, "holding_sevens": -1500, "melded_cards": -15, "cards_in_hand": -15},
    ),
    case(
        "docs/rules.md#modern › Penalties: Modern 4000 in total (2 canastas)",
        "modern",
        {"incomplete_aces": 1, "holding_aces": 1, "natural_canastas": 2, "melded_points": 130, "hand_points": 60},
        None,
        -2930,
        {
            "incomplete_aces": -2500,
            "holding_aces": -1500,
            "natural_canastas": 1000,
            "melded_cards": 130,
            "cards_in_hand": -60,
        },
    ),
    # docs/rules.md#modern › Red and black threes: the three-table 100/300/500/1000, red and black looked up apart; 0
    # canastas → minus
    case(
        "docs/rules.md#modern › Red and black threes: Modern 1 red three, 0 canastas -100",
        "modern",
        {"red_threes": 1},
        None,
        -100,
        {"red_threes": -100},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 2 red threes, 0 canastas -300",
        "modern",
        {"red_threes": 2},
        None,
        -300,
        {"red_threes": -300},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 3 red threes, 0 canastas -500",
        "modern",
        {"red_threes": 3},
        None,
        -500,
        {"red_threes": -500},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 4 red threes, 0 canastas -1000",
        "modern",
        {"red_threes": 4},
        None,
        -1000,
        {"red_threes": -1000},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 1 black three, 0 canastas -100",
        "modern",
        {"black_threes": 1},
        None,
        -100,
        {"black_threes": -100},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 2 black threes, 0 canastas -300",
        "modern",
        {"black_threes": 2},
        None,
        -300,
        {"black_threes": -300},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 3 black threes, 0 canastas -500",
        "modern",
        {"black_threes": 3},
        None,
        -500,
        {"black_threes": -500},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 4 black threes, 0 canastas -1000",
        "modern",
        {"black_threes": 4},
        None,
        -1000,
        {"black_threes": -1000},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 2 red + 1 black, 0 canastas, melded minus",
        "modern",
        {"red_threes": 2, "black_threes": 1, "melded_points": 60},
        None,
        -460,
        {"red_threes": -300, "black_threes": -100, "melded_cards": -60},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 1 red + 1 black, 0 canastas, melded minus",
        "modern",
        {"red_threes": 1, "black_threes": 1, "melded_points": 60},
        None,
        -260,
        {"red_threes": -100, "black_threes": -100, "melded_cards": -60},
    ),
    # 1 canasta → threes not scored
    case(
        "docs/rules.md#modern › Canastas: Modern 4 red + 4 black, 1 canasta: not scored",
        "modern",
        {"red_threes": 4, "black_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        535,
        {"red_threes": 0, "black_threes": 0, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 2 red threes, 1 canasta: not scored",
        "modern",
        {"red_threes": 2, "mixed_canastas": 1, "melded_points": 65},
        None,
        365,
        {"red_threes": 0, "mixed_canastas": 300, "melded_cards": 65},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 4 red + 2 black, 1 canasta: not scored",
        "modern",
        {"red_threes": 4, "black_threes": 2, "natural_canastas": 1, "melded_points": 60},
        None,
        560,
        {"red_threes": 0, "black_threes": 0, "natural_canastas": 500, "melded_cards": 60},
    ),
    # ≥ 2 canastas → plus
    case(
        "docs/rules.md#modern › Red and black threes: Modern 1 red three, 2 canastas +100",
        "modern",
        {"red_threes": 1, "natural_canastas": 2, "melded_points": 70},
        None,
        1170,
        {"red_threes": 100, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 2 red threes, 2 canastas +300",
        "modern",
        {"red_threes": 2, "natural_canastas": 2, "melded_points": 70},
        None,
        1370,
        {"red_threes": 300, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 3 red threes, 2 canastas +500",
        "modern",
        {"red_threes": 3, "natural_canastas": 2, "melded_points": 70},
        None,
        1570,
        {"red_threes": 500, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 4 red threes, 2 canastas +1000",
        "modern",
        {"red_threes": 4, "natural_canastas": 2, "melded_points": 70},
        None,
        2070,
        {"red_threes": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 1 black three, 3 canastas +100",
        "modern",
        {"black_threes": 1, "natural_canastas": 3, "melded_points": 105},
        None,
        1705,
        {"black_threes": 100, "natural_canastas": 1500, "melded_cards": 105},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 2 black threes, 2 canastas +300",
        "modern",
        {"black_threes": 2, "natural_canastas": 2, "melded_points": 70},
        None,
        1370,
        {"black_threes": 300, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 3 black threes, 2 canastas +500",
        "modern",
        {"black_threes": 3, "natural_canastas": 2, "melded_points": 70},
        None,
        1570,
        {"black_threes": 500, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern 4 black threes, 2 canastas +1000",
        "modern",
        {"black_threes": 4, "natural_canastas": 2, "melded_points": 70},
        None,
        2070,
        {"black_threes": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 4 red + 4 black, 2 canastas, going out",
        "modern",
        {
            "went_out": "normal",
            "red_threes": 4,
            "black_threes": 4,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "melded_points": 150,
        },
        None,
        3050,
        {
            "going_out": 100,
            "red_threes": 1000,
            "black_threes": 1000,
            "natural_canastas": 500,
            "mixed_canastas": 300,
            "melded_cards": 150,
        },
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 3 red + 4 black, 2 canastas +500 +1000",
        "modern",
        {"red_threes": 3, "black_threes": 4, "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 120},
        None,
        2420,
        {"red_threes": 500, "black_threes": 1000, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 120},
    ),
    case(
        "docs/rules.md#modern › Canastas: Modern 2 red + 3 black, 2 canastas +300 +500",
        "modern",
        {"red_threes": 2, "black_threes": 3, "natural_canastas": 2, "melded_points": 100},
        None,
        1900,
        {"red_threes": 300, "black_threes": 500, "natural_canastas": 1000, "melded_cards": 100},
    ),
    # docs/rules.md#modern › Penalties, Red and black threes: melded cards deducted with 0 canastas; a 3 in hand costs 5
    case(
        "docs/rules.md#modern › Canastas: Modern melded cards deducted with 0 canastas",
        "modern",
        {"melded_points": 120, "hand_points": 30},
        None,
        -150,
        {"melded_cards": -120, "cards_in_hand": -30},
    ),
    case(
        "docs/rules.md#modern › Red and black threes: Modern a black 3 in hand costs 5",
        "modern",
        {"mixed_canastas": 1, "melded_points": 65, "hand_cards": {"black_threes": 2, "high": 1}},
        None,
        345,
        {"mixed_canastas": 300, "melded_cards": 65, "cards_in_hand": -20},
    ),
    # docs/rules.md#modern › Going out: a special hand scores only its value (threes and partner's hand cards not
    # scored)
    case(
        "docs/rules.md#modern › Going out: Modern Straight 3000",
        "modern",
        {"went_out": "straight"},
        None,
        3000,
        {"straight": 3000},
    ),
    case(
        "docs/rules.md#modern › Going out: Modern Pairs without wild 2500",
        "modern",
        {"went_out": "pairs"},
        None,
        2500,
        {"pairs": 2500},
    ),
    case(
        "docs/rules.md#modern › Going out: Modern Pairs with 2s, 7s and aces 2000",
        "modern",
        {"went_out": "pairs_wild"},
        None,
        2000,
        {"pairs_wild": 2000},
    ),
    case(
        "docs/rules.md#modern › Going out: Modern Garbage 2000",
        "modern",
        {"went_out": "garbage"},
        None,
        2000,
        {"garbage": 2000},
    ),
    case(
        "docs/rules.md#modern › Going out: Modern Straight only: red threes and partner's cards not scored",
        "modern",
        {"went_out": "straight", "red_threes": 2, "hand_points": 85},
        None,
        3000,
        {"straight": 3000},
    ),
    case(
        "docs/rules.md#modern › House rules: Modern setting: Pairs 3500",
        "modern",
        {"went_out": "pairs"},
        {"special_3500": True},
        3500,
        {"pairs": 3500},
    ),
    case(
        "docs/rules.md#modern › House rules: Modern setting: Garbage 3500",
        "modern",
        {"went_out": "garbage"},
        {"special_3500": True},
        3500,
        {"garbage": 3500},
    ),
    case(
        "docs/rules.md#modern › House rules: Modern setting: Pairs with 2s, 7s and aces 3500 (every hand of pairs)",
        "modern",
        {"went_out": "pairs_wild"},
        {"special_3500": True},
        3500,
        {"pairs_wild": 3500},
    ),
    case(
        "docs/rules.md#modern › House rules: Modern setting: Garbage 3500, red threes not scored",
        "modern",
        {"went_out": "garbage", "red_threes": 2},
        {"special_3500": True},
        3500,
        {"garbage": 3500},
    ),
    # docs/rules.md#modern › Canastas: a mixed canasta holds at most 2 wild cards; six 4s and one 2 is the smallest, 30
    # + 20 = 50
    case(
        "docs/rules.md#modern › Canastas: Modern smallest mixed canasta 50",
        "modern",
        {"mixed_canastas": 1, "melded_points": 50},
        None,
        350,
        {"mixed_canastas": 300, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#modern › House rules: Modern setting leaves the Straight at 3000",
        "modern",
        {"went_out": "straight"},
        {"special_3500": True},
        3000,
        {"straight": 3000},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", MODERN)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


def test_modern_opponents_of_a_special_hand_score_normally():
    """docs/rules.md#modern › Going out: the special-hand team scores only its value, the other team as usual."""
    rules = rules_of("modern")
    raw = [
        {"went_out": "straight", "red_threes": 1},
        {"natural_canastas": 2, "red_threes": 1, "melded_points": 100, "hand_points": 45},
    ]
    hands, problems = checks.read_hand(rules, raw)
    assert problems == []
    first, second = (scoring.score_side(rules, hand) for hand in hands)
    assert (first.score, breakdown(first)) == (3000, {"straight": 3000})
    assert (second.score, breakdown(second)) == (
        1155,
        {"natural_canastas": 1000, "red_threes": 100, "melded_cards": 100, "cards_in_hand": -45},
    )


# ---------------------------------------------------------------------------------------------
# docs/rules.md#modern › Opening minimum: opening-minimum table with its boundaries

MODERN_ROWS = [
    (-2000, 125),
    (-5, 125),
    (0, 125),
    (1500, 125),
    (2995, 125),
    (3000, 155),
    (4995, 155),
    (5000, 180),
    (8495, 180),
    (20000, 180),
]


@pytest.mark.parametrize(
    "variant_id, settings, total, minimum",
    opening_rows("docs/rules.md#modern › Opening minimum", "modern", MODERN_ROWS),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going out (docs/rules.md#modern › Going out, House rules): 2 canastas; special hands


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#modern › Going out: Modern 1 canasta refused",
            "modern",
            {"natural_canastas": 1, "melded_points": 35},
            True,
        ),
        going_out(
            "docs/rules.md#modern › Going out: Modern 2 canastas",
            "modern",
            {"natural_canastas": 1, "mixed_canastas": 1, "melded_points": 100},
            False,
        ),
        going_out(
            "docs/rules.md#modern › Going out: Modern 2 wild canastas of any kinds",
            "modern",
            {"twos_canastas": 1, "wild_canastas": 1, "melded_points": 310},
            False,
        ),
        going_out(
            "docs/rules.md#modern › Going out: Modern incomplete 7s allowed by default",
            "modern",
            {"natural_canastas": 2, "incomplete_sevens": 1, "melded_points": 85},
            False,
        ),
        going_out(
            "docs/rules.md#modern › Going out, House rules: Modern setting: no going out with incomplete 7s",
            "modern",
            {"natural_canastas": 2, "incomplete_sevens": 1, "melded_points": 85},
            True,
            {"no_out_with_incomplete": True},
        ),
        going_out(
            "docs/rules.md#modern › Going out, House rules: Modern setting: no going out with incomplete pure aces",
            "modern",
            {"natural_canastas": 2, "incomplete_aces": 1, "melded_points": 130},
            True,
            {"no_out_with_incomplete": True},
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


def test_modern_no_going_out_with_an_incomplete_meld_setting():
    side = {"went_out": "normal", "natural_canastas": 2, "incomplete_aces": 1, "melded_points": 200}
    assert problems_of("modern", [side, {}]) == []
    problems = problems_of("modern", [side, {}], {"no_out_with_incomplete": True})
    assert [p.field for p in problems] == ["went_out"]


@pytest.mark.parametrize(
    "variant_id, side, refused",
    [
        pytest.param(
            "modern",
            {"went_out": "straight"},
            False,
            id="docs/rules.md#modern › Going out: Modern special hand needs no canasta",
        ),
        pytest.param(
            "modern",
            {"went_out": "pairs", "red_threes": 1},
            False,
            id="docs/rules.md#modern › Going out: Modern special hand with a red three",
        ),
        pytest.param(
            "modern",
            {"went_out": "straight", "melded_points": 50},
            True,
            id="docs/rules.md#modern › Going out: Modern special hand refused with melds",
        ),
        pytest.param(
            "modern",
            {"went_out": "garbage", "natural_canastas": 1, "melded_points": 35},
            True,
            id="docs/rules.md#modern › Going out: Modern special hand refused with a canasta",
        ),
        pytest.param(
            "modern",
            {"went_out": "pairs_wild", "incomplete_aces": 1},
            True,
            id="docs/rules.md#modern › Going out: Modern special hand refused with an incomplete meld",
        ),
        pytest.param(
            "modern",
            {"went_out": "pairs", "black_threes": 1},
            True,
            id="docs/rules.md#modern › Going out: Modern special hand refused with melded black threes",
        ),
    ],
)
def test_ways_of_going_out(variant_id, side, refused):
    problems = going_out_problems(variant_id, side)
    assert problems == ([(0, "went_out")] if refused else []), problems


@pytest.mark.parametrize(
    "variant_id, sides, field, needle",
    [
        ("modern", [{"went_out": "normal", "natural_canastas": 1, "melded_points": 100}, {}], "went_out", "at least 2"),
        (
            "modern",
            [{"went_out": "garbage", "mixed_canastas": 1, "melded_points": 100}, {}],
            "went_out",
            "had not melded",
        ),
        (
            "modern",
            [{"red_threes": 1, "melded_cards": {"black_threes": 1}}, {}],
            "melded_cards.black_threes",
            "Unknown card group",
        ),
        ("modern", [{"holding_aces": 3}, {}], "holding_aces", "At most 2"),
    ],
)
def test_rule_set_checks(variant_id, sides, field, needle):
    problems = problems_of(variant_id, sides)
    assert any(p.field == field and needle in p.message for p in problems), problems


# ---------------------------------------------------------------------------------------------
# Card conservation: 4 red and 4 black threes in a 108-card deck (docs/rules.md#classic › Card values)


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows([("modern", [4, 0], False), ("modern", [3, 2], True), ("modern", [5, 0], True)]),
)
def test_red_threes_the_deck_holds(variant_id, reds, refused):
    problems = problems_of(variant_id, red_three_sides(reds))
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


@pytest.mark.parametrize(
    "variant_id, sides, refused",
    [
        pytest.param(
            "modern",
            [{"black_threes": 2}, {"black_threes": 2}],
            False,
            id="docs/rules.md#classic › Card values: Modern 4 black threes",
        ),
        pytest.param(
            "modern",
            [{"black_threes": 3}, {"black_threes": 2}],
            True,
            id="docs/rules.md#classic › Card values: Modern 5 black threes refused",
        ),
        pytest.param(
            "modern",
            [{"black_threes": 3}, {"hand_cards": {"black_threes": 2}}],
            True,
            id="docs/rules.md#classic › Card values: Modern 3 melded + 2 in hand refused",
        ),
    ],
)
def test_black_threes_the_deck_holds(variant_id, sides, refused):
    problems = problems_of(variant_id, sides)
    assert bool(problems) == refused, problems


# ---------------------------------------------------------------------------------------------
# Game end (docs/rules.md#modern › End of the game, House rules): 8500


@pytest.mark.parametrize(
    "variant_id, settings, target, totals, expected",
    [
        result_case("docs/rules.md#modern › End of the game: modern 8500", "modern", (8500, 8495), True, 0, 5, (0, 5)),
        result_case(
            "docs/rules.md#modern › End of the game: modern below 8500", "modern", (8495, 0), False, None, None, ()
        ),
        result_case(
            "docs/rules.md#modern › End of the game: modern both past, higher wins",
            "modern",
            (8600, 9100),
            True,
            1,
            500,
            (500, 0),
        ),
        result_case(  # docs/rules.md#modern › End of the game: both past: the higher wins
            "docs/rules.md#modern › End of the game: modern both just past, higher wins",
            "modern",
            (8500, 8600),
            True,
            1,
            100,
            (100, 0),
        ),
        result_case(
            "docs/rules.md#modern › House rules: modern tie: play on",
            "modern",
            (9000, 9000),
            False,
            None,
            None,
            (),
            tie=True,
        ),
        result_case(
            "docs/rules.md#modern › House rules: modern tie setting draw",
            "modern",
            (9000, 9000),
            True,
            None,
            None,
            (),
            settings={"tie_rule": "draw"},
            tie=True,
        ),
        # a custom target
        result_case("custom target 3000 reached", "modern", (3000, 2500), True, 0, 500, (0, 500), target=3000),
        result_case("custom target 3000 not reached", "modern", (2995, 0), False, None, None, (), target=3000),
    ],
)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


def test_target():
    """docs/rules.md#modern › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of("modern").target == 8500
    assert rules_of("modern", target=3000).target == 3000


def test_modern_both_past_8500_in_one_hand():
    """docs/rules.md#modern › End of the game: both teams reach 8500 in the same hand: the higher total wins, margin
    the difference."""
    rules = rules_of("modern")
    hand = read(
        rules,
        [
            {"went_out": "normal", "natural_canastas": 2, "melded_points": 200},  # 100 + 1000 + 200 = 1300
            {"natural_canastas": 1, "melded_points": 100, "hand_points": 50},  # 500 + 100 − 50 = 550
        ],
    )
    state = scoring.play(rules, [hand], totals_before=(8000, 8200))
    assert state.totals == (9300, 8750)
    assert (state.result.finished, state.result.winner, state.result.margin) == (True, 0, 550)
    assert state.opening_minimums == (180, 180)


# ---------------------------------------------------------------------------------------------
# docs/rules.md#modern › Opening minimum: plausibility: melded points below the opening minimum, unless a splash


@pytest.mark.parametrize(
    "variant_id, side, minimum, warned, settings",
    [
        pytest.param(
            "modern",
            {"mixed_canastas": 1, "melded_points": 100},
            125,
            True,
            None,
            id="docs/rules.md#modern › Opening minimum: Modern 100 below 125",
        ),
        pytest.param(
            "modern",
            {"mixed_canastas": 1, "melded_points": 125},
            125,
            False,
            None,
            id="docs/rules.md#modern › Opening minimum: Modern 125 meets 125",
        ),
        pytest.param(
            "modern",
            {"natural_canastas": 1, "melded_points": 35},
            125,
            False,
            None,
            id="docs/rules.md#modern › Opening minimum: Modern seven 4s: a splash needs no minimum",
        ),
        pytest.param(
            "modern",
            {"twos_canastas": 1, "melded_points": 140},
            155,
            False,
            None,
            id="docs/rules.md#modern › Opening minimum: Modern seven 2s from hand: a splash",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    rules = rules_of(variant_id, settings)
    hands = read(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])


# docs/rules.md#modern › House rules: every value only Modern has, changed (docs/rules.md#house-values)
HOUSE = [
    # 3000 + 140 melded
    we.case(
        "docs/rules.md#modern › House rules: aces or 7s canasta 3000",
        "modern",
        {"natural_aces_sevens_canastas": 1, "melded_points": 140},
        {"canasta_natural_aces_sevens": 3000},
        3140,
        {"natural_aces_sevens_canastas": 3000, "melded_cards": 140},
    ),
    we.case(
        "docs/rules.md#modern › House rules: seven 2s 3500",
        "modern",
        {"twos_canastas": 1, "melded_points": 140},
        {"canasta_twos": 3500},
        3640,
        {"twos_canastas": 3500, "melded_cards": 140},
    ),
    we.case(
        "docs/rules.md#modern › House rules: joker canasta 3000",
        "modern",
        {"jokers_canastas": 1, "melded_points": 260},
        {"canasta_jokers": 3000},
        3260,
        {"jokers_canastas": 3000, "melded_cards": 260},
    ),
    we.case(
        "docs/rules.md#modern › House rules: Straight 4000",
        "modern",
        {"went_out": "straight"},
        {"straight_bonus": 4000},
        4000,
        {"straight": 4000},
    ),
    we.case(
        "docs/rules.md#modern › House rules: Pairs 3000",
        "modern",
        {"went_out": "pairs"},
        {"pairs_bonus": 3000},
        3000,
        {"pairs": 3000},
    ),
    we.case(
        "docs/rules.md#modern › House rules: Pairs with wild cards 2500",
        "modern",
        {"went_out": "pairs_wild"},
        {"pairs_wild_bonus": 2500},
        2500,
        {"pairs_wild": 2500},
    ),
    # Garbage 3000 replaces the rest: the one red three is not scored
    we.case(
        "docs/rules.md#modern › House rules: Garbage 3000",
        "modern",
        {"went_out": "garbage", "red_threes": 1},
        {"garbage_bonus": 3000},
        3000,
        {"garbage": 3000},
    ),
    # adds: 3000 + the red three, which counts minus with no canasta (−100) = 2900
    we.case(
        "docs/rules.md#modern › House rules: Garbage 3000 added to the rest",
        "modern",
        {"went_out": "garbage", "red_threes": 1},
        {"garbage_bonus": 3000, "special_adds": True},
        2900,
        {"garbage": 3000, "red_threes": -100},
    ),
    # black threes with 2 canastas (plus): n black threes + 1000 + 70 melded
    we.case(
        "docs/rules.md#modern › House rules: one black three 150",
        "modern",
        {"black_threes": 1, "natural_canastas": 2, "melded_points": 70},
        {"black_threes_1": 150},
        1220,
        {"black_threes": 150, "natural_canastas": 1000, "melded_cards": 70},
    ),
    we.case(
        "docs/rules.md#modern › House rules: two black threes 400",
        "modern",
        {"black_threes": 2, "natural_canastas": 2, "melded_points": 70},
        {"black_threes_2": 400},
        1470,
        {"black_threes": 400, "natural_canastas": 1000, "melded_cards": 70},
    ),
    we.case(
        "docs/rules.md#modern › House rules: three black threes 600",
        "modern",
        {"black_threes": 3, "natural_canastas": 2, "melded_points": 70},
        {"black_threes_3": 600},
        1670,
        {"black_threes": 600, "natural_canastas": 1000, "melded_cards": 70},
    ),
    we.case(
        "docs/rules.md#modern › House rules: four black threes 1200",
        "modern",
        {"black_threes": 4, "natural_canastas": 2, "melded_points": 70},
        {"black_threes_4": 1200},
        2270,
        {"black_threes": 1200, "natural_canastas": 1000, "melded_cards": 70},
    ),
    # no canasta: melded cards minus; −2000 − 60 = −2060; −2000 − 15 = −2015
    we.case(
        "docs/rules.md#modern › House rules: incomplete aces 2000",
        "modern",
        {"incomplete_aces": 1, "melded_points": 60},
        {"incomplete_aces": 2000},
        -2060,
        {"incomplete_aces": -2000, "melded_cards": -60},
    ),
    we.case(
        "docs/rules.md#modern › House rules: incomplete 7s 2000",
        "modern",
        {"incomplete_sevens": 1, "melded_points": 15},
        {"incomplete_sevens": 2000},
        -2015,
        {"incomplete_sevens": -2000, "melded_cards": -15},
    ),
    # −1000 − 60 in hand
    we.case(
        "docs/rules.md#modern › House rules: holding aces 1000",
        "modern",
        {"holding_aces": 1, "hand_points": 60},
        {"holding_aces": 1000},
        -1060,
        {"holding_aces": -1000, "cards_in_hand": -60},
    ),
    we.case(
        "docs/rules.md#modern › House rules: holding 7s 1000",
        "modern",
        {"holding_sevens": 1, "hand_points": 60},
        {"holding_sevens": 1000},
        -1060,
        {"holding_sevens": -1000, "cards_in_hand": -60},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)
