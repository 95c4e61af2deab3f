"""The game's and the evening's CSV open in a spreadsheet as text, however it splits a line (issue 27,
item 12): at "," as CSV, at ";" as German, Italian and Estonian settings do (quotes as CSV reads them,
or none), or naively at either. A cell a split makes that starts with = + - @ (or a tab, a carriage
return, after spaces or a quote) is no formula: it gets an apostrophe, unless it is a plain number.
Split at ";", a part of a name after its ";" runs on into the next cells: "b;+1" then ",1,0,0" is the
cell "+1,1,0,0", no number. Both CSVs share one function (``backup.neutralised``).
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from scorekeeper.storage import backup
from tests.helpers import game_in_evening, new_evening, post_hand, side_fields

SPLIT_NAMES = ["b;+1", "c;-1", "d;=1", "e;@1"]
COMMA_NAMES = ["f,=1", "g, -2"]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cells(text: str) -> list[str]:
    """Every cell of every line, split each way a spreadsheet (or a hand-made reader) may split it."""
    cells = []
    for delimiter in (",", ";"):
        cells += [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]
    for line in text.split("\r\n"):
        for separator in (",", ";"):
            cells += line.split(separator)
    return cells


def _formulas(text: str) -> list[str]:
    """The cells a spreadsheet would read as a formula (a plain number is none)."""
    found = []
    for cell in _cells(text):
        start = cell.lstrip(' "')
        if start.startswith(FORMULA) and not re.fullmatch(r"[+-]?\d+(\.\d+)?", start.strip(' "')):
            found.append(cell)
    return found


def _won_by_side_0():
    """Side 0 out with a natural canasta and 300 melded (800), side 1 melded 50 (50)."""
    return side_fields(0, went_out="normal", natural=1, melded=300), side_fields(1, melded=50)


@pytest.fixture
def evening(client):
    """An evening of players named with a ";" or "," ahead of a formula: a game of four, a game of two."""
    evening_id = new_evening(client, SPLIT_NAMES, when="2026-11-01")
    four, _ = game_in_evening(client, evening_id, names=SPLIT_NAMES)
    post_hand(client, four, *_won_by_side_0())
    two, _ = game_in_evening(client, evening_id, variant="classic-2p", names=COMMA_NAMES)
    post_hand(client, two, *_won_by_side_0())
    return evening_id, four, two


def test_the_evenings_csv_starts_no_formula_however_it_is_split(client, evening):
    evening_id, _four, _two = evening
    text = client.get(f"/evenings/{evening_id}.csv").text
    assert _formulas(text) == []
    rows = list(csv.reader(io.StringIO(text)))
    standings = [row[0] for row in rows[rows.index(["player", "games", "won", "balance"]) + 1 :]]
    assert sorted(standings) == ["b;'+1", "c;'-1", "d;'=1", "e;'@1", "f,'=1", "g,' -2"]
    assert any(row[2] == "b;'+1 & d;'=1 vs c;'-1 & e;'@1" for row in rows)  # the names still read


def test_the_games_csv_starts_no_formula_however_it_is_split(client, evening):
    _evening_id, four, two = evening
    for game_id in (four, two):
        text = client.get(f"/games/{game_id}.csv").text
        assert _formulas(text) == [], game_id
    rows = list(csv.reader(io.StringIO(client.get(f"/games/{four}.csv").text)))
    assert rows[1][:2] == ["1", "b;'+1"]  # the dealer, whose ";+1" ran on into the scores


@pytest.mark.parametrize(
    "text, safe",
    [
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("a;\t=1", "a;'\t=1"),
        ("a,\r+1", "a,'\r+1"),
        ("a\r\n", "a\r\n"),
        ("a; -1", "a;' -1"),
        ('a;"@x"', 'a;\'"@x"'),
        ("a;+1", "a;'+1"),
        ("a;;=1", "a;;'=1"),
        ("Anna", "Anna"),
        ("600 : -100", "600 : -100"),
        ("a;b", "a;b"),
    ],
)
def test_every_part_a_split_can_make_is_neutralised(text, safe):
    assert backup.neutralised(["x", text]) == ["x", safe]


def test_a_number_stays_a_number_and_a_whole_cell_number_too_unless_it_starts_the_line():
    assert backup.neutralised([3, -150, "-150", "+5", 0]) == [3, -150, "-150", "+5", 0]
    assert backup.neutralised(["-5", 1, 0, 0]) == ["'-5", 1, 0, 0]  # split at ";" the cell is "-5,1,0,0"


def test_rows_with_tabs_and_line_breaks_start_no_formula_however_they_are_split():
    names = ("\t=1", "\r+1", "a;\r+1", "b,\t@c", "c;\t-1", " \t=1")
    standings = [{"name": name, "games": 1, "won": 0, "balance": -150} for name in names]
    text = backup.evening_csv([], standings)
    assert _formulas(text) == []


def test_a_number_in_digits_a_spreadsheet_does_not_read_is_neutralised():
    assert backup.neutralised(["x", "-١٢", "+１"]) == ["x", "'-١٢", "'+１"]
