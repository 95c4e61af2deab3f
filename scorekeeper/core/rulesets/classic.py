"""Classic Canasta: four players in two partnerships, and the same rules for two and for three players."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import (
    LoneAllFour,
    LoneRedSign,
    LoneTrigger,
    RedThreeSign,
    RuleSet,
    Setting,
    option_setter,
)
from scorekeeper.core.rulesets.shared import (
    ALONE_2,
    ALONE_3,
    CLASSIC_CANASTAS,
    CLASSIC_CARD_VALUES,
    CLASSIC_GOING_OUT,
    CLASSIC_OPENING,
    CLASSIC_RED_THREES,
    DECK_108,
    PAIRS_4,
    WILD_MELDS_SETTING,
    house_rules,
)

CLASSIC = RuleSet(
    id="classic",
    name=N_("Classic Canasta (4 players, 2 partnerships)"),
    spec="docs/rules.md#classic",
    summary=N_("The standard game: two partnerships, 108 cards, one canasta to go out, game to 5000."),
    layouts=(PAIRS_4,),
    target=5000,  # docs/rules.md, "End of the game"
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_108,
    canasta_kinds=CLASSIC_CANASTAS,
    going_out=CLASSIC_GOING_OUT,
    red_three_values=CLASSIC_RED_THREES,
    red_three_sign=RedThreeSign.MELDED,
    opening_minimums=CLASSIC_OPENING,
    canastas_to_go_out=1,  # docs/rules.md, "Going out"
    settings=house_rules(WILD_MELDS_SETTING),
)

# docs/rules.md, "Classic Canasta (2 players)": classic rules for two players; going out needs 2 canastas; everything
# else as docs/rules.md, "Classic Canasta (4 players, 2 partnerships)".
CLASSIC_2P = replace(
    CLASSIC,
    id="classic-2p",
    name=N_("Classic Canasta (2 players)"),
    spec="docs/rules.md#classic-2p",
    summary=N_("Classic rules for two: 15 cards each, two canastas to go out, game to 5000."),
    layouts=(ALONE_2,),
    canastas_to_go_out=2,  # docs/rules.md, "Classic Canasta (2 players)" "Ein Spieler braucht zwei Canastas"
)

# docs/rules.md, "Classic Canasta (3 players)" three players: individual totals, a temporary partnership per hand,
# target 7500.
CLASSIC_3P = replace(
    CLASSIC,
    id="classic-3p",
    name=N_("Classic Canasta (3 players)"),
    spec="docs/rules.md#classic-3p",
    summary=N_(
        "Individual totals; each hand the lone player plays against the other two, who share melds; game to 7500."
    ),
    layouts=(ALONE_3,),
    target=7500,  # docs/rules.md, "Classic Canasta (3 players)"
    lone_player=True,
    settings=house_rules(
        Setting(
            "lone_trigger",
            N_("Who plays alone"),
            LoneTrigger.PILE_OR_OUT,
            (
                (
                    LoneTrigger.PILE_OR_OUT,
                    N_("the first to take the pile, or who goes out before anyone took it (Italian rules)"),
                ),
                (
                    LoneTrigger.PILE_OR_MELD,
                    N_("the first to take the pile, or who melds before anyone took it (German rules)"),
                ),
            ),
            'docs/rules.md, "House rules"',
            option_setter("lone_trigger", LoneTrigger),
        ),
        Setting(
            "lone_red_sign",
            N_("A partner's red threes count minus"),
            LoneRedSign.PARTNERSHIP,
            (
                (LoneRedSign.PARTNERSHIP, N_("when the partnership has melded nothing")),
                (LoneRedSign.OWN, N_("when that partner has melded nothing himself")),
            ),
            'docs/rules.md, "House rules"',
            option_setter("lone_red_sign", LoneRedSign),
        ),
        Setting(
            "lone_all_four",
            N_("All four red threes (800)"),
            LoneAllFour.INDIVIDUAL,
            (
                (LoneAllFour.INDIVIDUAL, N_("only when one player holds all four")),
                (LoneAllFour.PARTNERSHIP, N_("also when the two partners hold them between them")),
            ),
            'docs/rules.md, "House rules"',
            option_setter("lone_all_four", LoneAllFour),
        ),
    ),
)
