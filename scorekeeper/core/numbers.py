"""A whole number typed as text: the one rule for every number the app reads from a form, a query
string or an address (docs/architecture.md, "Rules the code keeps").

A number is a run of decimal digits of any script, each read as its value: 0–9, full-width ０–９,
Arabic-Indic ٠–٩, Devanagari ०–९ … (the characters ``str.isdecimal`` accepts: exactly those ``int``
reads, and those an address's ``<int:…>`` reads). Spaces around it are ignored; a sign (``-``, ``+``
or the minus sign ``−`` the pages write) only where the number may be negative. Anything else is no
number: superscripts and circled digits (``"²"``, ``"①"``: ``str.isdigit`` accepts them, ``int``
refuses them), fractions, spaces or underscores inside (``int`` reads ``"1_000"``), a decimal point,
an exponent, more digits than the place takes. A number sent as JSON is a JSON number, never text
(``web/api_models.py``).
"""

from __future__ import annotations

from typing import Any

MAX_DIGITS = 30  # far beyond any figure, id or count; int() reads at most 4300
SIGNS = {"-": -1, "\u2212": -1, "+": 1}


def whole(text: Any, *, signed: bool = False, digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` is by the rule above, or None (so is anything that is not text)."""
    if not isinstance(text, str):
        return None
    core = text.strip()
    sign = SIGNS.get(core[:1]) if signed else None
    if sign is not None:
        core = core[1:]
    if not core or len(core) > digits or not core.isdecimal():
        return None
    return (sign or 1) * int(core)


def written(number: float) -> str:
    """A number as the pages write it: a real minus sign (−120, not -120), as a reader expects."""
    return f"\u2212{-number}" if number < 0 else str(number)
