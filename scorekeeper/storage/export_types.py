"""The values an export may hold, each checked as this app writes it: numbers, ids, texts, times,
lists, a game's rules. What ``export_check`` and ``export_tournaments`` share; nothing here reads or
writes the archive."""

from __future__ import annotations

import re
import string
from datetime import datetime
from typing import Any

from scorekeeper.core import rulesets


class _Damaged(ValueError):
    """A value of the export that this app would never have written (said in the import's message)."""


# What the forms take (forms.py): a player's name at most 40 characters, an evening's place 80 and
# note 300, none with a control character (a place or note may hold tabs and line breaks, a name
# never: the archive keeps names on one line); a target a multiple of 5 from 500 to 100000.
NAME_LENGTH, PLACE_LENGTH, NOTE_LENGTH = 40, 80, 300
TARGET_RANGE = rulesets.TARGET_RANGE
TOURNAMENT_NAME_LENGTH = 80  # the tournament form's

# The range of every whole number an export stores. SQLite keeps a signed 64-bit INTEGER, and a figure
# near its edge turns into a REAL at the next "+ 1" (a version) or overflows what is worked out from it
# (a round's clock), so each takes what this app writes, with room to go on; narrower where a form has
# a limit (a target: TARGET_RANGE; a round's hands and minutes, season points: core.club_night; a
# hand's figures: core.checks; a rule set's values: core.rulesets):
ID_RANGE = (1, 2**31 - 1)  # ids: SQLite counts them from 1, one a row; no archive holds 2**31 rows of a kind
VERSION_RANGE = (0, 2**31)  # versions count changes from 0: one a second would take 68 years to get there
SEED_RANGE = (0, 2**31 - 1)  # a draw's seed: secrets.randbelow(2**31) (services.tournaments.draw)
FIGURE_RANGE = (-(2**31), 2**31)  # any other count, index or points (a first dealer, places kept at a close)
JSON_RANGE = (-(2**53), 2**53)  # a number inside a log's entry (kept as JSON text): exact for every JSON reader

# A moment as the app writes it (UTC, now): from 1970 (a computer whose clock was never set) to 2999, so
# what is worked out from it (a round's end, the local time) stays within the calendar.
TIME_YEARS = (1970, 2999)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


# names are one player's whatever their case, as SQLite's NOCASE compares them (ASCII letters only)
_NOCASE = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _number(value: Any, where: str, null: bool = False, within: tuple[int, int] = FIGURE_RANGE) -> int | None:
    """A whole number (not a bool, not text) ``within`` its field's range or, where allowed, null."""
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Damaged(f"{where} is not a whole number")
    low, high = within
    if not low <= value <= high:
        raise _Damaged(f"{where} is not a whole number from {low} to {high}")
    return value


def _id(value: Any, where: str, null: bool = False) -> int | None:
    """An id: a whole number in ID_RANGE (or, where allowed, null)."""
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Damaged(f"{where} is not a whole number")
    if not ID_RANGE[0] <= value <= ID_RANGE[1]:
        raise _Damaged(f"{where} is not a positive whole number up to {ID_RANGE[1]}")
    return value


def _json_numbers(value: Any, where: str) -> None:
    """Every number inside a log's entry (JSON, as the app keeps it) within JSON_RANGE."""
    low, high = JSON_RANGE
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool) and not low <= item <= high:
            raise _Damaged(f"{where} holds a number beyond {low} to {high}")


def _unique(value: int, seen: set[int], where: str) -> int:
    """An id not given before in its kind."""
    if value in seen:
        raise _Damaged(f"{where} {value} is given twice")
    seen.add(value)
    return value


def _text(
    value: Any, where: str, null: bool = False, length: int | None = None, lines: bool = False, control: bool = False
) -> str | None:
    """A text (or, where allowed, null) of at most ``length`` characters and without control
    characters (with ``lines``, tabs and line breaks pass; with ``control``, any: a key no one reads)."""
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise _Damaged(f"{where} is not a text")
    if length is not None and len(value) > length:
        raise _Damaged(f"{where} is longer than {length} characters")
    if not control and (_CONTROL_BUT_LINES if lines else _CONTROL).search(value):
        raise _Damaged(f"{where} has a control character")
    return value


def _time(value: Any, where: str, null: bool = False) -> None:
    """A moment as the app writes it (ISO 8601, e.g. 2026-11-01T19:30:00+00:00), or where allowed null."""
    if _text(value, where, null, length=64) is None:
        return
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise _Damaged(f"{where} is not a time written YYYY-MM-DDTHH:MM:SS") from None
    if not TIME_YEARS[0] <= moment.year <= TIME_YEARS[1]:
        raise _Damaged(f"{where} is not a time from {TIME_YEARS[0]} to {TIME_YEARS[1]}")


def _check_rules(g: dict[str, Any], where: str) -> tuple[rulesets.RuleSet, rulesets.Layout, dict, int | None]:
    """A game's rule set, layout, house-rule settings and target, as this app has them."""
    rules = rulesets.RULE_SETS.get(g["variant"]) if isinstance(g["variant"], str) else None
    if rules is None:
        raise _Damaged(f"{where}.variant is unknown")
    try:
        layout = rules.layout(_text(g.get("layout"), f"{where}.layout", null=True, length=40))
    except KeyError:
        raise _Damaged(f"{where}.layout is unknown") from None
    settings = g.get("settings") or {}
    # the settings and the table's own values, one list (docs/rules.md, "A table's own rules")
    if not isinstance(settings, dict) or rulesets.problems(rules, settings):
        raise _Damaged(f"{where}.settings are not this rule set's")
    target = _number(g.get("target"), f"{where}.target", null=True)
    low, high = TARGET_RANGE
    if target is not None and (target % 5 or not low <= target <= high):
        raise _Damaged(f"{where}.target is not a multiple of 5 from {low} to {high} (or null: the rule set's)")
    return rules, layout, settings, target


def _list(value: Any, where: str) -> list[Any]:
    """A list (of rows, numbers or names)."""
    if not isinstance(value, list):
        raise _Damaged(f"{where} is not a list")
    return value
