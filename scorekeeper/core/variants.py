"""The rule sets, as the rest of the package reads them: the registry and the shapes of its tables.

The tables themselves live in ``scorekeeper/core/rulesets/``, one module per family of rule sets
(see that package's docstring for how to add one). This module keeps ``from scorekeeper.core
import variants`` working: ``variants.get``, ``variants.configure``, ``variants.RULE_SETS``,
``variants.RuleSet`` and the rest are the registry's.
"""

from __future__ import annotations

from scorekeeper.core.rulesets import (
    CARD_GROUP_KEYS,
    CARD_GROUPS,
    N_,
    RANKS,
    RULE_SETS,
    VALUE_GROUPS,
    CanastaKind,
    Deduction,
    GoingOut,
    Layout,
    LoneAllFour,
    LoneRedSign,
    LoneTrigger,
    OpeningRow,
    RedThreeSign,
    RuleSet,
    Setting,
    TieRule,
    Value,
    configure,
    get,
    problems,
    values_of,
)

__all__ = [
    "CARD_GROUP_KEYS",
    "CARD_GROUPS",
    "N_",
    "RANKS",
    "RULE_SETS",
    "CanastaKind",
    "Deduction",
    "GoingOut",
    "Layout",
    "LoneAllFour",
    "LoneRedSign",
    "LoneTrigger",
    "OpeningRow",
    "RedThreeSign",
    "RuleSet",
    "Setting",
    "TieRule",
    "VALUE_GROUPS",
    "Value",
    "configure",
    "get",
    "problems",
    "values_of",
]
