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

from decimal import ROUND_HALF_UP, Decimal
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


def rounded(value: float, places: int = 0) -> str:
    """A figure with ``places`` decimals as the pages write it, a half always away from zero (1282.5:
    1283; 0.625: 0.63; −427.5: −428), as the standings round points a Partie and the win rate rounds
    its per cent: Python's round and "%.0f" take a half to the even neighbour (1282.5: 1282, 427.5:
    428), so two figures side by side were rounded two ways. The figure as Python writes it shortest
    (0.145, not the 0.14499… a float holds) is the one rounded."""
    return str(Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
