"""Worked examples for Classic Canasta: 4 players (docs/rules.md#classic), 2 players (docs/rules.md#classic-2p) and 3
players (docs/rules.md#classic-3p).

Every expected number below was computed by hand from the rules in docs/rules.md; the arithmetic is
written next to each case, after the heading it comes from (`docs/rules.md#<rule set> › <heading>`). The worked
examples of
the other rule sets are in tests/test_scoring_<family>.py (tests/worked_examples.py lists them).
"""

from pathlib import Path

import pytest

from scorekeeper.core import checks, rulesets, scoring
from scorekeeper.core.scoring import SideHand
from tests.worked_examples import FAMILIES, problems_of, rules_of, score_of

CLASSIC = rulesets.configure(rulesets.get("classic"))  # docs/rules.md#classic, default settings
TWO = rulesets.configure(rulesets.get("classic-2p"))  # docs/rules.md#classic-2p, default settings
CLASSIC_DRAW = rulesets.configure(
    rulesets.get("classic"), {"tie_rule": "draw"}
)  # docs/rules.md#classic › House rules: alternative


def items(score):
    """A breakdown as {item key: points}; fails if one item key appears twice."""
    keys = [line.item for line in score.breakdown]
    assert len(keys) == len(set(keys)), f"duplicate breakdown items: {keys}"
    return {line.item: line.points for line in score.breakdown}


# ---------------------------------------------------------------------------------------------
# docs/rules.md#classic › Going out: hand score: score = 100·out + 100·concealed + 500·nat + 300·mixed + RT + M − H −
# penalties
# RT(n, melded) = (n == 4 ? 800 : 100·n) · (melded ? +1 : −1)

HANDS = [
    # --- Classic, 4 players (docs/rules.md#classic) ---
    pytest.param(
        CLASSIC,
        SideHand(went_out="normal", natural_canastas=1, melded_points=240),
        840,
        {"going_out": 100, "natural_canastas": 500, "melded_cards": 240},
        id="docs/rules.md#classic › Going out: +100: 100+500+240=840",
    ),
    pytest.param(
        CLASSIC,
        SideHand(went_out="concealed", natural_canastas=1, melded_points=85),
        785,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "melded_cards": 85},
        id="docs/rules.md#classic › Going out: concealed going out 200 in all: 100+100+500+85=785",
    ),
    pytest.param(
        CLASSIC,
        SideHand(natural_canastas=1, melded_points=70),
        570,
        {"natural_canastas": 500, "melded_cards": 70},
        id="docs/rules.md#classic › Canastas: natural canasta of seven kings = 570 (pagat's own example)",
    ),
    pytest.param(
        CLASSIC,
        SideHand(mixed_canastas=2, melded_points=310, hand_points=45),
        865,
        {"mixed_canastas": 600, "melded_cards": 310, "cards_in_hand": -45},
        id="docs/rules.md#classic › Canastas: two mixed 300 each, +M -H: 600+310-45=865",
    ),
    pytest.param(
        CLASSIC,
        SideHand(
            went_out="normal", natural_canastas=1, mixed_canastas=1, red_threes=2, melded_points=400, hand_points=15
        ),
        1485,
        {
            "going_out": 100,
            "natural_canastas": 500,
            "mixed_canastas": 300,
            "red_threes": 200,
            "melded_cards": 400,
            "cards_in_hand": -15,
        },
        id="docs/rules.md#classic › Going out: out, natural+mixed, 2 red threes, -H: 100+500+300+200+400-15=1485",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=1, melded_points=120, hand_points=30),
        190,
        {"red_threes": 100, "melded_cards": 120, "cards_in_hand": -30},
        id="docs/rules.md#classic › Red and black threes: one red three with a meld +100: 100+120-30=190",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=3, mixed_canastas=1, melded_points=180, hand_points=25),
        755,
        {"red_threes": 300, "mixed_canastas": 300, "melded_cards": 180, "cards_in_hand": -25},
        id="docs/rules.md#classic › Red and black threes: three red threes +300: 300+300+180-25=755",
    ),
    pytest.param(
        CLASSIC,
        SideHand(went_out="normal", natural_canastas=1, red_threes=4, melded_points=180),
        1580,
        {"going_out": 100, "natural_canastas": 500, "red_threes": 800, "melded_cards": 180},
        id="docs/rules.md#classic › Red and black threes: all four red threes 800: 100+500+800+180=1580",
    ),
    pytest.param(
        CLASSIC,
        SideHand(natural_canastas=1, red_threes=1, melded_points=300, hand_points=60),
        840,
        {"natural_canastas": 500, "red_threes": 100, "melded_cards": 300, "cards_in_hand": -60},
        id="docs/rules.md#classic › Going out: stock exhausted, nobody out, no going-out bonus: 500+100+300-60=840",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=1, hand_points=75),
        -175,
        {"red_threes": -100, "cards_in_hand": -75},
        id="docs/rules.md#classic › Red and black threes: never melded, one red three -100 and -H: -100-75=-175",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=3, hand_points=60),
        -360,
        {"red_threes": -300, "cards_in_hand": -60},
        id="docs/rules.md#classic › Red and black threes: never melded, three red threes: -300-60=-360",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=4, hand_points=140),
        -940,
        {"red_threes": -800, "cards_in_hand": -140},
        id="docs/rules.md#classic › Red and black threes: never melded, all four -800 and -H: -800-140=-940",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=2, has_melded=False),
        -200,
        {"red_threes": -200},
        id="docs/rules.md#classic › Red and black threes: red threes are not melds, has_melded false given: -200",
    ),
    pytest.param(
        CLASSIC,
        SideHand(hand_points=95),
        -95,
        {"cards_in_hand": -95},
        id="docs/rules.md#classic › Card values: never melded, nothing at all: -H = -95",
    ),
    pytest.param(
        CLASSIC,
        SideHand(natural_canastas=1, melded_points=150, hand_points=20, penalties=100),
        530,
        {"natural_canastas": 500, "melded_cards": 150, "cards_in_hand": -20, "penalties": -100},
        id="docs/rules.md#classic › Penalties: deducted: 500+150-20-100=530",
    ),
    pytest.param(CLASSIC, SideHand(), 0, {}, id="docs/rules.md#classic: empty entry scores 0 with no lines"),
    pytest.param(
        CLASSIC,
        SideHand(went_out="normal", natural_canastas=1, melded_points=200),
        800,
        {"going_out": 100, "natural_canastas": 500, "melded_cards": 200},
        id="docs/rules.md#classic › Going out: out 100 + natural 500 + M",
    ),
    pytest.param(
        CLASSIC,
        SideHand(went_out="concealed", natural_canastas=1, melded_points=70),
        770,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "melded_cards": 70},
        id="docs/rules.md#classic › Going out: concealed 200 in all",
    ),
    pytest.param(
        CLASSIC,
        SideHand(mixed_canastas=2, melded_points=300, hand_points=45),
        855,
        {"mixed_canastas": 600, "melded_cards": 300, "cards_in_hand": -45},
        id="docs/rules.md#classic › Canastas: two mixed 300 each, −H",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=1, melded_points=50),
        150,
        {"red_threes": 100, "melded_cards": 50},
        id="docs/rules.md#classic › Red and black threes: one red three",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=2, melded_points=50),
        250,
        {"red_threes": 200, "melded_cards": 50},
        id="docs/rules.md#classic › Red and black threes: two red threes",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=3, melded_points=50),
        350,
        {"red_threes": 300, "melded_cards": 50},
        id="docs/rules.md#classic › Red and black threes: three red threes",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=4, melded_points=50),
        850,
        {"red_threes": 800, "melded_cards": 50},
        id="docs/rules.md#classic › Red and black threes: all four 800",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=1, hand_points=30),
        -130,
        {"red_threes": -100, "cards_in_hand": -30},
        id="docs/rules.md#classic › Card values, Red and black threes: never melded: −100 and −H",
    ),
    pytest.param(
        CLASSIC,
        SideHand(red_threes=4, hand_points=120),
        -920,
        {"red_threes": -800, "cards_in_hand": -120},
        id="docs/rules.md#classic › Red and black threes: never melded, all four −800",
    ),
    pytest.param(
        CLASSIC,
        SideHand(hand_points=65),
        -65,
        {"cards_in_hand": -65},
        id="docs/rules.md#classic › Card values: never melded, nothing: −H",
    ),
    pytest.param(
        CLASSIC,
        SideHand(melded_points=150, hand_points=20, penalties=100),
        30,
        {"melded_cards": 150, "cards_in_hand": -20, "penalties": -100},
        id="docs/rules.md#classic › Penalties: deducted",
    ),
    # --- Classic, 2 players (docs/rules.md#classic-2p: scoring as docs/rules.md#classic, each player for himself) ---
    pytest.param(
        TWO,
        SideHand(went_out="normal", natural_canastas=2, red_threes=1, melded_points=420),
        1620,
        {"going_out": 100, "natural_canastas": 1000, "red_threes": 100, "melded_cards": 420},
        id="docs/rules.md#classic-2p › Going out: out with two naturals: 100+1000+100+420=1620",
    ),
    pytest.param(
        TWO,
        SideHand(went_out="concealed", natural_canastas=1, mixed_canastas=1, melded_points=150),
        1150,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 150},
        id="docs/rules.md#classic-2p › Going out: concealed: 100+100+500+300+150=1150",
    ),
    pytest.param(
        TWO,
        SideHand(natural_canastas=1, red_threes=4, melded_points=260, hand_points=35),
        1525,
        {"natural_canastas": 500, "red_threes": 800, "melded_cards": 260, "cards_in_hand": -35},
        id="docs/rules.md#classic-2p › Red and black threes: all four red threes with a meld 800: 500+800+260-35=1525",
    ),
    pytest.param(
        TWO,
        SideHand(red_threes=4, hand_points=215),
        -1015,
        {"red_threes": -800, "cards_in_hand": -215},
        id="docs/rules.md#classic-2p › Red and black threes: never melded, all four -800 and -H: -800-215=-1015",
    ),
    pytest.param(
        TWO,
        SideHand(red_threes=2, melded_points=90, hand_points=130),
        160,
        {"red_threes": 200, "melded_cards": 90, "cards_in_hand": -130},
        id="docs/rules.md#classic-2p › Canastas: melded without canasta, 2 red threes plus: 200+90-130=160",
    ),
    pytest.param(
        TWO,
        SideHand(melded_points=60, penalties=50),
        10,
        {"melded_cards": 60, "penalties": -50},
        id="docs/rules.md#classic-2p › Penalties: penalty: 60-50=10",
    ),
    pytest.param(
        TWO,
        SideHand(hand_points=310),
        -310,
        {"cards_in_hand": -310},
        id="docs/rules.md#classic-2p › Card values: never melded, nothing at all: -H = -310",
    ),
    pytest.param(
        TWO,
        SideHand(went_out="normal", natural_canastas=2, red_threes=4, melded_points=400),
        2300,
        {"going_out": 100, "natural_canastas": 1000, "red_threes": 800, "melded_cards": 400},
        id="docs/rules.md#classic-2p › Red and black threes: two players, all four red threes",
    ),
    pytest.param(
        TWO,
        SideHand(went_out="concealed", natural_canastas=1, mixed_canastas=1, melded_points=165),
        1165,
        {"going_out": 100, "concealed": 100, "natural_canastas": 500, "mixed_canastas": 300, "melded_cards": 165},
        id="docs/rules.md#classic-2p › Going out: concealed",
    ),
    pytest.param(
        TWO,
        SideHand(red_threes=3, hand_points=200),
        -500,
        {"red_threes": -300, "cards_in_hand": -200},
        id="docs/rules.md#classic-2p: never melded",
    ),
]


@pytest.mark.parametrize("rules, side, score, lines", HANDS)
def test_hand_score_and_breakdown(rules, side, score, lines):
    result = scoring.score_side(rules, side)
    assert result.score == score
    assert items(result) == lines
    assert sum(line.points for line in result.breakdown) == score  # the lines add up to the score
    assert all(line.label for line in result.breakdown)  # every line has something to show


def test_score_hand_scores_each_side_on_its_own():
    # docs/rules.md#classic › Going out: per side; stock exhausted (docs/rules.md#classic › Going out): nobody gets a
    # going-out bonus.
    a = SideHand(natural_canastas=1, melded_points=110, hand_points=20)  # 500+110-20 = 590
    b = SideHand(red_threes=1, hand_points=55)  # never melded: -100-55 = -155
    scores = scoring.score_hand(CLASSIC, [a, b])
    assert [s.score for s in scores] == [590, -155]


def test_wild_melds_setting_unfinished_wild_meld():
    # docs/rules.md#classic › House rules: unfinished wild meld −1000 (the wild-melds setting), read from an API-shaped
    # entry: −1000 + 100 = −900
    assert score_of("classic", {"incomplete_wild": 1, "melded_points": 100}, {"wild_melds": True}) == (
        -900,
        {"incomplete_wild": -1000, "melded_cards": 100},
    )


@pytest.mark.parametrize(
    "variant_id, sides, field, needle",
    [
        ("classic", [{"wild_canastas": 1, "melded_points": 200}, {}], "wild_canastas", "Unknown field"),
        ("classic", [{"red_threes": 5}, {}], "red_threes", "At most 4"),
    ],
)
def test_rule_set_checks(variant_id, sides, field, needle):
    problems = problems_of(variant_id, sides)
    assert any(p.field == field and needle in p.message for p in problems), problems


# ---------------------------------------------------------------------------------------------
# docs/rules.md#classic › Card values: joker 50, 2s and aces 20, K–8 10, 7–4 5, black 3 5


@pytest.mark.parametrize(
    "counts, points",
    [
        pytest.param({"jokers": 1}, 50, id="docs/rules.md#classic › Card values: joker 50"),
        pytest.param({"twos_aces": 1}, 20, id="docs/rules.md#classic › Card values: two or ace 20"),
        pytest.param({"high": 1}, 10, id="docs/rules.md#classic › Card values: K-8 10"),
        pytest.param({"low": 1}, 5, id="docs/rules.md#classic › Card values: 7-4 5"),
        pytest.param({"black_threes": 1}, 5, id="docs/rules.md#classic › Card values: black 3 5"),
        pytest.param(
            {"jokers": 3, "twos_aces": 5},
            150 + 100,
            id="docs/rules.md#classic › Card values: 3 jokers + 5 twos/aces = 250",
        ),
        pytest.param(
            {"jokers": 2, "twos_aces": 3, "high": 4, "low": 3, "black_threes": 3},
            100 + 60 + 40 + 15 + 15,
            id="docs/rules.md#classic › Card values: every group: 100+60+40+15+15=230",
        ),
        pytest.param(
            {"jokers": 4, "twos_aces": 16, "high": 48, "low": 32, "black_threes": 4},
            200 + 320 + 480 + 160 + 20,
            id="docs/rules.md#classic › Card values: the whole 108-card deck without red 3s = 1180",
        ),
        pytest.param({"high": 7}, 70, id="docs/rules.md#classic › Card values: seven kings 70"),
        pytest.param({"twos_aces": 3}, 60, id="docs/rules.md#classic › Card values: three twos or aces 60"),
        pytest.param({"low": 7}, 35, id="docs/rules.md#classic › Card values: seven 7-4 35"),
        pytest.param({"black_threes": 4}, 20, id="docs/rules.md#classic › Card values: four black 3s 20"),
        pytest.param(
            {"jokers": 2, "twos_aces": 2, "high": 4, "low": 3, "black_threes": 3},
            100 + 40 + 40 + 15 + 15,
            id="docs/rules.md#classic › Card values: every group: 100+40+40+15+15=210",
        ),
        pytest.param({"low": 0, "high": 0}, 0, id="docs/rules.md#classic › Card values: zero counts"),
        pytest.param({}, 0, id="docs/rules.md#classic › Card values: nothing"),
    ],
)
@pytest.mark.parametrize("rules", [CLASSIC, TWO], ids=["classic", "classic-2p"])
def test_card_points(rules, counts, points):
    assert scoring.card_points(rules, counts) == points


def test_card_counts_scored_as_melded_and_hand_points():
    # docs/rules.md#classic › Card values, Going out: a side goes out melding 3 black threes (5 each, inside M,
    # docs/rules.md#classic › Canastas) and one mixed canasta.
    melded = scoring.card_points(CLASSIC, {"jokers": 1, "twos_aces": 2, "high": 7, "low": 5, "black_threes": 3})
    assert melded == 50 + 40 + 70 + 25 + 15  # 200
    partner = scoring.card_points(CLASSIC, {"twos_aces": 1, "low": 2})
    assert partner == 20 + 10  # 30, the partner's cards still in hand
    score = scoring.score_side(
        CLASSIC, SideHand(went_out="normal", mixed_canastas=1, melded_points=melded, hand_points=partner)
    )
    assert score.score == 100 + 300 + 200 - 30  # 570


# ---------------------------------------------------------------------------------------------
# docs/rules.md#classic › Opening minimum: by the total at the start of the hand (docs/rules.md#classic-2p: the same for
# 2 players)


@pytest.mark.parametrize(
    "total, minimum",
    [
        pytest.param(-5, 15, id="docs/rules.md#classic › Opening minimum: -5 negative: 15"),
        pytest.param(-1000, 15, id="docs/rules.md#classic › Opening minimum: -1000 negative: 15"),
        pytest.param(0, 50, id="docs/rules.md#classic › Opening minimum: 0: 50"),
        pytest.param(1495, 50, id="docs/rules.md#classic › Opening minimum: 1495: 50"),
        pytest.param(1500, 90, id="docs/rules.md#classic › Opening minimum: 1500: 90"),
        pytest.param(2995, 90, id="docs/rules.md#classic › Opening minimum: 2995: 90"),
        pytest.param(3000, 120, id="docs/rules.md#classic › Opening minimum: 3000: 120"),
        pytest.param(99999, 120, id="docs/rules.md#classic › Opening minimum: 99999: 120"),
        pytest.param(99995, 120, id="docs/rules.md#classic › Opening minimum; docs/rules.md#classic-2p: 99995: 120"),
    ],
)
@pytest.mark.parametrize("rules", [CLASSIC, TWO], ids=["classic", "classic-2p"])
def test_opening_minimum(rules, total, minimum):
    assert scoring.opening_minimum(rules, total) == minimum


@pytest.mark.parametrize("total", [-1, -4])
def test_opening_minimum_any_negative_total(total):
    assert (
        scoring.opening_minimum(CLASSIC, total) == 15
    )  # docs/rules.md#classic › Opening minimum: "< 0 (negative) → 15"


# ---------------------------------------------------------------------------------------------
# docs/rules.md#classic › End of the game, House rules; docs/rules.md#classic-2p › End of the game: end of game: target
# 5000, higher total wins, margin = difference


@pytest.mark.parametrize(
    "rules, totals, finished, winner, margin, tie",
    [
        pytest.param(
            CLASSIC, (0, 0), False, None, None, False, id="docs/rules.md#classic › End of the game: start: not finished"
        ),
        pytest.param(
            CLASSIC,
            (4995, 3000),
            False,
            None,
            None,
            False,
            id="docs/rules.md#classic › End of the game: 4995 below target: not finished",
        ),
        pytest.param(
            CLASSIC,
            (5000, 3000),
            True,
            0,
            2000,
            False,
            id="docs/rules.md#classic › End of the game: exactly 5000 wins by 2000",
        ),
        pytest.param(
            CLASSIC,
            (3200, 5000),
            True,
            1,
            1800,
            False,
            id="docs/rules.md#classic › End of the game: side 1 reaches 5000, margin 1800",
        ),
        pytest.param(
            CLASSIC,
            (5200, 6150),
            True,
            1,
            950,
            False,
            id="docs/rules.md#classic › End of the game: both past 5000: higher wins by 950",
        ),
        pytest.param(
            CLASSIC,
            (7040, 5005),
            True,
            0,
            2035,
            False,
            id="docs/rules.md#classic › End of the game: both past 5000: margin 2035",
        ),
        pytest.param(
            CLASSIC,
            (4000, 4000),
            False,
            None,
            None,
            False,
            id="docs/rules.md#classic › End of the game: level below target: no tie yet",
        ),
        pytest.param(
            CLASSIC,
            (5000, 5000),
            False,
            None,
            None,
            True,
            id="docs/rules.md#classic › House rules: exact tie at 5000: play on, tie",
        ),
        pytest.param(
            CLASSIC,
            (6500, 6500),
            False,
            None,
            None,
            True,
            id="docs/rules.md#classic › End of the game, House rules: tie above target: play on",
        ),
        pytest.param(
            CLASSIC,
            (-200, 5050),
            True,
            1,
            5250,
            False,
            id="docs/rules.md#classic › End of the game: negative loser: margin 5050+200=5250",
        ),
        pytest.param(
            CLASSIC,
            (-350, -1200),
            False,
            None,
            None,
            False,
            id="docs/rules.md#classic › End of the game: negative totals allowed, not finished",
        ),
        pytest.param(
            TWO,
            (5000, 4995),
            True,
            0,
            5,
            False,
            id="docs/rules.md#classic-2p › End of the game: 2p reaches 5000, margin 5",
        ),
        pytest.param(
            TWO,
            (-800, 5500),
            True,
            1,
            6300,
            False,
            id="docs/rules.md#classic-2p › End of the game: 2p negative loser, margin 6300",
        ),
        pytest.param(
            TWO,
            (5105, 5105),
            False,
            None,
            None,
            True,
            id="docs/rules.md#classic-2p › End of the game, House rules: 2p tie above target: play on",
        ),
        pytest.param(
            CLASSIC_DRAW,
            (5000, 5000),
            True,
            None,
            None,
            True,
            id="docs/rules.md#classic › House rules: draw setting: ends drawn",
        ),
        pytest.param(
            CLASSIC_DRAW,
            (5500, 5500),
            True,
            None,
            None,
            True,
            id="docs/rules.md#classic › House rules: draw setting ends a tie at 5500",
        ),
        pytest.param(
            CLASSIC,
            (5000, 4200),
            True,
            0,
            800,
            False,
            id="docs/rules.md#classic › End of the game: reaching 5000 exactly ends it",
        ),
        pytest.param(
            CLASSIC,
            (4100, 5350),
            True,
            1,
            1250,
            False,
            id="docs/rules.md#classic › End of the game: side 1 past 5000 wins by 1250",
        ),
        pytest.param(
            CLASSIC,
            (6200, 5100),
            True,
            0,
            1100,
            False,
            id="docs/rules.md#classic › End of the game: both past the target: the higher wins",
        ),
        pytest.param(
            CLASSIC,
            (5500, 5500),
            False,
            None,
            None,
            True,
            id="docs/rules.md#classic › House rules: default: tie at 5500, play on",
        ),
        pytest.param(
            CLASSIC,
            (-300, 5000),
            True,
            1,
            5300,
            False,
            id="docs/rules.md#classic › End of the game: a negative total loses by the whole difference",
        ),
        pytest.param(
            CLASSIC,
            (-200, -800),
            False,
            None,
            None,
            False,
            id="docs/rules.md#classic › End of the game: negative totals, not finished",
        ),
    ],
)
def test_game_result(rules, totals, finished, winner, margin, tie):
    result = scoring.game_result(rules, totals)
    assert (result.finished, result.winner, result.margin, result.tie) == (finished, winner, margin, tie)


# ---------------------------------------------------------------------------------------------
# play(): a whole game hand by hand (docs/rules.md#classic › Opening minimum: minimum from the total at the start of a
# hand, docs/rules.md#classic › End of the game: end)

GAME = [
    # hand 1: side 0 100+500+300 = 900; side 1 never melded: -100-85 = -185
    (SideHand(went_out="normal", natural_canastas=1, melded_points=300), SideHand(red_threes=1, hand_points=85)),
    # hand 2: side 0 300+200-40 = 460; side 1 100+1000+200+500 = 1800
    (
        SideHand(mixed_canastas=1, melded_points=200, hand_points=40),
        SideHand(went_out="normal", natural_canastas=2, red_threes=2, melded_points=500),
    ),
    # hand 3: side 0 concealed 200+1000+300+800+700 = 3000; side 1 150-110 = 40
    (
        SideHand(went_out="concealed", natural_canastas=2, mixed_canastas=1, red_threes=4, melded_points=700),
        SideHand(melded_points=150, hand_points=110),
    ),
    # hand 4: side 0 100+500+200 = 800; side 1 300+100+250-60 = 590
    (
        SideHand(went_out="normal", natural_canastas=1, melded_points=200),
        SideHand(mixed_canastas=1, red_threes=1, melded_points=250, hand_points=60),
    ),
    # hand 5 (recorded after the game ended): side 0 -50; side 1 100+500+100 = 700
    (SideHand(hand_points=50), SideHand(went_out="normal", natural_canastas=1, melded_points=100)),
]
SCORES = [(900, -185), (460, 1800), (3000, 40), (800, 590), (-50, 700)]
TOTALS = [(900, -185), (1360, 1615), (4360, 1655), (5160, 2245), (5110, 2945)]
# docs/rules.md#classic › Opening minimum: next hand's minimum: 900→50, -185→15 (negative); 1360→50, 1615→90; 4360→120,
# 1655→90; 5160→120, 2245→90; 5110→120, 2945→90
MINIMUMS = [(50, 15), (50, 90), (120, 90), (120, 90), (120, 90)]


def test_play_running_totals_and_minimums_before_the_end():
    state = scoring.play(CLASSIC, GAME[:3])
    assert [tuple(s.score for s in h.scores) for h in state.hands] == SCORES[:3]
    assert [h.totals for h in state.hands] == TOTALS[:3]
    assert [h.opening_minimums for h in state.hands] == MINIMUMS[:3]
    assert state.totals == (4360, 1655)
    assert state.opening_minimums == (120, 90)
    assert not state.result.finished
    assert state.result.winner is None
    assert state.ended_after is None
    assert state.extra_hands == 0


def test_play_negative_total_opens_with_15():
    # docs/rules.md#classic › Opening minimum: side 1 is at -185 after hand 1, so it needs only 15 in hand 2.
    state = scoring.play(CLASSIC, GAME[:1])
    assert state.totals == (900, -185)
    assert state.opening_minimums == (50, 15)


def test_play_game_ends_after_the_deciding_hand():
    # docs/rules.md#classic › End of the game: 5160 ≥ 5000 after hand 4 (index 3); margin 5160-2245 = 2915.
    state = scoring.play(CLASSIC, GAME[:4])
    assert state.totals == (5160, 2245)
    assert state.result.finished
    assert (state.result.winner, state.result.margin) == (0, 2915)
    assert state.ended_after == 3
    assert state.extra_hands == 0
    assert [h.result.finished for h in state.hands] == [False, False, False, True]


def test_play_hands_after_the_deciding_one_are_extra():
    # docs/rules.md#classic › End of the game: the game ended after hand 4; hand 5 is counted in the totals shown but
    # flagged extra, and the result stays the one of hand 4 (winner 0 by 2915, not 5110-2945 = 2165).
    state = scoring.play(CLASSIC, GAME)
    assert [h.totals for h in state.hands] == TOTALS
    assert [h.opening_minimums for h in state.hands] == MINIMUMS
    assert state.totals == (5110, 2945)
    assert state.ended_after == 3
    assert state.extra_hands == 1
    assert state.result.finished
    assert (state.result.winner, state.result.margin) == (0, 2915)


def test_play_two_players_both_past_target_in_one_hand():
    # docs/rules.md#classic-2p › Going out, End of the game: from 4800 / 4700, player 0 goes out 100+1000+300 = 1400 →
    # 6200; player 1 500+300+250-20 = 1030 → 5730. Both past 5000: the higher wins by 470.
    hand = (
        SideHand(went_out="normal", natural_canastas=2, melded_points=300),
        SideHand(natural_canastas=1, mixed_canastas=1, melded_points=250, hand_points=20),
    )
    state = scoring.play(TWO, [hand], totals_before=(4800, 4700))
    assert state.totals == (6200, 5730)
    assert (state.result.finished, state.result.winner, state.result.margin) == (True, 0, 470)
    assert state.ended_after == 0


def test_play_two_players_tie_plays_on_then_next_hand_decides():
    # docs/rules.md#classic › House rules: default: level at 5000 → tie, play another hand.
    # hand 1 from 4500 / 4000: player 0 500+100-100 = 500 → 5000; player 1 500+300+200 = 1000 → 5000.
    # hand 2: player 0 100+1000+250 = 1350 → 6350; player 1 100+60-90 = 70 → 5070; margin 1280.
    hands = [
        (
            SideHand(natural_canastas=1, melded_points=100, hand_points=100),
            SideHand(natural_canastas=1, mixed_canastas=1, melded_points=200),
        ),
        (
            SideHand(went_out="normal", natural_canastas=2, melded_points=250),
            SideHand(red_threes=1, melded_points=60, hand_points=90),
        ),
    ]
    first = scoring.play(TWO, hands[:1], totals_before=(4500, 4000))
    assert first.totals == (5000, 5000)
    assert (first.result.finished, first.result.tie, first.ended_after) == (False, True, None)
    both = scoring.play(TWO, hands, totals_before=(4500, 4000))
    assert both.totals == (6350, 5070)
    assert (both.result.finished, both.result.winner, both.result.margin) == (True, 0, 1280)
    assert (both.ended_after, both.extra_hands) == (1, 0)


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


# ---------------------------------------------------------------------------------------------
# docs/rules.md#classic-3p: three players: a lone player against a partnership for the hand, each keeping his own total


def test_classic_three_players_red_threes_stay_personal():
    # docs/rules.md#classic-3p › Red and black threes: Bert alone and never melded: 4 red threes −800 − 20 = −820 (all
    # four held by one individual); Anna & Carl pool natural 500 + melded 300 = 800 each, without red threes
    rules = rules_of("classic-3p")
    sides = [{"natural_canastas": 1, "melded_points": 300}, {"red_threes": 4, "hand_points": 20}, {}]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == []
    assert [s.score for s in scoring.score_hand(rules, read, 1)] == [800, -820, 800]
    # each scores alone (stock ran out, nobody took the pile): Anna 800, Bert −820, Carl 0
    read, problems = checks.read_hand(rules, sides, stock_out=True, lone=None)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, None)] == [800, -820, 0]


def test_classic_three_players_partner_who_melded_nothing_keeps_the_partnership_sign():
    # docs/rules.md#classic-3p › House rules (a partner's red threes): Anna went out with a natural canasta (35 melded);
    # Carl, her partner, melded nothing himself (ticked "nothing melded") and holds a red three. The partnership has
    # melded, so his red three counts plus: 100 going out + 500 natural + 35 melded + 100 = 735; Anna 100 + 500 + 35 =
    # 635 (no red three of her own). Bert alone, nothing: 0.
    rules = rules_of("classic-3p")
    sides = [
        {"natural_canastas": 1, "melded_points": 35, "went_out": "normal"},
        {},
        {"red_threes": 1, "has_melded": False},
    ]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == []
    assert [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 735]


def test_classic_three_players_settings_of_15_3():
    # docs/rules.md#classic-3p › House rules, setting "own": Carl's red three counts by his own melds: he melded
    # nothing, so −100; the partnership's 635 as above: Carl 635 − 100 = 535, Anna 635
    rules = rules_of("classic-3p", {"lone_red_sign": "own"})
    sides = [
        {"natural_canastas": 1, "melded_points": 35, "went_out": "normal"},
        {},
        {"red_threes": 1, "has_melded": False},
    ]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 535]
    # docs/rules.md#classic-3p › House rules (all four red threes): Anna and Carl hold two red threes each. Default: the
    # all-four value is one player's, so each counts 2 red threes = 200: 635 + 200 = 835 each.
    sides = [{"natural_canastas": 1, "melded_points": 35, "went_out": "normal", "red_threes": 2}, {}, {"red_threes": 2}]
    read, problems = checks.read_hand(rules_of("classic-3p"), sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules_of("classic-3p"), read, 1)] == [835, 0, 835]
    # Setting "partnership": the four between them score 800, each his own two at 200 = 400: 1035 each
    rules = rules_of("classic-3p", {"lone_all_four": "partnership"})
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [1035, 0, 1035]


def test_classic_three_players_penalty_is_the_offenders_own():
    # docs/rules.md#classic-3p › Penalties: come off the offending side's score; in docs/rules.md#classic-3p ›
    # Penalties: the partners keep individual totals, so Carl's 100 penalty is his alone: Anna 635, Carl 635 − 100 = 535
    rules = rules_of("classic-3p")
    sides = [{"natural_canastas": 1, "melded_points": 35, "went_out": "normal"}, {}, {"penalties": 100}]
    read, problems = checks.read_hand(rules, sides, lone=1)
    assert problems == [] and [s.score for s in scoring.score_hand(rules, read, 1)] == [635, 0, 535]


def test_plausibility_three_players_partner_melds_freely():
    # docs/rules.md#classic-3p › Opening minimum: the partner who melds first meets his own minimum; the other then
    # melds freely. Anna (minimum 90) opened with 95, Carl added 20 (his own minimum 50): no warning for Carl.
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


# ---------------------------------------------------------------------------------------------
# Every rule set has its worked examples


def test_the_rule_sets_covered_by_the_worked_examples_exist():
    other_rule_sets = {v for file, rule_sets in FAMILIES.items() if file != Path(__file__).name for v in rule_sets}
    assert other_rule_sets | {"classic", "classic-2p", "classic-3p"} == set(rulesets.RULE_SETS)
    assert set(FAMILIES[Path(__file__).name]) == {"classic", "classic-2p", "classic-3p"}
    assert all((Path(__file__).parent / file).exists() for file in FAMILIES)
