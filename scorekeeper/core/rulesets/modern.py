"""Modern American Canasta: special hands, a three-table, penalties for unfinished melds and held cards."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import CanastaKind, Deduction, GoingOut, OpeningRow, RedThreeSign, RuleSet, Setting
from scorekeeper.core.rulesets.shared import (
    CLASSIC_CARD_VALUES,
    DECK_108,
    NORMAL,
    PAIRS_4,
    house_rules,
    with_going_out_lines,
)

# docs/rules.md, "Modern American Canasta" Modern American.
MODERN_SPECIAL = (
    ("straight", N_("Straight"), 3000),
    ("pairs", N_("Pairs (no wild cards)"), 2500),
    ("pairs_wild", N_("Pairs with 2s, 7s and aces"), 2000),
    ("garbage", N_("Garbage"), 2000),
)


def _modern_special(rules: RuleSet, high: Any) -> RuleSet:
    """docs/rules.md, "House rules": Pairs and Garbage scored 3500. [000] "ein Blatt aus Paaren und ein Garbage-Blatt":
    reading, every hand of pairs (with or without 2s) and Garbage."""
    if not high:
        return rules
    for key in ("pairs", "pairs_wild", "garbage"):
        kind = rules.going_out_kind(key)
        rules = with_going_out_lines(rules, key, ((key, kind.label, 3500),))
    return rules


MODERN = RuleSet(
    id="modern",
    name=N_("Modern American Canasta"),
    spec="docs/rules.md#modern",
    summary=N_("Four players in partnerships, 13 cards, two canastas to go out, special hands, game to 8500."),
    layouts=(PAIRS_4,),
    target=8500,
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_108,
    canasta_kinds=(
        CanastaKind(
            "mixed", N_("Mixed canastas"), 300, min_points=50
        ),  # docs/rules.md, "Canastas" at most 2 wild: six 4s + one 2 = 30 + 20
        CanastaKind("natural", N_("Natural canastas"), 500, natural=True, min_points=35),  # seven 4s
        CanastaKind(
            "natural_aces_sevens",
            N_("Natural aces or 7s canastas"),
            2500,
            natural=True,
            min_points=35,
            ranks=("aces", "sevens"),  # docs/rules.md, "Canastas": 7 aces or 7 sevens, no wild card
        ),
        CanastaKind("twos", N_("Canastas of seven 2s"), 3000, wild=True, min_points=140),
        CanastaKind("jokers", N_("Joker canastas (4 jokers + three 2s)"), 2500, wild=True, min_points=260),
        CanastaKind("wild", N_("Other wild canastas (1–3 jokers)"), 2000, wild=True, min_points=170),
    ),
    going_out=(NORMAL,)
    + tuple(GoingOut(k, label, ((k, label, v),), special=True, waives_minimum=True) for k, label, v in MODERN_SPECIAL),
    red_three_values=(0, 100, 300, 500, 1000),  # docs/rules.md, "Red and black threes"
    black_three_values=(0, 100, 300, 500, 1000),
    red_three_sign=RedThreeSign.CANASTA_COUNT,
    opening_minimums=(
        OpeningRow(None, 2995, 125),
        OpeningRow(3000, 4995, 155),
        OpeningRow(5000, None, 180),
    ),  # docs/rules.md, "Opening minimum"
    canastas_to_go_out=2,  # docs/rules.md, "Going out"
    incomplete_melds=(
        # docs/rules.md, "Canastas": a meld has at least 3 cards; docs/rules.md, "Where the sources are silent or
        # unclear": one with players holding 3 can need more than 8
        Deduction(
            "aces", N_("Incomplete pure aces meld"), 2500, spec='docs/rules.md, "Penalties"', rank="aces", least=3
        ),
        Deduction("sevens", N_("Incomplete 7s meld"), 2500, spec='docs/rules.md, "Penalties"', rank="sevens", least=3),
        Deduction("wild", N_("Incomplete wild-card meld"), 2000, spec='docs/rules.md, "Penalties"'),
    ),
    holding_penalties=(
        Deduction(
            "aces",
            N_("Players holding 3 or more aces"),
            1500,
            max_count=2,
            spec='docs/rules.md, "Penalties"',
            rank="aces",
            least=3,
        ),
        Deduction(
            "sevens",
            N_("Players holding 3 or more 7s"),
            1500,
            max_count=2,
            spec='docs/rules.md, "Penalties"',
            rank="sevens",
            least=3,
        ),
    ),
    melded_minus_without_canasta=True,
    melded_card_groups=("jokers", "twos_aces", "high", "low"),  # docs/rules.md, "Penalties": threes excluded
    splash_opening=True,  # docs/rules.md, "Opening minimum": a natural or wild canasta from hand opens with no minimum
    settings=house_rules(
        Setting(
            "special_3500",
            N_("Pairs and Garbage"),
            False,
            ((False, N_("2500 / 2000")), (True, N_("3500 each"))),
            'docs/rules.md, "House rules"',
            _modern_special,
        ),
        Setting(
            "no_out_with_incomplete",
            N_("Going out with an incomplete 7s or pure aces meld"),
            False,
            ((False, N_("allowed")), (True, N_("not allowed"))),
            'docs/rules.md, "House rules"',
            lambda r, v: replace(r, no_going_out_with_incomplete=("aces", "sevens") if v else ()),
        ),
    ),
    terms=MappingProxyType({"black_threes": N_("Black threes melded")}),
)
