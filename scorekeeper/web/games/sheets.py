"""The score sheet (rendered once per change of the archive), reopening and locking it, the opening-
meld table."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import charts, rulesets, sheet
from scorekeeper.network import addresses
from scorekeeper.services import games as service
from scorekeeper.storage import records
from scorekeeper.storage.db import generation as db_generation
from scorekeeper.storage.db import get_db
from scorekeeper.web import access, house_rules, i18n, pagecache, table_seat
from scorekeeper.web.games.blueprint import bp
from scorekeeper.web.games.common import from_grid, load_game, no_new_hand, phone_token, said_refused, sheet_locked


@bp.get("/games/<int:game_id>")
def scoreboard(game_id: int):
    """The score sheet: totals, next minimums, next dealer, every hand's breakdown, the result."""
    return scoreboard_page(game_id)


def scoreboard_page(game_id: int, readonly: bool = False, token: str | None = None):
    """The score sheet page; ``readonly`` for a read-only link (``token``): nothing there changes the game.
    Rendered once per change of the archive (see pagecache) and, for a tournament's game, per state of
    its table's round (which the clock changes without a write: such a page is not kept by FastPages)."""
    seat = table_seat.seat_of(get_db(), game_id, datetime.now(timezone.utc))
    organiser = bool(seat) and not readonly and from_grid(game_id)  # this phone opened it from the grid
    key = (
        "scoreboard",
        db_generation(get_db()),
        game_id,
        readonly,
        str(i18n.get_locale()),
        access.unlocked(),
        access.password_set(),
        seat and seat.state,
        organiser,
    )
    response = pagecache.cached_page(
        key, lambda csrf: _render_scoreboard(game_id, readonly, token, csrf, seat, organiser)
    )
    if seat is not None and not seat.done:
        response.headers.pop(pagecache.FastPages.MARK, None)
    return response


def _render_scoreboard(
    game_id: int, readonly: bool, token: str | None, csrf_token, seat=None, by_organiser: bool = False
) -> str:
    """Render the score sheet with this CSRF token function, from the page's one read (``by_organiser``:
    the phone opened it from the director's grid)."""
    read = records.scoreboard(get_db(), game_id, readonly)
    if read is None:
        abort(404)
    the_sheet = sheet.build(read.game, read.hands)
    view_url = url_for("access.view", token=token or access.view_token(game_id), _external=True)
    share_url = (
        view_url if readonly else addresses.reachable_url(url_for("games.scoreboard", game_id=game_id, _external=True))
    )
    return render_template(
        "games/scoreboard.html",
        sheet=the_sheet,
        house_rules=sheet.settings_chosen(read.game),
        own_values=sheet.values_changed(read.game),
        own_name=read.own_name,
        variant_layouts=len(rulesets.get(read.game.variant).layouts),
        chart=_chart(the_sheet),
        evening=read.evening,
        locked=readonly or sheet_locked(the_sheet) or bool(seat and seat.closed),
        readonly=readonly,
        live_game=read.game,
        live_url=url_for("access.view_version", token=token) if readonly else None,
        share_url=share_url,
        share_qr=addresses.qr_svg(share_url, gettext("QR code")),
        view_url=addresses.reachable_url(view_url),
        csrf_token=csrf_token,
        corrections=read.corrections,
        card_entry=by_organiser and bool(seat and seat.done) and no_new_hand(game_id, organiser=True) is None,
        deleted_hands=read.deleted,
        tournament=seat,
        by_organiser=by_organiser,
    )


def _chart(the_sheet: sheet.Sheet) -> str:
    """The running totals as a line chart (none before the first hand)."""
    if not the_sheet.rows:
        return ""
    series = [(name, [row.outcome.totals[i] for row in the_sheet.rows]) for i, name in enumerate(the_sheet.side_names)]
    return charts.line_chart(
        series,
        target=the_sheet.rules.target,
        title=gettext("Running totals"),
        x_label=gettext("hand"),
        target_label=gettext("target %(target)s", target="{target}"),
    )


@bp.post("/games/<int:game_id>/reopen")
def reopen(game_id: int):
    """Open a finished game again to correct its hands."""
    outcome = service.reopen_game(get_db(), game_id, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    if said_refused(outcome):  # a closed tournament's game
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("The game is open for corrections."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/lock")
def lock(game_id: int):
    """Corrections done: the finished game's sheet is read-only again."""
    outcome = service.reopen_game(get_db(), game_id, reopened=False, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    if said_refused(outcome):
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("The sheet is locked again."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.get("/games/<int:game_id>/minimums")
def minimums(game_id: int):
    """The variant's opening-meld table with each side's current row highlighted."""
    game = load_game(game_id)
    return render_template(
        "games/minimums.html",
        sheet=sheet.build(game, records.hands(get_db(), game_id)),
        live_game=game,
        changed=house_rules.changed_parts(rulesets.get(game.variant), game.settings),
    )
