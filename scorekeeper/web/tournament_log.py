"""The organiser's actions on a tournament's record, as its page says them in the reader's language."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from scorekeeper.core.messages import N_
from scorekeeper.storage import tournament_records

ROUND_ENDED = N_("Round %(round)s ended by the organiser")
ROUND_OVER = N_("Round %(round)s over: the next round started")  # over at every table, not ended by the organiser


def action_name(action: tournament_records.Action) -> str:
    """An organiser's action as the page says it."""
    detail = action.detail or {}
    number = detail.get("round")
    return {
        "created": lambda: gettext("Tournament created"),
        "changed": lambda: _changed_name(detail),
        "draw": lambda: _draw_name(detail),
        "round started": lambda: gettext("Round %(round)s started", round=number),
        "round ended": lambda: gettext(_round_end(detail), round=number),
        "closed": lambda: gettext("Tournament closed"),
        "reopened": lambda: gettext("Tournament reopened"),
        "replaced": lambda: gettext("%(name)s took the seat of %(gone)s", name=detail["name"], gone=detail["gone"]),
    }[action.action]()


def _round_end(detail: dict) -> str:
    """How a round ended, as a message id: by the next round's start (over at every table) or by the organiser."""
    return ROUND_OVER if detail.get("by") == "next round" else ROUND_ENDED


def _draw_name(detail: dict) -> str:
    """The draw, and who it left out (not checked in)."""
    if not detail.get("left_out"):
        return gettext("Seats drawn by lot")
    return gettext("Seats drawn by lot; left out (not checked in): %(names)s", names=", ".join(detail["left_out"]))


def _changed_name(detail: dict) -> str:
    """A change before the draw: the settings or the list, or who has come (with the walk-ins)."""
    if "checked_in" not in detail:
        return gettext("Tournament changed")
    said = ngettext("Check-in: %(num)s has come", "Check-in: %(num)s have come", detail["checked_in"])
    if detail.get("walk_ins"):
        said += " · " + gettext("walk-ins: %(names)s", names=", ".join(detail["walk_ins"]))
    return said
