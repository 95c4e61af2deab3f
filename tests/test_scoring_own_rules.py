"""Worked examples for the table's own rules that are rules rather than numbers (docs/rules.md, "A table's own
rules"): red threes always minus, black threes in hand in any rule set, going out without a canasta, opening
minimums by the hand's number, a tie won by the side that went out, special hands beside melds and with the
going-out bonus, and the table's own kinds of canasta, special hand and opening tier. Every number was worked
out by hand from docs/rules.md (Classic: going out 100, natural canasta 500, mixed 300, a red three 100; Modern:
going out 100, Garbage 2000, Straight 3000, natural canasta 500).
"""

import pytest

from scorekeeper.core import rulesets, scoring
from scorekeeper.core.scoring import SideHand
from tests.worked_examples import case, going_out_problems, problems_of, rules_of, score_of

WILD_CANASTA = {"own_1_kind": "canasta", "own_1_name": "Wild canasta", "own_1_points": 1000, "own_1_wild": True}
SEVENS = {"own_1_kind": "canasta", "own_1_name": "Canasta of 7s", "own_1_points": 750, "own_1_cards": 8}
GARBAGE = {"own_2_kind": "special", "own_2_name": "Garbage hand", "own_2_points": 500}
LADDER = {"own_3_kind": "tier", "own_3_name": "Ladder", "own_3_points": 150, "own_3_from": 4000}

HOUSE = [
    # docs/rules.md, "A table's own rules", red threes always minus: a side that melded 120 with 2 red threes:
    # 2 × 100 counted against it = −200; 120 − 200 = −80
    case(
        "docs/rules.md › A table's own rules: red threes always minus",
        "classic",
        {"red_threes": 2, "melded_points": 120},
        {"red_three_sign": "minus"},
        -80,
        {"red_threes": -200, "melded_cards": 120},
    ),
    # a minus entry in the red-three table, always plus: one red three −50, melded 50: 0
    case(
        "docs/rules.md › A table's own rules: one red three −50",
        "classic",
        {"red_threes": 1, "melded_points": 50},
        {"red_three_sign": "always", "red_threes_1": -50},
        0,
        {"red_threes": -50, "melded_cards": 50},
    ),
    # black threes left in hand cost 100 each in Classic too: melded 90, in hand two black threes (2 × 5 = 10
    # card points): 90 − 10 − 200 = −120
    case(
        "docs/rules.md › A table's own rules: a black three in hand costs 100",
        "classic",
        {"melded_points": 90, "hand_points": 10, "black_threes_in_hand": 2},
        {"black_three_in_hand": 100},
        -120,
        {"melded_cards": 90, "cards_in_hand": -10, "black_threes_in_hand": -200},
    ),
    # going out without a canasta: 100 for going out + 60 melded = 160
    case(
        "docs/rules.md › A table's own rules: no canasta needed to go out",
        "classic",
        {"went_out": "normal", "melded_points": 60},
        {"canastas_to_go_out": 0},
        160,
        {"going_out": 100, "melded_cards": 60},
    ),
    # Modern Garbage with the going-out bonus: 2000 + 100 = 2100, nothing else
    case(
        "docs/rules.md › A table's own rules: a special hand with the bonus for going out",
        "modern",
        {"went_out": "garbage"},
        {"special_with_going_out": True},
        2100,
        {"garbage": 2000, "going_out": 100},
    ),
    # Modern Straight after the side melded a natural canasta of 200 points, adding to the rest:
    # 3000 + 500 natural canasta + 200 melded = 3700
    case(
        "docs/rules.md › A table's own rules: a special hand beside melds, adding to them",
        "modern",
        {"went_out": "straight", "natural_canastas": 1, "melded_points": 200},
        {"special_after_meld": True, "special_adds": True},
        3700,
        {"straight": 3000, "natural_canastas": 500, "melded_cards": 200},
    ),
    # the same without adding: the Straight alone, 3000
    case(
        "docs/rules.md › A table's own rules: a special hand beside melds scores only itself",
        "modern",
        {"went_out": "straight", "natural_canastas": 1, "melded_points": 200},
        {"special_after_meld": True},
        3000,
        {"straight": 3000},
    ),
    # an own kind of canasta, a wild canasta worth 1000 in Classic: going out 100 + natural 500 + wild 1000 + 250
    # melded (7 twos at 20 = 140 in the wild one, seven 5-point cards = 35 at least in the natural one) = 1850
    case(
        "docs/rules.md › A table's own rules: a wild canasta of 1000",
        "classic",
        {"went_out": "normal", "natural_canastas": 1, "own_1_canastas": 1, "melded_points": 250},
        WILD_CANASTA,
        1850,
        {"going_out": 100, "natural_canastas": 500, "own_1_canastas": 1000, "melded_cards": 250},
    ),
    # a canasta of 7s taking 8 cards, 750: 750 + 8 × 5 = 40 melded = 790
    case(
        "docs/rules.md › A table's own rules: a canasta of eight 7s, 750",
        "classic",
        {"own_1_canastas": 1, "melded_points": 40},
        {**SEVENS, "own_1_goes_out": False},
        790,
        {"own_1_canastas": 750, "melded_cards": 40},
    ),
    # an own special hand in Classic: the Garbage hand scores 500 alone
    case(
        "docs/rules.md › A table's own rules: an own special hand of 500",
        "classic",
        {"went_out": "own_2"},
        GARBAGE,
        500,
        {"own_2": 500},
    ),
]

# the names the examples below change (the test of every value's worked example reads them)
HOUSE_NAMES = {
    "opening_by_hand",
    "opening_per_hand",
    "tie_rule",
    *(f"own_{n}_{part}" for n in (1, 2, 3) for part in ("kind", "name", "points", "cards", "wild", "goes_out", "from")),
}


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_own_rules_score(variant_id, side, settings, expected, items):
    """A hand scored with the table's own rules."""
    assert score_of(variant_id, side, settings) == (expected, items)


def test_black_threes_in_hand_off_by_default():
    """docs/rules.md › A table's own rules: Classic says nothing of black threes in hand: no field, no cost."""
    assert rulesets.get("classic").black_three_in_hand == 0
    problems = problems_of("classic", [{"black_threes_in_hand": 1}, {}])
    assert [(p.side, p.field) for p in problems] == [(0, "black_threes_in_hand")]


def test_going_out_without_a_canasta_only_where_the_table_says_so():
    """docs/rules.md#classic › Going out: Classic needs one canasta; with 0 needed, none is asked for."""
    side = {"went_out": "normal", "melded_points": 60}
    assert going_out_problems("classic", side) == [(0, "went_out")]
    assert going_out_problems("classic", side, {"canastas_to_go_out": 0}) == []


@pytest.mark.parametrize("hand, minimum", [(1, 125), (2, 155), (3, 180), (4, 180), (12, 180)])
def test_opening_minimum_by_the_hands_number(hand, minimum):
    """docs/rules.md › A table's own rules: 125, 155, 180 for hands 1, 2, 3; the last goes on; the total does
    not matter (a side at 4000 in hand 1 still needs 125)."""
    rules = rules_of("classic", {"opening_by_hand": [125, 155, 180]})
    assert scoring.opening_minimum(rules, 0, hand) == minimum
    assert scoring.opening_minimum(rules, 4000, hand) == minimum


@pytest.mark.parametrize("hand, minimum", [(1, 30), (2, 60), (5, 150)])
def test_opening_minimum_times_the_hands_number(hand, minimum):
    """docs/rules.md › A table's own rules: 30 × the hand's number."""
    assert scoring.opening_minimum(rules_of("classic", {"opening_per_hand": 30}), -500, hand) == minimum


def test_a_game_shows_the_next_hands_minimum_by_number():
    """docs/rules.md › A table's own rules: after two hands, the next (hand 3) needs 180 for every side,
    whatever the totals (200 and 100 here)."""
    rules = rules_of("classic", {"opening_by_hand": [125, 155, 180]})
    state = scoring.play(rules, [[SideHand(melded_points=100), SideHand(melded_points=50)]] * 2)
    assert state.hands[0].opening_minimums == (155, 155)
    assert state.opening_minimums == (180, 180)


def test_a_meld_below_the_hands_minimum_is_warned_about():
    """docs/rules.md#classic › Opening minimum: 130 melded in hand 2 of 125, 155, 180 is below 155."""
    from scorekeeper.core import checks

    rules = rules_of("classic", {"opening_by_hand": [125, 155, 180]})
    sides = [SideHand(melded_points=130), SideHand()]
    minimums = [scoring.opening_minimum(rules, 0, 2)] * 2
    assert [(p.side, p.field) for p in checks.plausibility_warnings(rules, sides, minimums)] == [(0, "melded_points")]


def test_a_tie_goes_to_the_side_that_went_out():
    """docs/rules.md › A table's own rules: 5000 against 5000, the second side went out in the last hand: it
    wins by 0; had nobody of the leaders gone out, they play on."""
    rules = rules_of("classic", {"tie_rule": "went_out"})
    result = scoring.game_result(rules, (5000, 5000), 5, went_out=1)
    assert (result.finished, result.winner, result.margin) == (True, 1, 0)
    assert not scoring.game_result(rules, (5000, 5000), 5, went_out=None).finished
    three = rules_of("six-2x3", {"tie_rule": "went_out"})
    assert not scoring.game_result(three, (5100, 5100, 4000), 5, went_out=2).finished


def test_a_tie_in_a_replayed_game_goes_to_who_went_out():
    """docs/rules.md › A table's own rules: target 1000; hand 1 600 each, hand 2 400 each with the first side
    going out (100 of its 400): 1000 each, the first side wins."""
    rules = rules_of("classic", {"tie_rule": "went_out", "target": 1000})
    hand_1 = [SideHand(melded_points=600), SideHand(melded_points=600)]
    hand_2 = [SideHand(melded_points=300, went_out="normal", natural_canastas=0), SideHand(melded_points=400)]
    state = scoring.play(rules, [hand_1, hand_2])
    assert state.totals == (1000, 1000)
    assert (state.result.finished, state.result.winner) == (True, 0)


def test_an_own_canasta_not_counted_for_going_out():
    """docs/rules.md › A table's own rules: going out with only the canasta of 7s, which does not count for
    going out, is refused; counted, it goes out."""
    side = {"went_out": "normal", "own_1_canastas": 1, "melded_points": 40}
    assert going_out_problems("classic", side, {**SEVENS, "own_1_goes_out": False}) == [(0, "went_out")]
    assert going_out_problems("classic", side, SEVENS) == []


def test_an_own_canasta_holds_its_cards():
    """docs/rules.md#classic › Canastas: a canasta of eight cards holds at least 8 × 5 = 40 points; 35 is refused."""
    problems = problems_of("classic", [{"own_1_canastas": 1, "melded_points": 35}, {}], SEVENS)
    assert [(p.side, p.field) for p in problems] == [(0, "melded_points")]
    assert problems_of("classic", [{"own_1_canastas": 1, "melded_points": 40}, {}], SEVENS) == []


def test_an_own_special_hand_only_without_melds_unless_the_table_says_so():
    """docs/rules.md › A table's own rules: the Garbage hand declared beside 90 melded is refused, unless
    a special hand may follow the side's melds."""
    side = {"went_out": "own_2", "melded_points": 90}
    assert going_out_problems("classic", side, GARBAGE) == [(0, "went_out")]
    assert going_out_problems("classic", side, {**GARBAGE, "special_after_meld": True}) == []


@pytest.mark.parametrize("total, minimum", [(3995, 120), (4000, 150), (9000, 150), (-5, 15)])
def test_an_own_opening_tier(total, minimum):
    """docs/rules.md › A table's own rules: the Ladder tier from 4000 needs 150 (Classic's 3000-or-more tier
    now ends at 3995)."""
    rules = rules_of("classic", LADDER)
    assert scoring.opening_minimum(rules, total) == minimum
    assert [row.label for row in rules.opening_minimums][-2:] == ["3000 – 3995", "Ladder"]


@pytest.mark.parametrize(
    "changes, name",
    [
        ({"opening_by_hand": [125, 2000]}, "opening_by_hand"),  # above the deck's 1180 points
        ({"opening_by_hand": [125, 152]}, "opening_by_hand"),  # not a multiple of 5
        ({"opening_per_hand": 1200}, "opening_per_hand"),  # above the deck
        ({"opening_2": 1500, "opening_3": 1500, "opening_4": 1500}, "opening_2"),  # above the deck
        ({"own_1_kind": "canasta", "own_1_points": 1000}, "own_1_name"),  # no name
        ({**LADDER, "own_3_from": 3000}, "own_3_from"),  # a tier starts there
        ({**WILD_CANASTA, "own_1_cards": 14}, "own_1_cards"),  # the deck holds 12 wild cards
        ({"own_1_name": "100% mine"}, "own_1_name"),  # a % in a name
        ({"own_1_kind": "joker"}, "own_1_kind"),  # no such kind
        ({"canastas_to_go_out": -1}, "canastas_to_go_out"),
    ],
)
def test_impossible_own_rules_are_refused_beside_the_value(changes, name):
    """docs/rules.md › A table's own rules: what cannot be a table is refused, named by the value."""
    assert name in rulesets.problems(rulesets.get("classic"), changes)
