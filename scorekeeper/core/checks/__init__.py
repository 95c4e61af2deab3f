"""Checks that catch miscounts in a hand entry, and the reading of an entry into card points.

A hand entry is a list of one dict per side, in the shape the JSON API takes and the database
stores (see ``docs/api.md``): ``melded_points`` or ``melded_cards`` (counts by value group),
``hand_points`` or ``hand_cards``, ``natural_canastas``, ``mixed_canastas``, ``red_threes``,
``went_out`` (None, "normal", "concealed"), optional ``has_melded`` and ``penalties``. Which fields a
rule set's side has, their kinds and limits, is the table in ``core/entry.py``.

    reading.py  one side's entry read into card points, each figure checked on its own
    side.py     the rules within one side (canastas, melding, going out)
    hand.py     the rules across the sides, ``read_hand`` (read and check a whole hand) and the warnings
    ranks.py    cards of one rank (Modern aces and 7s) against the deck

Pure: no Flask, no database. Every problem names the side and the field it belongs to, so a
form can show the message beside that field.
"""

from __future__ import annotations

from scorekeeper.core.checks.hand import check_hand, plausibility_warnings, read_hand
from scorekeeper.core.checks.reading import (
    CARD_FIELDS,
    MAX_FIGURE,
    POINT_FIELDS,
    ReadSide,
    count_fields,
    known_fields,
    read_lone,
    read_side,
    stored_entry,
    whole_number,
)
from scorekeeper.core.checks.side import check_side
from scorekeeper.core.entry import MAX_PENALTY
from scorekeeper.core.messages import Problem

__all__ = [
    "CARD_FIELDS",
    "MAX_FIGURE",
    "MAX_PENALTY",
    "POINT_FIELDS",
    "Problem",
    "ReadSide",
    "check_hand",
    "check_side",
    "count_fields",
    "known_fields",
    "plausibility_warnings",
    "read_hand",
    "read_lone",
    "read_side",
    "stored_entry",
    "whole_number",
]
