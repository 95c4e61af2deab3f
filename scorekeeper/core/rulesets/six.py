"""Classic Canasta for six players (three teams of two, two teams of three) and Shirley Miller's variant."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.classic import CLASSIC
from scorekeeper.core.rulesets.model import Deduction, RedThreeSign, Setting
from scorekeeper.core.rulesets.shared import (
    CLASSIC_CANASTAS,
    DECK_162,
    OPENING_150,
    SIX_RED_THREES,
    THREE_PAIRS_6,
    TWO_TRIOS_6,
    WILD_2000,
    WILD_MELDS_SETTING,
    house_rules,
)

SIX_RED_THREE_SIGN_SETTING = Setting(
    "red_three_negative",
    N_("Red threes of a team that has not melded"),
    True,
    ((True, N_("count minus (classic rule)")), (False, N_("count plus anyway"))),
    'docs/rules.md, "House rules"',
    lambda rules, value: replace(rules, red_three_sign=RedThreeSign.MELDED if value else RedThreeSign.ALWAYS),
)

# docs/rules.md, "Classic Canasta, 6 players in three teams of 2" the book version for six: 162 cards, red threes
# 400/1000/1200, two canastas to go out.
SIX_3X2 = replace(
    CLASSIC,
    id="six-3x2",
    name=N_("Classic Canasta, 6 players in three teams of 2"),
    spec="docs/rules.md#six-3x2",
    summary=N_("Three partnerships, 162 cards, two canastas to go out, game to 7500."),
    layouts=(THREE_PAIRS_6,),
    target=7500,
    cards_in_deck=DECK_162,
    red_three_values=SIX_RED_THREES,
    canastas_to_go_out=2,
    settings=house_rules(WILD_MELDS_SETTING, SIX_RED_THREE_SIGN_SETTING),
)
SIX_2X3 = replace(
    SIX_3X2,
    id="six-2x3",
    spec="docs/rules.md#six-2x3",
    name=N_("Classic Canasta, 6 players in two teams of 3"),
    summary=N_("Two teams of three, 162 cards, two canastas to go out, 150 to open from 7000, game to 10000."),
    layouts=(TWO_TRIOS_6,),
    target=10000,
    opening_minimums=OPENING_150,
)
MILLER = replace(
    SIX_2X3,
    id="miller",
    spec="docs/rules.md#miller",
    name=N_("Shirley Miller's six-player Canasta (two teams of 3)"),
    summary=N_("Wild-card canastas +2000, an unfinished wild meld −2000, three canastas (two natural) to go out."),
    canasta_kinds=CLASSIC_CANASTAS + (WILD_2000,),
    incomplete_melds=(Deduction("wild", N_("Incomplete wild-card meld"), 2000, spec='docs/rules.md, "Penalties"'),),
    canastas_to_go_out=3,
    natural_canastas_to_go_out=2,
    settings=house_rules(SIX_RED_THREE_SIGN_SETTING),
)
