"""Charts as SVG markup, drawn on the server: no JavaScript, readable on a phone, printable.

Pure functions from numbers to SVG text; every label is escaped.

Colours follow the page's theme: text and axes are drawn in ``currentColor`` (the page's text
colour) and every part carries a class that static/style.css styles for light and dark pages
(no ``style`` attribute: the Content-Security-Policy allows no inline style). The attributes
still hold the light colours, so the SVG reads well on its own too.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

COLOURS = ("#0b6e4f", "#b3261e", "#1f5fbf", "#8a5a00", "#6b3fa0", "#00707a")
INK = "currentColor"  # the page's text colour, dark on a light page and light on a dark one


def _series(index: int) -> str:
    """The classes of a series' strokes and fills (style.css gives them their dark-page colours)."""
    n = index % len(COLOURS)
    return f"c{n}"


def _scale(lo: float, hi: float, size: float, pad: float) -> tuple[float, float]:
    """Factor and offset mapping [lo, hi] onto [pad, size - pad] (upwards for y)."""
    span = (hi - lo) or 1
    return (size - 2 * pad) / span, lo


def _nice_step(span: float) -> int:
    """A round grid step (1, 2 or 5 times a power of ten) for about four lines."""
    raw = max(span / 4, 1)
    power = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return int(m * power)
    return int(10 * power)


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
    # the legend: two names a row when they fit beside each other, else one a row, cut short if
    # still too long (about 6.8 px a character at 12 px)
    columns = 2 if all(len(name) <= (width // 2 - 32) / 6.8 for name, _v in series) else 1
    room = int((width // columns - 32) / 6.8)
    rows = (len(series) + columns - 1) // columns
    left, right, top, bottom = 44, 10, 12, 40 + 16 * rows
    plot_w, plot_h = width - left - right, height - top - bottom
    count = max((len(values) for _n, values in series), default=0)
    span = (hi - lo) or 1

    def x(i: int) -> float:
        return left + plot_w * (i / max(count, 1))

    def y(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / span)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>',
        f'<rect class="chart-plot" x="{left}" y="{top}" width="{plot_w}" '
        f'height="{plot_h}" fill="#fff" stroke="#d6d3c8"/>',
    ]
    step = _nice_step(span)
    tick = (lo // step) * step
    while tick <= hi:
        if tick >= lo:
            parts.append(
                f'<line class="chart-grid" x1="{left}" x2="{left + plot_w}" '
                f'y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ece9df"/>'
            )
            parts.append(
                f'<text class="chart-tick" x="{left - 4}" y="{y(tick) + 4:.1f}" '
                f'font-size="10" text-anchor="end" fill="{INK}">{tick}</text>'
            )
        tick += step
    if lo < 0:
        parts.append(
            f'<line class="chart-zero" x1="{left}" x2="{left + plot_w}" '
            f'y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#767369"/>'
        )
    if target is not None:
        parts.append(
            f'<line class="chart-target" x1="{left}" x2="{left + plot_w}" '
            f'y1="{y(target):.1f}" y2="{y(target):.1f}" stroke="{INK}" '
            'stroke-dasharray="5 4"/><text class="chart-label" '
            f'x="{left + plot_w - 2}" y="{y(target) - 4:.1f}" font-size="10" '
            f'text-anchor="end" fill="{INK}">{escape(target_label.format(target=target))}</text>'
        )
    for index, (name, values) in enumerate(series):
        colour, cls = COLOURS[index % len(COLOURS)], _series(index)
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate([0, *values]))
        dash = ' stroke-dasharray="8 3"' if index % 2 else ""
        parts.append(
            f'<polyline points="{coords}" class="{cls}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>'
        )
        if values:
            parts.append(
                f'<circle class="f{cls}" cx="{x(len(values)):.1f}" cy="{y(values[-1]):.1f}" r="3.5" fill="{colour}"/>'
            )
        lx = 8 + (index % columns) * (width // 2)
        ly = height - 16 * rows + 16 * (index // columns) - 2
        shown = name if len(name) <= room else name[: room - 1].rstrip() + "…"
        parts.append(
            f'<line class="{cls}" x1="{lx}" x2="{lx + 18}" y1="{ly - 4}" '
            f'y2="{ly - 4}" stroke="{colour}" stroke-width="3"{dash}/>'
        )
        parts.append(
            f'<text class="chart-label" x="{lx + 24}" y="{ly}" font-size="12" '
            f'fill="{INK}"><title>{escape(name)}</title>{escape(shown)}</text>'
        )
    parts.append(
        f'<text class="chart-tick" x="{left + plot_w / 2:.1f}" y="{top + plot_h + 16}" '
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
        f'font-size="10" text-anchor="end" fill="{INK}">{hi}</text>',
        f'<text class="chart-tick" x="{left - 4}" y="{y(lo) + 4:.1f}" '
        f'font-size="10" text-anchor="end" fill="{INK}">{lo}</text>',
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
