"""Vienna Canasta (Wiener Canasta): Classic with red threes plus only with a canasta, Hand-Canasta and
concealed going out on the partner's canasta."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.classic import CLASSIC
from scorekeeper.core.rulesets.model import GoingOut, RedThreeSign
from scorekeeper.core.rulesets.shared import (
    AUSMACHEN,
    HAND_CANASTA,
    HAND_CANASTA_SETTING,
    NORMAL,
    RED_THREE_NO_CANASTA_SETTING,
    house_rules,
)

# "Vienna Canasta (Wiener Canasta)": going out concealed without a canasta of one's own
VERDECKT = N_("Concealed, on the partner's canasta (Verdeckt Ausmachen)")

# docs/rules.md, "Vienna Canasta (Wiener Canasta)" Vienna: red threes count plus only with a canasta; Hand-Canasta 1000;
# Verdeckt Ausmachen 200.
VIENNA = replace(
    CLASSIC,
    id="vienna",
    name=N_("Vienna Canasta (Wiener Canasta)"),
    spec="docs/rules.md#vienna",
    summary=N_(
        "Classic with red threes counting only with a canasta, a canasta in hand (Hand-Canasta) 1000 and concealed "
        "going out on the partner's canasta (Verdeckt Ausmachen) 200."
    ),
    going_out=(
        NORMAL,
        GoingOut("verdeckt", VERDECKT, (("verdeckt", VERDECKT, 200),), waives_minimum=True),
        GoingOut("hand_canasta", HAND_CANASTA, (("hand_canasta", HAND_CANASTA, 1000),), waives_minimum=True),
    ),
    red_three_sign=RedThreeSign.CANASTA,
    settings=house_rules(HAND_CANASTA_SETTING, RED_THREE_NO_CANASTA_SETTING),
    terms=MappingProxyType({"went_out": AUSMACHEN}),
)
