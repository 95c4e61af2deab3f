"""Worked examples for Classic Canasta (4 and 2 players), computed by hand from the spec.

Sections (§) refer to shared/rules/scoring-spec.md.
"""

import pytest

from scorekeeper import scoring, variants
from scorekeeper.scoring import SideHand

CLASSIC = variants.configure(variants.get("classic"))
TWO = variants.configure(variants.get("classic-2p"))


@pytest.mark.parametrize(
    "rules, side, score, items",
    [
        pytest.param(
            CLASSIC,
            SideHand(went_out="normal", natural_canastas=1, melded_points=200),
            800,
            {"going_out": 100, "natural_canastas": 500, "melded_cards": 200},
            id="§2.5 out 100 + natural 500 + M",
        ),
        pytest.param(
            CLASSIC,
            SideHand(went_out="concealed", natural_canastas=1, melded_points=70),
            770,
            {"going_out": 100, "concealed": 100, "natural_canastas": 500, "melded_cards": 70},
            id="§2.5 concealed 200 in all",
        ),
        pytest.param(
            CLASSIC,
            SideHand(mixed_canastas=2, melded_points=300, hand_points=45),
            855,
            {"mixed_canastas": 600, "melded_cards": 300, "cards_in_hand": -45},
            id="§2.5 two mixed 300 each, −H",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=1, melded_points=50),
            150,
            {"red_threes": 100, "melded_cards": 50},
            id="§2.5 one red three",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=2, melded_points=50),
            250,
            {"red_threes": 200, "melded_cards": 50},
            id="§2.5 two red threes",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=3, melded_points=50),
            350,
            {"red_threes": 300, "melded_cards": 50},
            id="§2.5 three red threes",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=4, melded_points=50),
            850,
            {"red_threes": 800, "melded_cards": 50},
            id="§2.5 all four 800",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=1, hand_points=30),
            -130,
            {"red_threes": -100, "cards_in_hand": -30},
            id="§2.5 D21 never melded: −100 and −H",
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=4, hand_points=120),
            -920,
            {"red_threes": -800, "cards_in_hand": -120},
            id="§2.5 never melded, all four −800",
        ),
        pytest.param(
            CLASSIC, SideHand(hand_points=65), -65, {"cards_in_hand": -65}, id="§2.5 never melded, nothing: −H"
        ),
        pytest.param(
            CLASSIC,
            SideHand(red_threes=2, has_melded=False),
            -200,
            {"red_threes": -200},
            id="§2.5 has_melded false given",
        ),
        pytest.param(
            CLASSIC,
            SideHand(melded_points=150, hand_points=20, penalties=100),
            30,
            {"melded_cards": 150, "cards_in_hand": -20, "penalties": -100},
            id="§15.11 penalties deducted",
        ),
        pytest.param(CLASSIC, SideHand(), 0, {}, id="nothing at all"),
        pytest.param(
            TWO,
            SideHand(went_out="normal", natural_canastas=2, red_threes=4, melded_points=400),
            2300,
            {"going_out": 100, "natural_canastas": 1000, "red_threes": 800, "melded_cards": 400},
            id="§4 two players, all four red threes",
        ),
        pytest.param(
            TWO,
            SideHand(went_out="concealed", natural_canastas=1, mixed_canastas=1, melded_points=165),
            1165,
            {"going_out": 100, "concealed": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 165},
            id="§4 concealed",
        ),
        pytest.param(
            TWO,
            SideHand(red_threes=3, hand_points=200),
            -500,
            {"red_threes": -300, "cards_in_hand": -200},
            id="§4 never melded",
        ),
    ],
)
def test_hand_scores(rules, side, score, items):
    result = scoring.score_side(rules, side)
    assert result.score == score
    assert {line.item: line.points for line in result.breakdown} == items
    assert sum(line.points for line in result.breakdown) == result.score


@pytest.mark.parametrize(
    "counts, points",
    [
        ({"jokers": 1}, 50),
        ({"twos_aces": 3}, 60),
        ({"high": 7}, 70),
        ({"low": 7}, 35),
        ({"black_threes": 4}, 20),
        ({"jokers": 2, "twos_aces": 2, "high": 4, "low": 3, "black_threes": 3}, 100 + 40 + 40 + 15 + 15),
        ({}, 0),
    ],
)
def test_card_counts_become_points(counts, points):
    assert scoring.card_points(CLASSIC, counts) == points  # §1.1


@pytest.mark.parametrize(
    "total, minimum",
    [
        (-1000, 15),
        (-5, 15),
        (0, 50),
        (1495, 50),
        (1500, 90),
        (2995, 90),
        (3000, 120),
        (99995, 120),
    ],
)
def test_opening_minimum_table(total, minimum):
    assert scoring.opening_minimum(CLASSIC, total) == minimum  # §2.3
    assert scoring.opening_minimum(TWO, total) == minimum  # §4: as classic


@pytest.mark.parametrize(
    "totals, finished, winner, margin, tie",
    [
        ((4995, 3000), False, None, None, False),
        ((5000, 4200), True, 0, 800, False),  # §2.6: reaching 5000 exactly ends it
        ((4100, 5350), True, 1, 1250, False),
        ((6200, 5100), True, 0, 1100, False),  # both past the target: the higher wins
        ((5500, 5500), False, None, None, True),  # §15.4 default: tie, play on
        ((-300, 5000), True, 1, 5300, False),  # a negative total loses by the whole difference
        ((-200, -800), False, None, None, False),
    ],
)
def test_game_result(totals, finished, winner, margin, tie):
    result = scoring.game_result(CLASSIC, totals)
    assert (result.finished, result.winner, result.margin, result.tie) == (finished, winner, margin, tie)


def test_draw_setting_ends_a_tie():
    rules = variants.configure(variants.get("classic"), {"tie_rule": "draw"})
    result = scoring.game_result(rules, (5500, 5500))
    assert (result.finished, result.winner, result.tie) == (True, None, True)


def test_play_running_totals_minimums_and_the_end():
    hands = [
        # A: never melded, 2 red threes −200 − 40 = −240; B: out 100 + natural 500 + 310 = 910
        [SideHand(red_threes=2, hand_points=40), SideHand(went_out="normal", natural_canastas=1, melded_points=310)],
        # A: 4 natural 2000 + 800 red + 500 melded = 3300 → 3060; B: 600 + 300 mixed = 900 → 1810
        [SideHand(natural_canastas=4, red_threes=4, melded_points=500), SideHand(mixed_canastas=1, melded_points=600)],
        # A: out 100 + 3 natural 1500 + 400 = 2000 → 5060 ends it; B: 50 → 1860
        [SideHand(went_out="normal", natural_canastas=3, melded_points=400), SideHand(melded_points=50)],
        # recorded after the end: kept, flagged
        [SideHand(melded_points=100), SideHand(melded_points=100)],
    ]
    state = scoring.play(CLASSIC, hands)
    assert [h.totals for h in state.hands] == [(-240, 910), (3060, 1810), (5060, 1860), (5160, 1960)]
    assert [h.opening_minimums for h in state.hands] == [(15, 50), (120, 90), (120, 90), (120, 90)]
    assert state.ended_after == 2 and state.extra_hands == 1
    assert (state.result.finished, state.result.winner, state.result.margin) == (True, 0, 3200)
