"""Tests of scorekeeper.core.checks.read_hand: reading an API-shaped hand entry and refusing miscounts.

Classic 4 players (docs/rules.md#classic) and 2 players (docs/rules.md#classic-2p); citations name a heading of
docs/rules.md as `docs/rules.md#<rule set> › <heading>`.
Each case names the (side, field) of every Problem it expects, and words its message must carry.
"""

import pytest

from scorekeeper.core import checks, rulesets, scoring
from scorekeeper.core.scoring import SideHand

CLASSIC = rulesets.configure(rulesets.get("classic"))
TWO = rulesets.configure(rulesets.get("classic-2p"))


def side(**fields):
    """One side's raw entry in API shape, zeros unless given; a *_cards entry replaces its *_points."""
    raw = {
        "melded_points": 0,
        "hand_points": 0,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": 0,
        "went_out": None,
    }
    if "melded_cards" in fields:
        del raw["melded_points"]
    if "hand_cards" in fields:
        del raw["hand_points"]
    raw.update(fields)
    return raw


def _order(key):
    s, f = key
    return (s is not None, -1 if s is None else s, f)


def assert_sentence(message, *words):
    """A message a person can act on: a sentence with the given words, no code leaking into it."""
    assert isinstance(message, str)
    text = message.strip()
    assert len(text.split()) >= 3, message
    assert text[0].isalnum(), message
    assert text.endswith("."), message
    for leak in ("None", "{", "}", "Traceback", "<"):
        assert leak not in text, message
    for word in words:
        assert word.lower() in text.lower(), f"{word!r} not in {message!r}"


def check(rules, raw_sides, expected):
    """read_hand finds exactly the expected problems: [(side, field, [words in the message])]."""
    _sides, problems = checks.read_hand(rules, raw_sides)
    assert all(isinstance(p, checks.Problem) for p in problems)
    got = sorted(((p.side, p.field) for p in problems), key=_order)
    assert got == sorted(((s, f) for s, f, _ in expected), key=_order), [p.as_dict() for p in problems]
    for s, f, words in expected:
        for p in problems:
            if (p.side, p.field) == (s, f):
                assert_sentence(p.message, *words)
    return problems


PROBLEMS = [
    # --- going out (docs/rules.md#classic › Going out; docs/rules.md#classic-2p) ---
    pytest.param(
        CLASSIC,
        [
            side(went_out="normal", natural_canastas=1, melded_points=200),
            side(went_out="concealed", natural_canastas=1, melded_points=100),
        ],
        [(0, "went_out", ["one side"]), (1, "went_out", ["one side"])],
        id="docs/rules.md#classic › Going out: both sides went out",
    ),
    pytest.param(
        CLASSIC,
        [side(went_out="normal", melded_points=150), side()],
        [(0, "went_out", ["1", "canasta"])],
        id="docs/rules.md#classic › Going out: classic going out needs 1 canasta, has 0",
    ),
    pytest.param(
        CLASSIC,
        [side(), side(went_out="concealed", melded_points=120)],
        [(1, "went_out", ["1", "canasta"])],
        id="docs/rules.md#classic › Going out: concealed going out without a canasta",
    ),
    pytest.param(
        TWO,
        [side(went_out="normal", natural_canastas=1, melded_points=200), side()],
        [(0, "went_out", ["2", "canasta"])],
        id="docs/rules.md#classic-2p › Going out: 2p going out needs 2 canastas, has 1",
    ),
    pytest.param(
        TWO,
        [side(), side(went_out="normal", melded_points=150)],
        [(1, "went_out", ["2", "canasta"])],
        id="docs/rules.md#classic-2p › Going out: 2p going out needs 2 canastas, has 0",
    ),
    pytest.param(
        TWO,
        [side(went_out="normal", natural_canastas=2, melded_points=200, hand_points=10), side(hand_points=50)],
        [(0, "hand_points", ["hand"])],
        id="docs/rules.md#classic-2p › Going out: 2p player who went out has cards in hand",
    ),
    pytest.param(
        CLASSIC,
        [side(went_out="yes", natural_canastas=1, melded_points=100), side()],
        [(0, "went_out", ["normal", "concealed"])],
        id="docs/rules.md#classic › Going out: went_out not a known way of going out",
    ),
    # --- red threes: the 108-card deck holds 4 (docs/rules.md#classic › Card values) ---
    pytest.param(
        CLASSIC,
        [side(red_threes=3, melded_points=50), side(red_threes=2)],
        [(0, "red_threes", ["4", "5"]), (1, "red_threes", ["4", "5"])],
        id="docs/rules.md#classic › Card values, Red and black threes: five red threes in all",
    ),
    pytest.param(
        TWO,
        [side(red_threes=1), side(red_threes=4, melded_points=60)],
        [(0, "red_threes", ["4", "5"]), (1, "red_threes", ["4", "5"])],
        id="docs/rules.md#classic-2p › Red and black threes: 2p five red threes in all",
    ),
    pytest.param(
        CLASSIC,
        [side(red_threes=5, melded_points=50), side()],
        [(0, "red_threes", ["4"])],
        id="docs/rules.md#classic › Card values: one side with five red threes",
    ),
    # --- point figures are multiples of 5 (docs/rules.md › How a hand is scored: invariants) ---
    pytest.param(
        CLASSIC,
        [side(melded_points=42), side()],
        [(0, "melded_points", ["multiple of 5", "42"])],
        id="docs/rules.md › How a hand is scored: melded points 42 not a multiple of 5",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points=50), side(hand_points=33)],
        [(1, "hand_points", ["multiple of 5", "33"])],
        id="docs/rules.md › How a hand is scored: hand points 33 not a multiple of 5",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points=50, penalties=12), side()],
        [(0, "penalties", ["multiple of 5", "12"])],
        id="docs/rules.md › How a hand is scored: 12 not a multiple of 5",
    ),
    # --- negative numbers (docs/rules.md#classic › Card values: M and H are ≥ 0; counts cannot be negative) ---
    pytest.param(
        CLASSIC,
        [side(melded_points=-10), side()],
        [(0, "melded_points", ["negative"])],
        id="docs/rules.md#classic: negative melded points",
    ),
    pytest.param(
        CLASSIC,
        [side(), side(hand_points=-5)],
        [(1, "hand_points", ["negative"])],
        id="docs/rules.md#classic: negative hand points",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points=50, penalties=-50), side()],
        [(0, "penalties", ["negative"])],
        id="docs/rules.md#classic › Penalties: negative penalties",
    ),
    pytest.param(
        CLASSIC,
        [side(red_threes=-1), side()],
        [(0, "red_threes", ["negative"])],
        id="docs/rules.md#classic › Red and black threes: negative red threes",
    ),
    pytest.param(
        TWO,
        [side(natural_canastas=-1, melded_points=50), side()],
        [(0, "natural_canastas", ["negative"])],
        id="docs/rules.md#classic-2p › Canastas: 2p negative canastas",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points="-20"), side()],
        [(0, "melded_points", ["negative"])],
        id="docs/rules.md#classic: negative number sent as text",
    ),
    # --- not numbers ---
    pytest.param(
        CLASSIC,
        [side(melded_points="abc"), side()],
        [(0, "melded_points", ["number"])],
        id="docs/rules.md#classic: melded points 'abc'",
    ),
    pytest.param(
        CLASSIC,
        [side(natural_canastas=True, melded_points=70), side()],
        [(0, "natural_canastas", ["number"])],
        id="docs/rules.md#classic › Canastas: True is not a number",
    ),
    pytest.param(
        CLASSIC,
        [side(), side(hand_points=1.5)],
        [(1, "hand_points", ["number"])],
        id="docs/rules.md#classic: hand points 1.5",
    ),
    pytest.param(
        CLASSIC,
        [side(red_threes=[1]), side()],
        [(0, "red_threes", ["number"])],
        id="docs/rules.md#classic › Red and black threes: red threes a list",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points=50, penalties="ten"), side()],
        [(0, "penalties", ["number"])],
        id="docs/rules.md#classic › Penalties: 'ten'",
    ),
    pytest.param(
        CLASSIC,
        [side(natural_canastas=1, melded_points="abc"), side()],
        [(0, "melded_points", ["number"])],
        id="docs/rules.md#classic: unreadable melded points keep only their own message",
    ),
    # --- melded points must hold the canastas (docs/rules.md#classic › Canastas): natural ≥ 7×5 = 35, mixed ≥ 6×5 + 20
    # = 50 ---
    pytest.param(
        CLASSIC,
        [side(natural_canastas=1, mixed_canastas=1, melded_points=80), side()],
        [(0, "melded_points", ["85", "80"])],
        id="docs/rules.md#classic › Canastas: natural+mixed need 85, 80 refused",
    ),
    pytest.param(
        CLASSIC,
        [side(natural_canastas=1, melded_points=30), side()],
        [(0, "melded_points", ["35", "30"])],
        id="docs/rules.md#classic › Canastas: natural needs 35, 30 refused",
    ),
    pytest.param(
        CLASSIC,
        [side(), side(mixed_canastas=1, melded_points=45)],
        [(1, "melded_points", ["50", "45"])],
        id="docs/rules.md#classic › Canastas: mixed needs 50, 45 refused",
    ),
    pytest.param(
        TWO,
        [side(natural_canastas=2, melded_points=65), side()],
        [(0, "melded_points", ["70", "65"])],
        id="docs/rules.md#classic-2p › Canastas: two naturals need 70, 65 refused",
    ),
    pytest.param(
        CLASSIC,
        [side(natural_canastas=1), side()],
        [(0, "melded_points", ["35"])],
        id="docs/rules.md#classic › Canastas: a canasta with no melded points",
    ),
    # --- has_melded (docs/rules.md#classic › Canastas: cross-check: hasMelded false → M = 0 and no canastas) ---
    pytest.param(
        CLASSIC,
        [side(has_melded=False, melded_points=60), side()],
        [(0, "has_melded", ["melded"])],
        id="docs/rules.md#classic: has_melded false with melded points",
    ),
    pytest.param(
        CLASSIC,
        [side(), side(has_melded=False, natural_canastas=1, melded_points=70)],
        [(1, "has_melded", ["melded"])],
        id="docs/rules.md#classic › Canastas: has_melded false with a canasta",
    ),
    pytest.param(
        CLASSIC,
        [side(has_melded="no"), side()],
        [(0, "has_melded", ["true", "false"])],
        id="docs/rules.md#classic: has_melded not a boolean",
    ),
    # --- cards the deck holds (docs/rules.md#classic › Card values: 4 jokers, 4 black threes) ---
    pytest.param(
        CLASSIC,
        [side(melded_cards={"jokers": 3, "high": 4}), side(melded_cards={"jokers": 2, "low": 3})],
        [(0, "melded_cards.jokers", ["4", "5"]), (1, "melded_cards.jokers", ["4", "5"])],
        id="docs/rules.md#classic › Card values: five jokers melded across both sides",
    ),
    pytest.param(
        CLASSIC,
        [
            side(melded_cards={"jokers": 2, "high": 3}, hand_cards={"jokers": 1}),
            side(hand_cards={"jokers": 2, "low": 1}),
        ],
        [
            (0, "melded_cards.jokers", ["4", "5"]),
            (0, "hand_cards.jokers", ["4", "5"]),
            (1, "hand_cards.jokers", ["4", "5"]),
        ],
        id="docs/rules.md#classic › Card values: five jokers melded and in hand",
    ),
    pytest.param(
        TWO,
        [side(hand_cards={"jokers": 2}), side(hand_cards={"jokers": 3})],
        [(0, "hand_cards.jokers", ["4", "5"]), (1, "hand_cards.jokers", ["4", "5"])],
        id="docs/rules.md#classic-2p › Card values: 2p five jokers in hand",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_cards={"jokers": 5, "high": 3}), side()],
        [(0, "melded_cards.jokers", ["4"])],
        id="docs/rules.md#classic › Card values: one side melds five jokers",
    ),
    pytest.param(
        CLASSIC,
        [
            side(went_out="normal", natural_canastas=1, melded_cards={"high": 7, "black_threes": 3}),
            side(hand_cards={"black_threes": 2}),
        ],
        [(0, "melded_cards.black_threes", ["4", "5"]), (1, "hand_cards.black_threes", ["4", "5"])],
        id="docs/rules.md#classic › Card values: five black threes in all",
    ),
    # --- black threes melded only when going out, as a set of 3 or 4 (docs/rules.md#classic › Canastas) ---
    pytest.param(
        CLASSIC,
        [
            side(melded_cards={"high": 5, "black_threes": 3}),
            side(went_out="normal", natural_canastas=1, melded_points=200),
        ],
        [(0, "melded_cards.black_threes", ["black threes", "going out"])],
        id="docs/rules.md#classic › Canastas: black threes melded by a side that did not go out",
    ),
    pytest.param(
        TWO,
        [side(), side(melded_cards={"high": 4, "black_threes": 3})],
        [(1, "melded_cards.black_threes", ["black threes", "going out"])],
        id="docs/rules.md#classic-2p › Red and black threes, Canastas: 2p black threes melded without going out",
    ),
    pytest.param(
        CLASSIC,
        [side(went_out="normal", natural_canastas=1, melded_cards={"high": 7, "black_threes": 2}), side()],
        [(0, "melded_cards.black_threes", ["3", "4"])],
        id="docs/rules.md#classic › Canastas: black threes as a pair, not a set of 3 or 4",
    ),
    # --- shape: number of sides, unknown fields (docs/rules.md#classic › Card values: two partnerships,
    # docs/rules.md#classic-2p: two players, docs/rules.md#classic: fields) ---
    pytest.param(CLASSIC, [side(foo=1), side()], [(0, "foo", ["foo"])], id="docs/rules.md#classic: unknown field"),
    pytest.param(
        CLASSIC,
        [side(), side(wild_canastas=1)],
        [(1, "wild_canastas", ["wild_canastas"])],
        id="docs/rules.md#classic › House rules: wild canastas unknown without the wild-melds setting",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_cards={"queens": 2}), side()],
        [(0, "melded_cards.queens", ["queens"])],
        id="docs/rules.md#classic › Card values: unknown card group",
    ),
    pytest.param(
        CLASSIC,
        [side(melded_points=50, melded_cards={"high": 5}), side()],
        [(0, "melded_points", ["melded_points", "melded_cards"])],
        id="docs/rules.md#classic › Card values: both points and cards given",
    ),
    pytest.param(
        CLASSIC, [side(), "x"], [(1, "side", ["side"])], id="docs/rules.md#classic: a side that is not an object"
    ),
]


@pytest.mark.parametrize("rules, raw_sides, expected", PROBLEMS)
def test_problems(rules, raw_sides, expected):
    check(rules, raw_sides, expected)


@pytest.mark.parametrize(
    "rules, raw_sides",
    [
        pytest.param(CLASSIC, [side()], id="docs/rules.md#classic › Card values: classic one side"),
        pytest.param(CLASSIC, [side(), side(), side()], id="docs/rules.md#classic › Card values: classic three sides"),
        pytest.param(TWO, [side(), side(), side()], id="docs/rules.md#classic-2p: 2p three sides"),
        pytest.param(TWO, [], id="docs/rules.md#classic-2p: 2p no sides"),
        pytest.param(CLASSIC, None, id="docs/rules.md#classic › Card values: sides missing"),
        pytest.param(CLASSIC, "ab", id="docs/rules.md#classic › Card values: sides a string"),
        pytest.param(CLASSIC, {"0": side(), "1": side()}, id="docs/rules.md#classic › Card values: sides an object"),
    ],
)
def test_wrong_number_of_sides(rules, raw_sides):
    sides, problems = checks.read_hand(rules, raw_sides)
    assert sides == []
    assert [(p.side, p.field) for p in problems] == [(None, "sides")]
    assert_sentence(problems[0].message, "2", "sides")


@pytest.mark.parametrize("value", ["--5", "²"])
def test_odd_text_is_a_problem_not_a_crash(value):
    check(CLASSIC, [side(melded_points=value), side()], [(0, "melded_points", ["number"])])


# ---------------------------------------------------------------------------------------------
# Valid entries: no problems, and the SideHand values the scorer gets (card counts by docs/rules.md#classic › Card
# values)

VALID = [
    pytest.param(
        CLASSIC,
        [
            side(
                melded_cards={"jokers": 1, "twos_aces": 3, "high": 10, "low": 6, "black_threes": 4},
                hand_cards={},
                natural_canastas=1,
                mixed_canastas=1,
                red_threes=1,
                went_out="normal",
            ),
            side(melded_points=120, hand_points=85, red_threes=2, penalties=100),
        ],
        # docs/rules.md#classic › Card values: 50 + 3×20 + 10×10 + 6×5 + 4×5 = 50+60+100+30+20 = 260; a set of 4 black
        # threes on going out (docs/rules.md#classic › Canastas)
        [
            SideHand(
                melded_points=260, hand_points=0, natural_canastas=1, mixed_canastas=1, red_threes=1, went_out="normal"
            ),
            SideHand(melded_points=120, hand_points=85, red_threes=2, penalties=100),
        ],
        id="docs/rules.md#classic › Going out: classic: counts and points, out with 4 black threes",
    ),
    pytest.param(
        CLASSIC,
        [
            {
                "melded_points": "150",
                "hand_points": "",
                "natural_canastas": "1",
                "mixed_canastas": "0",
                "red_threes": "0",
                "went_out": "concealed",
            },
            {"hand_points": 40, "red_threes": 1, "has_melded": False},
        ],
        [
            SideHand(melded_points=150, natural_canastas=1, went_out="concealed"),
            SideHand(hand_points=40, red_threes=1, has_melded=False),
        ],
        id="docs/rules.md#classic › Red and black threes: classic: numbers as text, never melded with a red three",
    ),
    pytest.param(
        CLASSIC,
        [
            side(natural_canastas=1, melded_points=35, red_threes=2),
            side(mixed_canastas=1, melded_points=50, red_threes=2),
        ],
        [
            SideHand(melded_points=35, natural_canastas=1, red_threes=2),
            SideHand(melded_points=50, mixed_canastas=1, red_threes=2),
        ],
        id="docs/rules.md#classic › Canastas, Card values: boundaries: natural 35, mixed 50, 4 red threes in all",
    ),
    pytest.param(
        CLASSIC,
        [
            side(melded_cards={"jokers": 3, "high": 2}, hand_cards={"black_threes": 1}),
            side(melded_cards={"jokers": 1, "low": 2}, hand_cards={"black_threes": 3}),
        ],
        # 150+20 = 170 and 50+10 = 60 melded; black threes 5 each in hand: 5 and 15; 4 jokers in all
        [SideHand(melded_points=170, hand_points=5), SideHand(melded_points=60, hand_points=15)],
        id="docs/rules.md#classic › Card values: boundary: exactly 4 jokers and 4 black threes in all",
    ),
    pytest.param(
        CLASSIC,
        [side(went_out="normal", natural_canastas=1, melded_points=200, hand_points=30), side(hand_points=60)],
        [SideHand(melded_points=200, hand_points=30, natural_canastas=1, went_out="normal"), SideHand(hand_points=60)],
        id="docs/rules.md#classic › Going out: classic 4p: the partner of the player who went out may hold cards",
    ),
    pytest.param(
        TWO,
        [
            side(went_out="normal", natural_canastas=1, mixed_canastas=1, melded_points=85, red_threes=4),
            side(hand_cards={"jokers": 1, "twos_aces": 2, "high": 3, "low": 4, "black_threes": 1}),
        ],
        # 50+40+30+20+5 = 145
        [
            SideHand(melded_points=85, natural_canastas=1, mixed_canastas=1, red_threes=4, went_out="normal"),
            SideHand(hand_points=145),
        ],
        id="docs/rules.md#classic-2p › Going out: 2p: out with 2 canastas and 85 melded (accepted), hand counted",
    ),
    pytest.param(
        TWO,
        [
            side(went_out="concealed", natural_canastas=2, melded_points=140),
            side(melded_points=75, hand_points=95, went_out=""),
        ],
        [
            SideHand(melded_points=140, natural_canastas=2, went_out="concealed"),
            SideHand(melded_points=75, hand_points=95),
        ],
        id="docs/rules.md#classic-2p › Going out: 2p concealed with two naturals; empty went_out means not out",
    ),
]


@pytest.mark.parametrize("rules, raw_sides, expected", VALID)
def test_valid_entry(rules, raw_sides, expected):
    sides, problems = checks.read_hand(rules, raw_sides)
    assert problems == []
    assert sides == expected


def test_a_number_of_thousands_of_digits_is_refused_not_echoed():
    # more digits than Python turns into text (4300): the message must still be writable
    rules = rulesets.configure(rulesets.get("classic"), {})
    _, problems = checks.read_hand(
        rules, [{"melded_points": 9 * 10**5000, "red_threes": 1e308}, {"hand_points": "9" * 5000}]
    )
    assert {(p.side, p.field) for p in problems} >= {(0, "melded_points"), (0, "red_threes"), (1, "hand_points")}
    assert all(len(p.message) < 200 for p in problems)


def test_all_the_sides_cards_come_from_one_deck():
    # docs/rules.md#classic-3p › Card values: 108 cards, 1180 card points without red threes. Each side's figure alone
    # is possible, but 1000 + 100 melded and 100 + 0 in hand come to 1200 in all.
    rules = rulesets.configure(rulesets.get("classic"), {})
    _, problems = checks.read_hand(
        rules, [{"melded_points": 1000, "hand_points": 100}, {"melded_points": 100}], stock_out=True
    )
    assert {(p.side, p.field) for p in problems} == {(0, "melded_points"), (0, "hand_points"), (1, "melded_points")}
    assert "1200" in problems[0].message and "1180" in problems[0].message
    _, problems = checks.read_hand(
        rules, [{"melded_points": 1000, "hand_points": 80}, {"melded_points": 100}], stock_out=True
    )
    assert problems == []  # 1180 exactly
    # 104 cards without red threes make at most 14 canastas: 8 + 7 is one too many
    _, problems = checks.read_hand(
        rules,
        [{"natural_canastas": 8, "melded_points": 700}, {"mixed_canastas": 7, "melded_points": 350}],
        stock_out=True,
    )
    assert {(p.side, p.field) for p in problems if "canastas in all" in p.message} == {
        (0, "natural_canastas"),
        (1, "mixed_canastas"),
    }


def test_six_jokers_entered_across_both_sides_are_a_problem_of_both_sides():
    # docs/rules.md#classic › Card values: the 108-card deck holds 4 jokers; 3 melded by each side are 6 in all.
    # Neither side alone entered too many: the excess is the deck's, so the sentence is each side's, the same
    # for both (the page says it once, naming both sides: tests/test_views.py).
    problems = check(
        CLASSIC,
        [side(melded_cards={"jokers": 3, "high": 4}), side(melded_cards={"jokers": 3, "low": 4})],
        [(0, "melded_cards.jokers", ["4", "6"]), (1, "melded_cards.jokers", ["4", "6"])],
    )
    assert len({p.message for p in problems}) == 1
    assert problems[0].message == "The deck holds 4 cards of the kind “Jokers”; 6 are entered in all."


def test_black_threes_left_in_hand_are_counted_with_the_7_to_4():
    # docs/rules.md#classic › Card values: a black three left in a hand counts its 5, as a 7 to 4 does; counting
    # cards, the 7 to 4 in hand hold them too, up to the deck's 32 sevens to fours and 4 black threes together.
    # Side 0 went out melding 30 sevens to fours and 3 black threes (with a natural canasta: 500 + 100 + 15 × 10
    # + 30 × 5 + 3 × 5 = 915); side 1 holds 3 of "7 to 4, black 3s": 2 sevens to fours and the last black three
    # (−15). 30 + 3 + 3 = 36: possible.
    out = side(went_out="normal", natural_canastas=1, melded_cards={"high": 15, "low": 30, "black_threes": 3})
    sides, problems = checks.read_hand(CLASSIC, [out, side(hand_cards={"low": 3})])
    assert problems == []
    assert [scoring.score_side(CLASSIC, s).score for s in sides] == [915, -15]
    # a fourth in that hand is one card more than the deck's 36 of the two kinds together: said beside every
    # count in the sum, the black threes melded too
    problems = check(
        CLASSIC,
        [out, side(hand_cards={"low": 4})],
        [
            (0, "melded_cards.low", ["36", "37"]),
            (0, "melded_cards.black_threes", ["36", "37"]),
            (1, "hand_cards.low", ["36", "37"]),
        ],
    )
    assert problems[0].message == "The deck holds 36 cards of the kind “7 to 4, black 3s”; 37 are entered in all."
    # melded, a 7 to 4 is only a 7 to 4: 20 and 15 melded are more than the deck's 32, with no black three anywhere
    check(
        CLASSIC,
        [side(melded_cards={"low": 20}), side(melded_cards={"low": 15})],
        [(0, "melded_cards.low", ["32", "35"]), (1, "melded_cards.low", ["32", "35"])],
    )
    # one hand may hold the 32 and the 4 (at most 36 of "7 to 4, black 3s")
    check(CLASSIC, [side(), side(hand_cards={"low": 37})], [(1, "hand_cards.low", ["36", "7 to 4, black 3s"])])
    # 32 and 6 melded: over the deck's 32, said once beside each count, not again as over the 36 of
    # "7 to 4, black 3s" with another deck's size (a review at the table found both)
    check(
        CLASSIC,
        [side(melded_cards={"low": 32}), side(melded_cards={"low": 6})],
        [(0, "melded_cards.low", ["32", "38"]), (1, "melded_cards.low", ["32", "38"])],
    )


def test_black_threes_with_a_value_of_their_own_are_counted_apart():
    # docs/rules.md#canadian › Card values: a black three left in hand costs 100, not its 5: the 7 to 4 in hand
    # are only those (the deck's 48 of 162 cards). docs/rules.md, "A table's own rules": a table that gives black
    # threes 10 points counts them apart too.
    canadian = rulesets.configure(rulesets.get("canadian"))
    assert not canadian.black_threes_with_low_in_hand
    check(canadian, [side(), side(hand_cards={"low": 49})], [(1, "hand_cards.low", ["48", "7 to 4"])])
    tens = rulesets.configure(rulesets.get("classic"), {"card_black_threes": 10})
    assert CLASSIC.black_threes_with_low_in_hand and not tens.black_threes_with_low_in_hand
    check(tens, [side(), side(hand_cards={"low": 33})], [(1, "hand_cards.low", ["32", "7 to 4"])])


# ---------------------------------------------------------------------------------------------
# Three impossible entries the checks refuse, as worked examples with the heading of docs/rules.md each comes from.

AUSTRIAN = rulesets.get("austrian")
MODERN = rulesets.configure(rulesets.get("modern"))
THREE = rulesets.configure(rulesets.get("classic-3p"))


def _offered(rules):
    """The ways of going out the hand form offers for this rule set and seating."""
    from scorekeeper.web import forms

    return [choice.value for choice in forms.side_form_class(rules).went_out.kwargs["choices"]]


@pytest.mark.parametrize("layout", ["2", "3"])
def test_glatt_ausmachen_needs_a_partner(layout):
    # docs/rules.md#austrian › Going out: glatt ausmachen is +100 more (200 in all) "Falls der Partner … bereits einen
    # Canasta herausgelegt hat" (4p). docs/rules.md#austrian › Card values: with 2 or 3 players each plays for himself:
    # there is no partner, so it is neither offered nor accepted; going out normally is.
    rules = rulesets.configure(AUSTRIAN, layout=layout)
    others = [side() for _ in range(rules.sides - 1)]
    check(
        rules,
        [side(went_out="glatt", natural_canastas=1, melded_points=100), *others],
        [(0, "went_out", ["Glatt ausmachen", "partner"])],
    )
    assert _offered(rules) == ["no", "normal", "hand_canasta"]
    check(rules, [side(went_out="normal", natural_canastas=1, melded_points=100), *others], [])


@pytest.mark.parametrize("layout", ["4", "5", "6-rotating"])
def test_glatt_ausmachen_with_partners(layout):
    # docs/rules.md#austrian: with partners (4p, and the 5p/6p teams of whom two play each hand, docs/rules.md#austrian
    # › Card values): out glatt with a natural canasta and 100 melded: 100 going out + 100 glatt + 500 + 100 = 800
    rules = rulesets.configure(AUSTRIAN, layout=layout)
    sides, problems = checks.read_hand(rules, [side(went_out="glatt", natural_canastas=1, melded_points=100), side()])
    assert problems == []
    assert scoring.score_side(rules, sides[0]).score == 800
    assert "glatt" in _offered(rules)


@pytest.mark.parametrize(
    "raw_sides, expected",
    [
        pytest.param(
            # docs/rules.md#modern › Canastas: a meld has 3 to 7 cards, so an incomplete pure-aces meld has at least 3
            # aces; docs/rules.md#modern › Penalties: each player holding "drei oder mehr Asse" has 3 more. 3 + 3 + 3 =
            # 9 > 8 aces (docs/rules.md#modern › End of the game: 108 cards, docs/rules.md#modern › Penalties: "3 + 3 +
            # 3 = 9 > 8 aces in a 108-card deck").
            [side(incomplete_aces=1, holding_aces=2, melded_points=60, hand_points=120), side()],
            [(0, "incomplete_aces", ["8", "aces", "9"]), (0, "holding_aces", ["8", "aces", "9"])],
            id="docs/rules.md#modern › Penalties: incomplete aces meld and both players holding three aces",
        ),
        pytest.param(
            # the same count across the two teams: 3 + 3 (team 1) + 3 (team 2) = 9 > 8
            [
                side(incomplete_aces=1, holding_aces=1, melded_points=60, hand_points=60),
                side(holding_aces=1, hand_points=60),
            ],
            [
                (0, "incomplete_aces", ["8", "aces", "9"]),
                (0, "holding_aces", ["8", "aces", "9"]),
                (1, "holding_aces", ["8", "aces", "9"]),
            ],
            id="docs/rules.md#modern: aces across both teams",
        ),
        pytest.param(
            # 7s likewise (docs/rules.md#modern › Canastas: "3–7 sevens"): two incomplete 7s melds (3 + 3) and a player
            # with three 7s
            [
                side(incomplete_sevens=1, melded_points=15),
                side(incomplete_sevens=1, holding_sevens=1, melded_points=15, hand_points=15),
            ],
            [
                (0, "incomplete_sevens", ["8", "7s", "9"]),
                (1, "incomplete_sevens", ["8", "7s", "9"]),
                (1, "holding_sevens", ["8", "7s", "9"]),
            ],
            id="docs/rules.md#modern › Canastas: two incomplete 7s melds and a player holding three 7s",
        ),
        pytest.param(
            # docs/rules.md#modern › Canastas: at most 7 cards a meld: a natural canasta of aces or 7s is 7 of one rank
            # and leaves 1 of it; the other team's incomplete aces and 7s melds need 3 of each, so neither rank has room
            [
                side(natural_aces_sevens_canastas=1, melded_points=140),
                side(incomplete_aces=1, incomplete_sevens=1, melded_points=75),
            ],
            [
                (0, "natural_aces_sevens_canastas", ["7", "8"]),
                (1, "incomplete_aces", ["7"]),
                (1, "incomplete_sevens", ["7"]),
            ],
            id="docs/rules.md#modern › Canastas: a canasta of aces or 7s and incomplete melds of both",
        ),
    ],
)
def test_modern_aces_and_sevens_the_deck_cannot_hold(raw_sides, expected):
    check(MODERN, raw_sides, expected)


def test_modern_aces_and_sevens_the_deck_can_hold():
    # 3 + 3 = 6 aces ≤ 8: an incomplete pure-aces meld (60) and one player holding three aces (60).
    # docs/rules.md#modern › Canastas: with 0 canastas: −2500 − 1500 − 60 melded (minus without a canasta) − 60 in hand
    # = −4120
    sides, problems = checks.read_hand(
        MODERN, [side(incomplete_aces=1, holding_aces=1, melded_points=60, hand_points=60), side()]
    )
    assert problems == []
    assert scoring.score_side(MODERN, sides[0]).score == -4120
    # a canasta of 7s (7 of 8) and the other team's incomplete aces meld (3 of 8) fit
    _, problems = checks.read_hand(
        MODERN,
        [side(natural_aces_sevens_canastas=1, melded_points=35), side(incomplete_aces=1, melded_points=60)],
    )
    assert problems == []


def test_has_melded_with_nothing_melded_is_refused():
    # docs/rules.md#classic › Red and black threes: "Red 3s are not melds: a side whose only cards on the table are red
    # 3s has hasMelded = false". Two red threes and nothing melded score RT(2, false) = −200; "has melded" would make
    # them +200.
    problems = check(
        CLASSIC, [side(has_melded=True, red_threes=2), side(melded_points=60)], [(0, "has_melded", ["melded"])]
    )
    assert "red threes" in problems[0].message
    sides, problems = checks.read_hand(CLASSIC, [side(red_threes=2), side(melded_points=60)])
    assert problems == [] and scoring.score_side(CLASSIC, sides[0]).score == -200
    # with a meld (50) the tick is right: +200 + 50 = 250
    sides, problems = checks.read_hand(CLASSIC, [side(has_melded=True, red_threes=2, melded_points=50), side()])
    assert problems == [] and scoring.score_side(CLASSIC, sides[0]).score == 250


def test_has_melded_of_a_classic_3p_partner_counts_the_partnership():
    # docs/rules.md#classic-3p › Red and black threes: the partners pool their melds, entered under either of them; each
    # keeps his own red threes. Player 2's "has melded" stands on player 1's melds for the partnership (lone player: 0).
    raw = [side(melded_points=90), side(natural_canastas=1, melded_points=120), side(has_melded=True, red_threes=1)]
    _, problems = checks.read_hand(THREE, raw, lone=0)
    assert problems == []
    # each scoring alone (nobody took the pile), player 2 has melded nothing himself
    _, problems = checks.read_hand(THREE, raw, lone=None)
    assert [(p.side, p.field) for p in problems] == [(2, "has_melded")]
    # nor when the partnership has melded nothing at all
    raw[1] = side(red_threes=1)
    _, problems = checks.read_hand(THREE, raw, lone=0)
    assert [(p.side, p.field) for p in problems] == [(2, "has_melded")]
