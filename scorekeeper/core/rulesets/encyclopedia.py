"""The encyclopedia article's rules: classic scoring for 2 to 6 players, the minimum on a concealed going out,
penalty points."""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.classic import CLASSIC
from scorekeeper.core.rulesets.model import Deduction, Setting
from scorekeeper.core.rulesets.shared import (
    ALONE_2,
    ALONE_3,
    CONCEALED,
    NORMAL,
    PAIR_V_THREE_5,
    PAIRS_4,
    THREE_PAIRS_6,
    TWO_TRIOS_6,
    house_rules,
)

# docs/rules.md, "Encyclopedia rules (2–6 players)" the encyclopedia [004].
ENCYCLOPEDIA = replace(
    CLASSIC,
    id="encyclopedia",
    name=N_("Encyclopedia rules (2–6 players)"),
    spec="docs/rules.md#encyclopedia",
    summary=N_(
        "Classic scoring for 2 to 6 players with 108 cards; the minimum applies to a concealed going out too; "
        "penalties."
    ),
    layouts=(PAIRS_4, ALONE_2, ALONE_3, PAIR_V_THREE_5, TWO_TRIOS_6, THREE_PAIRS_6),
    going_out=(NORMAL, replace(CONCEALED, waives_minimum=False)),
    minimum_on_concealed=True,
    penalty_catalogue=(
        Deduction("red_three_not_laid", N_("Failed to lay out a red three"), 500, 4, 'docs/rules.md, "Penalties"'),
        Deduction("drawing_error", N_("Drawing error"), 50, 9, 'docs/rules.md, "Penalties"'),
        Deduction("drew_out_of_turn", N_("Drew out of turn"), 100, 9, 'docs/rules.md, "Penalties"'),
        Deduction("melded_out_of_turn", N_("Melded out of turn"), 100, 9, 'docs/rules.md, "Penalties"'),
    ),
    settings=house_rules(
        Setting(
            "minimum_on_concealed",
            N_("Opening minimum on a concealed going out"),
            True,
            ((True, N_("applies")), (False, N_("waived (classic)"))),
            'docs/rules.md, "House rules"',
            lambda r, v: replace(
                r, minimum_on_concealed=bool(v), going_out=(NORMAL, replace(CONCEALED, waives_minimum=not v))
            ),
        ),
    ),
)
