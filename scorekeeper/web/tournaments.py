"""A club night at several tables (docs/tournaments.md): the list and a new tournament, the organiser's
page (draw, rounds, tables with their QR codes, close, the actions on record), each table's own link
(its current game, or where its players go next), the standings for a big screen and the season."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext

from scorekeeper.core import clock, club_night, names, numbers, rulesets
from scorekeeper.network import addresses
from scorekeeper.services import tournament_state
from scorekeeper.services import tournaments as service
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, PROBLEMS, REFUSED
from scorekeeper.storage import records, tournament_records
from scorekeeper.storage.db import generation, get_db
from scorekeeper.web import i18n, table_seat, tournament_confirm, tournament_log
from scorekeeper.web.games.common import phone_token
from scorekeeper.web.tournament_forms import (
    BYE_SHORT_NAMES,
    FORMAT_HINTS,
    FORMAT_NAMES,
    ROUND_END_NAMES,
    TournamentForm,
    rule_choices,
)

bp = Blueprint("tournaments", __name__)


def _load(tournament_id: int) -> club_night.Tournament:
    t = tournament_records.get(get_db(), tournament_id)
    if t is None:
        abort(404)
    return t


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def _rules_name(t: club_night.Tournament) -> str:
    own = records.get_house_rules(get_db(), t.house_rules_id) if t.house_rules_id else None
    return own.name if own else gettext(rulesets.get(t.variant).name)


def _own_values(t: club_night.Tournament) -> list[tuple[str, str]]:
    """The values of the table's own rule set the tournament plays (its tables of four), as the score sheet
    shows a game's: (label, value)."""
    base = rulesets.get(t.variant)
    return [
        (i18n.value_label(spec), i18n.value_text(spec, t.settings[spec.name]))
        for spec in rulesets.values_of(rulesets.with_settings(base, t.settings))
        if spec.group != "settings" and spec.name in t.settings
    ]


def _size_rules(t: club_night.Tournament) -> list[tuple[int, str]]:
    """What the tables of five and six the tournament may play (the draw's, its final's) play, as the page
    names it: (size, rule set · seating)."""
    out = []
    for size in sorted(t.kind.played_sizes(t.table_sizes) & set(t.table_rules)):
        rules = t.table_rules[size]
        own = records.get_house_rules(get_db(), rules.house_rules_id) if rules.house_rules_id else None
        name = own.name if own else gettext(rulesets.get(rules.variant).name)
        out.append((size, f"{name} · {gettext(rulesets.get(rules.variant).layout(rules.layout).label)}"))
    return out


@bp.get("/tournaments")
def tournament_list():
    """Every tournament, the newest first, with its evening's date (a night begun after midnight is
    still the evening before, as its evening in the archive says), and the season's table."""
    tournaments = tournament_records.all_tournaments(get_db())
    days = {t.id: _played_on(t) if t.evening_id else _evening_of(t.created_at) for t in tournaments}
    return render_template("tournaments/list.html", tournaments=tournaments, days=days, formats=FORMAT_NAMES)


def _evening_of(stored: str) -> str:
    """The evening (ISO date) a stored moment (UTC) belongs to on this machine's clock."""
    return clock.evening_of(datetime.fromisoformat(stored).astimezone().replace(tzinfo=None))


@bp.route("/tournaments/new", methods=["GET", "POST"])
def new_tournament():
    """Start a tournament: what was typed stays when something is refused."""
    return _tournament_form(None)


@bp.route("/tournaments/<int:tournament_id>/edit", methods=["GET", "POST"])
def edit_tournament(tournament_id: int):
    """Change a tournament before its draw (a name mistyped, a player missing)."""
    t = _load(tournament_id)
    if t.seed is not None:
        flash(gettext("The seats are drawn: the tournament can no longer be changed."))
        return redirect(url_for("tournaments.tournament", tournament_id=t.id))
    return _tournament_form(t)


def _as_typed(t: club_night.Tournament) -> dict:
    """A tournament's values as its form shows them."""
    return dict(
        name=t.name,
        format=t.format,
        rules=f"house-{t.house_rules_id}" if t.house_rules_id else t.variant,
        round_end=t.round_end,
        round_hands=t.round_hands or 3,
        round_minutes=t.round_minutes or 50,
        target=t.target,
        entrants="\n".join(" & ".join(e) for e in t.entrants),
        season_points=", ".join(map(str, t.season_points)),
        bye_score=t.bye_score,
        ties=t.ties,
        confirm_hands=t.confirm_hands,
        **{
            f"rules_{size}": f"{f'house-{r.house_rules_id}' if r.house_rules_id else r.variant}:{r.layout}"
            for size, r in t.table_rules.items()
        },
    )


def form_version() -> int:
    """The version of the tournament the organiser's page was showing (-1: none it could be)."""
    version = numbers.whole(request.form.get("version"), digits=18)
    return -1 if version is None else version


def _tournament_fields(form, chosen: tuple) -> dict:
    """What the organiser's form gives the service: ``chosen`` is the rule set's choice (its value,
    name and layout); a table's own rule set (``house-<id>``) brings its base and its values."""
    value, _name, layout = chosen
    own = records.get_house_rules(get_db(), int(value[6:])) if value.startswith("house-") else None
    return dict(
        name=names.normal(form.name.data),
        fmt=form.format.data,
        variant=own.base if own else value,
        entrants=form.entrant_list(),
        layout=layout,
        settings=dict(own.changes) if own else {},
        house_rules_id=own.id if own else None,
        target=form.target.data,
        round_end=form.round_end.data,
        round_hands=form.round_hands.data,
        round_minutes=form.round_minutes.data,
        season_points=form.points(),
        bye_score=form.bye_score.data,
        ties=form.ties.data,
        table_rules=form.table_rules(),
        phone=phone_token(),
        confirm_hands=bool(form.confirm_hands.data),
    )


def _tournament_form(t: club_night.Tournament | None):
    """The form to start a tournament, or to change one (``t``) before its draw; every message at once."""
    form = TournamentForm(data=_as_typed(t) if t and request.method == "GET" else None)
    house = records.all_house_rules(get_db())
    choices = rule_choices(house)
    form.rules.choices = [(value, gettext(name)) for value, name, _layout in choices]
    form.offer_table_rules(house)
    checks = (form.validate_on_submit, form.check, lambda: form.new_names_checked(records.all_player_names(get_db())))
    if form.is_submitted() and all([check() for check in checks]):
        fields = _tournament_fields(form, next(c for c in choices if c[0] == form.rules.data))
        if t is None:
            outcome = service.create(get_db(), **fields)
        else:
            outcome = service.change(get_db(), t.id, form_version(), **fields)
        if outcome.status == MISSING:
            abort(404)
        if outcome.status in (PROBLEMS, REFUSED):
            problem = outcome.problems[0]
            getattr(form, problem.field, form.entrants).errors = [i18n.problem_message(problem)]
        elif outcome.status == OVERTAKEN:
            form.name.errors = [gettext("Another phone changed this tournament meanwhile: check it and save again.")]
            t = _load(t.id)
        else:
            return redirect(url_for("tournaments.tournament", tournament_id=outcome.id))
    return render_template("tournaments/new.html", form=form, hints=FORMAT_HINTS, t=t), (
        422 if form.is_submitted() else 200
    )


def _unticked(tournament_id: int, message: str):
    """Delete, end a round, close, reopen asked without the box ticked: the page again with ``message``."""
    _load(tournament_id)
    if request.form.get("sure") != "y":
        flash(message)
        return redirect(url_for("tournaments.tournament", tournament_id=tournament_id))
    return None


@bp.post("/tournaments/<int:tournament_id>/delete")
def delete_tournament(tournament_id: int):
    """Delete a tournament before its first round, once the box saying so is ticked."""
    if (unticked := _unticked(tournament_id, gettext("Tick the box to delete the tournament."))) is not None:
        return unticked
    outcome = service.delete(get_db(), tournament_id)
    if outcome.status == REFUSED:
        return _act(tournament_id, outcome, "")
    if outcome.status == MISSING:
        abort(404)
    flash(gettext("Tournament %(name)s deleted.", name=outcome.extra["name"]))
    return redirect(url_for("tournaments.tournament_list"))


def _plan(t: club_night.Tournament) -> list[tuple]:
    """Each round's tables and who sits it out, as the movement fixes them at the draw (``final``: round 1)."""
    if t.seed is None:
        return []
    return [club_night.round_plan(t, r) for r in range(1, t.kind.planned_rounds(len(t.entrants)) + 1)]


def _state(t: club_night.Tournament):
    rounds = tournament_state.rounds(get_db(), t)
    current = rounds[-1] if rounds else None
    return rounds, current


@bp.get("/tournaments/<int:tournament_id>")
def tournament(tournament_id: int):
    """The organiser's page: the draw, the rounds' seating, the tables now, what to do next."""
    return organiser_page(_load(tournament_id))


def organiser_page(t: club_night.Tournament, status: int = 200, **forms):
    """The organiser's page; ``forms``: a check-in or a replacement refused (web/tournament_entrants.py),
    its message beside its field and what was typed still there (``ticked``: the entrants ticked)."""
    rounds, current = _state(t)
    start_problem = club_night.start_problem(t, rounds)
    checked_in = tournament_records.checked_in(get_db(), t.id) if t.seed is None else None
    forms.setdefault("ticked", {i for i, e in enumerate(t.entrants) if e in set(checked_in or ())})  # as saved
    return render_template(
        "tournaments/show.html",
        t=t,
        rounds=rounds,
        current=current,
        plan=_plan(t),
        start_problem=start_problem,
        formats=FORMAT_NAMES,
        round_ends=ROUND_END_NAMES,
        rules_name=_rules_name(t),
        now=_now(),
        size_rules=_size_rules(t),
        own_values=_own_values(t),
        places=club_night.ranking(t, rounds) if rounds else [],
        actions=tournament_records.actions(get_db(), t.id),
        can_close=not t.closed_at and rounds and rounds[-1].complete,
        action_name=tournament_log.action_name,
        checked_in=checked_in,
        unconfirmed=tournament_confirm.listed(get_db(), t),
        tables=club_night.tables_of(t.format, len(t.entrants) if checked_in is None else len(checked_in)),
        **forms,
    ), status


def _act(tournament_id: int, outcome, done: str):
    if outcome.status == MISSING:
        abort(404)
    if outcome.status == REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))
    else:
        flash(done)
    return redirect(url_for("tournaments.tournament", tournament_id=tournament_id))


@bp.post("/tournaments/<int:tournament_id>/draw")
def draw(tournament_id: int):
    outcome = service.draw(get_db(), tournament_id, phone=phone_token())
    return _act(tournament_id, outcome, gettext("The seats are drawn."))


@bp.post("/tournaments/<int:tournament_id>/rounds")
def start_round(tournament_id: int):
    outcome = service.start_round(get_db(), tournament_id, phone=phone_token())
    answer = _act(tournament_id, outcome, gettext("Round %(round)s has started.", round=outcome.id))
    tournament_confirm.say_unconfirmed(tournament_id)  # the round before has ended: its hands still waiting
    return answer


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/end")
def end_round(tournament_id: int, number: int):
    if (unticked := _unticked(tournament_id, gettext("Tick the box to end the round."))) is not None:
        return unticked
    outcome = service.end_round(get_db(), tournament_id, number, phone=phone_token())
    answer = _act(tournament_id, outcome, gettext("Round %(round)s is over at every table.", round=number))
    tournament_confirm.say_unconfirmed(tournament_id)
    return answer


@bp.post("/tournaments/<int:tournament_id>/close")
def close(tournament_id: int):
    if (unticked := _unticked(tournament_id, gettext("Tick the box to close the tournament."))) is not None:
        return unticked
    outcome = service.close(get_db(), tournament_id, phone=phone_token())
    return _act(tournament_id, outcome, gettext("The tournament is closed: its standings are final."))


@bp.post("/tournaments/<int:tournament_id>/reopen")
def reopen(tournament_id: int):
    if (unticked := _unticked(tournament_id, gettext("Tick the box to reopen the tournament."))) is not None:
        return unticked
    outcome = service.reopen(get_db(), tournament_id, phone=phone_token())
    return _act(
        tournament_id, outcome, gettext("The tournament is open again: correct the result, then close it again.")
    )


def _table_url(t: club_night.Tournament, number: int) -> str:
    return addresses.reachable_url(url_for("tournaments.table", tournament_id=t.id, number=number, _external=True))


@bp.get("/tournaments/<int:tournament_id>/qr")
def table_codes(tournament_id: int):
    """A QR code per table, to print and put on the tables: each opens its table's current game."""
    t = _load(tournament_id)
    tables = club_night.tables_of(t.format, len(t.entrants))
    codes = [
        (n, _table_url(t, n), addresses.qr_svg(_table_url(t, n), gettext("QR code"))) for n in range(1, tables + 1)
    ]
    return render_template("tournaments/codes.html", t=t, codes=codes)


def _where_next(t: club_night.Tournament, rounds, state: club_night.TableState) -> list[tuple[str, str]]:
    """Where each player of a table that has finished its round goes next, as the page says it."""
    said = {
        club_night.TO_TABLE: lambda number: gettext("Table %(table)s", table=number),
        club_night.SITS_OUT: lambda _number: gettext("sits the round out"),
        club_night.FINISHED: lambda _number: gettext("has finished: thank you for playing"),
    }
    return [(t.names[unit], said[kind](number)) for unit, kind, number in club_night.where_next(t, rounds, state)]


@bp.get("/tournaments/<int:tournament_id>/tables/<int:number>")
def table(tournament_id: int, number: int):
    """A table's own link (its QR code): the table's game of the round being played, seated; once its
    round is over, where its players go next."""
    t = _load(tournament_id)
    if not 0 < number <= club_night.tables_of(t.format, len(t.entrants)):
        abort(404)
    rounds, current = _state(t)
    state = None
    for r in reversed(rounds):
        state = r.table(number)
        if state is not None:
            break
    if state is not None and not state.done and not t.closed_at:
        return redirect(url_for("games.scoreboard", game_id=state.game_id))
    return render_template(
        "tournaments/table.html",
        t=t,
        number=number,
        state=state,
        current=current,
        where=_where_next(t, rounds, state) if state else [],
        formats=FORMAT_NAMES,
    )


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int):
    """The standings for a big screen: every table's state, the ranking, the round's timer."""
    t = _load(tournament_id)
    rounds, current = _state(t)
    now = _now()
    tables = len(current.tables) if current else club_night.tables_of(t.format, len(t.entrants))
    final_round = t.kind.final_round
    final = club_night.next_tables(t, rounds) if len(rounds) == (final_round or 0) - 1 and current.complete else []
    return render_template(
        "tournaments/standings.html",
        t=t,
        rounds=rounds,
        current=current,
        now=now,
        final=final,
        places=club_night.ranking(t, rounds) if rounds else [],
        density="wide" if tables > 9 or len(t.entrants) > 24 else "",
        version=generation(get_db()),
        formats=FORMAT_NAMES,
        warning_seconds=club_night.WARNING_MINUTES * 60,
    )


@bp.get("/tournaments/<int:tournament_id>/standings/version")
def standings_version(tournament_id: int):
    """What the standings page polls: the archive's generation (every saved hand raises it)."""
    _load(tournament_id)
    response = jsonify({"version": generation(get_db())})
    response.headers["Cache-Control"] = "no-store"
    return response


def _played_on(t: club_night.Tournament) -> str:
    """The day a tournament counts on in the season: its evening's date (a club night closed after
    midnight, or days later, is still that evening's)."""
    evening = records.get_evening(get_db(), t.evening_id) if t.evening_id else None
    return evening.date if evening else (t.closed_at or t.created_at)[:10]


@bp.get("/tournaments/games/<int:game_id>/version")
def game_version(game_id: int):
    """What a tournament table's phone polls: its game's version and its table's round state, so a
    round stopped or ended elsewhere (the clock, another table, the organiser) shows at once."""
    return table_seat.version_answer(get_db(), game_id, _now())


@bp.context_processor
def standings_helpers():
    """The core's helpers for the standings' templates (web/tournament_entrants.py's pages use them too)."""
    return {
        "place_lines": club_night.place_lines,
        "per_game": club_night.per_game,
        "bye_names": BYE_SHORT_NAMES,
        "season_points_text": lambda t, p: i18n.decimal_text(
            club_night.points_text(club_night.season_points(p.place, t.season_points, p.tied))
        ),
    }


@bp.app_context_processor
def _seat_for_pages():
    """``table_seat(game_id)`` for the pages that show a game (base.html follows it live with its table)."""
    return {"table_seat": lambda game_id: table_seat.seat_of(get_db(), game_id, _now())}


def _ladder_numbers(count: int) -> tuple[dict[str, int | None], dict[str, str]]:
    """The season's ladder as asked (``best``: count a player's best N evenings, ``min``: rank only players
    with at least M): the numbers read, and a message per field that cannot be one."""
    read: dict[str, int | None] = {"best": None, "min": None}
    problems: dict[str, str] = {}
    for key in read:
        typed = request.args.get(key, "").strip()
        if not typed:
            continue
        number = numbers.whole(typed, digits=4)
        if number is None or number < 1:
            problems[key] = gettext("A whole number from 1 up.")
        elif number > count:
            problems[key] = gettext("This season has %(num)s closed tournaments: at most %(num)s.", num=count)
        else:
            read[key] = number
    return read, problems


@bp.get("/tournaments/season")
def season():
    """The season's table: season points over the closed tournaments of a year; as a ladder, a player's
    best N evenings count and only players with at least M are ranked."""
    db = get_db()
    closed = [(t, _played_on(t)) for t in tournament_records.all_tournaments(db) if t.closed_at]
    years = sorted({day[:4] for _t, day in closed}, reverse=True)
    typed = request.args.get("year") or (years[0] if years else str(_now().year))
    number = numbers.whole(typed, digits=4)
    if number is None or len(typed.strip()) != 4:
        abort(404)
    year = f"{number:04d}"
    of_year = [t for t, day in closed if day.startswith(year)]
    ladder, problems = _ladder_numbers(len(of_year))
    results = [(t, club_night.ranking(t, tournament_state.rounds(db, t))) for t in of_year]
    rows = club_night.season_table(results, best=ladder["best"], minimum=ladder["min"])
    return render_template(
        "tournaments/season.html",
        year=year,
        years=years,
        rows=rows,
        count=len(of_year),
        ladder=ladder,
        problems=problems,
        typed=request.args,
        points_text=lambda points: i18n.decimal_text(club_night.points_text(points)),
        counted_names=lambda row: ", ".join(next(t.name for t in of_year if t.id == tid) for tid in row.counted),
    ), (422 if problems else 200)
