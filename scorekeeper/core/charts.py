"""Charts as SVG markup, drawn on the server: no JavaScript, readable on a phone, printable.

Pure functions from numbers to SVG text; every label is escaped.

Colours follow the page's theme: text and axes are drawn in ``currentColor`` (the page's text
colour) and every part carries a class that static/style.css styles for light and dark pages
(no ``style`` attribute: the Content-Security-Policy allows no inline style). The attributes
still hold the light colours, so the SVG reads well on its own too.
"""

from __future__ import annotations

from html import escape
from typing import NamedTuple, Sequence

from scorekeeper.core.numbers import written

COLOURS = ("#0b6e4f", "#b3261e", "#1f5fbf", "#8a5a00", "#6b3fa0", "#00707a")
INK = "currentColor"  # the page's text colour, dark on a light page and light on a dark one


def _series(index: int) -> str:
    """The classes of a series' strokes and fills (style.css gives them their dark-page colours)."""
    n = index % len(COLOURS)
    return f"c{n}"


def _nice_step(span: float) -> int:
    """A round grid step (1, 2 or 5 times a power of ten) for about four lines."""
    raw = max(span / 4, 1)
    power = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return int(m * power)
    return int(10 * power)


LABEL_CHAR = 6.0  # a generous width of a character at 10 px (digits and lower case are about 5.6)
LABEL_HEIGHT = 10  # the label's height above its baseline at 10 px
POINT_RADIUS = 3.5  # the dot on each line's last point


def _segment_hits_box(a: tuple[float, float], b: tuple[float, float], box: tuple[float, ...]) -> bool:
    """Whether the segment from a to b crosses the box (x0, y0, x1, y1): clipped Liang-Barsky style."""
    x0, y0, x1, y1 = box
    (ax, ay), (bx, by) = a, b
    lo, hi = 0.0, 1.0
    for p, q in ((-(bx - ax), ax - x0), (bx - ax, x1 - ax), (-(by - ay), ay - y0), (by - ay, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def label_box(x: float, y: float, text: str, anchor: str, size: float = 10) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) a label of ``size`` px drawn at (x, y) with ``anchor`` covers at most."""
    width = len(text) * LABEL_CHAR * size / 10
    x0 = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return x0, y - LABEL_HEIGHT * size / 10, x0 + width, y + 2 * size / 10


def _target_label_place(
    text: str, line_y: float, lines: Sequence[Sequence[tuple[float, float]]], plot: tuple[float, float, float, float]
) -> tuple[float, float, str]:
    """Where the target's label goes (x, baseline y, anchor): beside its dashed line, at the right end
    above it if no line or last point is there, else the first free place of the right end below, the
    left end above and below, the middle; the least covered one if none is free."""
    left, top, plot_w, plot_h = plot
    places = [
        (left + plot_w - 2, line_y - 4, "end"),
        (left + plot_w - 2, line_y + 4 + LABEL_HEIGHT, "end"),
        (left + 2, line_y - 4, "start"),
        (left + 2, line_y + 4 + LABEL_HEIGHT, "start"),
        (left + plot_w / 2, line_y - 4, "middle"),
        (left + plot_w / 2, line_y + 4 + LABEL_HEIGHT, "middle"),
    ]

    def covered(place: tuple[float, float, str]) -> int:
        x0, y0, x1, y1 = label_box(*place[:2], text, place[2])
        grown = (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
        hits = 0 if top <= y0 and y1 <= top + plot_h else 1  # outside the plot: only when nothing else fits
        for points in lines:
            hits += sum(_segment_hits_box(a, b, grown) for a, b in zip(points, points[1:]))
            if len(points) > 1:  # the dot on the last point
                px, py = points[-1]
                nearest_x, nearest_y = min(max(px, grown[0]), grown[2]), min(max(py, grown[1]), grown[3])
                hits += (px - nearest_x) ** 2 + (py - nearest_y) ** 2 <= POINT_RADIUS**2
        return hits

    scores = [covered(place) for place in places]
    return places[scores.index(min(scores))]


class _Plot(NamedTuple):
    """Where a line chart's plot stands and how values map onto it."""

    left: int
    top: int
    width: int
    height: int
    lo: float
    span: float
    count: int

    def x(self, i: int) -> float:
        return self.left + self.width * (i / max(self.count, 1))

    def y(self, v: float) -> float:
        return self.top + self.height * (1 - (v - self.lo) / self.span)


def _grid(plot: _Plot, hi: float) -> list[str]:
    """The horizontal grid lines with their values, and the zero line when values go below it."""
    parts = []
    step = _nice_step(plot.span)
    tick = (plot.lo // step) * step
    right = plot.left + plot.width
    while tick <= hi:
        if tick >= plot.lo:
            parts.append(
                f'<line class="chart-grid" x1="{plot.left}" x2="{right}" '
                f'y1="{plot.y(tick):.1f}" y2="{plot.y(tick):.1f}" stroke="#ece9df"/>'
            )
            parts.append(
                f'<text class="chart-tick" x="{plot.left - 4}" y="{plot.y(tick) + 4:.1f}" '
                f'font-size="10" text-anchor="end" fill="{INK}">{written(tick)}</text>'
            )
        tick += step
    if plot.lo < 0:
        parts.append(
            f'<line class="chart-zero" x1="{plot.left}" x2="{right}" '
            f'y1="{plot.y(0):.1f}" y2="{plot.y(0):.1f}" stroke="#767369"/>'
        )
    return parts


def _target_line(plot: _Plot, series: Sequence[tuple[str, Sequence[int]]], target: int, label: str) -> str:
    """The target as a dashed line, its label where the lines leave room."""
    lines = [[(plot.x(i), plot.y(v)) for i, v in enumerate([0, *values])] for _name, values in series]
    box = (plot.left, plot.top, plot.width, plot.height)
    lx, ly, anchor = _target_label_place(label, plot.y(target), lines, box)
    return (
        f'<line class="chart-target" x1="{plot.left}" x2="{plot.left + plot.width}" '
        f'y1="{plot.y(target):.1f}" y2="{plot.y(target):.1f}" stroke="{INK}" '
        'stroke-dasharray="5 4"/><text class="chart-label" '
        f'x="{lx:.1f}" y="{ly:.1f}" font-size="10" '
        f'text-anchor="{anchor}" fill="{INK}">{escape(label)}</text>'
    )


def _series_line(plot: _Plot, index: int, values: Sequence[int]) -> list[str]:
    """One series' line from 0, with a dot on its last value."""
    colour, cls = COLOURS[index % len(COLOURS)], _series(index)
    coords = " ".join(f"{plot.x(i):.1f},{plot.y(v):.1f}" for i, v in enumerate([0, *values]))
    dash = ' stroke-dasharray="8 3"' if index % 2 else ""
    parts = [f'<polyline points="{coords}" class="{cls}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>']
    if values:
        parts.append(
            f'<circle class="f{cls}" cx="{plot.x(len(values)):.1f}" cy="{plot.y(values[-1]):.1f}" r="3.5" '
            f'fill="{colour}"/>'
        )
    return parts


def _legend_entry(index: int, name: str, columns: int, rows: int, width: int, height: int) -> list[str]:
    """One series' name in the legend: two a row when they fit beside each other, else one a row, cut
    short if still too long (about 6.8 px a character at 12 px)."""
    colour, cls = COLOURS[index % len(COLOURS)], _series(index)
    dash = ' stroke-dasharray="8 3"' if index % 2 else ""
    room = int((width // columns - 32) / 6.8)
    lx = 8 + (index % columns) * (width // 2)
    ly = height - 16 * rows + 16 * (index // columns) - 2
    shown = name if len(name) <= room else name[: room - 1].rstrip() + "…"
    return [
        f'<line class="{cls}" x1="{lx}" x2="{lx + 18}" y1="{ly - 4}" '
        f'y2="{ly - 4}" stroke="{colour}" stroke-width="3"{dash}/>',
        f'<text class="chart-label" x="{lx + 24}" y="{ly}" font-size="12" '
        f'fill="{INK}"><title>{escape(name)}</title>{escape(shown)}</text>',
    ]


def line_chart(
    series: Sequence[tuple[str, Sequence[int]]],
    target: int | None = None,
    title: str = "",
    width: int = 360,
    height: int = 220,
    x_label: str = "hand",
    target_label: str = "target {target}",
) -> str:
    """Lines of running values (one per series) starting at 0, the target as a dashed line."""
    points = [v for _name, values in series for v in values] + [0]
    if target is not None:
        points.append(target)
    lo, hi = min(points), max(points)
    hi += (hi - lo) * 0.08  # room above the highest point and the target's label
    columns = 2 if all(len(name) <= (width // 2 - 32) / 6.8 for name, _v in series) else 1
    rows = (len(series) + columns - 1) // columns
    left, right, top, bottom = 44, 10, 12, 40 + 16 * rows
    count = max((len(values) for _n, values in series), default=0)
    plot = _Plot(left, top, width - left - right, height - top - bottom, lo, (hi - lo) or 1, count)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<rect class="chart-plot" x="{left}" y="{top}" width="{plot.width}" '
        f'height="{plot.height}" fill="#fff" stroke="#d6d3c8"/>',
    ]
    parts += _grid(plot, hi)
    if target is not None:
        parts.append(_target_line(plot, series, target, target_label.format(target=target)))
    for index, (name, values) in enumerate(series):
        parts += _series_line(plot, index, values)
        parts += _legend_entry(index, name, columns, rows, width, height)
    parts.append(
        f'<text class="chart-tick" x="{left + plot.width / 2:.1f}" y="{top + plot.height + 16}" '
        f'font-size="10" text-anchor="middle" fill="{INK}">{escape(x_label)} 0–{count}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(values: Sequence[int], title: str = "", width: int = 360, height: int = 160) -> str:
    """One bar per value, up for positive and down for negative, around a zero line."""
    lo, hi = min([0, *values]), max([0, *values])
    span = (hi - lo) or 1
    left, top, plot_h = 44, 10, height - 30
    plot_w = width - left - 10
    bar = plot_w / max(len(values), 1)

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / span)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<text class="chart-tick" x="{left - 4}" y="{y(hi) + 4:.1f}" '
        f'font-size="10" text-anchor="end" fill="{INK}">{written(hi)}</text>',
        f'<text class="chart-tick" x="{left - 4}" y="{y(lo) + 4:.1f}" '
        f'font-size="10" text-anchor="end" fill="{INK}">{written(lo)}</text>',
    ]
    for i, v in enumerate(values):
        y0, y1 = sorted((y(0), y(v)))
        colour, cls = (COLOURS[0], _series(0)) if v >= 0 else (COLOURS[1], _series(1))
        parts.append(
            f'<rect class="f{cls}" x="{left + i * bar + bar * 0.1:.1f}" y="{y0:.1f}" '
            f'width="{max(bar * 0.8, 1):.1f}" height="{max(y1 - y0, 1):.1f}" fill="{colour}"/>'
        )
    parts.append(
        f'<line class="chart-axis" x1="{left}" x2="{left + plot_w}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="{INK}"/>'
    )
    parts.append("</svg>")
    return "".join(parts)
