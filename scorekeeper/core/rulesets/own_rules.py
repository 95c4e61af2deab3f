"""Values only a table's own rule set changes that are rules rather than numbers (docs/rules.md, "A
table's own rules"): what a special hand adds to and when it may be declared, and the opening minimum
by the hand's number. ``values.py`` lists them with the rest.

Pure: the standard library only.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.changeable import LIST, Value, points, setter, yes_no
from scorekeeper.core.rulesets.model import RuleSet


def special_hands(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "A table's own rules": what a special hand adds to, and when it may be declared."""
    values = []
    values.append(
        yes_no(
            "special_adds",
            N_("A special hand adds to the rest of the hand"),
            N_(
                "No: the side scores only the special hand. Yes: also its canastas, red and black "
                "threes, melded cards and cards left in hand."
            ),
            rules.special_adds,
            "going_out",
            setter("special_adds", bool),
        )
    )
    values.append(
        yes_no(
            "special_with_going_out",
            N_("A special hand also scores the bonus for going out"),
            N_("Yes: the side that goes out with a special hand adds the bonus for going out."),
            rules.special_with_going_out,
            "going_out",
            setter("special_with_going_out", bool),
        )
    )
    values.append(
        yes_no(
            "special_after_meld",
            N_("A special hand may follow the side's melds"),
            N_("No: only a side that has melded nothing may declare one. Yes: a side with melds too."),
            rules.special_after_meld,
            "going_out",
            setter("special_after_meld", bool),
        )
    )
    return values


def opening_by_hand(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "A table's own rules": the opening minimum by the hand's number instead."""
    values = []
    values.append(
        Value(
            "opening_by_hand",
            N_("Opening minimum by the hand's number"),
            N_("Empty: by the side's total. Otherwise the minimum for hand 1, 2, 3, …; the last goes on."),
            LIST,
            list(rules.opening_by_hand),
            0,
            1000,
            group="opening",
            apply=lambda r, v: replace(r, opening_by_hand=tuple(v)),
        )
    )
    values.append(
        points(
            "opening_per_hand",
            N_("Opening minimum: this times the hand's number"),
            N_("0: not used. Otherwise hand 1 needs this, hand 2 twice this, and so on."),
            rules.opening_per_hand,
            "opening",
            setter("opening_per_hand"),
            high=1000,
        )
    )
    return values
