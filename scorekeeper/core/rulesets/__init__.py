"""The rule sets: one module per family, each a frozen table of every number its score sheet needs,
and this registry of them.

    model.py         the shape of a rule set (RuleSet, CanastaKind, GoingOut, Deduction, Layout, Setting,
                     the options) and the card groups
    shared.py        tables several families use (decks, card values, opening tables, shared house rules)
    classic.py       Classic Canasta for 4, 2 and 3 players
    six.py           Classic for 6 players, Shirley Miller's variant
    vienna.py        Vienna Canasta
    modern.py        Modern American Canasta
    canadian.py      Canadian Canasta
    austrian.py      the Austrian rulebook, for 2 to 6 players and in three pairs
    encyclopedia.py  the encyclopedia article's rules

Adding a rule set takes one table file here (or one more table in its family's file), its line in
``RULE_SETS`` below, its words in ``scripts/rules_doc.py`` (then run it to rewrite docs/rules.md) and one
file of worked examples, ``tests/test_scoring_<family>.py``. The forms, checks, API and reference pages
are built from the table.

Pure: the standard library only.
"""

from __future__ import annotations

import functools
from types import MappingProxyType
from typing import Any, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.austrian import AUSTRIAN, AUSTRIAN_6_PAIRS
from scorekeeper.core.rulesets.canadian import CANADIAN
from scorekeeper.core.rulesets.changeable import TARGET_RANGE, VALUE_GROUPS, Value
from scorekeeper.core.rulesets.classic import CLASSIC, CLASSIC_2P, CLASSIC_3P
from scorekeeper.core.rulesets.encyclopedia import ENCYCLOPEDIA
from scorekeeper.core.rulesets.model import (
    CARD_GROUP_KEYS,
    CARD_GROUPS,
    LOW_AND_BLACK_THREES,
    RANKS,
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
)
from scorekeeper.core.rulesets.modern import MODERN
from scorekeeper.core.rulesets.refusals import problems
from scorekeeper.core.rulesets.shared import with_target
from scorekeeper.core.rulesets.six import MILLER, SIX_2X3, SIX_3X2
from scorekeeper.core.rulesets.values import apply_values, value_map, values_of, with_settings
from scorekeeper.core.rulesets.vienna import VIENNA

__all__ = [
    "CARD_GROUP_KEYS",
    "CARD_GROUPS",
    "LOW_AND_BLACK_THREES",
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
    "TARGET_RANGE",
    "TieRule",
    "VALUE_GROUPS",
    "Value",
    "configure",
    "get",
    "problems",
    "value_map",
    "values_of",
    "with_settings",
]

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        r.id: r
        for r in (
            CLASSIC,
            CLASSIC_2P,
            CLASSIC_3P,
            SIX_3X2,
            SIX_2X3,
            MILLER,
            VIENNA,
            MODERN,
            CANADIAN,
            AUSTRIAN,
            AUSTRIAN_6_PAIRS,
            ENCYCLOPEDIA,
        )
    }
)


def get(variant_id: str) -> RuleSet:
    """The rule set with this id; KeyError for an unknown one."""
    return RULE_SETS[variant_id]


def configure(
    rules: RuleSet, settings: Mapping[str, Any] | None = None, layout: str | None = None, target: int | None = None
) -> RuleSet:
    """The rule set as a game plays it: its layout, house-rule settings and target applied. The
    same choices give the same (frozen) rule set object, so what is derived from it once (the
    side-entry table) is not derived again for every request."""
    if RULE_SETS.get(rules.id) is rules:
        try:  # a list (opening minimums by the hand's number) is kept as a tuple
            key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in (settings or {}).items()))
            return _configured(rules.id, key, layout, target)
        except TypeError:  # a setting value that cannot be a key (a list from odd JSON): no memo
            pass
    return _configure(rules, settings, layout, target)


@functools.lru_cache(maxsize=512)
def _configured(rule_set: str, settings: tuple, layout: str | None, target: int | None) -> RuleSet:
    """``configure`` of a listed rule set, remembered (pure: the same arguments, the same rules)."""
    return _configure(RULE_SETS[rule_set], dict(settings), layout, target)


def _configure(
    rules: RuleSet, settings: Mapping[str, Any] | None = None, layout: str | None = None, target: int | None = None
) -> RuleSet:
    """The rule set with its layout, house-rule settings and target applied."""
    settings = settings or {}
    configured = rules.for_layout(rules.layout(layout)) if layout else rules
    for setting in rules.settings:
        configured = setting.apply(configured, settings.get(setting.key, setting.default))
    configured = apply_values(configured, rules, settings)  # docs/rules.md, "House rules": the table's own values
    if target:
        configured = with_target(configured, target)
    return configured
