"""A result as a picture (PNG) to look at and to send: a finished game's, an evening's and a closed
tournament's, drawn on the server with Pillow from the core's layout (core/pictures.py).

The fonts are files on this machine (Debian's DejaVu Sans), found without the network; where they
are missing, Pillow's own default font draws the picture (plainer, but every name still shows).
Each picture shows names, so it stays behind the password like the page it comes from.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

from flask import Blueprint, Response, abort, make_response, render_template
from flask_babel import gettext
from PIL import Image, ImageDraw, ImageFont

from scorekeeper.core import club_night, pictures, rulesets, sheet
from scorekeeper.services import tournament_state
from scorekeeper.storage import records, totals, tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n

bp = Blueprint("pictures", __name__)

FONT_FOLDERS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
APP_NAME = "Canasta score keeper"


def _font_file(bold: bool) -> Path | None:
    for folder in FONT_FOLDERS:
        path = folder / FONT_FILES[bold]
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=64)
def font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans (bold) at ``size`` px, or Pillow's default font when the file is not here."""
    path = _font_file(bold) or _font_file(False)
    if path is not None:
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def score_text(points: int, plus: bool = True) -> str:
    """A score as the pages write it ("−5140", "+5140"), with a hyphen for the minus where only
    Pillow's own font draws the picture (it has no "−")."""
    text = i18n.signed(points, plus)
    return text if _font_file(False) is not None else text.replace("\u2212", "-")


def measure(text: str, size: int, bold: bool) -> float:
    """How wide the text is drawn, in px."""
    return font(size, bold).getlength(text)


ANCHORS = {"left": "la", "right": "ra", "middle": "ma"}


def draw(layout: pictures.Layout) -> Image.Image:
    """The layout drawn on a picture."""
    image = Image.new("RGB", (layout.width, layout.height), pictures.PAPER)
    pen = ImageDraw.Draw(image)
    for item in layout.items:
        if isinstance(item, pictures.Text):
            pen.text(
                (item.x, item.y),
                item.text,
                font=font(item.size, item.bold),
                fill=item.fill,
                anchor=ANCHORS[item.anchor],
            )
        elif isinstance(item, pictures.Box):
            pen.rounded_rectangle(item.box, radius=item.radius, fill=item.fill, outline=item.outline, width=2)
        elif isinstance(item, pictures.Stroke):
            pen.line(item.points, fill=item.fill, width=item.width, joint="curve")
        elif isinstance(item, pictures.Dot):
            (x, y), r = item.centre, item.radius
            pen.ellipse((x - r, y - r, x + r, y + r), fill=item.fill)
    return image


def png(result: pictures.Result) -> bytes:
    """The result as PNG bytes."""
    out = io.BytesIO()
    draw(pictures.layout(result, measure)).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _answer(result: pictures.Result, name: str) -> Response:
    response = Response(png(result), mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.headers["Cache-Control"] = "private, no-store"  # names: never kept by a shared cache
    return response


def _not_yet(message: str):
    """409: the result is not there yet (the game is in play, the tournament not closed)."""
    abort(make_response(render_template("error.html", title=gettext("Not finished yet"), message=message), 409))


def game_result(game_id: int) -> pictures.Result:
    """A finished game's picture: the sides' totals, the winner, the running totals."""
    game = records.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    the_sheet = sheet.build(game, records.hands(get_db(), game_id))
    result = the_sheet.state.result
    if not result.finished:
        _not_yet(gettext("The game is not finished yet: its result picture comes when it is."))
    rows_upto = the_sheet.rows[: the_sheet.state.ended_after + 1]
    totals = rows_upto[-1].outcome.totals
    rows = [
        pictures.Row("", name, score_text(totals[i], plus=False), winner=result.winner == i)
        for i, name in enumerate(the_sheet.side_names)
    ]
    series = [[row.outcome.totals[i] for row in rows_upto] for i in range(len(the_sheet.side_names))]
    return pictures.Result(
        title=" – ".join(the_sheet.side_names),
        subtitle=f"{gettext(rulesets.get(game.variant).name)} · {game.created_at[:10]}",
        winner=i18n.result_sentence(the_sheet).striptags(),
        heading=gettext("Totals"),
        rows=rows,
        series=series,
        target=the_sheet.rules.target,
        chart_heading=gettext("Running totals"),
        x_label=gettext("hand"),
        target_label=gettext("target %(target)s", target=the_sheet.rules.target),
        footer=APP_NAME,
    )


def evening_result(evening_id: int) -> pictures.Result:
    """An evening's picture: each player's balance, best first, and who did best."""
    evening = records.get_evening(get_db(), evening_id)
    if evening is None:
        abort(404)
    standings = totals.evening_standings(get_db(), evening_id)
    if not any(r["games"] for r in standings):
        _not_yet(gettext("No game of this evening is finished yet: its result picture comes with the first."))
    best = standings[0]["balance"]
    top = [r["name"] for r in standings if r["balance"] == best]
    rows = []
    for r in standings:
        place = 1 + sum(1 for o in standings if o["balance"] > r["balance"])
        shared = sum(1 for o in standings if o["balance"] == r["balance"]) > 1
        balance = score_text(r["balance"])
        rows.append(pictures.Row(f"{place}{'=' if shared else ''}", r["name"], balance, winner=r["balance"] == best))
    winner = gettext("Best of the evening: %(names)s (%(balance)s)", names=" & ".join(top), balance=score_text(best))
    return pictures.Result(
        title=gettext("Evening: %(date)s", date=evening.date),
        subtitle=" · ".join(part for part in (evening.place, evening.note) if part),
        winner=winner,
        heading=gettext("Standings"),
        rows=rows,
        footer=APP_NAME,
    )


def tournament_result(tournament_id: int) -> pictures.Result:
    """A closed tournament's picture: its final standings and its winner."""
    t = tournament_records.get(get_db(), tournament_id)
    if t is None:
        abort(404)
    if not t.closed_at:
        _not_yet(gettext("The tournament is not closed yet: its result picture comes when it is."))
    rounds = tournament_state.rounds(get_db(), t)
    lines = club_night.place_lines(club_night.ranking(t, rounds)) if rounds else []
    rows = []
    for line in lines:
        first = line[0]
        figure = (
            gettext("%(mp)s MP", mp=first.match_points) + " · " if t.kind.shows_match_points else ""
        ) + score_text(first.points, plus=False)
        rows.append(
            pictures.Row(
                f"{first.place}{'=' if first.tied > 1 else ''}",
                " & ".join(t.names[p.unit] for p in line),
                figure,
                winner=first.place == 1,
            )
        )
    winners = [row.name for row in rows if row.winner]
    return pictures.Result(
        title=t.name,
        subtitle=gettext(
            "Closed on %(date)s: the standings and season points are final.",
            date=i18n.local_time(t.closed_at, "%Y-%m-%d"),
        ),
        winner=gettext("Winner: %(names)s", names=" · ".join(winners)) if winners else "",
        heading=gettext("Standings"),
        rows=rows,
        footer=APP_NAME,
    )


@bp.get("/games/<int:game_id>/result.png")
def game_picture(game_id: int):
    """A finished game's result as a picture (409 while it is in play)."""
    return _answer(game_result(game_id), f"game-{game_id}.png")


@bp.get("/evenings/<int:evening_id>/result.png")
def evening_picture(evening_id: int):
    """An evening's result as a picture (409 before its first game ends)."""
    return _answer(evening_result(evening_id), f"evening-{evening_id}.png")


@bp.get("/tournaments/<int:tournament_id>/result.png")
def tournament_picture(tournament_id: int):
    """A closed tournament's result as a picture (409 while it is open)."""
    return _answer(tournament_result(tournament_id), f"tournament-{tournament_id}.png")
