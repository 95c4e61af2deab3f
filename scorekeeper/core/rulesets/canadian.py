"""Canadian Canasta: three decks, natural and wild canastas to go out, black threes in hand, the exact cut."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import CanastaKind, OpeningRow, RedThreeSign, RuleSet, Setting, option_setter
from scorekeeper.core.rulesets.shared import (
    CLASSIC_CARD_VALUES,
    DECK_162,
    NEGATIVE_MINIMUM_SETTING,
    NORMAL,
    OPENING_150,
    PAIRS_4,
    house_rules,
    with_going_out_lines,
)

# docs/rules.md, "Canadian Canasta (3 decks)" Canadian, 3 decks.
CANADIAN = RuleSet(
    id="canadian",
    name=N_("Canadian Canasta (3 decks)"),
    spec="docs/rules.md#canadian",
    summary=N_("162 cards, 15 each; two natural and one wild canasta to go out; red threes 200; game to 10000."),
    layouts=(PAIRS_4,),
    target=10000,
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_162,
    canasta_kinds=(
        CanastaKind("natural", N_("Natural canastas"), 300, natural=True, min_points=35),
        CanastaKind("mixed", N_("Mixed canastas"), 200, min_points=50),
        CanastaKind("wild", N_("Wild-card canastas"), 300, wild=True, min_points=140),
    ),
    going_out=(
        NORMAL,
        # docs/rules.md, "Where the sources are silent or unclear": going-out bonus not stated, reading
        # 100; no concealed
        # bonus
    ),
    red_three_values=(0, 200, 400, 600, 800, 1000, 1200),  # 200 each, no all-four bonus
    red_three_sign=RedThreeSign.ALWAYS,  # docs/rules.md, "House rules": no sign rule by default
    opening_minimums=(OpeningRow(None, -5, 50),) + OPENING_150[1:],  # docs/rules.md, "House rules": negative → 50
    canastas_to_go_out=3,
    natural_canastas_to_go_out=2,
    wild_canastas_to_go_out=1,
    # docs/rules.md, "Canadian Canasta (3 decks)": −100 each, instead of its 5 (docs/rules.md, "Where the sources are
    # silent or unclear")
    black_three_in_hand=100,
    black_threes_melded_all=True,  # docs/rules.md, "Canadian Canasta (3 decks)": only all six together
    exact_cut_bonus=100,
    hand_card_groups=("jokers", "twos_aces", "high", "low"),  # black threes in hand are counted apart
    settings=house_rules(
        NEGATIVE_MINIMUM_SETTING,
        Setting(
            "red_three_sign",
            N_("Red threes of a team that has not melded"),
            RedThreeSign.ALWAYS,
            ((RedThreeSign.ALWAYS, N_("+200 always")), (RedThreeSign.MELDED, N_("minus (classic rule)"))),
            'docs/rules.md, "House rules"',
            option_setter("red_three_sign", RedThreeSign),
        ),
        Setting(
            "going_out_bonus",
            N_("Going-out bonus"),
            100,
            ((100, N_("100")), (0, N_("none"))),
            'docs/rules.md, "House rules"',
            lambda r, v: with_going_out_lines(r, "normal", (("going_out", "Going out", int(v)),)),
        ),
        Setting(
            "black_three_in_hand",
            N_("A black three left in hand"),
            100,
            ((100, N_("−100 instead of its 5")), (105, N_("−100 and its 5"))),
            'docs/rules.md, "House rules"',
            lambda r, v: replace(r, black_three_in_hand=int(v)),
        ),
    ),
)
