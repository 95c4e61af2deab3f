"""The shape of a changeable value of a rule set (docs/rules.md, "House rules"): its kind, its limits,
its explanation and how it changes the table; the groups the page shows them in.

Pure: the standard library only. ``values.py`` lists a rule set's values, ``own_kinds.py`` the
table's own kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import RuleSet

POINTS, COUNT, YES_NO, CHOICE, TEXT, LIST = "points", "count", "yes_no", "choice", "text", "list"
MOST_TEXT = 30  # a table's own kind's name
MOST_LIST = 20  # opening minimums by the hand's number: hand 1 to 20 (the last goes on)
OWN_SLOTS = 3  # a table's own kinds: up to three (docs/rules.md, "A table's own rules")
OWN_KINDS = (
    ("none", N_("none")),
    ("canasta", N_("a kind of canasta")),
    ("special", N_("a special hand")),
    ("tier", N_("an opening tier")),
)
MOST_POINTS = 10000  # no bonus, penalty or card of the books comes near it
MOST_TARGET = 100000  # as the API's target
TARGET_RANGE = (500, MOST_TARGET)  # a game's own target, as the forms take it (and so the import)


@dataclass(frozen=True)
class Value:
    """One changeable value of a rule set (docs/rules.md, "House rules")."""

    name: str  # stable: stored games, exports and the API hold it
    label: str  # a message id, ``label_args`` put into it
    explanation: str  # one line, a message id
    kind: str  # POINTS (a multiple of 5), COUNT, YES_NO, CHOICE, TEXT (a name) or LIST (of POINTS, hand by hand)
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[Any, str], ...] = ()
    group: str = "game"  # where the page shows it: cards, canastas, going_out, threes, opening, penalties, game
    label_args: tuple[tuple[str, Any], ...] = ()
    apply: Callable[[RuleSet, Any], RuleSet] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def fits(self, value: Any) -> bool:
        """Whether ``value`` is of this value's kind and within its limits."""
        if self.kind == CHOICE:
            return any(value == choice and type(value) is type(choice) for choice, _ in self.choices)
        if self.kind == YES_NO:
            return type(value) is bool
        if self.kind == TEXT:
            return type(value) is str and len(value) <= self.high and value == value.strip() and "%" not in value
        if self.kind == LIST:
            return type(value) is list and len(value) <= MOST_LIST and all(self._fits_number(v) for v in value)
        return self._fits_number(value)

    def _fits_number(self, value: Any) -> bool:
        """Whether ``value`` is a whole number within the limits (points: a multiple of 5)."""
        if type(value) is not int or not (self.low <= value <= self.high):
            return False
        return self.kind not in (POINTS, LIST) or value % 5 == 0


VALUE_GROUPS = (
    ("cards", N_("Card values")),
    ("canastas", N_("Canastas")),
    ("going_out", N_("Going out")),
    ("threes", N_("Red and black threes")),
    ("opening", N_("Opening minimum")),
    ("penalties", N_("Penalties")),
    ("game", N_("End of the game")),
    ("settings", N_("Settings")),
    ("own", N_("The table's own kinds")),
)


def points(name, label, explanation, default, group, apply, args=(), low=0, high=MOST_POINTS) -> Value:
    """A value in points."""
    return Value(name, label, explanation, POINTS, default, low, high, (), group, tuple(args), apply)


def count(name, label, explanation, default, group, apply, low=0, high=9) -> Value:
    """A value that counts something."""
    return Value(name, label, explanation, COUNT, default, low, high, (), group, (), apply)


def yes_no(name, label, explanation, default, group, apply) -> Value:
    """A value that is on or off."""
    return Value(
        name, label, explanation, YES_NO, default, None, None, ((True, N_("yes")), (False, N_("no"))), group, (), apply
    )


def setter(attribute: str, convert: Callable[[Any], Any] = int) -> Callable[[RuleSet, Any], RuleSet]:
    """A value's ``apply`` that sets one field of the rule set."""
    return lambda rules, value: replace(rules, **{attribute: convert(value)})
