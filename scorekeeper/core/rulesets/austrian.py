"""The Austrian rulebook ("Spielregeln"): 2 to 6 players, Hand-Canasta, glatt ausmachen, penalty points and
the complete Game of three Partien; and its second form for six players in three pairs."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.classic import CLASSIC
from scorekeeper.core.rulesets.model import Deduction, GoingOut, Layout, OpeningRow, RedThreeSign, Setting
from scorekeeper.core.rulesets.shared import (
    ALONE_2,
    ALONE_3,
    AUSMACHEN,
    CLASSIC_OPENING,
    DECK_162,
    GOING_OUT,
    HAND_CANASTA,
    HAND_CANASTA_SETTING,
    NEGATIVE_MINIMUM_SETTING,
    NORMAL,
    PAIR_V_THREE_5,
    PAIRS_4,
    RED_THREE_NO_CANASTA_SETTING,
    SIX_RED_THREES,
    THREE_PAIRS_6,
    THREE_V_THREE_ROTATING_6,
    TIE_SETTING,
    house_rules,
    seats,
)

# docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)" a complete "Game" of three Partien: 1) N-S v E-W, 2) N-E
# v S-W, 3) N-W v S-E, with the
# players entered as N, E, S, W (seats 1–4 going to the left).
COMPLETE_GAME = (
    PAIRS_4,
    Layout("4-ne", N_("Partie 2: North & East against South & West"), 4, seats((0, 1), (2, 3))),
    Layout("4-nw", N_("Partie 3: North & West against East & South"), 4, seats((0, 3), (1, 2))),
)


# "Austrian rulebook": the whole hand laid out at once when the partner already has a canasta
GLATT = N_("In one go, on the partner's canasta (glatt ausmachen)")

# docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)" the Austrian rulebook [003].
AUSTRIAN_PENALTIES = (
    Deduction(
        "minimum_failed",
        N_("Took the top discard, then could not meet the minimum"),
        50,
        9,
        'docs/rules.md, "Penalties"',
    ),
    Deduction(
        "pile_before_meld",
        N_("Took the pile into hand before melding the top card"),
        200,
        9,
        'docs/rules.md, "Penalties"',
    ),
    Deduction(
        "drew_out_of_turn",
        N_("Drew from the stock out of turn, card not in hand"),
        100,
        9,
        'docs/rules.md, "Penalties"',
    ),
    Deduction(
        "drew_out_of_turn_kept",
        N_("Drew from the stock out of turn, card in hand"),
        200,
        9,
        'docs/rules.md, "Penalties"',
    ),
    Deduction("pile_out_of_turn", N_("Took the pile out of turn"), 100, 9, 'docs/rules.md, "Penalties"'),
)
AUSTRIAN = replace(
    CLASSIC,
    id="austrian",
    name=N_("Austrian rulebook (Spielregeln, 2–6 players)"),
    spec="docs/rules.md#austrian",
    summary=N_(
        "Red threes count plus only with a canasta; a canasta in hand (Hand-Canasta) 1000; going out in one go on "
        "the partner's canasta (glatt ausmachen) 200; penalty points."
    ),
    layouts=(PAIRS_4, ALONE_2, ALONE_3, PAIR_V_THREE_5, THREE_V_THREE_ROTATING_6),
    going_out=(
        NORMAL,
        # docs/rules.md, "Going out" "Falls der Partner … bereits einen Canasta herausgelegt hat": only with a partner
        # (4p, 5p, 6p)
        GoingOut("glatt", GLATT, (GOING_OUT, ("glatt", GLATT, 100)), partner=True),
        GoingOut("hand_canasta", HAND_CANASTA, (("hand_canasta", HAND_CANASTA, 1000),), waives_minimum=True),
    ),
    red_three_sign=RedThreeSign.CANASTA,
    opening_minimums=(OpeningRow(None, -5, 50),)
    + CLASSIC_OPENING[1:],  # docs/rules.md, "Opening minimum", "Where the sources are silent or unclear": negative → 50
    penalty_catalogue=AUSTRIAN_PENALTIES,
    partie_layouts=COMPLETE_GAME[1:],
    settings=house_rules(
        HAND_CANASTA_SETTING,
        RED_THREE_NO_CANASTA_SETTING,
        NEGATIVE_MINIMUM_SETTING,
    ),
    terms=MappingProxyType({"went_out": AUSMACHEN}),
)
AUSTRIAN_6_PAIRS = replace(
    AUSTRIAN,
    id="austrian-6",
    spec="docs/rules.md#austrian-6",
    name=N_("Austrian rulebook, 6 players in three pairs (162 cards)"),
    summary=N_("Three partnerships with 3 packs and 6 jokers: two canastas to go out, five red threes 1000, six 1200."),
    layouts=(THREE_PAIRS_6,),
    cards_in_deck=DECK_162,
    # four: 400 as pagat (docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)" reading); setting 800
    red_three_values=SIX_RED_THREES,
    canastas_to_go_out=2,
    settings=AUSTRIAN.settings[:-1]
    + (
        Setting(
            "four_red_threes",
            N_("Four red threes"),
            400,
            ((400, N_("400 (as pagat)")), (800, N_("800 (the Austrian rulebook's general rule)"))),
            'docs/rules.md, "House rules"',
            lambda r, v: replace(r, red_three_values=r.red_three_values[:4] + (int(v),) + r.red_three_values[5:]),
        ),
        TIE_SETTING,
    ),
)
