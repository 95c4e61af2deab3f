"""Entering, correcting, deleting and bringing back hands (the form and a phone's queue), and deleting
and bringing back a game: each through the games service."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

from flask import (
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import checks, rulesets, sheet
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.models import Game, Hand
from scorekeeper.services import games as service
from scorekeeper.storage import disk, records
from scorekeeper.storage.db import get_db
from scorekeeper.web import api, api_models, errors, forms, hand_entry, hand_verdicts, json_errors, table_seat
from scorekeeper.web.games.blueprint import bp
from scorekeeper.web.games.common import (
    BY_FIELD,
    entered_by,
    finished_message,
    from_grid,
    load_game,
    no_new_hand,
    phone_token,
    said_refused,
    saved_category,
)
from scorekeeper.web.games.sheets import scoreboard_page


def _save(game: Game, hand: Hand | None):
    """Store the posted hand through the service, or show the form again with every message and
    value (what another phone changed meanwhile too). The hand is read once, from the form data
    (``hand_entry.posted_hand``); the form object is built only to show the page again."""
    rules = sheet.rules_for(game)
    posted = hand_entry.posted_hand(rules, request.form)
    try:
        outcome = (
            service.Verdict(service.PROBLEMS, problems=posted.problems)
            if posted.problems
            else _store_hand(game, hand, posted)
        )
    except disk.Unavailable as trouble:  # nothing was written: the form comes back as typed, to send again
        form = forms.hand_form_class(rules, game.players)()
        page, status = _hand_page(game, form, hand, [errors.disk_message(trouble)], 503)
        return page, status, {"Retry-After": str(errors.RETRY_AFTER)}
    if outcome.ok:
        return _saved(game, hand, outcome)
    if outcome.status == service.MISSING:
        if hand is not None and records.get_hand(get_db(), game.id, hand.id, deleted=True):
            return _correction_of_deleted(game)  # deleted by another phone after this request read it
        abort(404)
    if outcome.status == service.REFUSED and hand is None and outcome.problems[0].field == "client_key":
        return _other_figures(game, outcome)
    answer = hand_verdicts.ANSWERS[outcome.status]
    form = forms.hand_form_class(rules, game.players)()  # what was typed, to show again
    if any(problem.field == "based_on" for problem in posted.problems):
        form.based_on.data = _based_on(game, hand)  # saving again is based on what the phone sees now
    if outcome.status in (service.PROBLEMS, service.WARNINGS):
        loose = hand_entry.attach_problems(form, list(outcome.problems))
        warned = outcome.status == service.WARNINGS
        return _hand_page(game, form, hand, [] if warned else loose, answer.status, warned=warned)
    if outcome.status == service.OVERTAKEN:  # the form now carries the current state: saving again is a choice
        form.based_on.data = str(outcome.now)
    return _hand_page(game, form, hand, [hand_verdicts.message(outcome, correction=hand is not None)], answer.status)


def _finished(game: Game) -> bool:
    """Whether the game has been decided (from its running figures)."""
    running = records.running_of(get_db(), game.id)
    return running is not None and running.result.finished


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(game_id: int):
    """Enter the next hand."""
    game = load_game(game_id)
    if request.method == "POST":
        return _save(game, None)
    form = forms.hand_form_class(sheet.rules_for(game), game.players)()
    if _finished(game):
        flash(finished_message(game_id, hand_verdicts.OVER_MESSAGE))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    refused = no_new_hand(game_id, from_grid(game_id))  # its table's round is over: no form typed in vain
    if refused is not None:
        flash(refused)
        return redirect(url_for("games.scoreboard", game_id=game_id))
    form.client_key.data = uuid.uuid4().hex
    form.based_on.data = _based_on(game, None)
    previous = records.last_hand(get_db(), game_id)
    if previous and any(f"{part}_cards" in last for last in previous.sides for part in ("melded", "hand")):
        form.mode.data = "counts"  # a table that counted its cards last hand starts on the count pad again
    return _hand_page(game, form, None, [])


@bp.post("/games/<int:game_id>/hands.json")
def add_hand_json(game_id: int):
    """Store a hand sent by a phone's queue (entered while the server could not be reached).

    CSRF-protected like the forms (the page's token in the X-CSRFToken header); ``client_key`` is
    required, so a hand sent again is stored once. ``based_on`` (optional): the number of hands the
    phone knew of, its queued hands before this one included; if another phone has saved a hand
    since, this one is refused (409), as the form does, since it is most likely the same hand
    entered twice. The body is read through its type (``api_models.HandRequest``, as the document
    says: a figure is a JSON integer, never text). Answers 201 with the hand's id, 200 when it was
    already stored, 422 with the problems."""
    unreadable = gettext("This entry could not be read. Enter the hand again.")
    body = api.json_body()
    if not isinstance(body, dict):
        return json_errors.json_error("body", unreadable, 400)
    refused = api_models.refusals(api_models.HandRequest, body)
    if "client_key" in refused:
        return json_errors.json_error("client_key", unreadable, 422)
    # the phone always says whether the stock ran out; left out it is "no", so the check that one
    # side went out or the stock ran out is never skipped
    stock_out = body.get("stock_out") if body.get("stock_out") is not None else False
    if refused:
        return _refused_hand(game_id, body, refused, stock_out)
    outcome = service.add_hand(
        get_db(),
        game_id,
        body.get("sides"),
        stock_out,
        body.get("lone"),
        client_key=body["client_key"],
        based_on=body.get("based_on"),
        phone=phone_token(),
        entered_by=entered_by(body.get(BY_FIELD)),
    )
    return _queued_answer(outcome)


def _queued_answer(outcome: service.Verdict):
    """What a phone's queue is told of its hand: 201 stored (and the next scoreboard says so, with the
    line of the last hand sent), 200 stored before, else the verdict's status and message."""
    if outcome.ok:
        new = outcome.status == service.SAVED
        if new:
            waiting = N_("Hand saved: it was waiting on this phone.")
            session["_flashes"] = [f for f in session.get("_flashes", []) if f[1] != waiting]
            flash(waiting, saved_category(outcome.id))
        return jsonify({"id": outcome.id, "duplicate": not new}), 201 if new else 200
    answer = hand_verdicts.ANSWERS[outcome.status]
    if outcome.status in (service.PROBLEMS, service.WARNINGS):
        return json_errors.json_problems(outcome.problems, answer.status)
    field = "client_key" if outcome.problems and outcome.problems[0].field == "client_key" else answer.field
    return json_errors.json_error(field, hand_verdicts.message(outcome, queued=True), answer.status)


def _refused_hand(game_id: int, body: dict, refused: dict, stock_out):
    """The 422 of a queued hand its type refuses: every problem the checks find in it (the game's rule
    set), and what the type refuses besides (a figure as text, ``based_on`` no count); nothing stored."""
    game = records.get_game(get_db(), game_id)
    if game is None:
        return json_errors.json_error("game", gettext(hand_verdicts.MISSING_TEXT), 404)
    _sides, found = checks.read_hand(sheet.rules_for(game), body.get("sides"), stock_out, body.get("lone"))
    problems = api_models.hand_problems(api_models.HandRequest, body, found)
    if "based_on" in refused:
        problems.append(Problem(None, "based_on", BASED_ON))
    return json_errors.json_problems(problems, 422)


BASED_ON = N_("based_on is the number of hands the phone knew of, a JSON number from 0, or left out.")


@bp.route("/games/<int:game_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
def edit_hand(game_id: int, hand_id: int):
    """Correct an earlier hand; every later total, minimum and the result follow."""
    game = load_game(game_id)
    hand = records.get_hand(get_db(), game_id, hand_id)
    if hand is None and request.method == "POST" and records.get_hand(get_db(), game_id, hand_id, deleted=True):
        return _correction_of_deleted(game)
    if hand is None:
        abort(404)
    form_class = forms.hand_form_class(sheet.rules_for(game), game.players)
    if request.method == "POST":
        return _save(game, hand)
    if _finished(game) and not game.reopened:
        flash(finished_message(game.id, hand_verdicts.LOCKED_MESSAGE))
        return redirect(url_for("games.scoreboard", game_id=game.id))
    form = form_class(data=hand_entry.form_data(hand.sides, hand.stock_out, hand.lone, sheet.rules_for(game)))
    form.based_on.data = _based_on(game, hand)
    return _hand_page(game, form, hand, [])


def _correction_of_deleted(game: Game):
    """A correction sent for a hand another phone deleted meanwhile: its values on a new hand's form
    (409), to save as the next hand or leave while Undo brings the deleted one back; never lost."""
    form = forms.hand_form_class(sheet.rules_for(game), game.players)()  # what was typed
    form.client_key.data = uuid.uuid4().hex
    form.based_on.data = _based_on(game, None)
    number = records.hand_count(get_db(), game.id) + 1
    return _hand_page(game, form, None, [gettext(hand_verdicts.CORRECTION_OF_DELETED, next=number)], 409)


def _other_figures(game: Game, outcome: service.Verdict):
    """A new hand's form sent again (Back, a figure changed) after it was saved: the typed figures on
    the saved hand's correction form (409), to save as its correction or leave; never lost."""
    saved = records.get_hand(get_db(), game.id, outcome.id)
    form = forms.hand_form_class(sheet.rules_for(game), game.players)()  # what was typed
    if saved is None:  # deleted since: as any refusal, the form as typed with the reason
        return _hand_page(game, form, None, [hand_verdicts.message(outcome)], 409)
    form.based_on.data = _based_on(game, saved)
    number = outcome.problems[0].args["number"]
    message = gettext(hand_verdicts.OTHER_FIGURES, number=number)
    action = url_for("games.edit_hand", game_id=game.id, hand_id=saved.id)
    return _hand_page(game, form, saved, [message], 409, action=action)


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int):
    """Delete a hand (it can be brought back with Undo)."""
    outcome = service.delete_hand(get_db(), game_id, hand_id, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    if not said_refused(outcome):
        flash(gettext("Hand deleted."), "undo:" + str(hand_id))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/delete")
def delete_game(game_id: int):
    """Delete a game started by mistake (it can be brought back with Undo)."""
    outcome = service.delete_game(get_db(), game_id, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    if said_refused(outcome):
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("Game deleted."), "undo-game:" + str(game_id))
    if outcome.extra["evening"] is not None:
        return redirect(url_for("archive.evening", evening_id=outcome.extra["evening"]))
    return redirect(url_for("games.index"))


@bp.post("/games/<int:game_id>/restore")
def restore_game(game_id: int):
    """Undo the deletion of a game."""
    outcome = service.restore_game(get_db(), game_id, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    flash(gettext("Game restored."))
    return redirect(url_for("games.scoreboard", game_id=outcome.id))


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int):
    """Undo a deletion (refused on a finished, read-only game: the deleted hand would change its result)."""
    outcome = service.restore_hand(get_db(), game_id, hand_id, phone=phone_token())
    if outcome.status == service.MISSING:
        abort(404)
    if not said_refused(outcome):
        flash(N_("Hand restored."), saved_category(hand_id))
    return redirect(url_for("games.scoreboard", game_id=game_id))


def _position(game: Game, hand: Hand | None) -> tuple[sheet.Heading, int, tuple, tuple, sheet.Sheet | None]:
    """The game's heading, the hand's number, the totals before it and the opening minimums during it,
    and the replayed sheet when one was needed. A new hand's figures come from the game's kept running
    figures (the form costs the same at hand 40 as at hand 1); a corrected hand's from the replayed sheet,
    and so do a new hand's when a message waits to be shown with its hand's line (base.html) or the
    archive keeps no running figures."""
    waiting = bool(session.get("_flashes"))
    running = records.running_of(get_db(), game.id) if hand is None and not waiting else None
    if running is not None:
        head = sheet.heading(game)
        return (head, *sheet.next_hand(head.rules, running), None)
    hands = records.hands(get_db(), game.id)
    the_sheet = sheet.build(game, hands)
    head = sheet.Heading(the_sheet.game, the_sheet.rules, the_sheet.side_names)
    if hand is None:
        return head, len(hands) + 1, the_sheet.state.totals, the_sheet.state.opening_minimums, the_sheet
    row = next(r for r in the_sheet.rows if r.hand.id == hand.id)
    totals = tuple(t - s.score for t, s in zip(row.outcome.totals, row.outcome.scores))
    return head, row.number, totals, row.opening_minimums, the_sheet


def _hand_page(
    game: Game,
    form,
    hand: Hand | None,
    loose: list[str],
    status: int = 200,
    warned: bool = False,
    action: str | None = None,
):
    """Render the hand form for a new or an edited hand (``action``: where it is sent, when that is not
    this request's address for an edited hand and the new hand's address otherwise)."""
    head, number, totals, minimums, the_sheet = _position(game, hand)
    index = number - 1
    loose = loose + [m for m in hand_entry.unshown_errors(form) if m not in loose]
    shown = {"sheet": the_sheet} if the_sheet is not None else {}  # a message's hand line (base.html)
    return render_template(
        "games/hand.html",
        heading=head,
        **shown,
        form=form,
        hand=hand,
        hand_number=number,
        minimums=minimums,
        totals_before=totals,
        loose=loose,
        card_groups=rulesets.CARD_GROUPS,
        warned=warned,
        fields=checks.count_fields(head.rules),
        dealer=sheet.dealer(game, index, head.rules),
        live_game=game,
        tournament=table_seat.seat_of(get_db(), game.id, datetime.now(timezone.utc)),
        by_organiser=from_grid(game.id) or entered_by(request.form.get(BY_FIELD)) is not None,
        sitting_out=[game.players[s] for s in sheet.sitting_out(head.rules, index)],
        ahead=_ahead(game, head.rules, index) if hand is None else None,
        action=action,
    ), status


AHEAD = 8  # hands kept on a phone while the network is down, for which a new hand's form knows its dealer


def _ahead(game: Game, rules: rulesets.RuleSet, index: int) -> dict:
    """What a new hand's form needs when hands of the game wait on the phone before it (static/hand/
    panel.js): who deals and who sits out in this hand and the next ones, and the opening table by total
    (with the totals the waiting hands leave, the minimum of each side; none where the minimum goes by
    the hand's number)."""
    deals = [
        [sheet.dealer(game, index + k, rules), [game.players[s] for s in sheet.sitting_out(rules, index + k)]]
        for k in range(AHEAD)
    ]
    by_total = not (rules.opening_per_hand or rules.opening_by_hand)
    rows = [[row.low, row.minimum] for row in rules.opening_minimums] if by_total else []
    return {"deals": deals, "minimums": rows}


def _based_on(game: Game, hand: Hand | None) -> str:
    """What a phone's form is based on: the number of hands for a new hand, the hand's version for a correction."""
    return str(hand.version) if hand else str(records.hand_count(get_db(), game.id))


def _store_hand(game: Game, hand: Hand | None, posted: hand_entry.PostedHand) -> service.Verdict:
    """Add or correct the hand through the service, as the phone sent it."""
    by = entered_by(request.form.get(BY_FIELD))  # the organiser's hand, from the director's grid
    if hand is None:
        return service.add_hand(
            get_db(),
            game.id,
            posted.entry,
            posted.stock_out,
            posted.lone,
            client_key=posted.client_key,
            based_on=posted.based_on,
            confirmed=posted.confirmed,
            phone=phone_token(),
            entered_by=by,
        )
    return service.correct_hand(
        get_db(),
        game.id,
        hand.id,
        posted.entry,
        posted.stock_out,
        posted.lone,
        based_on=posted.based_on,
        confirmed=posted.confirmed,
        phone=phone_token(),
        entered_by=by,
    )


def _saved(game: Game, hand: Hand | None, outcome: service.Verdict):
    """The answer to a stored hand: back to the sheet with what happened. The message is kept as
    its message id and translated where it is shown (a save needs no language of its own)."""
    if hand is not None and outcome.extra.get("action") == "hand entered again":  # not confirmed yet
        message = N_("Hand entered again; the other side confirms it next.")
    elif hand is not None:
        message = N_("Hand corrected; every later total follows.")
    elif outcome.status == service.SAVED:
        message = N_("Hand saved.")
    else:
        message = N_("This hand was already saved (sent twice); it is stored once.")
    flash(message, saved_category(hand.id if hand is not None else outcome.id))
    # the top of the scoreboard: the totals, the next hand and this hand's line, with no scrolling
    scoreboard = url_for("games.scoreboard", game_id=game.id)
    if request.headers.get(PAD_HEADER) == "1":
        # the hand form's script: the scoreboard in this answer (one request fewer than the redirect
        # would take), which it shows in place of the form; the header says it was stored
        page = scoreboard_page(game.id)
        page.headers[SAVED_HEADER] = scoreboard
        return page
    return redirect(scoreboard)


PAD_HEADER = "X-Canasta-Pad"  # sent by the hand form's script with a save


SAVED_HEADER = "X-Canasta-Saved"  # the answer's: the hand is stored; the scoreboard's address
