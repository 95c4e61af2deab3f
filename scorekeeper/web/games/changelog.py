"""Every change on record: a hand's versions (any earlier one can be restored), a game's whole change
log, and a phone naming itself."""

from __future__ import annotations

import json

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    session,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import entry, sheet
from scorekeeper.core.messages import N_
from scorekeeper.core.models import Game, Hand
from scorekeeper.services import games as service
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.blueprint import bp
from scorekeeper.web.games.common import load_game, phone_token, sheet_locked
from scorekeeper.web.hand_verdicts import LOCKED_MESSAGE


def _figures(rules, side: dict) -> list[tuple[str, str]]:
    """One side's figures of a version as the hand form shows them: in its order, each with the form's
    label in the reader's language ("Points in hand", "Melded cards: Jokers 1, Twos 3"); nothing for
    what was left empty."""
    ways = {way.key: way.label for way in rules.going_out}
    figures = []
    for field in entry.side_fields(rules):
        value = side.get(field.name)
        if value in (None, 0, False, "", "no") or value == {}:
            continue
        label = i18n.field_label(field)
        if isinstance(value, dict):  # card counts by group, in the form's order
            text = ", ".join(f"{gettext(card.label)} {value[card.key]}" for card in field.cards if value.get(card.key))
        elif field.name == "went_out":
            text = gettext(ways.get(value, value))
        else:
            text = "" if value is True else str(value)
        figures.append((label, text))
    return figures


def _versions(game: Game, hand_id: int) -> list[dict]:
    """Every version of a hand, oldest first: its entry, each side's score, what it changed in each
    side's score against the version before, who made it and when (from the change log)."""
    rules = sheet.rules_for(game)
    versions: list[dict] = []
    for change in records.changes(get_db(), game.id, hand_id):
        if change.action not in ("hand added", "hand corrected", "hand entered again") or change.after is None:
            continue
        after = change.after
        hand = Hand(hand_id, game.id, after["sides"], change.at, change.at, after.get("stock_out"), after.get("lone"))
        scores = sheet.hand_scores(rules, hand)
        previous = versions[-1]["scores"] if versions else None
        versions.append(
            {
                "change": change,
                "number": len(versions) + 1,
                "entry": after,
                "figures": [_figures(rules, side) for side in after["sides"]],
                "scores": scores,
                "delta": [s - p for s, p in zip(scores, previous)] if previous else None,
            }
        )
    return versions


@bp.get("/games/<int:game_id>/hands/<int:hand_id>/history")
def hand_history(game_id: int, hand_id: int):
    """A hand's versions, as a crossed-out figure on a paper pad stays readable: each version's
    figures, what it changed in each side's score, who and when; any earlier one can be restored."""
    game = load_game(game_id)
    hand = records.get_hand(get_db(), game_id, hand_id)
    if hand is None:
        abort(404)
    the_sheet = sheet.build(game, records.hands(get_db(), game_id))
    number = next((row.number for row in the_sheet.rows if row.hand.id == hand_id), None)
    current = {"sides": hand.sides, "stock_out": bool(hand.stock_out), "lone": hand.lone}
    return render_template(
        "games/history.html",
        sheet=the_sheet,
        hand=hand,
        number=number,
        versions=_versions(game, hand_id),
        current=json.dumps(current, sort_keys=True),
        locked=sheet_locked(the_sheet),
        json=json,
    )


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/history/<int:change_id>")
def restore_version(game_id: int, hand_id: int, change_id: int):
    """Go back to an earlier version of a hand: itself a new, logged correction."""
    game = load_game(game_id)
    version = next((v for v in _versions(game, hand_id) if v["change"].id == change_id), None)
    if version is None:
        abort(404)
    entry = version["entry"]
    outcome = service.correct_hand(
        get_db(), game_id, hand_id, entry["sides"], entry.get("stock_out"), entry.get("lone"), phone=phone_token()
    )
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.LOCKED:
        flash(gettext(LOCKED_MESSAGE))
    elif outcome.status in (service.SAVED, service.UNCHANGED):
        flash(
            gettext(
                "Hand %(number)s is back to version %(version)s.",
                number=_hand_number(game, hand_id),
                version=version["number"],
            )
        )
    else:
        flash(" ".join(i18n.problem_message(p) for p in outcome.problems))
    return redirect(url_for("games.hand_history", game_id=game_id, hand_id=hand_id))


def _hand_number(game: Game, hand_id: int) -> int:
    """A hand's number in its game (deleted hands left out)."""
    ids = [h.id for h in records.hands(get_db(), game.id)]
    return ids.index(hand_id) + 1 if hand_id in ids else 0


# What the change log records (storage.records.ACTIONS), in the players' words (message ids: the page translates them).
ACTION_NAMES = {
    "hand added": N_("hand added"),
    "hand corrected": N_("hand corrected"),
    "hand deleted": N_("hand deleted"),
    "hand restored": N_("hand restored"),
    "game created": N_("game created"),
    "game reopened": N_("game reopened"),
    "game locked": N_("game locked"),
    "game deleted": N_("game deleted"),
    "game restored": N_("game restored"),
    "archive imported": N_("archive imported"),
    "house rules created": N_("table's rule set created"),
    "house rules changed": N_("table's rule set changed"),
    "hand entered again": N_("hand entered again (not confirmed yet)"),
    "hand confirmed": N_("hand confirmed"),
}


@bp.get("/games/<int:game_id>/changes")
def changes(game_id: int):
    """A game's whole change log, newest first; nothing here edits or deletes it."""
    game = load_game(game_id)
    numbers = {h.id: i + 1 for i, h in enumerate(records.hands(get_db(), game_id))}
    return render_template(
        "games/changes.html",
        game=game,
        changes=list(reversed(records.changes(get_db(), game_id))),
        numbers=numbers,
        phone_name=records.phone_name(get_db(), session.get("phone")),
        phone_number=records.phone_number(get_db(), session.get("phone")),
        actions=ACTION_NAMES,
        side_names=sheet.side_names(game, sheet.rules_for(game)),
    )
