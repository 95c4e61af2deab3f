"""Worked examples for the six-player rule sets and Miller (docs/rules.md#six-3x2, #six-2x3, #miller), computed
by hand from the rules.

Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`); see tests/worked_examples.py for
how each case
is read and scored.
"""

import pytest

from scorekeeper.core import scoring
from tests import worked_examples as we
from tests.worked_examples import (
    CLASSIC_ROWS,
    case,
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

SIX_3X2 = [
    # docs/rules.md#six-3x2 › Red and black threes: red threes 1–3 → 100 each (classic rule, unchanged), with a meld
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 1 red three +100",
        "six-3x2",
        {"red_threes": 1, "melded_points": 50},
        None,
        150,
        {"red_threes": 100, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 2 red threes +200",
        "six-3x2",
        {"red_threes": 2, "melded_points": 50},
        None,
        250,
        {"red_threes": 200, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 3 red threes +300",
        "six-3x2",
        {"red_threes": 3, "melded_points": 50},
        None,
        350,
        {"red_threes": 300, "melded_cards": 50},
    ),
    # docs/rules.md#six-3x2: 4 → 400 (no 800 bonus), 5 → 1000, 6 → 1200
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 4 red threes 400 not 800",
        "six-3x2",
        {"red_threes": 4, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 5 red threes 1000",
        "six-3x2",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 6 red threes 1200",
        "six-3x2",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    # docs/rules.md#six-3x2 › House rules: negative with the same magnitudes when the team has not melded
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 2 red threes not melded -200",
        "six-3x2",
        {"red_threes": 2},
        None,
        -200,
        {"red_threes": -200},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 4 red threes not melded -400",
        "six-3x2",
        {"red_threes": 4, "hand_points": 30},
        None,
        -430,
        {"red_threes": -400, "cards_in_hand": -30},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 5 red threes not melded -1000",
        "six-3x2",
        {"red_threes": 5},
        None,
        -1000,
        {"red_threes": -1000},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 6 red threes not melded -1200",
        "six-3x2",
        {"red_threes": 6, "hand_points": 85},
        None,
        -1285,
        {"red_threes": -1200, "cards_in_hand": -85},
    ),
    case(
        "docs/rules.md#six-3x2 › House rules: 3x2 setting: red threes plus anyway",
        "six-3x2",
        {"red_threes": 5},
        {"red_three_negative": False},
        1000,
        {"red_threes": 1000},
    ),
    # docs/rules.md#six-3x2: classic items, unchanged in docs/rules.md#six-3x2
    case(
        "docs/rules.md#six-3x2 › Going out: 3x2 going out 100 + natural 500 + mixed 300",
        "six-3x2",
        {"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 300},
        None,
        1200,
        {"going_out": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 300},
    ),
    case(
        "docs/rules.md#six-3x2 › Going out: 3x2 concealed 200 in all",
        "six-3x2",
        {"went_out": "concealed", "natural_canastas": 2, "melded_points": 250},
        None,
        1450,
        {"going_out": 100, "concealed": 100, "natural_canastas": 1000, "melded_cards": 250},
    ),
    case(
        "docs/rules.md#six-3x2 › Penalties: 3x2 cards in hand and penalties deducted",
        "six-3x2",
        {"natural_canastas": 1, "melded_points": 100, "hand_points": 60, "penalties": 100},
        None,
        440,
        {"natural_canastas": 500, "melded_cards": 100, "cards_in_hand": -60, "penalties": -100},
    ),
    # docs/rules.md#six-3x2 › House rules: wild-card melds as a house rule
    case(
        "docs/rules.md#six-3x2 › House rules: 3x2 wild-melds setting: wild canasta +2000",
        "six-3x2",
        {"wild_canastas": 1, "melded_points": 200},
        {"wild_melds": True},
        2200,
        {"wild_canastas": 2000, "melded_cards": 200},
    ),
    case(
        "docs/rules.md#six-3x2 › House rules: 3x2 wild-melds setting: incomplete wild meld -1000",
        "six-3x2",
        {"incomplete_wild": 1, "melded_points": 100},
        {"wild_melds": True},
        -900,
        {"incomplete_wild": -1000, "melded_cards": 100},
    ),
    # docs/rules.md#six-3x2 › Red and black threes: six players: red threes 4 → 400, 5 → 1000, 6 → 1200 (more melded
    # cards)
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 4 red threes 400 with 100 melded",
        "six-3x2",
        {"red_threes": 4, "melded_points": 100},
        None,
        500,
        {"red_threes": 400, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#six-3x2 › Red and black threes: 3x2 5 red threes 1000 with 100 melded",
        "six-3x2",
        {"red_threes": 5, "melded_points": 100},
        None,
        1100,
        {"red_threes": 1000, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#six-3x2 › Going out: 3x2 concealed 200 in all, 300 melded",
        "six-3x2",
        {"went_out": "concealed", "natural_canastas": 2, "melded_points": 300},
        None,
        1500,
        {"going_out": 100, "concealed": 100, "natural_canastas": 1000, "melded_cards": 300},
    ),
    case(
        "docs/rules.md#six-3x2 › House rules: 3x2 wild melds: wild canasta 2000, no incomplete wild meld given as 0",
        "six-3x2",
        {"wild_canastas": 1, "incomplete_wild": 0, "melded_points": 200},
        {"wild_melds": True},
        2200,
        {"wild_canastas": 2000, "melded_cards": 200},
    ),  # docs/rules.md#six-3x2 › House rules: wild-card canasta 2000
]

SIX_2X3 = [
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 3 red threes +300",
        "six-2x3",
        {"red_threes": 3, "mixed_canastas": 1, "melded_points": 60},
        None,
        660,
        {"red_threes": 300, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 4 red threes 400",
        "six-2x3",
        {"red_threes": 4, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 5 red threes 1000",
        "six-2x3",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 6 red threes 1200",
        "six-2x3",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 4 red threes not melded -400",
        "six-2x3",
        {"red_threes": 4},
        None,
        -400,
        {"red_threes": -400},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 5 red threes not melded -1000",
        "six-2x3",
        {"red_threes": 5, "hand_points": 40},
        None,
        -1040,
        {"red_threes": -1000, "cards_in_hand": -40},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 6 red threes not melded -1200",
        "six-2x3",
        {"red_threes": 6},
        None,
        -1200,
        {"red_threes": -1200},
    ),
    case(
        "docs/rules.md#six-2x3 › Going out: 2x3 going out with 2 mixed",
        "six-2x3",
        {"went_out": "normal", "mixed_canastas": 2, "melded_points": 200},
        None,
        900,
        {"going_out": 100, "mixed_canastas": 600, "melded_cards": 200},
    ),
    case(
        "docs/rules.md#six-2x3 › Red and black threes: 2x3 6 red threes 1200 with 100 melded",
        "six-2x3",
        {"red_threes": 6, "melded_points": 100},
        None,
        1300,
        {"red_threes": 1200, "melded_cards": 100},
    ),
    case(
        "docs/rules.md#six-2x3 › House rules: 2x3 setting: 3 red threes plus anyway",
        "six-2x3",
        {"red_threes": 3},
        {"red_three_negative": False},
        300,
        {"red_threes": 300},
    ),
]

MILLER = [
    # docs/rules.md#miller › Canastas: Miller: a wild-card canasta +2000; going out with 3 canastas, 2 of them natural
    case(
        "docs/rules.md#miller › Going out: Miller out with 2 natural + wild canasta +2000",
        "miller",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        None,
        3500,
        {"going_out": 100, "natural_canastas": 1000, "wild_canastas": 2000, "melded_cards": 400},
    ),
    case(
        "docs/rules.md#miller › Canastas: Miller two wild canastas +4000",
        "miller",
        {"wild_canastas": 2, "melded_points": 300},
        None,
        4300,
        {"wild_canastas": 4000, "melded_cards": 300},
    ),
    case(
        "docs/rules.md#miller › Penalties: Miller incomplete wild meld -2000",
        "miller",
        {"incomplete_wild": 1, "melded_points": 150},
        None,
        -1850,
        {"incomplete_wild": -2000, "melded_cards": 150},
    ),
    case(
        "docs/rules.md#miller › Canastas: Miller mixed canasta 300",
        "miller",
        {"mixed_canastas": 1, "melded_points": 60},
        None,
        360,
        {"mixed_canastas": 300, "melded_cards": 60},
    ),
    # "other numbers as the 6p book version": red threes 400/1000/1200, negative without a meld
    case(
        "docs/rules.md#miller › Red and black threes: Miller 5 red threes 1000",
        "miller",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#miller › Red and black threes: Miller 4 red threes not melded -400",
        "miller",
        {"red_threes": 4},
        None,
        -400,
        {"red_threes": -400},
    ),
    case(
        "docs/rules.md#miller › House rules: Miller setting: 6 red threes plus anyway",
        "miller",
        {"red_threes": 6},
        {"red_three_negative": False},
        1200,
        {"red_threes": 1200},
    ),
    case(
        "docs/rules.md#miller › Going out: Miller out with 2 natural + wild canasta +2000, 500 melded",
        "miller",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 500},
        None,
        3600,
        {"going_out": 100, "natural_canastas": 1000, "wild_canastas": 2000, "melded_cards": 500},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", SIX_3X2 + SIX_2X3 + MILLER)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


# ---------------------------------------------------------------------------------------------
# docs/rules.md#six-3x2 › Opening minimum: opening-minimum tables with their boundaries: six-3x2 keeps the classic table
# (no 150 row), six-2x3 and Miller add 150 from 7000

OPENING_150_ROWS = [
    (-1000, 15),
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (6995, 120),
    (7000, 150),
    (9995, 150),
]


@pytest.mark.parametrize(
    "variant_id, settings, total, minimum",
    opening_rows("docs/rules.md#six-3x2 › Opening minimum", "six-3x2", CLASSIC_ROWS)
    + opening_rows("docs/rules.md#six-2x3 › Opening minimum", "six-2x3", OPENING_150_ROWS)
    + opening_rows("docs/rules.md#miller › Opening minimum", "miller", OPENING_150_ROWS),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going-out requirements (the Going out heading of docs/rules.md#six-3x2, #six-2x3 and #miller): 2 canastas with six
# players; Miller 3, 2 of them natural


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#six-3x2 › Going out: six-3x2 1 canasta refused",
            "six-3x2",
            {"natural_canastas": 1, "melded_points": 35},
            True,
        ),
        going_out(
            "docs/rules.md#six-3x2 › Going out: six-3x2 2 canastas",
            "six-3x2",
            {"natural_canastas": 1, "mixed_canastas": 1, "melded_points": 85},
            False,
        ),
        going_out(
            "docs/rules.md#six-2x3 › Going out: six-2x3 1 canasta refused",
            "six-2x3",
            {"mixed_canastas": 1, "melded_points": 50},
            True,
        ),
        going_out(
            "docs/rules.md#six-2x3 › Going out: six-2x3 2 canastas",
            "six-2x3",
            {"mixed_canastas": 2, "melded_points": 100},
            False,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 2 natural refused (needs 3)",
            "miller",
            {"natural_canastas": 2, "melded_points": 70},
            True,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 3 mixed refused (needs 2 natural)",
            "miller",
            {"mixed_canastas": 3, "melded_points": 150},
            True,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 1 natural + mixed + wild refused",
            "miller",
            {"natural_canastas": 1, "mixed_canastas": 1, "wild_canastas": 1, "melded_points": 225},
            True,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 2 natural + 1 mixed",
            "miller",
            {"natural_canastas": 2, "mixed_canastas": 1, "melded_points": 120},
            False,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 2 natural + 1 wild",
            "miller",
            {"natural_canastas": 2, "wild_canastas": 1, "melded_points": 210},
            False,
        ),
        going_out(
            "docs/rules.md#miller › Going out: Miller 3 natural",
            "miller",
            {"natural_canastas": 3, "melded_points": 105},
            False,
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


@pytest.mark.parametrize(
    "variant_id, sides, field, needle",
    [
        (
            "six-3x2",
            [{"went_out": "normal", "natural_canastas": 1, "melded_points": 100}, {}, {}],
            "went_out",
            "at least 2",
        ),
        (
            "miller",
            [{"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 2, "melded_points": 200}, {}],
            "went_out",
            "2 natural",
        ),
        ("miller", [{"went_out": "normal", "natural_canastas": 2, "melded_points": 200}, {}], "went_out", "at least 3"),
        ("six-3x2", [{"red_threes": 4}, {"red_threes": 3}, {}], "red_threes", "6 red threes"),
    ],
)
def test_rule_set_checks(variant_id, sides, field, needle):
    problems = problems_of(variant_id, sides)
    assert any(p.field == field and needle in p.message for p in problems), problems


# ---------------------------------------------------------------------------------------------
# Card conservation: 6 red threes in a 162-card deck (docs/rules.md#six-3x2)


def test_six_red_threes_fit_a_162_card_deck():
    assert problems_of("six-3x2", [{"red_threes": 4, "melded_points": 50}, {"red_threes": 2}, {}]) == []


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows(
        [
            ("six-3x2", [2, 2, 2], False),
            ("six-3x2", [6, 0, 0], False),
            ("six-3x2", [3, 2, 2], True),
            ("six-3x2", [7, 0, 0], True),
            ("six-2x3", [3, 3], False),
            ("six-2x3", [4, 3], True),
            ("miller", [6, 0], False),
            ("miller", [5, 2], True),
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
# Game end (docs/rules.md#six-3x2 › House rules): 7500 for three teams of 2, 10000 for two teams of 3 and Miller


@pytest.mark.parametrize(
    "variant_id, settings, target, totals, expected",
    [
        # docs/rules.md#six-3x2 › End of the game: three teams of 2: 7500, the winner's lead over each other team
        # (docs/rules.md#six-3x2 › House rules)
        result_case("docs/rules.md#six-3x2: six-3x2 below 7500", "six-3x2", (7495, 7000, 7200), False, None, None, ()),
        result_case(
            "docs/rules.md#six-3x2: six-3x2 7500 reached", "six-3x2", (7600, 7000, 5000), True, 0, 600, (0, 600, 2600)
        ),
        result_case(
            "docs/rules.md#six-3x2: six-3x2 exactly 7500", "six-3x2", (4000, 7500, 7495), True, 1, 5, (3500, 0, 5)
        ),
        result_case(
            "docs/rules.md#six-3x2 › End of the game: six-3x2 several past, highest wins",
            "six-3x2",
            (7500, 7700, 7600),
            True,
            1,
            100,
            (200, 0, 100),
        ),
        result_case(
            "docs/rules.md#six-3x2: six-3x2 negative total",
            "six-3x2",
            (-300, 2000, 7600),
            True,
            2,
            5600,
            (7900, 5600, 0),
        ),
        result_case(
            "docs/rules.md#six-3x2 › House rules: six-3x2 tie at the top: play on",
            "six-3x2",
            (7500, 7500, 100),
            False,
            None,
            None,
            (),
            tie=True,
        ),
        result_case(
            "docs/rules.md#six-3x2 › House rules: six-3x2 tie setting draw",
            "six-3x2",
            (7500, 7500, 100),
            True,
            None,
            None,
            (),
            settings={"tie_rule": "draw"},
            tie=True,
        ),
        result_case(
            "docs/rules.md#six-3x2 › End of the game: six-3x2 level below the top is no tie",
            "six-3x2",
            (7800, 7000, 7000),
            True,
            0,
            800,
            (0, 800, 800),
        ),
        result_case(  # docs/rules.md#six-3x2 › End of the game: 7500, lead over each team
            "docs/rules.md#six-3x2 › End of the game: six-3x2 7500 reached, lead over each team",
            "six-3x2",
            (7500, 6000, 7100),
            True,
            0,
            400,
            (0, 1500, 400),
        ),
        result_case(
            "docs/rules.md#six-3x2: six-3x2 7495 below 7500", "six-3x2", (7495, 6000, 7100), False, None, None, ()
        ),
        # docs/rules.md#six-2x3: two teams of 3 and Miller: 10000
        result_case("docs/rules.md#six-2x3: six-2x3 below 10000", "six-2x3", (9995, 9990), False, None, None, ()),
        result_case("docs/rules.md#six-2x3: six-2x3 10000", "six-2x3", (10000, 9000), True, 0, 1000, (0, 1000)),
        result_case(
            "docs/rules.md#six-2x3 › End of the game: six-2x3 both past, higher wins",
            "six-2x3",
            (10500, 10800),
            True,
            1,
            300,
            (300, 0),
        ),
        result_case("docs/rules.md#six-2x3: six-2x3 9995 below 10000", "six-2x3", (9995, 9000), False, None, None, ()),
        result_case("docs/rules.md#miller: miller 10000", "miller", (7000, 10050), True, 1, 3050, (3050, 0)),
        result_case("docs/rules.md#miller: miller below 10000", "miller", (9995, 7000), False, None, None, ()),
        # a custom target
        result_case(
            "custom target 3000, three sides", "six-3x2", (3100, 2000, 3050), True, 0, 50, (0, 1100, 50), target=3000
        ),
        result_case(
            "custom target 3000 reached exactly, three sides",
            "six-3x2",
            (3000, 100, 200),
            True,
            0,
            2800,
            (0, 2900, 2800),
            target=3000,
        ),
        result_case(  # docs/rules.md#six-3x2 › House rules: default
            "docs/rules.md#six-3x2 › House rules: custom target 3000, three-way tie at the top plays on",
            "six-3x2",
            (3500, 3500, 200),
            False,
            None,
            None,
            (),
            target=3000,
            tie=True,
        ),
        result_case(
            "custom target with tie draw",
            "six-2x3",
            (3000, 3000),
            True,
            None,
            None,
            (),
            settings={"tie_rule": "draw"},
            target=3000,
            tie=True,
        ),
    ],
)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


@pytest.mark.parametrize("variant_id, target", [("six-3x2", 7500), ("six-2x3", 10000), ("miller", 10000)])
def test_targets(variant_id, target):
    """docs/rules.md#six-3x2 › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of(variant_id).target == target
    assert rules_of(variant_id, target=3000).target == 3000


# ---------------------------------------------------------------------------------------------
# Whole hands played


def test_six_3x2_game_played_to_the_end():
    """docs/rules.md#six-3x2 › End of the game: three teams of 2 play on from 6200 / 7000 / 3000; one hand ends the
    game at 7500."""
    rules = rules_of("six-3x2")
    hand = read(
        rules,
        [
            {"went_out": "normal", "natural_canastas": 2, "melded_points": 300},  # 100 + 1000 + 300 = 1400
            {"mixed_canastas": 1, "melded_points": 100, "hand_points": 50},  # 300 + 100 − 50 = 350
            {"red_threes": 1, "hand_points": 80},  # not melded: −100 − 80 = −180
        ],
    )
    state = scoring.play(rules, [hand], totals_before=(6200, 7000, 3000))
    assert [s.score for s in state.hands[0].scores] == [1400, 350, -180]
    assert state.totals == (7600, 7350, 2820)
    assert state.opening_minimums == (120, 120, 90)  # classic table, no 150 row for 3×2
    assert (state.result.finished, state.result.winner, state.result.margin, state.result.leads) == (
        True,
        0,
        250,
        (0, 250, 4780),
    )
    assert state.ended_after == 0


def test_six_2x3_opening_150_after_a_hand():
    """docs/rules.md#six-2x3 › Opening minimum: a team of three reaching 7000 needs 150 for the next opening meld."""
    rules = rules_of("six-2x3")
    hand = read(rules, [{"natural_canastas": 1, "melded_points": 100}, {"red_threes": 1}])  # 600; −100
    state = scoring.play(rules, [hand], totals_before=(6500, 2000))
    assert state.totals == (7100, 1900)
    assert state.opening_minimums == (150, 90)
    assert not state.result.finished


# docs/rules.md#six-3x2 › House rules: the values only six-player rule sets have, changed (docs/rules.md#house-values)
# five red threes 900 + 50 melded = 950; six 1500 + 50 = 1550; Miller: wild canasta 1500 + 2 naturals 1000 + 300
# melded − an incomplete wild meld 500 = 2300
HOUSE = [
    we.case(
        "docs/rules.md#six-3x2 › House rules: five red threes 900",
        "six-3x2",
        {"red_threes": 5, "melded_points": 50},
        {"red_threes_5": 900},
        950,
        {"red_threes": 900, "melded_cards": 50},
    ),
    we.case(
        "docs/rules.md#six-3x2 › House rules: six red threes 1500",
        "six-3x2",
        {"red_threes": 6, "melded_points": 50},
        {"red_threes_6": 1500},
        1550,
        {"red_threes": 1500, "melded_cards": 50},
    ),
    we.case(
        "docs/rules.md#miller › House rules: wild canasta 1500, incomplete wild meld 500",
        "miller",
        {"wild_canastas": 1, "natural_canastas": 2, "melded_points": 300, "incomplete_wild": 1},
        {"canasta_wild": 1500, "incomplete_wild": 500},
        2300,
        {"wild_canastas": 1500, "natural_canastas": 1000, "melded_cards": 300, "incomplete_wild": -500},
    ),
]
HOUSE_NAMES = {"opening_5", "opening_5_from", "wild_canastas_to_go_out"}  # worked below


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)


def test_house_fifth_opening_tier():
    """docs/rules.md#six-2x3 › House rules: the fifth tier 200 from 8000: 7995 → 120, 8000 → 200."""
    rules = we.rules_of("six-2x3", {"opening_5": 200, "opening_5_from": 8000})
    assert [scoring.opening_minimum(rules, t) for t in (7000, 7995, 8000)] == [120, 120, 200]


def test_house_wild_canasta_to_go_out():
    """docs/rules.md#miller › House rules: with one wild canasta needed, three natural ones are not enough."""
    side = {"went_out": "normal", "natural_canastas": 3, "melded_points": 200}
    assert we.going_out_problems("miller", side) == []
    assert we.going_out_problems("miller", side, {"wild_canastas_to_go_out": 1}) == [(0, "went_out")]
