"""Worked examples for every rule set other than classic, computed by hand from the spec.

Every expected number below was worked out by hand from ``shared/rules/scoring-spec.md`` (the
section is in each case's id or comment), never copied from the code's output. Each case goes
through the API-shaped entry: ``checks.read_hand(variants.configure(...), sides)`` and then
``scoring.score_side``, so the field names the API takes are covered too.

If the code disagrees with the spec, the case keeps the spec's value and is marked
``xfail(strict=True)`` with the reason.
"""

import pytest

from scorekeeper import checks, scoring, variants

OTHER_RULE_SETS = (
    "six-3x2",
    "six-2x3",
    "miller",
    "vienna",
    "modern",
    "canadian",
    "austrian",
    "austrian-6",
    "encyclopedia",
)


def rules_of(variant_id, settings=None, target=None):
    """The rule set configured as a game plays it."""
    return variants.configure(variants.get(variant_id), settings or {}, target=target)


def empty_sides(rules, first):
    """The first side's entry and empty entries for the others."""
    return [first] + [{} for _ in range(rules.sides - 1)]


def breakdown(score):
    """Item -> points of a side's score; the items are unique and add up to the score.

    Lines of 0 points (e.g. Modern threes with one canasta, "not scored") are left out."""
    items = [line.item for line in score.breakdown]
    assert len(items) == len(set(items)), items
    assert sum(line.points for line in score.breakdown) == score.score
    return {line.item: line.points for line in score.breakdown if line.points}


def score_of(variant_id, side, settings=None, others=None):
    """(hand score, breakdown) of the first side of a hand entry, read and checked as the API does."""
    rules = rules_of(variant_id, settings)
    raw = [side] + others if others is not None else empty_sides(rules, side)
    hands, problems = checks.read_hand(rules, raw)
    assert problems == [], problems
    result = scoring.score_side(rules, hands[0])
    return result.score, breakdown(result)


def problems_of(variant_id, sides, settings=None):
    """The problems read_hand finds in a hand entry."""
    return checks.read_hand(rules_of(variant_id, settings), sides)[1]


def test_the_rule_sets_covered_here_exist():
    assert set(OTHER_RULE_SETS) | {"classic", "classic-2p", "classic-3p"} == set(variants.RULE_SETS)


# ---------------------------------------------------------------------------------------------
# Worked hand scores: (rule set, first side's entry, settings, score, breakdown items ≠ 0)


def case(id_, variant_id, side, settings, expected, items, marks=()):
    return pytest.param(variant_id, side, settings, expected, items, id=id_, marks=marks)


SIX_3X2 = [
    # §6 red threes 1–3 → 100 each (classic rule, unchanged), with a meld
    case(
        "§6 3x2 1 red three +100",
        "six-3x2",
        {"red_threes": 1, "melded_points": 50},
        None,
        150,
        {"red_threes": 100, "melded_cards": 50},
    ),
    case(
        "§6 3x2 2 red threes +200",
        "six-3x2",
        {"red_threes": 2, "melded_points": 50},
        None,
        250,
        {"red_threes": 200, "melded_cards": 50},
    ),
    case(
        "§6 3x2 3 red threes +300",
        "six-3x2",
        {"red_threes": 3, "melded_points": 50},
        None,
        350,
        {"red_threes": 300, "melded_cards": 50},
    ),
    # §6 4 → 400 (no 800 bonus), 5 → 1000, 6 → 1200
    case(
        "§6 3x2 4 red threes 400 not 800",
        "six-3x2",
        {"red_threes": 4, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "§6 3x2 5 red threes 1000",
        "six-3x2",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "§6 3x2 6 red threes 1200",
        "six-3x2",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    # §6 / §15.9 negative with the same magnitudes when the team has not melded
    case("§6 3x2 2 red threes not melded -200", "six-3x2", {"red_threes": 2}, None, -200, {"red_threes": -200}),
    case(
        "§6 3x2 4 red threes not melded -400",
        "six-3x2",
        {"red_threes": 4, "hand_points": 30},
        None,
        -430,
        {"red_threes": -400, "cards_in_hand": -30},
    ),
    case("§6 3x2 5 red threes not melded -1000", "six-3x2", {"red_threes": 5}, None, -1000, {"red_threes": -1000}),
    case(
        "§6 3x2 6 red threes not melded -1200",
        "six-3x2",
        {"red_threes": 6, "hand_points": 85},
        None,
        -1285,
        {"red_threes": -1200, "cards_in_hand": -85},
    ),
    case(
        "§15.9 3x2 setting: red threes plus anyway",
        "six-3x2",
        {"red_threes": 5},
        {"red_three_negative": False},
        1000,
        {"red_threes": 1000},
    ),
    # §2.5 classic items, unchanged in §6
    case(
        "§6/§2.5 3x2 going out 100 + natural 500 + mixed 300",
        "six-3x2",
        {"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 300},
        None,
        1200,
        {"going_out": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 300},
    ),
    case(
        "§6/§2.5 3x2 concealed 200 in all",
        "six-3x2",
        {"went_out": "concealed", "natural_canastas": 2, "melded_points": 250},
        None,
        1450,
        {"going_out": 100, "concealed": 100, "natural_canastas": 1000, "melded_cards": 250},
    ),
    case(
        "§2.5 3x2 cards in hand and penalties deducted",
        "six-3x2",
        {"natural_canastas": 1, "melded_points": 100, "hand_points": 60, "penalties": 100},
        None,
        440,
        {"natural_canastas": 500, "melded_cards": 100, "cards_in_hand": -60, "penalties": -100},
    ),
    # §3 wild-card melds as a house rule
    case(
        "§3 3x2 wild-melds setting: wild canasta +2000",
        "six-3x2",
        {"wild_canastas": 1, "melded_points": 200},
        {"wild_melds": True},
        2200,
        {"wild_canastas": 2000, "melded_cards": 200},
    ),
    case(
        "§3 3x2 wild-melds setting: incomplete wild meld -1000",
        "six-3x2",
        {"incomplete_wild": 1, "melded_points": 100},
        {"wild_melds": True},
        -900,
        {"incomplete_wild": -1000, "melded_cards": 100},
    ),
]

SIX_2X3 = [
    case(
        "§6 2x3 3 red threes +300",
        "six-2x3",
        {"red_threes": 3, "mixed_canastas": 1, "melded_points": 60},
        None,
        660,
        {"red_threes": 300, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "§6 2x3 4 red threes 400",
        "six-2x3",
        {"red_threes": 4, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "§6 2x3 5 red threes 1000",
        "six-2x3",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "§6 2x3 6 red threes 1200",
        "six-2x3",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    case("§6 2x3 4 red threes not melded -400", "six-2x3", {"red_threes": 4}, None, -400, {"red_threes": -400}),
    case(
        "§6 2x3 5 red threes not melded -1000",
        "six-2x3",
        {"red_threes": 5, "hand_points": 40},
        None,
        -1040,
        {"red_threes": -1000, "cards_in_hand": -40},
    ),
    case("§6 2x3 6 red threes not melded -1200", "six-2x3", {"red_threes": 6}, None, -1200, {"red_threes": -1200}),
    case(
        "§6 2x3 going out with 2 mixed",
        "six-2x3",
        {"went_out": "normal", "mixed_canastas": 2, "melded_points": 200},
        None,
        900,
        {"going_out": 100, "mixed_canastas": 600, "melded_cards": 200},
    ),
]

MILLER = [
    # §6 Miller: a wild-card canasta +2000; going out with 3 canastas, 2 of them natural
    case(
        "§6 Miller out with 2 natural + wild canasta +2000",
        "miller",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 400},
        None,
        3500,
        {"going_out": 100, "natural_canastas": 1000, "wild_canastas": 2000, "melded_cards": 400},
    ),
    case(
        "§6 Miller two wild canastas +4000",
        "miller",
        {"wild_canastas": 2, "melded_points": 300},
        None,
        4300,
        {"wild_canastas": 4000, "melded_cards": 300},
    ),
    case(
        "§6 Miller incomplete wild meld -2000",
        "miller",
        {"incomplete_wild": 1, "melded_points": 150},
        None,
        -1850,
        {"incomplete_wild": -2000, "melded_cards": 150},
    ),
    case(
        "§6 Miller mixed canasta 300",
        "miller",
        {"mixed_canastas": 1, "melded_points": 60},
        None,
        360,
        {"mixed_canastas": 300, "melded_cards": 60},
    ),
    # "other numbers as the 6p book version": red threes 400/1000/1200, negative without a meld
    case(
        "§6 Miller 5 red threes 1000",
        "miller",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case("§6 Miller 4 red threes not melded -400", "miller", {"red_threes": 4}, None, -400, {"red_threes": -400}),
    case(
        "§15.9 Miller setting: 6 red threes plus anyway",
        "miller",
        {"red_threes": 6},
        {"red_three_negative": False},
        1200,
        {"red_threes": 1200},
    ),
]

VIENNA = [
    case(
        "§7 Vienna going out 100",
        "vienna",
        {"went_out": "normal", "natural_canastas": 1, "melded_points": 100},
        None,
        700,
        {"going_out": 100, "natural_canastas": 500, "melded_cards": 100},
    ),
    # §7 red threes positive only with a canasta
    case(
        "§7 Vienna 1 red three with a canasta +100",
        "vienna",
        {"red_threes": 1, "mixed_canastas": 1, "melded_points": 60},
        None,
        460,
        {"red_threes": 100, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "§7 Vienna 2 red threes with a canasta +200",
        "vienna",
        {"red_threes": 2, "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"red_threes": 200, "natural_canastas": 500, "melded_cards": 100},
    ),
    case(
        "§7 Vienna 4 red threes with a canasta +800",
        "vienna",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 50},
        None,
        1350,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 50},
    ),
    # §7 / §13 D2 / §15.2: melded but no canasta → minus by default, 0 with the setting
    case(
        "§15.2 Vienna melded no canasta -100 each (default)",
        "vienna",
        {"red_threes": 2, "melded_points": 100},
        None,
        -100,
        {"red_threes": -200, "melded_cards": 100},
    ),
    case(
        "§15.2 Vienna melded no canasta 4 red threes -800",
        "vienna",
        {"red_threes": 4, "melded_points": 60},
        None,
        -740,
        {"red_threes": -800, "melded_cards": 60},
    ),
    case(
        "§15.2 Vienna setting: melded no canasta counts 0",
        "vienna",
        {"red_threes": 2, "melded_points": 100},
        {"red_three_melded_no_canasta": 0},
        100,
        {"melded_cards": 100},
    ),
    case(
        "§7 Vienna nothing melded -100 each",
        "vienna",
        {"red_threes": 1, "hand_points": 20},
        None,
        -120,
        {"red_threes": -100, "cards_in_hand": -20},
    ),
    case(
        "§15.2 Vienna setting 0 still minus with nothing melded",
        "vienna",
        {"red_threes": 4, "hand_points": 10},
        {"red_three_melded_no_canasta": 0},
        -810,
        {"red_threes": -800, "cards_in_hand": -10},
    ),
    # §7 Hand-Canasta 1000 replaces 100 (§13 D3); the setting adds the 100 (§15.1)
    case(
        "§7 Vienna Hand-Canasta 1000",
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        None,
        1535,
        {"hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§15.1 Vienna setting: Hand-Canasta 1000 + 100",
        "vienna",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
        {"hand_canasta_adds": True},
        1635,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§7 Vienna Hand-Canasta with 2 red threes",
        "vienna",
        {"went_out": "hand_canasta", "mixed_canastas": 1, "red_threes": 2, "melded_points": 70},
        None,
        1570,
        {"hand_canasta": 1000, "mixed_canastas": 300, "red_threes": 200, "melded_cards": 70},
    ),
    # §7 Verdeckt Ausmachen 200 instead of 100
    case(
        "§7 Vienna Verdeckt 200",
        "vienna",
        {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 80},
        None,
        580,
        {"verdeckt": 200, "mixed_canastas": 300, "melded_cards": 80},
    ),
]

MODERN = [
    # §8.5 element 1: each canasta kind (one canasta: threes not scored, melded cards added)
    case(
        "§8.5 Modern mixed canasta 300",
        "modern",
        {"mixed_canastas": 1, "melded_points": 65},
        None,
        365,
        {"mixed_canastas": 300, "melded_cards": 65},
    ),
    case(
        "§8.5 Modern natural canasta 500",
        "modern",
        {"natural_canastas": 1, "melded_points": 35},
        None,
        535,
        {"natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§8.5 Modern natural aces/7s canasta 2500",
        "modern",
        {"natural_aces_sevens_canastas": 1, "melded_points": 140},
        None,
        2640,
        {"natural_aces_sevens_canastas": 2500, "melded_cards": 140},
    ),
    case(
        "§8.5 Modern seven 2s canasta 3000",
        "modern",
        {"twos_canastas": 1, "melded_points": 140},
        None,
        3140,
        {"twos_canastas": 3000, "melded_cards": 140},
    ),
    case(
        "§8.5 Modern joker canasta 2500",
        "modern",
        {"jokers_canastas": 1, "melded_points": 260},
        None,
        2760,
        {"jokers_canastas": 2500, "melded_cards": 260},
    ),
    case(
        "§8.5 Modern other wild canasta 2000",
        "modern",
        {"wild_canastas": 1, "melded_points": 170},
        None,
        2170,
        {"wild_canastas": 2000, "melded_cards": 170},
    ),
    case(
        "§8.5 Modern going out 100 with 2 canastas",
        "modern",
        {"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 1, "melded_points": 200},
        None,
        1100,
        {"going_out": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 200},
    ),
    # element 2: incomplete melds, in every column
    case(
        "§8.5 Modern incomplete pure aces -2500 (0 canastas, melded minus)",
        "modern",
        {"incomplete_aces": 1, "melded_points": 60},
        None,
        -2560,
        {"incomplete_aces": -2500, "melded_cards": -60},
    ),
    case(
        "§8.5 Modern incomplete 7s -2500",
        "modern",
        {"incomplete_sevens": 1, "melded_points": 15},
        None,
        -2515,
        {"incomplete_sevens": -2500, "melded_cards": -15},
    ),
    case(
        "§8.5 Modern incomplete wild -2000",
        "modern",
        {"incomplete_wild": 1, "melded_points": 60},
        None,
        -2060,
        {"incomplete_wild": -2000, "melded_cards": -60},
    ),
    case(
        "§8.5 Modern incomplete aces with a canasta: cards still added",
        "modern",
        {"incomplete_aces": 1, "natural_canastas": 1, "melded_points": 95},
        None,
        -1905,
        {"incomplete_aces": -2500, "natural_canastas": 500, "melded_cards": 95},
    ),
    # element 2: players holding 3 or more aces / 7s, per player (§13 D4)
    case(
        "§8.5 Modern one player holding 3+ aces -1500",
        "modern",
        {"holding_aces": 1, "hand_points": 60},
        None,
        -1560,
        {"holding_aces": -1500, "cards_in_hand": -60},
    ),
    case(
        "§8.5 Modern one player holding 3+ 7s -1500",
        "modern",
        {"holding_sevens": 1, "hand_points": 15},
        None,
        -1515,
        {"holding_sevens": -1500, "cards_in_hand": -15},
    ),
    case(
        "§13 D4 Modern two players holding 3 aces -3000",
        "modern",
        {"holding_aces": 2, "hand_points": 120},
        None,
        -3120,
        {"holding_aces": -3000, "cards_in_hand": -120},
    ),
    case(
        "§13 D4 Modern two players holding 3 7s -3000",
        "modern",
        {"holding_sevens": 2, "hand_points": 30},
        None,
        -3030,
        {"holding_sevens": -3000, "cards_in_hand": -30},
    ),
    # §13 D5: incomplete 7s and a player holding 3 sevens: 2500 + 1500 = 4000 in all, not an extra 4000
    case(
        "§13 D5 Modern 4000 in total (0 canastas)",
        "modern",
        {"incomplete_sevens": 1, "holding_sevens": 1, "melded_points": 15, "hand_points": 15},
        None,
        -4030,
        {"incomplete_sevens": -2500, "holding_sevens": -1500, "melded_cards": -15, "cards_in_hand": -15},
    ),
    case(
        "§13 D5 Modern 4000 in total (2 canastas)",
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
    # element 3: the three-table 100/300/500/1000, red and black looked up apart; 0 canastas → minus
    case("§8.5 Modern 1 red three, 0 canastas -100", "modern", {"red_threes": 1}, None, -100, {"red_threes": -100}),
    case("§8.5 Modern 2 red threes, 0 canastas -300", "modern", {"red_threes": 2}, None, -300, {"red_threes": -300}),
    case("§8.5 Modern 3 red threes, 0 canastas -500", "modern", {"red_threes": 3}, None, -500, {"red_threes": -500}),
    case("§8.5 Modern 4 red threes, 0 canastas -1000", "modern", {"red_threes": 4}, None, -1000, {"red_threes": -1000}),
    case(
        "§8.5 Modern 1 black three, 0 canastas -100", "modern", {"black_threes": 1}, None, -100, {"black_threes": -100}
    ),
    case(
        "§8.5 Modern 2 black threes, 0 canastas -300", "modern", {"black_threes": 2}, None, -300, {"black_threes": -300}
    ),
    case(
        "§8.5 Modern 3 black threes, 0 canastas -500", "modern", {"black_threes": 3}, None, -500, {"black_threes": -500}
    ),
    case(
        "§8.5 Modern 4 black threes, 0 canastas -1000",
        "modern",
        {"black_threes": 4},
        None,
        -1000,
        {"black_threes": -1000},
    ),
    case(
        "§8.5 Modern 2 red + 1 black, 0 canastas, melded minus",
        "modern",
        {"red_threes": 2, "black_threes": 1, "melded_points": 60},
        None,
        -460,
        {"red_threes": -300, "black_threes": -100, "melded_cards": -60},
    ),
    # 1 canasta → threes not scored
    case(
        "§8.5 Modern 4 red + 4 black, 1 canasta: not scored",
        "modern",
        {"red_threes": 4, "black_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        535,
        {"natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§8.5 Modern 2 red threes, 1 canasta: not scored",
        "modern",
        {"red_threes": 2, "mixed_canastas": 1, "melded_points": 65},
        None,
        365,
        {"mixed_canastas": 300, "melded_cards": 65},
    ),
    # ≥ 2 canastas → plus
    case(
        "§8.5 Modern 1 red three, 2 canastas +100",
        "modern",
        {"red_threes": 1, "natural_canastas": 2, "melded_points": 70},
        None,
        1170,
        {"red_threes": 100, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 2 red threes, 2 canastas +300",
        "modern",
        {"red_threes": 2, "natural_canastas": 2, "melded_points": 70},
        None,
        1370,
        {"red_threes": 300, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 3 red threes, 2 canastas +500",
        "modern",
        {"red_threes": 3, "natural_canastas": 2, "melded_points": 70},
        None,
        1570,
        {"red_threes": 500, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 4 red threes, 2 canastas +1000",
        "modern",
        {"red_threes": 4, "natural_canastas": 2, "melded_points": 70},
        None,
        2070,
        {"red_threes": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 1 black three, 3 canastas +100",
        "modern",
        {"black_threes": 1, "natural_canastas": 3, "melded_points": 105},
        None,
        1705,
        {"black_threes": 100, "natural_canastas": 1500, "melded_cards": 105},
    ),
    case(
        "§8.5 Modern 2 black threes, 2 canastas +300",
        "modern",
        {"black_threes": 2, "natural_canastas": 2, "melded_points": 70},
        None,
        1370,
        {"black_threes": 300, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 3 black threes, 2 canastas +500",
        "modern",
        {"black_threes": 3, "natural_canastas": 2, "melded_points": 70},
        None,
        1570,
        {"black_threes": 500, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 4 black threes, 2 canastas +1000",
        "modern",
        {"black_threes": 4, "natural_canastas": 2, "melded_points": 70},
        None,
        2070,
        {"black_threes": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§8.5 Modern 4 red + 4 black, 2 canastas, going out",
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
    # element 4/5: melded cards deducted with 0 canastas; a 3 in hand costs 5
    case(
        "§8.5 Modern melded cards deducted with 0 canastas",
        "modern",
        {"melded_points": 120, "hand_points": 30},
        None,
        -150,
        {"melded_cards": -120, "cards_in_hand": -30},
    ),
    case(
        "§8.5 Modern a black 3 in hand costs 5",
        "modern",
        {"mixed_canastas": 1, "melded_points": 65, "hand_cards": {"black_threes": 2, "high": 1}},
        None,
        345,
        {"mixed_canastas": 300, "melded_cards": 65, "cards_in_hand": -20},
    ),
    # element 6: a special hand scores only its value (threes and partner's hand cards not scored)
    case("§8.5 Modern Straight 3000", "modern", {"went_out": "straight"}, None, 3000, {"straight": 3000}),
    case("§8.5 Modern Pairs without wild 2500", "modern", {"went_out": "pairs"}, None, 2500, {"pairs": 2500}),
    case(
        "§8.5 Modern Pairs with 2s, 7s and aces 2000",
        "modern",
        {"went_out": "pairs_wild"},
        None,
        2000,
        {"pairs_wild": 2000},
    ),
    case("§8.5 Modern Garbage 2000", "modern", {"went_out": "garbage"}, None, 2000, {"garbage": 2000}),
    case(
        "§8.5 Modern Straight only: red threes and partner's cards not scored",
        "modern",
        {"went_out": "straight", "red_threes": 2, "hand_points": 85},
        None,
        3000,
        {"straight": 3000},
    ),
    case(
        "§15.10 Modern setting: Pairs 3500",
        "modern",
        {"went_out": "pairs"},
        {"special_3500": True},
        3500,
        {"pairs": 3500},
    ),
    case(
        "§15.10 Modern setting: Garbage 3500",
        "modern",
        {"went_out": "garbage"},
        {"special_3500": True},
        3500,
        {"garbage": 3500},
    ),
    case(
        "§15.10 Modern setting: Pairs with 2s, 7s and aces 3500 (reading: every hand of pairs)",
        "modern",
        {"went_out": "pairs_wild"},
        {"special_3500": True},
        3500,
        {"pairs_wild": 3500},
    ),
    # §8.3: a mixed canasta holds at most 2 wild cards; six 4s and one 2 is the smallest, 30 + 20 = 50
    case(
        "§8.3 Modern smallest mixed canasta 50",
        "modern",
        {"mixed_canastas": 1, "melded_points": 50},
        None,
        350,
        {"mixed_canastas": 300, "melded_cards": 50},
    ),
    case(
        "§15.10 Modern setting leaves the Straight at 3000",
        "modern",
        {"went_out": "straight"},
        {"special_3500": True},
        3000,
        {"straight": 3000},
    ),
]

CANADIAN = [
    # §9 canastas: wild 300, natural 300, mixed 200
    case(
        "§9 Canadian natural canasta 300",
        "canadian",
        {"natural_canastas": 1, "melded_points": 35},
        None,
        335,
        {"natural_canastas": 300, "melded_cards": 35},
    ),
    case(
        "§9 Canadian mixed canasta 200",
        "canadian",
        {"mixed_canastas": 1, "melded_points": 50},
        None,
        250,
        {"mixed_canastas": 200, "melded_cards": 50},
    ),
    case(
        "§9 Canadian wild canasta 300",
        "canadian",
        {"wild_canastas": 1, "melded_points": 140},
        None,
        440,
        {"wild_canastas": 300, "melded_cards": 140},
    ),
    # §13 D18 going out 100
    case(
        "§9 Canadian going out 100 with 2 natural + 1 wild",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 300},
        None,
        1300,
        {"going_out": 100, "natural_canastas": 600, "wild_canastas": 300, "melded_cards": 300},
    ),
    case(
        "§15.7 Canadian setting: no going-out bonus",
        "canadian",
        {"went_out": "normal", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 300},
        {"going_out_bonus": 0},
        1200,
        {"natural_canastas": 600, "wild_canastas": 300, "melded_cards": 300},
    ),
    # §9 six black threes melded on going out: +5 each inside M
    case(
        "§9 Canadian six black 3s melded +5 each",
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
    # §9 red threes 200 each, no all-four bonus, no sign rule by default (§15.7)
    case(
        "§9 Canadian 1 red three 200",
        "canadian",
        {"red_threes": 1, "melded_points": 50},
        None,
        250,
        {"red_threes": 200, "melded_cards": 50},
    ),
    case(
        "§9 Canadian 2 red threes 400",
        "canadian",
        {"red_threes": 2, "melded_points": 50},
        None,
        450,
        {"red_threes": 400, "melded_cards": 50},
    ),
    case(
        "§9 Canadian 3 red threes 600",
        "canadian",
        {"red_threes": 3, "melded_points": 50},
        None,
        650,
        {"red_threes": 600, "melded_cards": 50},
    ),
    case(
        "§9 Canadian 4 red threes 800, no bonus",
        "canadian",
        {"red_threes": 4, "melded_points": 50},
        None,
        850,
        {"red_threes": 800, "melded_cards": 50},
    ),
    case(
        "§9 Canadian 5 red threes 1000",
        "canadian",
        {"red_threes": 5, "melded_points": 50},
        None,
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    case(
        "§9 Canadian 6 red threes 1200",
        "canadian",
        {"red_threes": 6, "melded_points": 50},
        None,
        1250,
        {"red_threes": 1200, "melded_cards": 50},
    ),
    case(
        "§15.7 Canadian red threes +200 even with nothing melded",
        "canadian",
        {"red_threes": 3, "hand_points": 40},
        None,
        560,
        {"red_threes": 600, "cards_in_hand": -40},
    ),
    case(
        "§15.7 Canadian setting: classic sign rule",
        "canadian",
        {"red_threes": 3, "hand_points": 40},
        {"red_three_sign": "melded"},
        -640,
        {"red_threes": -600, "cards_in_hand": -40},
    ),
    # §9 black threes in hand −100 each, instead of 5 (§13 D18)
    case(
        "§9 Canadian 1 black three in hand -100",
        "canadian",
        {"melded_points": 50, "black_threes_in_hand": 1, "hand_points": 40},
        None,
        -90,
        {"melded_cards": 50, "black_threes_in_hand": -100, "cards_in_hand": -40},
    ),
    case(
        "§9 Canadian 3 black threes in hand -300",
        "canadian",
        {"black_threes_in_hand": 3},
        None,
        -300,
        {"black_threes_in_hand": -300},
    ),
    case(
        "§15.7 Canadian setting: black three in hand -100 and its 5",
        "canadian",
        {"black_threes_in_hand": 2},
        {"black_three_in_hand": 105},
        -210,
        {"black_threes_in_hand": -210},
    ),
    # §9 exact cut: the non-dealing team +100
    case(
        "§9 Canadian exact cut +100",
        "canadian",
        {"exact_cut": True, "melded_points": 50},
        None,
        150,
        {"exact_cut": 100, "melded_cards": 50},
    ),
]

AUSTRIAN = [
    case(
        "§10.5 Austrian going out 100",
        "austrian",
        {"went_out": "normal", "mixed_canastas": 1, "melded_points": 100},
        None,
        500,
        {"going_out": 100, "mixed_canastas": 300, "melded_cards": 100},
    ),
    case(
        "§10.5 Austrian glatt ausmachen 200 in all",
        "austrian",
        {"went_out": "glatt", "natural_canastas": 1, "melded_points": 100},
        None,
        800,
        {"going_out": 100, "glatt": 100, "natural_canastas": 500, "melded_cards": 100},
    ),
    case(
        "§10.5 Austrian Hand-Canasta 1000",
        "austrian",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 50},
        None,
        1550,
        {"hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 50},
    ),
    case(
        "§15.1 Austrian setting: Hand-Canasta + 100",
        "austrian",
        {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 50},
        {"hand_canasta_adds": True},
        1650,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 500, "melded_cards": 50},
    ),
    # red threes need a canasta
    case(
        "§10.5 Austrian 2 red threes with a canasta +200",
        "austrian",
        {"red_threes": 2, "mixed_canastas": 1, "melded_points": 60},
        None,
        560,
        {"red_threes": 200, "mixed_canastas": 300, "melded_cards": 60},
    ),
    case(
        "§10.5 Austrian 4 red threes with a canasta +800",
        "austrian",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§10.5/§13 D11 Austrian melded but no canasta -100 each",
        "austrian",
        {"red_threes": 2, "melded_points": 60},
        None,
        -140,
        {"red_threes": -200, "melded_cards": 60},
    ),
    case(
        "§15.2 Austrian setting: melded no canasta counts 0",
        "austrian",
        {"red_threes": 2, "melded_points": 60},
        {"red_three_melded_no_canasta": 0},
        60,
        {"melded_cards": 60},
    ),
    case(
        "§10.5 Austrian 4 red threes, nothing melded -800",
        "austrian",
        {"red_threes": 4, "hand_points": 10},
        None,
        -810,
        {"red_threes": -800, "cards_in_hand": -10},
    ),
    # §10.5 penalty catalogue, each item
    case(
        "§10.5(3) Austrian minimum failed -50",
        "austrian",
        {"melded_points": 100, "offence_minimum_failed": 1},
        None,
        50,
        {"melded_cards": 100, "offence_minimum_failed": -50},
    ),
    case(
        "§10.5(4) Austrian pile before meld -200",
        "austrian",
        {"melded_points": 100, "offence_pile_before_meld": 1},
        None,
        -100,
        {"melded_cards": 100, "offence_pile_before_meld": -200},
    ),
    case(
        "§10.5(5a) Austrian drew out of turn -100",
        "austrian",
        {"melded_points": 100, "offence_drew_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_drew_out_of_turn": -100},
    ),
    case(
        "§10.5(5b) Austrian drew out of turn, kept -200",
        "austrian",
        {"melded_points": 100, "offence_drew_out_of_turn_kept": 1},
        None,
        -100,
        {"melded_cards": 100, "offence_drew_out_of_turn_kept": -200},
    ),
    case(
        "§10.5(6) Austrian pile out of turn -100",
        "austrian",
        {"melded_points": 100, "offence_pile_out_of_turn": 1},
        None,
        0,
        {"melded_cards": 100, "offence_pile_out_of_turn": -100},
    ),
    case(
        "§10.5 Austrian an offence twice",
        "austrian",
        {"melded_points": 100, "offence_minimum_failed": 2},
        None,
        0,
        {"melded_cards": 100, "offence_minimum_failed": -100},
    ),
    case(
        "§15.11 Austrian manual penalties",
        "austrian",
        {"melded_points": 100, "penalties": 150},
        None,
        -50,
        {"melded_cards": 100, "penalties": -150},
    ),
]

AUSTRIAN_6 = [
    case(
        "§10.1 austrian-6 3 red threes with a canasta +300",
        "austrian-6",
        {"red_threes": 3, "natural_canastas": 1, "melded_points": 35},
        None,
        835,
        {"red_threes": 300, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§10.1 austrian-6 4 red threes 400 (default)",
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        None,
        935,
        {"red_threes": 400, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§15.9 austrian-6 setting: 4 red threes 800",
        "austrian-6",
        {"red_threes": 4, "natural_canastas": 1, "melded_points": 35},
        {"four_red_threes": 800},
        1335,
        {"red_threes": 800, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§10.1 austrian-6 5 red threes 1000",
        "austrian-6",
        {"red_threes": 5, "natural_canastas": 1, "melded_points": 35},
        None,
        1535,
        {"red_threes": 1000, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§10.1 austrian-6 6 red threes 1200",
        "austrian-6",
        {"red_threes": 6, "natural_canastas": 1, "melded_points": 35},
        None,
        1735,
        {"red_threes": 1200, "natural_canastas": 500, "melded_cards": 35},
    ),
    case(
        "§10.5 austrian-6 4 red threes without a canasta -400",
        "austrian-6",
        {"red_threes": 4, "melded_points": 60},
        None,
        -340,
        {"red_threes": -400, "melded_cards": 60},
    ),
    case(
        "§15.9 austrian-6 setting 800: without a canasta -800",
        "austrian-6",
        {"red_threes": 4, "melded_points": 60},
        {"four_red_threes": 800},
        -740,
        {"red_threes": -800, "melded_cards": 60},
    ),
    case(
        "§10.5 austrian-6 6 red threes nothing melded -1200",
        "austrian-6",
        {"red_threes": 6},
        None,
        -1200,
        {"red_threes": -1200},
    ),
    case(
        "§10.5 austrian-6 glatt 200",
        "austrian-6",
        {"went_out": "glatt", "natural_canastas": 2, "melded_points": 80},
        None,
        1280,
        {"going_out": 100, "glatt": 100, "natural_canastas": 1000, "melded_cards": 80},
    ),
    case(
        "§15.1 austrian-6 setting: Hand-Canasta + 100",
        "austrian-6",
        {"went_out": "hand_canasta", "natural_canastas": 2, "melded_points": 70},
        {"hand_canasta_adds": True},
        2170,
        {"going_out": 100, "hand_canasta": 1000, "natural_canastas": 1000, "melded_cards": 70},
    ),
    case(
        "§10.5 austrian-6 penalty catalogue",
        "austrian-6",
        {"melded_points": 300, "offence_pile_before_meld": 1},
        None,
        100,
        {"melded_cards": 300, "offence_pile_before_meld": -200},
    ),
]

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
]


@pytest.mark.parametrize(
    "variant_id, side, settings, expected, items",
    SIX_3X2 + SIX_2X3 + MILLER + VIENNA + MODERN + CANADIAN + AUSTRIAN + AUSTRIAN_6 + ENCYCLOPEDIA,
)
def test_hand_score(variant_id, side, settings, expected, items):
    assert score_of(variant_id, side, settings) == (expected, items)


def test_modern_opponents_of_a_special_hand_score_normally():
    """§8.5 element 6: the special-hand team scores only its value, the other team as usual."""
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
# §12 opening-minimum tables with their boundaries

CLASSIC_ROWS = [
    (-1000, 15),
    (-5, 15),
    (0, 50),
    (1495, 50),
    (1500, 90),
    (2995, 90),
    (3000, 120),
    (6995, 120),
    (7000, 120),
    (12000, 120),
]
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
]
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

OPENING_CASES = (
    [pytest.param("six-3x2", None, t, m, id=f"§6/§12 six-3x2 {t}->{m}") for t, m in CLASSIC_ROWS]
    + [pytest.param("six-2x3", None, t, m, id=f"§6/§12 six-2x3 {t}->{m}") for t, m in OPENING_150_ROWS]
    + [pytest.param("miller", None, t, m, id=f"§6/§12 miller {t}->{m}") for t, m in OPENING_150_ROWS]
    + [pytest.param("vienna", None, t, m, id=f"§7/§12 vienna {t}->{m}") for t, m in CLASSIC_ROWS]
    + [pytest.param("encyclopedia", None, t, m, id=f"§11.3 encyclopedia {t}->{m}") for t, m in CLASSIC_ROWS]
    + [pytest.param("modern", None, t, m, id=f"§8.2 modern {t}->{m}") for t, m in MODERN_ROWS]
    + [pytest.param("canadian", None, t, m, id=f"§9/§12 canadian {t}->{m}") for t, m in CANADIAN_ROWS]
    + [
        pytest.param("canadian", {"negative_minimum": 15}, t, m, id=f"§15.6 canadian setting 15 {t}->{m}")
        for t, m in [(-1000, 15), (-5, 15), (0, 50), (7000, 150)]
    ]
    + [pytest.param("austrian", None, t, m, id=f"§10.3 austrian {t}->{m}") for t, m in AUSTRIAN_ROWS]
    + [
        pytest.param("austrian", {"negative_minimum": 15}, t, m, id=f"§15.6 austrian setting 15 {t}->{m}")
        for t, m in [(-1000, 15), (-5, 15), (0, 50), (3000, 120)]
    ]
    + [pytest.param("austrian-6", None, t, m, id=f"§10.3 austrian-6 {t}->{m}") for t, m in AUSTRIAN_ROWS]
    + [
        pytest.param("austrian-6", {"negative_minimum": 15}, t, m, id=f"§15.6 austrian-6 setting 15 {t}->{m}")
        for t, m in [(-5, 15), (0, 50)]
    ]
)


@pytest.mark.parametrize("variant_id, settings, total, minimum", OPENING_CASES)
def test_opening_minimum(variant_id, settings, total, minimum):
    assert scoring.opening_minimum(rules_of(variant_id, settings), total) == minimum


# ---------------------------------------------------------------------------------------------
# Going-out requirements (§6, §7, §8.4, §9, §10.4, §10.1, §11.4, §12.1)


def going_out(id_, variant_id, side, refused, settings=None):
    return pytest.param(variant_id, side, settings, refused, id=id_)


GOING_OUT_CASES = [
    going_out("§6 six-3x2 1 canasta refused", "six-3x2", {"natural_canastas": 1, "melded_points": 35}, True),
    going_out(
        "§6 six-3x2 2 canastas", "six-3x2", {"natural_canastas": 1, "mixed_canastas": 1, "melded_points": 85}, False
    ),
    going_out("§6 six-2x3 1 canasta refused", "six-2x3", {"mixed_canastas": 1, "melded_points": 50}, True),
    going_out("§6 six-2x3 2 canastas", "six-2x3", {"mixed_canastas": 2, "melded_points": 100}, False),
    going_out("§6 Miller 2 natural refused (needs 3)", "miller", {"natural_canastas": 2, "melded_points": 70}, True),
    going_out(
        "§6 Miller 3 mixed refused (needs 2 natural)", "miller", {"mixed_canastas": 3, "melded_points": 150}, True
    ),
    going_out(
        "§6 Miller 1 natural + mixed + wild refused",
        "miller",
        {"natural_canastas": 1, "mixed_canastas": 1, "wild_canastas": 1, "melded_points": 225},
        True,
    ),
    going_out(
        "§6 Miller 2 natural + 1 mixed",
        "miller",
        {"natural_canastas": 2, "mixed_canastas": 1, "melded_points": 120},
        False,
    ),
    going_out(
        "§6 Miller 2 natural + 1 wild",
        "miller",
        {"natural_canastas": 2, "wild_canastas": 1, "melded_points": 210},
        False,
    ),
    going_out("§6 Miller 3 natural", "miller", {"natural_canastas": 3, "melded_points": 105}, False),
    going_out("§7 Vienna no canasta refused", "vienna", {"melded_points": 100}, True),
    going_out("§7 Vienna 1 canasta", "vienna", {"mixed_canastas": 1, "melded_points": 50}, False),
    going_out("§8.4 Modern 1 canasta refused", "modern", {"natural_canastas": 1, "melded_points": 35}, True),
    going_out(
        "§8.4 Modern 2 canastas", "modern", {"natural_canastas": 1, "mixed_canastas": 1, "melded_points": 100}, False
    ),
    going_out(
        "§8.4 Modern 2 wild canastas of any kinds",
        "modern",
        {"twos_canastas": 1, "wild_canastas": 1, "melded_points": 310},
        False,
    ),
    going_out(
        "§8.4 Modern incomplete 7s allowed by default",
        "modern",
        {"natural_canastas": 2, "incomplete_sevens": 1, "melded_points": 85},
        False,
    ),
    going_out(
        "§8.4/§15.10 Modern setting: no going out with incomplete 7s",
        "modern",
        {"natural_canastas": 2, "incomplete_sevens": 1, "melded_points": 85},
        True,
        {"no_out_with_incomplete": True},
    ),
    going_out(
        "§8.4/§15.10 Modern setting: no going out with incomplete pure aces",
        "modern",
        {"natural_canastas": 2, "incomplete_aces": 1, "melded_points": 130},
        True,
        {"no_out_with_incomplete": True},
    ),
    going_out(
        "§9 Canadian 2 natural + 1 wild",
        "canadian",
        {"natural_canastas": 2, "wild_canastas": 1, "melded_points": 210},
        False,
    ),
    going_out(
        "§9 Canadian 3 natural refused (no wild)", "canadian", {"natural_canastas": 3, "melded_points": 105}, True
    ),
    going_out(
        "§9 Canadian 2 natural + 1 mixed refused",
        "canadian",
        {"natural_canastas": 2, "mixed_canastas": 1, "melded_points": 120},
        True,
    ),
    going_out(
        "§9 Canadian 1 natural + 2 wild refused",
        "canadian",
        {"natural_canastas": 1, "wild_canastas": 2, "melded_points": 315},
        True,
    ),
    going_out(
        "§9 Canadian 2 natural + wild + mixed",
        "canadian",
        {"natural_canastas": 2, "wild_canastas": 1, "mixed_canastas": 1, "melded_points": 260},
        False,
    ),
    going_out("§10.4 Austrian no canasta refused", "austrian", {"melded_points": 100}, True),
    going_out("§10.4 Austrian 1 canasta", "austrian", {"natural_canastas": 1, "melded_points": 35}, False),
    going_out("§10.1 austrian-6 1 canasta refused", "austrian-6", {"natural_canastas": 1, "melded_points": 35}, True),
    going_out("§10.1 austrian-6 2 canastas", "austrian-6", {"natural_canastas": 2, "melded_points": 70}, False),
    going_out("§11.4 encyclopedia no canasta refused", "encyclopedia", {"melded_points": 100}, True),
    going_out("§11.4 encyclopedia 1 canasta", "encyclopedia", {"mixed_canastas": 1, "melded_points": 50}, False),
]


@pytest.mark.parametrize("variant_id, side, settings, refused", GOING_OUT_CASES)
def test_going_out_requirement(variant_id, side, settings, refused):
    rules = rules_of(variant_id, settings)
    problems = checks.read_hand(rules, empty_sides(rules, dict(side, went_out="normal")))[1]
    if refused:
        assert [(p.side, p.field) for p in problems] == [(0, "went_out")], problems
    else:
        assert problems == []


@pytest.mark.parametrize(
    "variant_id, side, refused",
    [
        pytest.param("modern", {"went_out": "straight"}, False, id="§8.4 Modern special hand needs no canasta"),
        pytest.param(
            "modern", {"went_out": "pairs", "red_threes": 1}, False, id="§8.5 Modern special hand with a red three"
        ),
        pytest.param(
            "modern",
            {"went_out": "straight", "melded_points": 50},
            True,
            id="§8.5 Modern special hand refused with melds",
        ),
        pytest.param(
            "modern",
            {"went_out": "garbage", "natural_canastas": 1, "melded_points": 35},
            True,
            id="§8.5 Modern special hand refused with a canasta",
        ),
        pytest.param(
            "modern",
            {"went_out": "pairs_wild", "incomplete_aces": 1},
            True,
            id="§8.5 Modern special hand refused with an incomplete meld",
        ),
        pytest.param(
            "modern",
            {"went_out": "pairs", "black_threes": 1},
            True,
            id="§8.5 Modern special hand refused with melded black threes",
        ),
        pytest.param(
            "canadian",
            {"went_out": "concealed", "natural_canastas": 2, "wild_canastas": 1, "melded_points": 210},
            True,
            id="§9 Canadian has no concealed going out",
        ),
        pytest.param(
            "vienna", {"went_out": "verdeckt", "melded_points": 60}, True, id="§7 Vienna Verdeckt still needs a canasta"
        ),
        pytest.param(
            "austrian",
            {"went_out": "glatt", "mixed_canastas": 1, "melded_points": 50},
            False,
            id="§10.5 Austrian glatt with a canasta",
        ),
    ],
)
def test_ways_of_going_out(variant_id, side, refused):
    rules = rules_of(variant_id)
    problems = checks.read_hand(rules, empty_sides(rules, side))[1]
    if refused:
        assert [(p.side, p.field) for p in problems] == [(0, "went_out")], problems
    else:
        assert problems == []


def test_canadian_black_threes_are_melded_all_six():
    """§9: black 3s may be melded only as all six, by the player going out."""
    rules = rules_of("canadian")
    side = {
        "went_out": "normal",
        "natural_canastas": 2,
        "wild_canastas": 1,
        "melded_cards": {"twos_aces": 7, "low": 14, "black_threes": 4},
    }
    problems = checks.read_hand(rules, [side, {}])[1]
    assert [(p.side, p.field) for p in problems] == [(0, "melded_cards.black_threes")]


# ---------------------------------------------------------------------------------------------
# Card conservation: 6 red threes in a 162-card deck (§6, §9, §10.1), 4 in a 108-card deck (§2.1)

CONSERVATION_CASES = [
    ("six-3x2", [2, 2, 2], False),
    ("six-3x2", [6, 0, 0], False),
    ("six-3x2", [3, 2, 2], True),
    ("six-3x2", [7, 0, 0], True),
    ("six-2x3", [3, 3], False),
    ("six-2x3", [4, 3], True),
    ("miller", [6, 0], False),
    ("miller", [5, 2], True),
    ("canadian", [6, 0], False),
    ("canadian", [4, 3], True),
    ("canadian", [7, 0], True),
    ("austrian-6", [2, 2, 2], False),
    ("austrian-6", [2, 2, 3], True),
    ("vienna", [2, 2], False),
    ("vienna", [2, 3], True),
    ("vienna", [5, 0], True),
    ("modern", [4, 0], False),
    ("modern", [3, 2], True),
    ("modern", [5, 0], True),
    ("austrian", [0, 4], False),
    ("austrian", [1, 4], True),
    ("encyclopedia", [1, 3], False),
    ("encyclopedia", [3, 3], True),
]


@pytest.mark.parametrize(
    "variant_id, reds, refused",
    [
        pytest.param(
            v, reds, refused, id=f"{'§2.1' if len(variants.get(v).red_three_values) == 5 else '§6/§9/§10.1'} {v} {reds}"
        )
        for v, reds, refused in CONSERVATION_CASES
    ],
)
def test_red_threes_the_deck_holds(variant_id, reds, refused):
    sides = [{"red_threes": n, "melded_points": 50} if n else {} for n in reds]
    problems = problems_of(variant_id, sides)
    if refused:
        assert problems and {p.field for p in problems} == {"red_threes"}, problems
    else:
        assert problems == []


@pytest.mark.parametrize(
    "variant_id, sides, refused",
    [
        pytest.param("modern", [{"black_threes": 2}, {"black_threes": 2}], False, id="§2.1 Modern 4 black threes"),
        pytest.param(
            "modern", [{"black_threes": 3}, {"black_threes": 2}], True, id="§2.1 Modern 5 black threes refused"
        ),
        pytest.param(
            "modern",
            [{"black_threes": 3}, {"hand_cards": {"black_threes": 2}}],
            True,
            id="§2.1 Modern 3 melded + 2 in hand refused",
        ),
        pytest.param(
            "canadian",
            [{"black_threes_in_hand": 3}, {"black_threes_in_hand": 3}],
            False,
            id="§9 Canadian 6 black threes",
        ),
        pytest.param(
            "canadian",
            [{"black_threes_in_hand": 4}, {"black_threes_in_hand": 3}],
            True,
            id="§9 Canadian 7 black threes refused",
        ),
    ],
)
def test_black_threes_the_deck_holds(variant_id, sides, refused):
    problems = problems_of(variant_id, sides)
    assert bool(problems) == refused, problems


# ---------------------------------------------------------------------------------------------
# Game end (§2.6, §6, §8.1, §9, §10.6, §11.6, §13 D19, §15.4, §15.5)


def result_case(id_, variant_id, totals, finished, winner, margin, leads, settings=None, target=None, tie=False):
    return pytest.param(variant_id, settings, target, totals, (finished, winner, margin, leads, tie), id=id_)


RESULT_CASES = [
    # §6 three teams of 2: 7500, the winner's lead over each other team (§15.5)
    result_case("§6 six-3x2 below 7500", "six-3x2", (7495, 7000, 7200), False, None, None, ()),
    result_case("§6 six-3x2 7500 reached", "six-3x2", (7600, 7000, 5000), True, 0, 600, (0, 600, 2600)),
    result_case("§6 six-3x2 exactly 7500", "six-3x2", (4000, 7500, 7495), True, 1, 5, (3500, 0, 5)),
    result_case("§6 six-3x2 several past, highest wins", "six-3x2", (7500, 7700, 7600), True, 1, 100, (200, 0, 100)),
    result_case("§6 six-3x2 negative total", "six-3x2", (-300, 2000, 7600), True, 2, 5600, (7900, 5600, 0)),
    result_case("§15.4 six-3x2 tie at the top: play on", "six-3x2", (7500, 7500, 100), False, None, None, (), tie=True),
    result_case(
        "§15.4 six-3x2 tie setting draw",
        "six-3x2",
        (7500, 7500, 100),
        True,
        None,
        None,
        (),
        settings={"tie_rule": "draw"},
        tie=True,
    ),
    result_case("§6 six-3x2 level below the top is no tie", "six-3x2", (7800, 7000, 7000), True, 0, 800, (0, 800, 800)),
    # §6 two teams of 3 and Miller: 10000
    result_case("§6 six-2x3 below 10000", "six-2x3", (9995, 9990), False, None, None, ()),
    result_case("§6 six-2x3 10000", "six-2x3", (10000, 9000), True, 0, 1000, (0, 1000)),
    result_case("§6 six-2x3 both past, higher wins", "six-2x3", (10500, 10800), True, 1, 300, (300, 0)),
    result_case("§6 miller 10000", "miller", (7000, 10050), True, 1, 3050, (3050, 0)),
    result_case("§6 miller below 10000", "miller", (9995, 7000), False, None, None, ()),
    # §9 Canadian 10000
    result_case("§9 canadian 10000", "canadian", (10000, 9995), True, 0, 5, (0, 5)),
    result_case("§9 canadian below 10000", "canadian", (9995, 9000), False, None, None, ()),
    result_case("§15.4 canadian tie", "canadian", (10200, 10200), False, None, None, (), tie=True),
    # §8.1 Modern 8500
    result_case("§8.1 modern 8500", "modern", (8500, 8495), True, 0, 5, (0, 5)),
    result_case("§8.1 modern below 8500", "modern", (8495, 0), False, None, None, ()),
    result_case("§8.1 modern both past, higher wins", "modern", (8600, 9100), True, 1, 500, (500, 0)),
    result_case("§15.4 modern tie: play on", "modern", (9000, 9000), False, None, None, (), tie=True),
    result_case(
        "§15.4 modern tie setting draw",
        "modern",
        (9000, 9000),
        True,
        None,
        None,
        (),
        settings={"tie_rule": "draw"},
        tie=True,
    ),
    # 5000 for Vienna (§7), Austrian (§10.6, also 6 in pairs), encyclopedia (§11.6)
    result_case("§7 vienna 5000", "vienna", (5000, 4000), True, 0, 1000, (0, 1000)),
    result_case("§7 vienna below 5000", "vienna", (4995, 4000), False, None, None, ()),
    result_case("§10.6 austrian 5000 (5620 v 2750)", "austrian", (5620, 2750), True, 0, 2870, (0, 2870)),
    result_case("§10.6 austrian-6 5000, three pairs", "austrian-6", (3000, 5100, 4000), True, 1, 1100, (2100, 0, 1100)),
    result_case("§11.6 encyclopedia 5000", "encyclopedia", (4995, 5005), True, 1, 10, (10, 0)),
    # a custom target
    result_case("custom target 3000 reached", "modern", (3000, 2500), True, 0, 500, (0, 500), target=3000),
    result_case("custom target 3000 not reached", "modern", (2995, 0), False, None, None, (), target=3000),
    result_case(
        "custom target 3000, three sides", "six-3x2", (3100, 2000, 3050), True, 0, 50, (0, 1100, 50), target=3000
    ),
    result_case("custom target 12000 for canadian", "canadian", (11000, 10500), False, None, None, (), target=12000),
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
]


@pytest.mark.parametrize("variant_id, settings, target, totals, expected", RESULT_CASES)
def test_game_result(variant_id, settings, target, totals, expected):
    result = scoring.game_result(rules_of(variant_id, settings, target), totals)
    assert (result.finished, result.winner, result.margin, result.leads, result.tie) == expected


@pytest.mark.parametrize(
    "variant_id, target",
    [
        ("six-3x2", 7500),
        ("six-2x3", 10000),
        ("miller", 10000),
        ("vienna", 5000),
        ("modern", 8500),
        ("canadian", 10000),
        ("austrian", 5000),
        ("austrian-6", 5000),
        ("encyclopedia", 5000),
    ],
)
def test_targets(variant_id, target):
    """§12.1 targets; configure(target=...) overrides it."""
    assert rules_of(variant_id).target == target
    assert rules_of(variant_id, target=3000).target == 3000


def _hand(rules, raw):
    hands, problems = checks.read_hand(rules, raw)
    assert problems == [], problems
    return hands


def test_six_3x2_game_played_to_the_end():
    """§6: three teams of 2 play on from 6200 / 7000 / 3000; one hand ends the game at 7500."""
    rules = rules_of("six-3x2")
    hand = _hand(
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
    """§6: a team of three reaching 7000 needs 150 for the next opening meld."""
    rules = rules_of("six-2x3")
    hand = _hand(rules, [{"natural_canastas": 1, "melded_points": 100}, {"red_threes": 1}])  # 600; −100
    state = scoring.play(rules, [hand], totals_before=(6500, 2000))
    assert state.totals == (7100, 1900)
    assert state.opening_minimums == (150, 90)
    assert not state.result.finished


def test_modern_both_past_8500_in_one_hand():
    """§8.1: both teams reach 8500 in the same hand: the higher total wins, margin the difference."""
    rules = rules_of("modern")
    hand = _hand(
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
# §13a plausibility: melded points below the opening minimum, unless the way of going out waives it


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
        pytest.param(
            "vienna",
            {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
            50,
            False,
            None,
            id="§7 Vienna Hand-Canasta waives the minimum",
        ),
        pytest.param(
            "vienna",
            {"went_out": "verdeckt", "mixed_canastas": 1, "melded_points": 55},
            90,
            False,
            None,
            id="§7 Vienna Verdeckt waives the minimum",
        ),
        pytest.param(
            "austrian",
            {"went_out": "hand_canasta", "natural_canastas": 1, "melded_points": 35},
            50,
            False,
            None,
            id="§10.5 Austrian Hand-Canasta waives the minimum",
        ),
        pytest.param(
            "austrian",
            {"went_out": "glatt", "natural_canastas": 1, "melded_points": 35},
            50,
            True,
            None,
            id="§10.5 Austrian glatt does not waive the minimum",
        ),
        pytest.param(
            "modern", {"mixed_canastas": 1, "melded_points": 100}, 125, True, None, id="§8.2 Modern 100 below 125"
        ),
        pytest.param(
            "modern", {"mixed_canastas": 1, "melded_points": 125}, 125, False, None, id="§8.2 Modern 125 meets 125"
        ),
        pytest.param(
            "modern",
            {"natural_canastas": 1, "melded_points": 35},
            125,
            False,
            None,
            id="§8.2 §13a Modern seven 4s: a splash needs no minimum",
        ),
        pytest.param(
            "modern",
            {"twos_canastas": 1, "melded_points": 140},
            155,
            False,
            None,
            id="§8.2 §13a Modern seven 2s from hand: a splash",
        ),
    ],
)
def test_plausibility_warning(variant_id, side, minimum, warned, settings):
    rules = rules_of(variant_id, settings)
    hands = _hand(rules, empty_sides(rules, side))
    warnings = checks.plausibility_warnings(rules, hands, [minimum] * rules.sides)
    assert [(w.side, w.field) for w in warnings] == ([(0, "melded_points")] if warned else [])


def test_plausibility_three_players_partner_melds_freely():
    # §5: the partner who melds first meets his own minimum; the other then melds freely. Anna
    # (minimum 90) opened with 95, Carl added 20 (his own minimum 50): no warning for Carl.
    rules = rules_of("classic-3p")
    sides, problems = checks.read_hand(
        rules, [{"melded_points": 95}, {"melded_points": 60}, {"melded_points": 20}], stock_out=True, lone=1
    )
    assert problems == []
    assert checks.plausibility_warnings(rules, sides, [90, 50, 50], lone=1) == []
    # together below the lower of the partners' minimums (50): warned, as is a lone player below his own
    sides, _ = checks.read_hand(
        rules, [{"melded_points": 25}, {"melded_points": 40}, {"melded_points": 20}], stock_out=True, lone=1
    )
    warned = [(w.side, w.args["minimum"]) for w in checks.plausibility_warnings(rules, sides, [90, 50, 50], lone=1)]
    assert warned == [(0, 50), (1, 50), (2, 50)]
    # each scoring alone (no lone player): each his own minimum
    assert [w.side for w in checks.plausibility_warnings(rules, sides, [90, 50, 50])] == [0, 1, 2]
