"""Pages of the archive: evenings, players, history, statistics, charts, export and import."""

from __future__ import annotations

import json
import threading

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_number, gettext, ngettext

from scorekeeper.core import charts, clock, names, numbers, ratings, rulesets, sheet, stats
from scorekeeper.core.models import Evening
from scorekeeper.services import archive as archive_service
from scorekeeper.services import evenings as evening_service
from scorekeeper.services import players as player_service
from scorekeeper.services import tournament_state
from scorekeeper.services.verdicts import MISSING
from scorekeeper.storage import backup, leaderboard, records, totals, tournament_records
from scorekeeper.storage.db import generation as db_generation
from scorekeeper.storage.db import get_db
from scorekeeper.storage.export_check import NotAnExport
from scorekeeper.storage.records import valid_id
from scorekeeper.web import access, archive_filters, commands, forms, i18n, pagecache
from scorekeeper.web.house_rules import rule_set_keys

bp = Blueprint("archive", __name__, cli_group=None)  # its commands are `flask ratings`, not `flask archive ratings`
for _command in commands.COMMANDS:
    bp.cli.add_command(_command)


def _page() -> int:
    """The ``?page=`` asked for: 1 if missing or not a number, and within what an offset can hold."""
    return min(max(numbers.whole(request.args.get("page")) or 1, 1), MAX_PAGE)


MAX_PAGE = 10**9


def _evening(evening_id: int) -> Evening:
    """The evening or a 404 page."""
    evening = records.get_evening(get_db(), evening_id)
    if evening is None:
        abort(404)
    return evening


# --- evenings -----------------------------------------------------------------------------


@bp.get("/evenings")
def evenings():
    """Every evening, newest first, with its games' count and who came out ahead."""
    page = _page()
    rows, more = totals.evenings_page(get_db(), page)
    # each evening's result at a glance: who came out ahead, by how much (the standings' first)
    leaders = {}
    for row in rows:
        standings = totals.evening_standings(get_db(), row["id"]) if row["games"] else []
        if standings and standings[0]["balance"] > 0:  # all who share the lead
            top = standings[0]["balance"]
            leaders[row["id"]] = {
                "name": ", ".join(s["name"] for s in standings if s["balance"] == top),
                "balance": top,
            }
    return render_template("archive/evenings.html", rows=rows, leaders=leaders, page=page, more=more)


def _evening_form_page(form, evening: Evening | None, status: int = 200):
    """The new/edit evening form."""
    form.known.choices = [(p.id, p.name) for p in records.list_players(get_db())]
    return render_template("archive/evening_form.html", form=form, evening=evening), status


def _evening_names(form) -> list[str]:
    """The players ticked and typed, in that order."""
    known = {p.id: p.name for p in records.list_players(get_db())}
    return [known[i] for i in (form.known.data or []) if i in known] + form.new_names()


def _no_look_alikes(form) -> bool:
    """The new players typed ask "Did you mean Anna?" when one looks like a player kept (or like
    another one typed)."""
    known = records.all_player_names(get_db())
    ok = forms.look_alikes(form, [(form.new_players, n) for n in form.new_names()], known)
    typed = form.new_names()
    for i, name in enumerate(typed):
        if names.look_alike(name, typed[:i]) is not None or any(
            names.skeleton(name) == names.skeleton(t) and name != t for t in typed[:i]
        ):
            form.new_players.errors = list(form.new_players.errors) + [
                gettext("Two players have this name; add an initial.")
            ]
            return False
    return ok


@bp.route("/evenings/new", methods=["GET", "POST"])
def new_evening():
    """Start an evening: the date (today), the place, the players present."""
    form = forms.EveningForm()
    if request.method == "GET":
        form.date.data = clock.today()
    if form.validate_on_submit() and _no_look_alikes(form):
        verdict = evening_service.create_evening(
            get_db(), form.date.data, _evening_names(form), form.place.data or "", form.note.data or ""
        )
        return redirect(url_for("archive.evening", evening_id=verdict.id))
    return _evening_form_page(form, None, 422 if form.is_submitted() else 200)


@bp.route("/evenings/<int:evening_id>/edit", methods=["GET", "POST"])
def edit_evening(evening_id: int):
    """Change an evening's date, place, note or players."""
    evening = _evening(evening_id)
    form = forms.EveningForm()
    if request.method == "GET":
        form.date.data, form.place.data, form.note.data = evening.date, evening.place, evening.note
        form.known.data = [p.id for p in evening.players]
    if form.validate_on_submit() and _no_look_alikes(form):
        verdict = evening_service.update_evening(
            get_db(), evening_id, form.date.data, _evening_names(form), form.place.data or "", form.note.data or ""
        )
        if verdict.status == MISSING:
            abort(404)  # deleted meanwhile
        flash(gettext("Evening saved."))
        return redirect(url_for("archive.evening", evening_id=evening_id))
    return _evening_form_page(form, evening, 422 if form.is_submitted() else 200)


def _evening_sheets(evening_id: int) -> list[sheet.Sheet]:
    """The evening's games as sheets."""
    db = get_db()
    return [sheet.build(game, records.hands(db, game.id)) for game in records.evening_games(db, evening_id)]


@bp.get("/evenings/<int:evening_id>")
def evening(evening_id: int):
    """An evening: its games, each player's standing and the settlement."""
    the_evening = _evening(evening_id)
    standings = totals.evening_standings(get_db(), evening_id)
    balances = {r["name"]: r["balance"] for r in standings}
    for game_id, name, balance in totals.evening_guest_balances(get_db(), evening_id):  # each a guest of one game
        guest = gettext("%(name)s (guest, game %(game)s)", name=name, game=game_id)
        balances[guest] = balances.get(guest, 0) + balance
    payments = stats.settle(balances)
    return render_template(
        "archive/evening.html",
        evening=the_evening,
        sheets=_evening_sheets(evening_id),
        standings=standings,
        payments=payments,
        today=clock.today(),
        rating_changes=leaderboard.evening_changes(get_db(), evening_id),
        tournaments=tournament_records.of_evening(get_db(), evening_id),
    )


@bp.get("/evenings/<int:evening_id>.csv")
def evening_csv(evening_id: int):
    """The evening as CSV."""
    _evening(evening_id)
    text = backup.evening_csv(_evening_sheets(evening_id), totals.evening_standings(get_db(), evening_id))
    return Response(
        text, mimetype="text/csv", headers={"Content-Disposition": f"attachment; filename=evening-{evening_id}.csv"}
    )


# --- players ------------------------------------------------------------------------------


@bp.get("/players")
def players():
    """Every player with a short record."""
    return render_template("archive/players.html", rows=totals.players(get_db()))


def _player_charts(timeline: list, name: str) -> tuple[str, str]:
    """A player's balance over his finished games and the result of each, as charts ("" without a
    finished game)."""
    if not timeline:
        return "", ""
    running, total = [], 0
    for row in timeline:
        total += row["margin"]
        running.append(total)
    chart = charts.line_chart(
        [(name, running)], title=gettext("%(name)s: balance over finished games", name=name), x_label=gettext("game")
    )
    bars = charts.bar_chart(
        [row["margin"] for row in timeline], title=gettext("%(name)s: result of each game", name=name)
    )
    return chart, bars


def _player_page(pid: int, rename=None, merge=None, status: int = 200):
    """A player's record, chart and the rename and merge forms."""
    db = get_db()
    record = totals.player(db, pid)
    if record is None:
        abort(404)
    chart, bars = _player_charts(totals.player_timeline(db, pid), record.name)
    rename = rename or forms.PlayerNameForm(name=record.name)
    merge = merge or forms.MergeForm()
    merge.other.choices = [(p.id, p.name) for p in records.list_players(db) if p.id != pid]
    games, _more = totals.history(db, player_id=pid)
    rating, rating_chart = _rating(pid, record.name)
    return render_template(
        "archive/player.html",
        record=record,
        chart=chart,
        bars=bars,
        rating=rating,
        rating_chart=rating_chart,
        rename=rename,
        merge=merge,
        games=games,
        rule_sets=rulesets.RULE_SETS,
        own_names=records.own_rule_set_names(db, [g.game_id for g in games]),
    ), status


def _rating(pid: int, name: str) -> tuple[ratings.Rating, str]:
    """A player's rating and its chart after each of his rated games (from 0, a newcomer's)."""
    steps = leaderboard.timeline(get_db(), pid)
    chart = (
        charts.line_chart(
            [(name, [s["rating"] for s in steps])],
            title=gettext("%(name)s: rating after each rated game", name=name),
            x_label=gettext("game"),
        )
        if steps
        else ""
    )
    return leaderboard.rating_of(get_db(), pid), chart


@bp.get("/players/<int:pid>")
def player(pid: int):
    """One player's totals."""
    if records.get_player(get_db(), pid) is None:
        abort(404)
    return _player_page(pid)


@bp.post("/players/<int:pid>/rename")
def rename_player(pid: int):
    """Rename a player; every game and evening follows."""
    if records.get_player(get_db(), pid) is None:
        abort(404)
    form = forms.PlayerNameForm()
    others = [p for p in records.all_player_names(get_db()) if p != records.get_player(get_db(), pid).name]
    if form.validate_on_submit() and forms.look_alikes(form, [(form.name, names.normal(form.name.data))], others):
        verdict = player_service.rename_player(get_db(), pid, form.name.data)
        if verdict.status == MISSING:
            abort(404)  # merged away meanwhile
        if verdict.ok:
            flash(gettext("Renamed."))
            return redirect(url_for("archive.player", pid=pid))
        form.name.errors = [i18n.problem_message(p) for p in verdict.problems]
    return _player_page(pid, rename=form, status=422)


@bp.post("/players/<int:pid>/merge")
def merge_player(pid: int):
    """Merge another player into this one, keeping all history."""
    db = get_db()
    if records.get_player(db, pid) is None:
        abort(404)
    form = forms.MergeForm()
    form.other.choices = [(p.id, p.name) for p in records.list_players(db) if p.id != pid]
    if form.validate_on_submit():
        verdict = player_service.merge_players(db, pid, form.other.data)
        if verdict.status == MISSING:
            abort(404)  # merged away meanwhile
        if verdict.ok:
            flash(gettext("%(name)s merged into this player.", name=verdict.extra["name"]))
            return redirect(url_for("archive.player", pid=pid))
        form.other.errors = [i18n.problem_message(p) for p in verdict.problems]
    if not form.other.choices:  # the page shows no merge form (no other player): say why at the top
        flash(gettext("Pick two different players."))
    return _player_page(pid, merge=form, status=422)


# --- history and statistics -----------------------------------------------------------------


@bp.get("/history")
def history():
    """Games newest first, filtered by player, rule set and dates; paginated."""
    db = get_db()
    args = request.args
    since, until, errors = archive_filters.dates(args.get("from") or None, args.get("to") or None)
    variant = args.get("variant") or None
    own = records.all_house_rules(db)
    if variant and variant not in rule_set_keys(own):
        errors["variant"] = gettext("Unknown rule set.")
    player_id = numbers.whole(args.get("player"), signed=True)
    page = _page()

    def render(csrf_token=None) -> str:
        # the cache renders with a marker for the CSRF token, each phone's own put in when served
        extra = {"csrf_token": csrf_token} if csrf_token else {}
        if player_id and not valid_id(player_id):
            rows, more = [], False  # no such player: no games, as for any unknown id
        else:
            rows, more = ([], False) if errors else totals.history(db, player_id, variant, since, until, page)
        return render_template(
            "archive/history.html",
            rows=rows,
            more=more,
            page=page,
            errors=errors,
            players=records.list_players(db),
            rule_sets=rulesets.RULE_SETS,
            own_rule_sets=own,
            own_names=records.own_rule_set_names(db, [g.game_id for g in rows]),
            args=args,
            round_over=tournament_state.round_over(db, [g.game_id for g in rows if not g.finished]),
            **extra,
        )

    if errors:
        return render(), 422
    # rendered once per change of the archive, like the scoreboard (see pagecache): a page of a
    # club's history costs the same as a page of a new archive's
    key = ("history", db_generation(db), str(i18n.get_locale()), access.unlocked(), access.password_set())
    return pagecache.cached_page(key, render)


@bp.get("/stats")
def statistics():
    """Every player's record and the partnerships, each table sorted by any of its columns either way
    (``?sort=won&dir=desc``, ``?psort=games&pdir=asc``), for a period (``?period=year|12m|all``) and a
    rule set (``?variant=``). Plain links and a GET form; anything unknown is the default."""
    db = get_db()
    args = request.args
    period = args.get("period") if args.get("period") in totals.PERIODS else "all"
    own = records.all_house_rules(db)
    variant = args.get("variant") if args.get("variant") in rule_set_keys(own) else None
    sort, desc = totals.sort_order(args.get("sort"), args.get("dir"), totals.PLAYER_SORTS, "won")
    psort, pdesc = totals.sort_order(args.get("psort"), args.get("pdir"), totals.PAIR_SORTS, "games")
    since, until = totals.period_days(period, clock.today())
    kept = archive_filters.kept_choices(period, variant, (sort, desc), (psort, pdesc))

    def link(**changes) -> str:
        """This page with some of its choices changed."""
        return url_for("archive.statistics", **{**kept, **changes})

    def sort_link(table: str, column: str) -> tuple[str, str | None]:
        """A column header's link (the column the other way round when it is the one sorted by, else
        its own way) and its aria-sort."""
        current, down = (sort, desc) if table == "players" else (psort, pdesc)
        keys = ("sort", "dir") if table == "players" else ("psort", "pdir")
        if column == current:
            return link(**{keys[0]: column, keys[1]: "asc" if down else "desc"}), "descending" if down else "ascending"
        return link(**{keys[0]: column, keys[1]: "asc" if column in ("name", "names") else "desc"}), None

    return render_template(
        "archive/stats.html",
        rows=totals.player_table(db, sort, desc, since, until, variant),
        pairs=totals.partnership_table(db, psort, pdesc, since, until, variant),
        period=period,
        variant=variant,
        kept=kept,
        link=link,
        sort_link=sort_link,
        filtered=bool(since or variant),
        rule_sets=rulesets.RULE_SETS,
        own_rule_sets=own,
    )


# --- export and import ----------------------------------------------------------------------


@bp.get("/export")
def export_page():
    """Backup: download the archive, or restore one into an empty instance."""
    return _export_page(forms.ImportForm())


def _export_page(form, status: int = 200):
    """The backup page; a refused import is answered with it (and its message) at once."""
    return render_template("archive/export.html", form=form, empty=backup.is_empty(get_db())), status


@bp.get("/export.json")
def export_json():
    """The whole archive as one JSON file."""
    data = backup.export(get_db())
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename=canasta-archive-{clock.today()}.json"},
    )


# An export of years of club evenings runs to tens of megabytes: the import alone takes a body
# this large (every other request keeps the app's MAX_CONTENT_LENGTH; the servers are given this
# figure, limits.largest_body). Parsed JSON takes far more memory than its text: an export about 3x,
# a file of `[],` over 20x. So the file's items are counted first (its `[`, `{`, `,` and `:`, one C
# pass each) and at most IMPORT_MAX_ITEMS are parsed, one import at a time: the costliest file let
# in keeps the server under 300 MB (tests/test_body_limits.py measures it). An export holds about
# 54 items (645 bytes) per hand: 1.8 million is some 33 000 hands; a larger archive is restored on the
# computer with `flask --app scorekeeper restore FILE`, which has no such limit.
IMPORT_MAX_BYTES = 32 * 1024 * 1024
IMPORT_MAX_ITEMS = 1_800_000
_importing = threading.Lock()


class _TooLarge(Exception):
    """The export has more items than an import through the browser takes."""


def _read_export(file) -> object:
    """The export file's JSON, read once into memory, its items counted before it is parsed."""
    raw = file.read(IMPORT_MAX_BYTES + 1)
    if len(raw) > IMPORT_MAX_BYTES or sum(raw.count(mark) for mark in (b"[", b"{", b",", b":")) > IMPORT_MAX_ITEMS:
        raise _TooLarge
    text = raw.decode("utf-8-sig")
    del raw  # the text alone is kept while the JSON is parsed
    return json.loads(text)


@bp.url_value_preprocessor
def _import_body_limit(endpoint: str | None, values: dict | None) -> None:
    """Raise the body limit for the import before anything reads the form: url value preprocessors
    run ahead of every ``before_request`` (the CSRF check reads the form there). Only for a phone
    that may import: a locked one keeps the small limit."""
    if endpoint == "archive.import_json" and request.method == "POST" and access.unlocked():
        request.max_content_length = IMPORT_MAX_BYTES


@bp.post("/import")
def import_json():
    """Restore a JSON export into an empty archive."""
    form = forms.ImportForm()
    if not form.validate_on_submit() or not form.file.data:
        flash(gettext("Choose an export file first."))
        return _export_page(form, 400)
    try:
        with _importing:  # one import in memory at a time (others wait their turn)
            try:
                data = _read_export(form.file.data)
            except _TooLarge:
                flash(
                    gettext(
                        "This file is too large to import here (at most %(megabytes)d MB and %(items)s items). "
                        "Restore it on the computer running the score keeper: "
                        "flask --app scorekeeper restore FILE",
                        megabytes=IMPORT_MAX_BYTES // (1024 * 1024),
                        items=format_number(IMPORT_MAX_ITEMS),
                    )
                )
                return _export_page(form, 413)
            except (ValueError, RecursionError):  # not UTF-8, not JSON, a number of 5000 digits, nested absurdly deep
                flash(gettext("That file is not a JSON export."))
                return _export_page(form, 422)
            counts = archive_service.restore_archive(get_db(), data)
            del data
    except NotAnExport as error:
        flash(gettext(error.text, **error.values))
    else:
        flash(
            gettext(
                "Restored %(games)s with %(hands)s, %(evenings)s and %(players)s.",
                games=ngettext("%(num)d game", "%(num)d games", counts["games"]),
                hands=ngettext("%(num)d hand", "%(num)d hands", counts["hands"]),
                evenings=ngettext("%(num)d evening", "%(num)d evenings", counts["evenings"]),
                players=ngettext("%(num)d player", "%(num)d players", counts["players"]),
            )
        )
        return redirect(url_for("games.index"))
    return _export_page(form, 422)


@bp.get("/games/<int:game_id>.csv")
def game_csv(game_id: int):
    """A game's sheet as CSV."""
    game = records.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    text = backup.game_csv(sheet.build(game, records.hands(get_db(), game_id)))
    return Response(
        text, mimetype="text/csv", headers={"Content-Disposition": f"attachment; filename=game-{game_id}.csv"}
    )
