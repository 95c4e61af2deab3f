"""Worked examples for Canadian Canasta (docs/rules.md#canadian), computed by hand from the rules.

Citations name a heading of docs/rules.md (`docs/rules.md#<rule set> › <heading>`); see tests/worked_examples.py for
how each case
is read and scored.
"""

import pytest

from scorekeeper.core import checks, rulesets, scoring
from tests import worked_examples as we
from tests.worked_examples import (
    case,
    going_out,
    going_out_problems,
    opening_rows,
    problems_of,
    red_three_rows,
    red_three_sides,
    result_case,
    rules_of,
    score_of,
)

# ---------------------------------------------------------------------------------------------
# Worked hand scores: (rule set, first side's entry, settings, score, breakdown items)

CANADIAN = [
    # docs/rules.md#canadian › Canastas: wild 300, natural 300, mixed 200
    case(
        "docs/rules.md#canadian › Canastas: Canadian natural canasta 300",
        "canadian",
        {"natural_canastas": 1, "melded_points": 35},
        None,
        335,
        {"natural_canastas": 300, "melded_cards": 35},
    ),
    case(
        "docs/rules.md#canadian › Canastas: Canadian mixed canasta 200",
        "canadian",
        {"mixed_canastas": 1, "melded_points": 50},
        None,
        250,
        {"mixed_canastas": 200, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Canastas: Canadian wild canasta 300",
        "canadian",
        {"wild_canastas": 1, "melded_points": 140},
        None,
        440,
        {"wild_canastas": 300, "melded_cards": 140},
    ),
    # docs/rules.md#canadian › Going out: 100
    case(
        "docs/rules.md#canadian › Going out: Canadian going out 100 with 2 natural + 1 wild",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 300},
        None,
        1300,
        {"going_out": 100, "natural_canastas": 600, "wild_canastas": 300, "melded_cards": 300},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: no going-out bonus",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 300},
        {"going_out_bonus": 0},
        1200,
        {"natural_canastas": 600, "wild_canastas": 300, "melded_cards": 300},
    ),
    # docs/rules.md#canadian › Red and black threes: six black threes melded on going out: +5 each inside M
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian six black 3s melded +5 each",
        "canadian",
        {
            "went_out": "normal",
            "natural_canastas": 2,
            "wild_canastas": 1,
            "melded_cards": {"twos_aces": 7, "low": 14, "black_threes": 6},
        },
        None,
        1240,
        {"going_out": 100, "natural_canastas": 600, "wild_canastas": 300, "melded_cards": 240},
    ),
    # docs/rules.md#canadian › Red and black threes: red threes 200 each, no all-four bonus, no sign rule by default
    # (docs/rules.md#canadian › House rules)
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 1 red three 200",
        "canadian",
        {"red_threes": 1, "melded_points": 50},
        None,
        250,
        {"red_threes": 200, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 2 red threes 400",
        "canadian",
        {"red_threes": 2, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 3 red threes 600",
        "canadian",
        {"red_threes": 3, "melded_points": 50},
        None,
        650,
        {"red_threes": 600, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 4 red threes 800, no bonus",
        "canadian",
        {"red_threes": 4, "melded_points": 50},
        None,
        850,
        {"red_threes": 800, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 5 red threes 1000",
        "canadian",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 6 red threes 1200",
        "canadian",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian red threes +200 even with nothing melded",
        "canadian",
        {"red_threes": 3, "hand_points": 40},
        None,
        560,
        {"red_threes": 600, "cards_in_hand": -40},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: classic sign rule",
        "canadian",
        {"red_threes": 3, "hand_points": 40},
        {"red_three_sign": "melded"},
        -640,
        {"red_threes": -600, "cards_in_hand": -40},
    ),
    # docs/rules.md#canadian › Red and black threes: black threes in hand −100 each, instead of 5
    # (docs/rules.md#canadian)
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 1 black three in hand -100",
        "canadian",
        {"melded_points": 50, "black_threes_in_hand": 1, "hand_points": 40},
        None,
        -90,
        {"melded_cards": 50, "black_threes_in_hand": -100, "cards_in_hand": -40},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 3 black threes in hand -300",
        "canadian",
        {"black_threes_in_hand": 3},
        None,
        -300,
        {"black_threes_in_hand": -300},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: black three in hand -100 and its 5",
        "canadian",
        {"black_threes_in_hand": 2},
        {"black_three_in_hand": 105},
        -210,
        {"black_threes_in_hand": -210},
    ),
    # docs/rules.md#canadian › Going out: exact cut: the non-dealing team +100
    case(
        "docs/rules.md#canadian › Going out: Canadian exact cut +100",
        "canadian",
        {"exact_cut": True, "melded_points": 50},
        None,
        150,
        {"exact_cut": 100, "melded_cards": 50},
    ),
    # docs/rules.md#canadian: Canadian: more worked hands
    case(
        "docs/rules.md#canadian › Going out: Canadian going out 100 with 2 natural + 1 wild, 400 melded",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        None,
        1400,
        {"going_out": 100, "natural_canastas": 600, "wild_canastas": 300, "melded_cards": 400},
    ),
    case(
        "docs/rules.md#canadian › Canastas: Canadian 2 mixed 200 each, 4 red threes 800",
        "canadian",
        {"mixed_canastas": 2, "red_threes": 4, "melded_points": 150},
        None,
        1350,
        {"mixed_canastas": 400, "red_threes": 800, "melded_cards": 150},
    ),  # 200 each, no all-four bonus
    case(
        "docs/rules.md#canadian › House rules: Canadian 2 red threes +400 with nothing melded",
        "canadian",
        {"red_threes": 2, "hand_points": 30},
        None,
        370,
        {"red_threes": 400, "cards_in_hand": -30},
    ),  # no sign rule
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: classic sign rule, 2 red threes",
        "canadian",
        {"red_threes": 2, "hand_points": 30},
        {"red_three_sign": "melded"},
        -430,
        {"red_threes": -400, "cards_in_hand": -30},
    ),
    case(
        "docs/rules.md#canadian › Red and black threes: Canadian 3 black threes in hand -300 and the exact cut +100",
        "canadian",
        {"melded_points": 100, "black_threes_in_hand": 3, "exact_cut": True},
        None,
        -100,
        {"melded_cards": 100, "black_threes_in_hand": -300, "exact_cut": 100},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: one black three in hand -105",
        "canadian",
        {"melded_points": 100, "black_threes_in_hand": 1},
        {"black_three_in_hand": 105},
        -5,
        {"melded_cards": 100, "black_threes_in_hand": -105},
    ),
    case(
        "docs/rules.md#canadian › House rules: Canadian setting: no going-out bonus, 400 melded",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        {"going_out_bonus": 0},
        1300,
        {"natural_canastas": 600, "wild_canastas": 300, "melded_cards": 400},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", CANADIAN)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


# ---------------------------------------------------------------------------------------------
# docs/rules.md#canadian › Opening minimum: opening-minimum table with its boundaries; docs/rules.md#canadian › House
# rules: the setting of 15 for a negative total

CANADIAN_ROWS = [
    (-2000, 50),
    (-5, 50),
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
    opening_rows("docs/rules.md#canadian › Opening minimum", "canadian", CANADIAN_ROWS)
    + opening_rows(
        "docs/rules.md#canadian › House rules",
        "canadian",
        [(-1000, 15), (-5, 15), (0, 50), (7000, 150)],
        {"negative_minimum": 15},
    ),
)
def test_opening_minimum(variant_id, settings, total, minimum):
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going out (docs/rules.md#canadian › Going out): 2 natural canastas and a wild-card one; no concealed going out


@pytest.mark.parametrize(
    "variant_id, side, settings, refused",
    [
        going_out(
            "docs/rules.md#canadian › Going out: Canadian 2 natural + 1 wild",
            "canadian",
            {"natural_canastas": 2, "wild_canastas": 1, "melded_points": 210},
            False,
        ),
        going_out(
            "docs/rules.md#canadian › Going out: Canadian 3 natural refused (no wild)",
            "canadian",
            {"natural_canastas": 3, "melded_points": 105},
            True,
        ),
        going_out(
            "docs/rules.md#canadian › Going out: Canadian 2 natural + 1 mixed refused",
            "canadian",
            {"natural_canastas": 2, "mixed_canastas": 1, "melded_points": 120},
            True,
        ),
        going_out(
            "docs/rules.md#canadian › Going out: Canadian 1 natural + 2 wild refused",
            "canadian",
            {"natural_canastas": 1, "wild_canastas": 2, "melded_points": 315},
            True,
        ),
        going_out(
            "docs/rules.md#canadian › Going out: Canadian 2 natural + wild + mixed",
            "canadian",
            {"natural_canastas": 2, "wild_canastas": 1, "mixed_canastas": 1, "melded_points": 260},
            False,
        ),
    ],
)
def test_going_out_requirement(variant_id, side, settings, refused):
    problems = going_out_problems(variant_id, dict(side, went_out="normal"), settings)
    assert problems == ([(0, "went_out")] if refused else []), problems


def test_canadian_has_no_concealed_going_out():
    """docs/rules.md#canadian › Going out: Canadian has no concealed going out."""
    side = {"went_out": "concealed", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 210}
    assert going_out_problems("canadian", side) == [(0, "went_out")]


@pytest.mark.parametrize(
    "variant_id, sides, field, needle",
    [
        (
            "canadian",
            [{"went_out": "normal", "natural_canastas": 3, "melded_points": 200}, {}],
            "went_out",
            "1 wild-card",
        ),
        (
            "canadian",
            [
                {
                    "went_out": "normal",
                    "natural_canastas": 1,
                    "mixed_canastas": 1,
                    "wild_canastas": 1,
                    "melded_points": 300,
                },
                {},
            ],
            "went_out",
            "2 natural",
        ),
        (
            "canadian",
            [{"black_threes_in_hand": 4}, {"black_threes_in_hand": 3}],
            "black_threes_in_hand",
            "6 black threes",
        ),
    ],
)
def test_rule_set_checks(variant_id, sides, field, needle):
    problems = problems_of(variant_id, sides)
    assert any(p.field == field and needle in p.message for p in problems), problems


def test_canadian_black_threes_are_melded_all_six():
    """docs/rules.md#canadian › Red and black threes: black 3s may be melded only as all six, by the player going
    out."""
    side = {
        "went_out": "normal",
        "natural_canastas": 2,
        "wild_canastas": 1,
        "melded_cards": {"twos_aces": 7, "low": 14, "black_threes": 4},
    }
    problems = problems_of("canadian", [side, {}])
    assert [(p.side, p.field) for p in problems] == [(0, "melded_cards.black_threes")]


def test_all_six_is_canadian_whatever_a_black_three_left_in_hand_costs():
    """docs/rules.md#canadian › Red and black threes: all six, by the player going out; a table's own rules
    that set 0 for a black three left in hand (docs/rules.md, "A table's own rules") still meld them all six
    (the check read the rule off the penalty: 6 was refused and 4 taken). And six players in pairs with three
    packs (docs/rules.md#six-3x2) meld them as a set of 3 or 4 whatever a table makes a black three in hand cost."""
    side = {
        "went_out": "normal",
        "natural_canastas": 2,
        "wild_canastas": 1,
        "melded_cards": {"twos_aces": 7, "low": 14},
    }
    free = rulesets.configure(rulesets.get("canadian"), {"black_three_in_hand": 0})
    for black, refused in ((6, False), (4, True)):
        sides = [{**side, "melded_cards": {**side["melded_cards"], "black_threes": black}}, {}]
        problems = checks.read_hand(free, sides)[1]
        assert [p.field for p in problems] == (["melded_cards.black_threes"] if refused else []), problems
    six = rulesets.configure(rulesets.get("six-3x2"), {"black_three_in_hand": 100})
    out = {"went_out": "normal", "natural_canastas": 1, "melded_cards": {"high": 7, "black_threes": 4}}
    problems = checks.read_hand(six, [out, {}, {}])[1]
    assert "melded_cards.black_threes" not in [p.field for p in problems], problems


# ---------------------------------------------------------------------------------------------
# Card conservation: 6 red and 6 black threes in a 162-card deck (docs/rules.md#canadian)


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    red_three_rows([("canadian", [6, 0], False), ("canadian", [4, 3], True), ("canadian", [7, 0], True)]),
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
            "canadian",
            [{"black_threes_in_hand": 3}, {"black_threes_in_hand": 3}],
            False,
            id="docs/rules.md#canadian › Red and black threes: Canadian 6 black threes",
        ),
        pytest.param(
            "canadian",
            [{"black_threes_in_hand": 4}, {"black_threes_in_hand": 3}],
            True,
            id="docs/rules.md#canadian › Red and black threes: Canadian 7 black threes refused",
        ),
    ],
)
def test_black_threes_the_deck_holds(variant_id, sides, refused):
    problems = problems_of(variant_id, sides)
    assert bool(problems) == refused, problems


# ---------------------------------------------------------------------------------------------
# Game end (docs/rules.md#canadian › House rules): 10000


@pytest.mark.parametrize(
    "variant_id, settings, target, totals, expected",
    [
        result_case("docs/rules.md#canadian: canadian 10000", "canadian", (10000, 9995), True, 0, 5, (0, 5)),
        result_case("docs/rules.md#canadian: canadian below 10000", "canadian", (9995, 9000), False, None, None, ()),
        result_case(
            "docs/rules.md#canadian › End of the game: canadian 10050 wins by 250",
            "canadian",
            (9800, 10050),
            True,
            1,
            250,
            (250, 0),
        ),
        result_case(
            "docs/rules.md#canadian › House rules: canadian tie",
            "canadian",
            (10200, 10200),
            False,
            None,
            None,
            (),
            tie=True,
        ),
        result_case(
            "custom target 12000 for canadian", "canadian", (11000, 10500), False, None, None, (), target=12000
        ),
    ],
)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


def test_target():
    """docs/rules.md#canadian › End of the game: targets; configure(target=...) overrides it."""
    assert rules_of("canadian").target == 10000
    assert rules_of("canadian", target=3000).target == 3000


# docs/rules.md#canadian › House rules: a black three in hand 200: 50 − 40 − 200 = −190; exact cut 300: 50 + 300
HOUSE = [
    we.case(
        "docs/rules.md#canadian › House rules: black three in hand 200",
        "canadian",
        {"melded_points": 50, "black_threes_in_hand": 1, "hand_points": 40},
        {"black_three_in_hand": 200},
        -190,
        {"melded_cards": 50, "cards_in_hand": -40, "black_threes_in_hand": -200},
    ),
    we.case(
        "docs/rules.md#canadian › House rules: exact cut 300",
        "canadian",
        {"melded_points": 50, "exact_cut": True},
        {"exact_cut_bonus": 300},
        350,
        {"melded_cards": 50, "exact_cut": 300},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert we.score_of(variant_id, side, settings) == (expected, items)
