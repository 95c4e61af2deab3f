"""What makes a table's own values an impossible table (docs/rules.md, "A table's own rules"): a value
not of its kind or outside its limits, and values each possible alone that together make no table
(tiers out of order, a target below the first tier, an opening minimum above the deck, more canastas
of a kind than going out needs, an own kind without a name).

Pure: the standard library only.
"""

from __future__ import annotations

from typing import Any, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.changeable import CHOICE, LIST, POINTS, TEXT, YES_NO, Value
from scorekeeper.core.rulesets.model import CARD_GROUPS, RuleSet, plain
from scorekeeper.core.rulesets.own_kinds import deck_points, own_problems
from scorekeeper.core.rulesets.values import value_map, with_settings


def problems(
    base: RuleSet, changes: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> dict[str, tuple[str, dict[str, Any]]]:
    """What makes these changes an impossible table, by the name of the value to show it beside:
    (message id, its arguments). Empty: the table is possible. The names are those of ``base``'s list
    once the settings are applied (those among ``changes``, over ``settings`` given apart, as the API's
    request gives them)."""
    known = value_map(with_settings(base, {**(settings or {}), **changes}))
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, value in changes.items():
        spec = known.get(name)
        if spec is None:
            found[name] = (N_("Unknown value for %(rules)s."), {"rules": base.id})
        elif not spec.fits(value):
            found[name] = _out_of_range(spec)
    if found:
        return found
    values = {name: changes.get(name, spec.default) for name, spec in known.items()}
    return _table_problems(base, values)


def _out_of_range(spec: Value) -> tuple[str, dict[str, Any]]:
    """The message for a value that is not of its kind or outside its limits."""
    if spec.kind in (CHOICE, YES_NO):
        return N_("Use one of: %(choices)s."), {"choices": ", ".join(str(plain(c)).lower() for c, _ in spec.choices)}
    if spec.kind == TEXT:
        return N_("At most %(high)s characters, no %%."), {"high": spec.high}
    if spec.kind == LIST:
        return N_("Up to 20 multiples of 5 from %(low)s to %(high)s, one per hand."), {
            "low": spec.low,
            "high": spec.high,
        }
    if spec.kind == POINTS:
        return N_("A multiple of 5 from %(low)s to %(high)s."), {"low": spec.low, "high": spec.high}
    return N_("A whole number from %(low)s to %(high)s."), {"low": spec.low, "high": spec.high}


def _table_problems(base: RuleSet, values: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Values each possible alone that together make no table (docs/rules.md, "House rules")."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    tiers = len(base.opening_minimums)
    starts = [(i + 1, values.get(f"opening_{i + 1}_from")) for i in range(tiers)]
    starts = [(n, low) for n, low in starts if low is not None]
    for (_, before), (n, low) in zip(starts, starts[1:]):
        if low <= before:
            found[f"opening_{n}_from"] = (
                N_("Each tier must start above the one before (%(before)s)."),
                {"before": before},
            )
    for n in range(2, tiers + 1):
        before, minimum = values[f"opening_{n - 1}"], values[f"opening_{n}"]
        if minimum < before:
            found[f"opening_{n}"] = (
                N_("A tier's minimum cannot be below the tier before (%(before)s)."),
                {"before": before},
            )
    first = min((low for _, low in starts), default=None)
    if first is not None and values["target"] <= first:
        found["target"] = (N_("The target must be above the first opening tier (%(first)s)."), {"first": first})
    needed = values["canastas_to_go_out"]
    parts = values.get("natural_canastas_to_go_out", 0) + values.get("wild_canastas_to_go_out", 0)
    if parts > needed:
        name = "natural_canastas_to_go_out" if "natural_canastas_to_go_out" in values else "wild_canastas_to_go_out"
        found[name] = (N_("More than the %(count)s canastas needed to go out."), {"count": needed})
    if all(values[f"card_{key}"] == 0 for key, _ in CARD_GROUPS):
        found["card_jokers"] = (N_("At least one card must count."), {})
    found.update(_above_the_deck(base, values))
    found.update(own_problems(base, values, deck_points(base, values)))
    return found


def _above_the_deck(base: RuleSet, values: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Opening minimums no side could meld: above the points the whole deck holds (docs/rules.md,
    "Opening minimum")."""
    deck = deck_points(base, values)
    args = {"deck": deck}
    found = {
        f"opening_{n}": (N_("Above the %(deck)s points the whole deck holds."), args)
        for n in range(1, len(base.opening_minimums) + 1)
        if values[f"opening_{n}"] > deck
    }
    if any(minimum > deck for minimum in values.get("opening_by_hand", ())):
        found["opening_by_hand"] = (N_("Above the %(deck)s points the whole deck holds."), args)
    if values.get("opening_per_hand", 0) > deck:
        found["opening_per_hand"] = (N_("Above the %(deck)s points the whole deck holds."), args)
    return found
