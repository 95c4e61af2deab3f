"""Who plays a club night (docs/tournaments.md): before the draw the organiser ticks who has come and
adds the walk-ins (the draw then seats only those checked in); between the draw and round 1 a
no-show's seat is given to another player, who keeps it as drawn. A refusal stands beside its field
on the organiser's page, with what was typed still there; the service decides inside its write."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectMultipleField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length

from scorekeeper.core import club_night, names
from scorekeeper.core.messages import N_
from scorekeeper.services import tournaments as service
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, REFUSED, SAVED
from scorekeeper.storage import records, tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.forms import SOMEONE_NEW, look_alikes, no_control_characters, readable_name, ticked
from scorekeeper.web.games.common import phone_token
from scorekeeper.web.tournament_forms import names_problem
from scorekeeper.web.tournaments import form_version, organiser_page, standings_helpers

bp = Blueprint("tournament_entrants", __name__)
bp.context_processor(standings_helpers)  # the organiser's page, shown again with a refused form

CHANGED_MEANWHILE = N_("Another phone changed this tournament meanwhile: check it and save again.")


class CheckInForm(FlaskForm):
    """Who has come: a tick per entrant (its place in the list), the walk-ins one a line."""

    present = SelectMultipleField(coerce=ticked, validate_choice=False)
    walk_ins = TextAreaField(validators=[Length(max=400, message=_l("At most 400 characters.")), no_control_characters])
    someone_new = BooleanField(SOMEONE_NEW)


class ReplaceForm(FlaskForm):
    """Who takes a no-show's seat."""

    name = StringField(
        N_("Who takes the seat"),
        validators=[
            DataRequired(message=_l("Give a name.")),
            Length(max=40, message=_l("At most 40 characters.")),
            no_control_characters,
            readable_name,
        ],
    )
    someone_new = BooleanField(SOMEONE_NEW)


def _load(tournament_id: int) -> club_night.Tournament:
    t = tournament_records.get(get_db(), tournament_id)
    if t is None:
        abort(404)
    return t


def _back(t: club_night.Tournament, message: str):
    flash(message)
    return redirect(url_for("tournaments.tournament", tournament_id=t.id))


def _same_entrant(walk_in, listed) -> bool:
    """Whether a walk-in is an entrant on the list (the same names in any order, any case and look-alike)."""
    return sorted(names.skeleton(n) for n in walk_in) == sorted(names.skeleton(n) for n in listed)


def _walk_ins_checked(form: CheckInForm, t: club_night.Tournament) -> bool:
    """The check-in's own rules before the service's: someone ticked or added; the walk-ins' names as
    the new-tournament form takes names (none twice on the list, look-alikes counted as one); a name
    that looks like a player kept asks "Did you mean …?"."""
    walk_ins = club_night.parse_entrants(t.format, form.walk_ins.data)
    if not walk_ins and not any(0 <= i < len(t.entrants) for i in form.present.data or ()):
        form.present.errors = [gettext("Tick who has come, or add the walk-ins.")]
        return False
    listed = next((e for w in walk_ins for e in t.entrants if _same_entrant(w, e)), None)
    if listed is not None:  # a walk-in already on the list: its tick, not a second line
        form.walk_ins.errors = [
            gettext("%(names)s are on the list already: tick them above.", names=" & ".join(listed))
        ]
        if len(listed) == 1:
            form.walk_ins.errors = [gettext("%(name)s is on the list already: tick the name above.", name=listed[0])]
        return False
    problem = names_problem(t.kind.pairs, [*t.entrants, *walk_ins])
    if problem:
        form.walk_ins.errors = [problem]
        return False
    known = records.all_player_names(get_db())
    return look_alikes(form, [(form.walk_ins, n) for w in walk_ins for n in w if n not in known], known)


@bp.post("/tournaments/<int:tournament_id>/checkin")
def check_in(tournament_id: int):
    """Save who has come, before the draw: the ticks and the walk-ins (added to the entrants)."""
    t = _load(tournament_id)
    if t.seed is not None:
        return _back(t, gettext("The seats are drawn already: who has come can no longer change."))
    form = CheckInForm()
    if form.validate_on_submit() and _walk_ins_checked(form, t):
        walk_ins = club_night.parse_entrants(t.format, form.walk_ins.data)
        version = form_version()
        outcome = service.check_in(
            get_db(), t.id, version, present=form.present.data, walk_ins=walk_ins, phone=phone_token()
        )
        if outcome.status == MISSING:
            abort(404)
        if outcome.status == SAVED:
            return _back(t, gettext("Saved: %(num)s checked in. The draw seats only them.", num=outcome.extra["count"]))
        if outcome.status == REFUSED:  # drawn meanwhile
            return _back(t, i18n.problem_message(outcome.problems[0]))
        if outcome.status == OVERTAKEN:
            form.present.errors = [gettext(CHANGED_MEANWHILE)]
            t = _load(t.id)
        elif t.kind.pairs and any(len(w) != 2 for w in walk_ins):  # a line that is no pair
            form.walk_ins.errors = [i18n.problem_message(outcome.problems[0])]
        else:  # a number the format cannot seat
            form.present.errors = [i18n.problem_message(outcome.problems[0])]
    return organiser_page(t, 422, checkin_form=form, ticked=set(form.present.data or ()))


@bp.post("/tournaments/<int:tournament_id>/replace")
def replace(tournament_id: int):
    """Give a no-show's seat to another player, between the draw and round 1."""
    t = _load(tournament_id)
    unit, slot = ticked(request.form.get("unit")), ticked(request.form.get("slot", "0"))  # -1: none
    if not 0 <= unit < len(t.entrants) or not 0 <= slot < len(t.entrants[unit]):
        abort(404)
    if t.seed is None:
        return _back(t, gettext("Draw the seats first."))
    form = ReplaceForm()
    if form.validate_on_submit() and _name_checked(form):
        version = form_version()
        outcome = service.replace(get_db(), t.id, version, unit, slot, form.name.data, phone=phone_token())
        if outcome.status == MISSING:
            abort(404)
        if outcome.status == SAVED:
            return _back(t, gettext("%(name)s takes the seat of %(gone)s.", **outcome.extra))
        if outcome.status == OVERTAKEN:
            form.name.errors = [gettext(CHANGED_MEANWHILE)]
            t = _load(t.id)
        else:  # a name seated already, or round 1 has started
            form.name.errors = [i18n.problem_message(outcome.problems[0])]
    return organiser_page(t, 422, replace_form=form, replace_at=(unit, slot))


def _name_checked(form: ReplaceForm) -> bool:
    """The name as the new-tournament form takes a player's (one player, at most 40 characters, all
    visible); one that looks like a player kept asks "Did you mean …?"."""
    name = " ".join(form.name.data.split())
    if club_night.PAIR_SPLIT.search(name):  # a seat is one player's, a pair's too
        form.name.errors = [gettext("One player takes the seat: a name without “&”, “+” or “/”.")]
        return False
    problem = names_problem(False, [(name,)])
    if problem:
        form.name.errors = [problem]
        return False
    known = records.all_player_names(get_db())
    return look_alikes(form, [(form.name, name)] if name not in known else [], known)
