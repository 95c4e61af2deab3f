"""A table's own kinds (docs/rules.md, "A table's own rules"): up to three kinds of canasta, special
hands or opening tiers a table adds to a rule set, each with a name and a value.

They are kept as flat values beside the others (``own_1_kind``, ``own_1_name``, ``own_1_points``, …),
so a stored game, an export and the API carry them as they carry every value. ``own_values`` lists
them, ``with_own_kinds`` adds them to a rule set, ``own_problems`` says what makes one impossible.

Pure: the standard library only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.changeable import (
    CHOICE,
    COUNT,
    MOST_POINTS,
    MOST_TARGET,
    MOST_TEXT,
    OWN_KINDS,
    OWN_SLOTS,
    POINTS,
    TEXT,
    YES_NO,
    Value,
)
from scorekeeper.core.rulesets.model import CARD_GROUP_KEYS, CanastaKind, GoingOut, OpeningRow, RuleSet

YES_NO_CHOICES = ((True, N_("yes")), (False, N_("no")))
MOST_CARDS = 14  # a canasta of two sevens of a kind at most


def _unchanged(rules: RuleSet, _value: Any) -> RuleSet:
    """An own kind's part changes nothing alone: ``with_own_kinds`` reads the parts together."""
    return rules


def _part(n: int, part: str, label: str, explanation: str, kind: str, default: Any, low=None, high=None) -> Value:
    """One part of own kind ``n``."""
    choices = OWN_KINDS if kind == CHOICE else YES_NO_CHOICES if kind == YES_NO else ()
    return Value(
        f"own_{n}_{part}", label, explanation, kind, default, low, high, choices, "own", (("count", n),), _unchanged
    )


# Each own kind's parts: (part, label, explanation, kind, default, low, high)
PARTS = (
    (
        "kind",
        N_("Own kind %(count)s"),
        N_("A kind of canasta, a special hand or an opening tier."),
        CHOICE,
        "none",
        None,
        None,
    ),
    ("name", N_("Own kind %(count)s: name"), N_("What the score pad and the sheet call it."), TEXT, "", 0, MOST_TEXT),
    (
        "points",
        N_("Own kind %(count)s: points"),
        N_("A canasta's bonus, what a special hand scores, or an opening tier's minimum."),
        POINTS,
        0,
        0,
        MOST_POINTS,
    ),
    (
        "cards",
        N_("Own kind %(count)s: cards a canasta takes"),
        N_("A kind of canasta: the fewest cards it holds."),
        COUNT,
        7,
        7,
        MOST_CARDS,
    ),
    (
        "wild",
        N_("Own kind %(count)s: a canasta of wild cards only"),
        N_("A kind of canasta: yes when it holds only jokers and 2s."),
        YES_NO,
        False,
        None,
        None,
    ),
    (
        "goes_out",
        N_("Own kind %(count)s: counts for going out"),
        N_("A kind of canasta: whether it is one of the canastas going out needs."),
        YES_NO,
        True,
        None,
        None,
    ),
    (
        "from",
        N_("Own kind %(count)s: a tier from a total of"),
        N_("An opening tier: the total at the start of a hand from which its minimum applies."),
        POINTS,
        0,
        0,
        MOST_TARGET,
    ),
)


def own_values() -> list[Value]:
    """The parts of each own kind, in the order the page shows them."""
    return [_part(n, *part) for n in range(1, OWN_SLOTS + 1) for part in PARTS]


DEFAULTS = {value.name: value.default for value in own_values()}


def _parts(values: Mapping[str, Any], n: int) -> dict[str, Any]:
    """Own kind ``n``'s parts by their short names, defaults filled in."""
    prefix = f"own_{n}_"
    return {
        name[len(prefix) :]: values.get(name, default) for name, default in DEFAULTS.items() if name.startswith(prefix)
    }


def chosen(values: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The own kinds a table chose: (its number, its parts)."""
    return [(n, parts) for n in range(1, OWN_SLOTS + 1) if (parts := _parts(values, n))["kind"] != "none"]


def least_card(rules: RuleSet, wild: bool) -> int:
    """The fewest points one card of a canasta can count: a wild one's, or any but a three's."""
    groups = ("jokers", "twos_aces") if wild else ("jokers", "twos_aces", "high", "low")
    return min(rules.card_values[group] for group in groups)


def _with_tier(rules: RuleSet, row: OpeningRow) -> RuleSet:
    """The opening table with one more tier: each tier ends 5 below where the next starts."""
    rows = sorted((*rules.opening_minimums, row), key=lambda r: -MOST_TARGET if r.low is None else r.low)
    joined = []
    for i, each in enumerate(rows):
        following = rows[i + 1].low if i + 1 < len(rows) else None
        high = None if following is None else following - 5
        if each.low is None and each.high is not None and high is not None:
            high = min(each.high, high)
        joined.append(replace(each, high=high))
    return replace(rules, opening_minimums=tuple(joined))


def with_own_kinds(rules: RuleSet, values: Mapping[str, Any]) -> RuleSet:
    """The rule set with the table's own kinds added: a kind of canasta (a row of the pad), a
    special hand (a way of going out), an opening tier (a row of the opening table)."""
    for n, part in chosen(values):
        key, name, points = f"own_{n}", part["name"], part["points"]
        if part["kind"] == "canasta":
            least = part["cards"] * least_card(rules, part["wild"])
            kind = CanastaKind(
                key, name, points, wild=part["wild"], min_points=least, cards=part["cards"], goes_out=part["goes_out"]
            )
            rules = replace(rules, canasta_kinds=(*rules.canasta_kinds, kind))
        elif part["kind"] == "special":
            way = GoingOut(key, name, ((key, name, points),), special=True, waives_minimum=True)
            rules = replace(rules, going_out=(*rules.going_out, way))
        else:
            rules = _with_tier(rules, OpeningRow(part["from"], None, points, name))
    return rules


def own_problems(base: RuleSet, values: Mapping[str, Any], deck_points: int) -> dict[str, tuple[str, dict]]:
    """What makes an own kind impossible, by the part to show it beside: no name, a tier starting
    where another starts, an opening minimum above the deck's points, a wild canasta of more wild
    cards than the deck holds."""
    found: dict[str, tuple[str, dict]] = {}
    starts = {row.low for row in base.opening_minimums if row.low is not None}
    wild_cards = base.cards_in_deck["jokers"] + base.cards_in_deck["twos_aces"] // 2
    for n, part in chosen(values):
        if not part["name"]:
            found[f"own_{n}_name"] = (N_("Give it a name."), {})
        if part["kind"] == "tier":
            if part["from"] in starts:
                found[f"own_{n}_from"] = (N_("A tier already starts at %(total)s."), {"total": part["from"]})
            starts.add(part["from"])
            if part["points"] > deck_points:
                found[f"own_{n}_points"] = (
                    N_("Above the %(deck)s points the whole deck holds."),
                    {"deck": deck_points},
                )
        if part["kind"] == "canasta" and part["wild"] and part["cards"] > wild_cards:
            found[f"own_{n}_cards"] = (N_("The deck holds only %(count)s wild cards."), {"count": wild_cards})
    return found


def deck_points(base: RuleSet, values: Mapping[str, Any]) -> int:
    """The card points of the whole deck (no red threes) with the table's card values."""
    return sum(values.get(f"card_{key}", base.card_values[key]) * base.cards_in_deck[key] for key in CARD_GROUP_KEYS)
