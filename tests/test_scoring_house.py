"""Worked examples for the values a table may change (docs/rules.md#house-values), shared by every
rule set: card values, canastas, going out, threes, opening tiers, cards in hand, target and a game
of a fixed number of hands. The values only some families have are worked in that family's file
(``HOUSE`` in tests/test_scoring_<family>.py). Every number was computed by hand; a test below
fails when a changeable value of any rule set has no worked example.
"""

from pathlib import Path

import pytest

from scorekeeper.core import rulesets, scoring
from scorekeeper.core.scoring import SideHand
from tests.worked_examples import case, going_out_problems, problems_of, rules_of, score_of

HOUSE = [
    # docs/rules.md#classic › House rules, "Thursday rules": natural canasta 600, going out 300.
    # 300 out + 600 natural + 100 one red three + 120 melded = 1120
    case(
        "docs/rules.md#classic › House rules: natural canasta 600, going out 300",
        "classic",
        {"went_out": "normal", "natural_canastas": 1, "red_threes": 1, "melded_points": 120},
        {"canasta_natural": 600, "going_out_bonus": 300},
        1120,
        {"going_out": 300, "natural_canastas": 600, "red_threes": 100, "melded_cards": 120},
    ),
    # concealed: 100 out + 200 concealed + 250 mixed + 90 melded = 640
    case(
        "docs/rules.md#classic › House rules: concealed 200 more, mixed canasta 250",
        "classic",
        {"went_out": "concealed", "mixed_canastas": 1, "melded_points": 90},
        {"concealed_bonus": 200, "canasta_mixed": 250},
        640,
        {"going_out": 100, "concealed": 200, "mixed_canastas": 250, "melded_cards": 90},
    ),
    # card values: melded 1 joker 100 + 2 × 25 + 3 × 15 + 4 × 10 = 235; in hand 2 black threes × 50 = −100
    case(
        "docs/rules.md#classic › House rules: every card value changed",
        "classic",
        {"melded_cards": {"jokers": 1, "twos_aces": 2, "high": 3, "low": 4}, "hand_cards": {"black_threes": 2}},
        {"card_jokers": 100, "card_twos_aces": 25, "card_high": 15, "card_low": 10, "card_black_threes": 50},
        135,
        {"melded_cards": 235, "cards_in_hand": -100},
    ),
    # red threes: 1 → 150 + 50 melded = 200
    case(
        "docs/rules.md#classic › House rules: one red three 150",
        "classic",
        {"red_threes": 1, "melded_points": 50},
        {"red_threes_1": 150},
        200,
        {"red_threes": 150, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#classic › House rules: two red threes 250",
        "classic",
        {"red_threes": 2, "melded_points": 50},
        {"red_threes_2": 250},
        300,
        {"red_threes": 250, "melded_cards": 50},
    ),
    case(
        "docs/rules.md#classic › House rules: three red threes 400",
        "classic",
        {"red_threes": 3, "melded_points": 55},
        {"red_threes_3": 400},
        455,
        {"red_threes": 400, "melded_cards": 55},
    ),
    case(
        "docs/rules.md#classic › House rules: all four red threes 1000",
        "classic",
        {"red_threes": 4, "melded_points": 50},
        {"red_threes_4": 1000},
        1050,
        {"red_threes": 1000, "melded_cards": 50},
    ),
    # nothing melded: 4 red threes −800, capped at −400; 30 in hand −30: −430
    case(
        "docs/rules.md#classic › House rules: red threes of a side that melded nothing capped at −400",
        "classic",
        {"red_threes": 4, "hand_points": 30},
        {"red_three_minus_cap": 400},
        -430,
        {"red_threes": -400, "cards_in_hand": -30},
    ),
    # the cap only caps: 1 red three minus is −100, under the cap
    case(
        "docs/rules.md#classic › House rules: a cap of 400 leaves −100 as it is",
        "classic",
        {"red_threes": 1},
        {"red_three_minus_cap": 400},
        -100,
        {"red_threes": -100},
    ),
    # red threes always plus: 4 red threes, nothing melded: +800 − 30 = 770
    case(
        "docs/rules.md#classic › House rules: red threes always plus",
        "classic",
        {"red_threes": 4, "hand_points": 30},
        {"red_three_sign": "always"},
        770,
        {"red_threes": 800, "cards_in_hand": -30},
    ),
    # cards in hand do not count: 50 melded, 85 in hand: 50
    case(
        "docs/rules.md#classic › House rules: cards left in hand do not count",
        "classic",
        {"melded_points": 50, "hand_points": 85},
        {"cards_in_hand_count": False},
        50,
        {"melded_cards": 50},
    ),
]


@pytest.mark.parametrize("variant_id, side, settings, expected, items", HOUSE)
def test_house_values_score(variant_id, side, settings, expected, items):
    """A hand scored with changed values."""
    assert score_of(variant_id, side, settings) == (expected, items)


# docs/rules.md#classic › Opening minimum, changed: negative 30, 0–1995 60, 2000–3995 100, 4000 or more 150
TIERS = {
    "opening_1": 30,
    "opening_2": 60,
    "opening_3": 100,
    "opening_3_from": 2000,
    "opening_4": 150,
    "opening_4_from": 4000,
}


@pytest.mark.parametrize("total, minimum", [(-5, 30), (0, 60), (1995, 60), (2000, 100), (3995, 100), (4000, 150)])
def test_opening_tiers_follow_the_values(total, minimum):
    """docs/rules.md#classic › House rules: every tier's minimum and start changed."""
    assert scoring.opening_minimum(rules_of("classic", TIERS), total) == minimum


def test_modern_second_tier_start():
    """docs/rules.md#modern › Opening minimum: the 155 tier from 3500 instead of 3000: 3495 → 125, 3500 → 155."""
    rules = rules_of("modern", {"opening_2_from": 3500})
    assert [scoring.opening_minimum(rules, t) for t in (3495, 3500, 4995, 5000)] == [125, 155, 155, 180]


def test_target_changed():
    """docs/rules.md#classic › End of the game: target 3000; 3005 against 2000 ends it, won by 1005."""
    result = scoring.game_result(rules_of("classic", {"target": 3000}), (3005, 2000))
    assert (result.finished, result.winner, result.margin) == (True, 0, 1005)
    assert not scoring.game_result(rules_of("classic", {"target": 3000}), (2995, 2000)).finished


def test_a_game_of_two_hands():
    """docs/rules.md#classic › House rules: the game ends after 2 hands. Hand 1: 200 against 100 (not over);
    hand 2: 100 against 300; totals 300 and 400: the second side wins by 100, far below 5000."""
    rules = rules_of("classic", {"hands_limit": 2})
    state = scoring.play(
        rules,
        [
            [SideHand(melded_points=200), SideHand(melded_points=100)],
            [SideHand(melded_points=100), SideHand(melded_points=300)],
        ],
    )
    assert not state.hands[0].result.finished
    assert (state.result.finished, state.result.winner, state.result.margin, state.ended_after) == (True, 1, 100, 1)


def test_a_game_of_one_hand_level_plays_on():
    """docs/rules.md#classic › House rules: one hand, level at 100: a tie, played on (the tie rule); the next
    hand 50 against 0 decides: 150 against 100."""
    rules = rules_of("classic", {"hands_limit": 1})
    state = scoring.play(
        rules, [[SideHand(melded_points=100), SideHand(melded_points=100)], [SideHand(melded_points=50), SideHand()]]
    )
    assert state.hands[0].result.tie and not state.hands[0].result.finished
    assert (state.result.winner, state.result.margin, state.ended_after) == (0, 50, 1)


def test_canastas_to_go_out():
    """docs/rules.md#classic › Going out: with 2 canastas needed, one is not enough; with 1 natural of them
    needed, two mixed are not enough."""
    one = {"went_out": "normal", "natural_canastas": 1, "melded_points": 50}
    assert going_out_problems("classic", one, {"canastas_to_go_out": 2}) == [(0, "went_out")]
    two_mixed = {"went_out": "normal", "mixed_canastas": 2, "melded_points": 100}
    assert going_out_problems("classic", two_mixed, {"natural_canastas_to_go_out": 1}) == [(0, "went_out")]
    assert going_out_problems("classic", two_mixed) == []


def test_the_deck_total_follows_the_card_values():
    """docs/rules.md#classic › Card values: the deck holds 4×50 + 16×20 + 48×10 + 32×5 + 4×5 = 1180 points;
    with K to 8 at 20 it holds 1180 + 48×10 = 1660: 1500 melded is refused, then accepted."""
    assert rules_of("classic").max_card_points == 1180
    assert rules_of("classic", {"card_high": 20}).max_card_points == 1660
    assert problems_of("classic", [{"melded_points": 1500}, {}])
    assert problems_of("classic", [{"melded_points": 1500}, {}], {"card_high": 20}) == []


def test_a_canasta_needs_the_points_the_card_values_give():
    """docs/rules.md#classic › Canastas: a natural canasta of seven 4s is 7 × 5 = 35; with 4s to 7s at 10 it is 70:
    35 melded for a natural canasta is then refused."""
    assert problems_of("classic", [{"natural_canastas": 1, "melded_points": 35}, {}]) == []
    assert problems_of("classic", [{"natural_canastas": 1, "melded_points": 35}, {}], {"card_low": 10})


@pytest.mark.parametrize(
    "changes, name",
    [
        ({"opening_4_from": 1000}, "opening_4_from"),  # below the 1500 of tier 3
        ({"opening_3": 40}, "opening_3"),  # below the 50 of tier 2
        ({"target": 1500}, "target"),  # not above the first tier's 1500
        ({"card_low": -5}, "card_low"),  # negative
        ({"card_low": 7}, "card_low"),  # not a multiple of 5
        ({"natural_canastas_to_go_out": 2}, "natural_canastas_to_go_out"),  # more than the 1 needed
        ({"wild_canastas": 1}, "wild_canastas"),  # no such value
        ({"tie_rule": "coin"}, "tie_rule"),  # no such option
        ({"cards_in_hand_count": 0}, "cards_in_hand_count"),  # yes or no, not a number
        ({"card_jokers": 0, "card_twos_aces": 0, "card_high": 0, "card_low": 0, "card_black_threes": 0}, "card_jokers"),
    ],
)
def test_impossible_tables_are_refused_beside_the_value(changes, name):
    """docs/rules.md#house-values: what cannot be a table is refused, named by the value."""
    assert name in rulesets.problems(rulesets.get("classic"), changes)


def test_every_default_is_the_rule_set_itself():
    """Changing every value to its default changes nothing, and no default table is impossible."""
    for rules in rulesets.RULE_SETS.values():
        defaults = {v.name: v.default for v in rulesets.values_of(rules)}
        assert rulesets.configure(rules, defaults) == rulesets.configure(rules), rules.id
        assert rulesets.problems(rules, defaults) == {}, rules.id


def _changed_in(module) -> set[str]:
    """The value names a HOUSE list of worked examples changes, and those the file's text names."""
    names = set()
    for param in getattr(module, "HOUSE", []):
        names |= set(param.values[2] or {})
    return names | getattr(module, "HOUSE_NAMES", set())


def test_every_changeable_value_has_a_worked_example():
    """Each value of every rule set's list is changed by a worked example (the settings by their own, in the
    family's file)."""
    import importlib

    files = sorted(Path(__file__).parent.glob("test_scoring_*.py"))
    changed, text = set(), ""
    for path in files:
        changed |= _changed_in(importlib.import_module(f"tests.{path.stem}"))
        text += path.read_text()
    changed |= set(TIERS) | {"opening_2_from", "target", "hands_limit", "canastas_to_go_out", "card_high"}
    changed |= {"natural_canastas_to_go_out", "card_low"}
    missing = set()
    for rules in rulesets.RULE_SETS.values():
        for value in rulesets.values_of(rules):
            covered = value.name in changed if value.group != "settings" else f'"{value.name}"' in text
            if not covered and value.name != "lone_trigger":  # a hint on the hand form only: it scores nothing
                missing.add(value.name)
    assert not missing, sorted(missing)


def test_a_setting_brings_its_values_into_the_list_and_the_table():
    """docs/rules.md, "House rules": with wild-card melds allowed, the wild canasta's bonus and the
    unfinished wild meld's penalty are values of classic like any other, checked and applied; without
    the setting they are unknown."""
    changes = {"wild_melds": True, "canasta_wild": 2500, "incomplete_wild": 700}
    assert rulesets.problems(rulesets.get("classic"), changes) == {}
    rules = rulesets.configure(rulesets.get("classic"), changes)
    assert rules.kind("wild").bonus == 2500
    assert [d.points for d in rules.incomplete_melds if d.key == "wild"] == [700]
    unknown = rulesets.problems(rulesets.get("classic"), {"canasta_wild": 2500})
    assert list(unknown) == ["canasta_wild"]
