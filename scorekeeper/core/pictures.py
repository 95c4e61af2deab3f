"""A result as a picture to look at and to send: where each text, bar and line of it goes.

Pure: the layout of a finished game's, an evening's or a closed tournament's result on a picture
about 1080 px wide (a phone's screen at three pixels a point), as a list of things to draw. The web
layer draws them with Pillow (web/pictures.py); this module only needs to know how wide a text is,
which it is told (``measure``), so the tests lay out pictures without any font.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from scorekeeper.core.charts import COLOURS, _nice_step

WIDTH = 1080
MARGIN = 64
PAPER = "#fbfaf6"
INK = "#1d1b16"
MUTED = "#5f5c54"
RULE = "#d6d3c8"
GRID = "#ece9df"
WINNER = "#0b6e4f"
WINNER_PAPER = "#e3f1ea"
ELLIPSIS = "…"

# measure(text, size in px, bold) -> width in px
Measure = Callable[[str, int, bool], float]


@dataclass(frozen=True)
class Row:
    """One line of the totals or standings: its place ("1", "2="; "" for none), the name(s), the
    figure at the right end, whether it is the winner's line."""

    place: str
    name: str
    figure: str
    winner: bool = False


@dataclass(frozen=True)
class Result:
    """What a result picture says: the title, a line under it (rule set, date), the winner's
    sentence, the heading of the rows and the rows, and for a game the running totals (one series a
    side, in the rows' order) and the target."""

    title: str
    subtitle: str
    winner: str
    heading: str
    rows: Sequence[Row]
    series: Sequence[Sequence[int]] = ()
    target: int | None = None
    chart_heading: str = ""
    x_label: str = ""
    target_label: str = ""
    footer: str = ""


@dataclass(frozen=True)
class Text:
    """A text whose top-left (``anchor`` "left"), top-right ("right") or top-middle ("middle") is at (x, y)."""

    x: float
    y: float
    text: str
    size: int
    bold: bool = False
    fill: str = INK
    anchor: str = "left"


@dataclass(frozen=True)
class Box:
    """A filled rectangle (x0, y0, x1, y1), with rounded corners of ``radius``."""

    box: tuple[float, float, float, float]
    fill: str
    outline: str | None = None
    radius: int = 0


@dataclass(frozen=True)
class Stroke:
    """A line through the points."""

    points: tuple[tuple[float, float], ...]
    fill: str
    width: int = 2


@dataclass(frozen=True)
class Dot:
    """A filled circle."""

    centre: tuple[float, float]
    radius: float
    fill: str


@dataclass
class Layout:
    """The picture's size and what is drawn on it, in order."""

    width: int
    height: int
    items: list = field(default_factory=list)


def fit(text: str, size: int, bold: bool, room: float, measure: Measure) -> str:
    """The text, cut short with "…" if it is wider than ``room``."""
    if measure(text, size, bold) <= room:
        return text
    cut = text
    while cut and measure(cut + ELLIPSIS, size, bold) > room:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def _wrap(text: str, size: int, bold: bool, room: float, measure: Measure, lines: int = 3) -> list[str]:
    """The text in at most ``lines`` lines of ``room`` px, broken between words (the last cut short)."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and measure(f"{line} {words[0]}", size, bold) <= room:
            line = f"{line} {words.pop(0)}"
        out.append(line)
    if words:
        out[-1] = fit(f"{out[-1]} {' '.join(words)}", size, bold, room, measure)
    return [fit(line, size, bold, room, measure) for line in out]


def colour(index: int) -> str:
    """A side's colour: its line in the chart and its mark beside its name."""
    return COLOURS[index % len(COLOURS)]


def layout(result: Result, measure: Measure, width: int = WIDTH) -> Layout:
    """Where everything of the result goes, top to bottom."""
    room = width - 2 * MARGIN
    picture = Layout(width, 0)
    draw = picture.items.append
    y = MARGIN
    title = 60 if measure(result.title, 60, True) <= 2 * room else 48
    for line in _wrap(result.title, title, True, room, measure, lines=3):
        draw(Text(MARGIN, y, line, title, bold=True))
        y += title * 1.25
    if result.subtitle:
        for line in _wrap(result.subtitle, 30, False, room, measure, lines=2):
            draw(Text(MARGIN, y, line, 30, fill=MUTED))
            y += 40
    y += 24
    if result.winner:
        lines = _wrap(result.winner, 38, True, room - 56, measure)
        height = 32 + 50 * len(lines)
        draw(Box((MARGIN, y, width - MARGIN, y + height), WINNER, radius=20))
        for i, line in enumerate(lines):
            draw(Text(MARGIN + 28, y + 18 + 50 * i, line, 38, bold=True, fill="#ffffff"))
        y += height + 36
    y = _rows(picture, result, measure, y)
    if result.series and any(result.series):
        y = _chart(picture, result, measure, y + 28)
    if result.footer:
        y += 16
        draw(Text(width - MARGIN, y, fit(result.footer, 24, False, room, measure), 24, fill=MUTED, anchor="right"))
        y += 30
    picture.height = int(y + MARGIN)
    return picture


def _rows(picture: Layout, result: Result, measure: Measure, y: float) -> float:
    """The heading and one line a side or entrant (fewer pixels each when there are many)."""
    draw, width = picture.items.append, picture.width
    if result.heading:
        draw(Text(MARGIN, y, result.heading, 30, bold=True, fill=MUTED))
        y += 46
    many = len(result.rows) > 10
    size, height = (30, 48) if many else (40, 72)
    marked = bool(result.series)
    place_room = max((measure(r.place, size, True) for r in result.rows), default=0)
    name_x = MARGIN + 20 + (place_room + 24 if place_room else 0) + (40 if marked else 0)
    for i, row in enumerate(result.rows):
        top = y + i * height
        if row.winner:
            draw(Box((MARGIN, top, width - MARGIN, top + height - 6), WINNER_PAPER, radius=12))
        else:
            draw(Stroke(((MARGIN, top + height - 3), (width - MARGIN, top + height - 3)), RULE, 1))
        text_y = top + (height - 6 - size * 1.2) / 2
        if row.place:
            draw(Text(MARGIN + 20, text_y, row.place, size, bold=True, fill=WINNER if row.winner else INK))
        if marked:
            mark_x = name_x - 40
            middle = top + (height - 6) / 2
            draw(Box((mark_x, middle - 12, mark_x + 24, middle + 12), colour(i), radius=6))
        figure_w = measure(row.figure, size, True)
        draw(Text(width - MARGIN - 20, text_y, row.figure, size, bold=True, anchor="right"))
        room = width - MARGIN - 20 - figure_w - 32 - name_x
        draw(Text(name_x, text_y, fit(row.name, size, row.winner, room, measure), size, bold=row.winner))
    return y + len(result.rows) * height


def _ticks(lo: float, hi: float, step: float) -> list[int]:
    """The grid's values: the multiples of ``step`` from ``lo`` to ``hi``."""
    ticks = []
    tick = (lo // step) * step
    while tick <= hi:
        if tick >= lo:
            ticks.append(int(tick))
        tick += step
    return ticks


def _value_range(result: Result) -> tuple[float, float]:
    """The chart's lowest and highest value: 0, every total and the target, with room above."""
    values = [v for series in result.series for v in series] + [0]
    if result.target is not None:
        values.append(result.target)
    lo, hi = min(values), max(values)
    return lo, hi + (hi - lo) * 0.06


def _chart(picture: Layout, result: Result, measure: Measure, y: float) -> float:
    """The running totals: one line a side from 0, the target dashed, grid lines with their values."""
    draw, width = picture.items.append, picture.width
    if result.chart_heading:
        draw(Text(MARGIN, y, result.chart_heading, 30, bold=True, fill=MUTED))
        y += 50
    lo, hi = _value_range(result)
    span = (hi - lo) or 1
    ticks, tick_size = _ticks(lo, hi, _nice_step(span)), 24
    left = MARGIN + max(measure(str(t), tick_size, False) for t in ticks) + 16
    right, top, height = width - MARGIN, y + 8, 480
    count = max(len(series) for series in result.series)

    def px(i: int) -> float:
        return left + (right - left) * i / max(count, 1)

    def py(v: float) -> float:
        return top + height * (1 - (v - lo) / span)

    draw(Box((left, top, right, top + height), "#ffffff", outline=RULE))
    for t in ticks:
        draw(Stroke(((left, py(t)), (right, py(t))), GRID, 2))
        draw(Text(left - 12, py(t) - tick_size * 0.6, str(t), tick_size, fill=MUTED, anchor="right"))
    if lo < 0:
        draw(Stroke(((left, py(0)), (right, py(0))), "#767369", 2))
    if result.target is not None:
        _target_line(picture, result, (left, right), py(result.target), tick_size)
    for index, series in enumerate(result.series):
        points = tuple((px(i), py(v)) for i, v in enumerate([0, *series]))
        draw(Stroke(points, colour(index), 6))
        if series:
            draw(Dot(points[-1], 10, colour(index)))
    bottom = top + height
    if result.x_label:
        draw(
            Text((left + right) / 2, bottom + 12, f"{result.x_label} 0–{count}", tick_size, fill=MUTED, anchor="middle")
        )
    return bottom + 12 + tick_size * 1.4


def _target_line(picture: Layout, result: Result, across: tuple[float, float], ty: float, tick_size: int) -> None:
    """The target across the chart, dashed (18 px on, 12 off), with its label under it at the left:
    there every line is still low (they start at 0), and the chart's top edge, which the target
    nears, is not in its way."""
    left, right = across
    x = left
    while x < right:
        picture.items.append(Stroke(((x, ty), (min(x + 18, right), ty)), INK, 3))
        x += 30
    if result.target_label:
        picture.items.append(Text(left + 12, ty + 10, result.target_label, tick_size, fill=INK))
