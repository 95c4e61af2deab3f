"""Tables more than one family of rule sets uses: seatings, card values, decks, opening tables,
the classic canastas and ways of going out, and the house rules several rule sets offer."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import (
    CanastaKind,
    Deduction,
    GoingOut,
    Layout,
    OpeningRow,
    RuleSet,
    Setting,
    TieRule,
    option_setter,
)


def seats(*sides: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Sides as tuples of seat indexes."""
    return tuple(tuple(side) for side in sides)


# Seating: players are entered in seat order going round the table to the left.
ALONE_2 = Layout("2", N_("2 players, each for himself"), 2, seats((0,), (1,)))
ALONE_3 = Layout("3", N_("3 players, each for himself"), 3, seats((0,), (1,), (2,)))
PAIRS_4 = Layout("4", N_("4 players, 2 partnerships (partners opposite)"), 4, seats((0, 2), (1, 3)))
PAIR_V_THREE_5 = Layout(
    "5",
    N_("5 players: a pair against three who take turns sitting out"),
    5,
    seats((0, 1), (2, 3, 4)),
    sit_out=1,
    playing=2,
)
THREE_V_THREE_ROTATING_6 = Layout(
    "6-rotating",
    N_("6 players: three against three, two of each side play each hand"),
    6,
    seats((0, 2, 4), (1, 3, 5)),
    sit_out=1,
    playing=2,
)
THREE_PAIRS_6 = Layout(
    "6-pairs", N_("6 players: three partnerships of 2 (partners opposite)"), 6, seats((0, 3), (1, 4), (2, 5))
)
TWO_TRIOS_6 = Layout("6-trios", N_("6 players: two teams of 3 (alternate seats)"), 6, seats((0, 2, 4), (1, 3, 5)))


def frozen_table(mapping: dict[str, int]) -> Mapping[str, int]:
    """A read-only view of a table, so a rule set cannot be changed by accident."""
    return MappingProxyType(dict(mapping))


# ---------------------------------------------------------------------------------------------
# Shared tables

# docs/rules.md, "Card values": Joker 50; ace and 2: 20; K to 8: 10; 7 to 4: 5; black 3: 5. Red threes are bonus only.
CLASSIC_CARD_VALUES = frozen_table({"jokers": 50, "twos_aces": 20, "high": 10, "low": 5, "black_threes": 5})

# docs/rules.md, "Card values": 2 × 52 + 4 jokers = 108: 4 jokers; 8 twos + 8 aces; K–8 6 ranks × 8 = 48; 7–4 4 × 8 =
# 32; 4 black 3s.
DECK_108 = frozen_table({"jokers": 4, "twos_aces": 16, "high": 48, "low": 32, "black_threes": 4})
# docs/rules.md, "Classic Canasta, 6 players in three teams of 2", "Canadian Canasta (3 decks)", "Austrian rulebook
# (Spielregeln, 2–6 players)": 3 × 52 + 6 jokers = 162.
DECK_162 = frozen_table({"jokers": 6, "twos_aces": 24, "high": 72, "low": 48, "black_threes": 6})

# docs/rules.md, "Opening minimum": negative → 15 (no minimum), 0–1495 → 50, 1500–2995 → 90, 3000 or more → 120.
CLASSIC_OPENING = (
    OpeningRow(None, -5, 15),
    OpeningRow(0, 1495, 50),
    OpeningRow(1500, 2995, 90),
    OpeningRow(3000, None, 120),
)
# docs/rules.md, "Classic Canasta, 6 players in three teams of 2" two teams of 3 and docs/rules.md, "Canadian Canasta (3
# decks)" Canadian: a fifth row, 7000 or more → 150.
OPENING_150 = (
    OpeningRow(None, -5, 15),
    OpeningRow(0, 1495, 50),
    OpeningRow(1500, 2995, 90),
    OpeningRow(3000, 6995, 120),
    OpeningRow(7000, None, 150),
)

# docs/rules.md, "How a hand is scored": each red three 100, all four 800.
CLASSIC_RED_THREES = (0, 100, 200, 300, 800)
# docs/rules.md, "Classic Canasta, 6 players in three teams of 2": 1–3 → 100 each, 4 → 400 (no 800 bonus), 5 → 1000, 6 →
# 1200.
SIX_RED_THREES = (0, 100, 200, 300, 400, 1000, 1200)

NATURAL = CanastaKind(
    "natural", N_("Natural canastas"), 500, natural=True, min_points=35
)  # docs/rules.md, "How a hand is scored"; 7 × 5
MIXED = CanastaKind(
    "mixed", N_("Mixed canastas"), 300, min_points=50
)  # docs/rules.md, "How a hand is scored"; six 4s–7s and one 2
CLASSIC_CANASTAS = (NATURAL, MIXED)
WILD_2000 = CanastaKind(
    "wild", N_("Wild-card canastas"), 2000, wild=True, min_points=140
)  # docs/rules.md, "House rules"; seven 2s

GOING_OUT = ("going_out", N_("Going out"), 100)  # docs/rules.md, "How a hand is scored"
NORMAL = GoingOut("normal", N_("Went out"), (GOING_OUT,))
CONCEALED = GoingOut(
    "concealed", N_("Concealed"), (GOING_OUT, ("concealed", N_("Concealed going out"), 100)), waives_minimum=True
)  # docs/rules.md, "How a hand is scored": 100 more, 200 in all; docs/rules.md, "Opening minimum": no minimum
CLASSIC_GOING_OUT = (NORMAL, CONCEALED)


def with_negative_minimum(rules: RuleSet, minimum: int) -> RuleSet:
    """The negative-total row set to ``minimum`` (docs/rules.md, "House rules")."""
    rows = tuple(replace(row, minimum=minimum) if row.low is None else row for row in rules.opening_minimums)
    if rows[0].low is not None:  # a table that starts at 0: add the negative row
        rows = (OpeningRow(None, -5, minimum),) + rows
    return replace(rules, opening_minimums=rows)


def with_target(rules: RuleSet, target: Any) -> RuleSet:
    """A custom target score."""
    return replace(rules, target=int(target))


TIE_SETTING = Setting(
    "tie_rule",
    N_("Sides level at the top at or above the target"),
    TieRule.PLAY_ON,
    (
        (TieRule.PLAY_ON, N_("Tie: play another hand")),
        (TieRule.DRAW, N_("The game ends drawn")),
        (TieRule.WENT_OUT, N_("The side that went out in the last hand wins")),
    ),
    'docs/rules.md, "House rules"',
    option_setter("tie_rule", TieRule),
)


def with_going_out_lines(rules: RuleSet, key: str, lines: tuple[tuple[str, str, int], ...]) -> RuleSet:
    """Replace the lines of one way of going out."""
    return replace(rules, going_out=tuple(replace(g, lines=lines) if g.key == key else g for g in rules.going_out))


def _hand_canasta_adds(rules: RuleSet, adds: Any) -> RuleSet:
    """docs/rules.md, "House rules": Hand-Canasta 1000 replaces the going-out bonus (default) or adds the 100 to it."""
    kind = rules.going_out_kind("hand_canasta")
    base = tuple(line for line in kind.lines if line[0] != "going_out")
    return with_going_out_lines(rules, "hand_canasta", ((GOING_OUT,) + base) if adds else base)


HAND_CANASTA_SETTING = Setting(
    "hand_canasta_adds",
    N_("Canasta in hand (Hand-Canasta) 1000"),
    False,
    ((False, N_("replaces the 100 for going out")), (True, N_("plus the 100 for going out"))),
    'docs/rules.md, "House rules"',
    _hand_canasta_adds,
)
RED_THREE_NO_CANASTA_SETTING = Setting(
    "red_three_melded_no_canasta",
    N_("Red threes of a side that melded but has no canasta"),
    -1,
    ((-1, N_("count minus (as the Austrian rulebook)")), (0, N_("count nothing"))),
    'docs/rules.md, "House rules"',
    lambda rules, value: replace(rules, red_three_melded_no_canasta=int(value)),
)


def _wild_melds(rules: RuleSet, allowed: Any) -> RuleSet:
    """docs/rules.md, "House rules": wild-card melds allowed: a wild canasta 2000, an incomplete wild meld −1000."""
    if not allowed:
        return rules
    return replace(
        rules,
        canasta_kinds=rules.canasta_kinds + (WILD_2000,),
        incomplete_melds=rules.incomplete_melds
        + (Deduction("wild", N_("Incomplete wild-card meld"), 1000, spec='docs/rules.md, "Penalties"'),),
    )


NEGATIVE_MINIMUM_SETTING = Setting(
    "negative_minimum",
    N_("Opening minimum with a negative total"),
    50,
    ((50, N_("50")), (15, N_("15 (classic)"))),
    'docs/rules.md, "House rules"',
    with_negative_minimum,
)

WILD_MELDS_SETTING = Setting(
    "wild_melds",
    N_("Wild-card melds (2s and jokers)"),
    False,
    ((False, N_("not allowed")), (True, N_("allowed: canasta +2000, incomplete −1000"))),
    'docs/rules.md, "House rules"',
    _wild_melds,
)


def house_rules(*settings: Setting) -> tuple[Setting, ...]:
    """The settings every rule set has: its own, then the tie rule."""
    return settings + (TIE_SETTING,)


# The Austrian rule books' words for going out. In English the English term comes first, with the
# word the players know it by in brackets; the German catalogue keeps the rule book's word alone.
AUSMACHEN = N_("Went out (Ausmachen)")
# a canasta formed in the hand and laid out with the whole hand: the rule books' word in brackets
HAND_CANASTA = N_("Canasta in hand (Hand-Canasta)")
