"""What a hand's save answers, by the games service's verdict: one table from the verdict to the HTTP
status, the field a JSON answer names and the message, read by the hand form's page and by the phone's
queue (``hands.json``) alike."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext

from scorekeeper.core.messages import N_
from scorekeeper.services import games as service
from scorekeeper.web import i18n


@dataclass(frozen=True)
class Answer:
    """How a verdict is answered: its status, the field it concerns and its message for a new hand, a
    corrected hand and a hand from the phone's queue ("" where the verdict's problems speak, or the
    message of the new hand serves). Every refusal shows the form again with what was typed: a
    correction refused because the game was locked meanwhile keeps its figures on the phone until it
    is reopened (the phone's script forgets a form's typing only once it is stored)."""

    status: int
    field: str
    new: str = ""
    correction: str = ""
    queued: str = ""


LOCKED_MESSAGE = N_("This game is finished and read-only. Tap “Reopen for corrections” to change it.")
OVER_MESSAGE = N_("This game is over. Reopen it to correct a hand.")
MISSING_TEXT = N_("There is nothing here. The game or hand may have been deleted.")
# a new hand, when another phone deleted a hand meanwhile (fewer hands than the phone saw)
DELETED_MEANWHILE = N_(
    "Meanwhile another phone deleted a hand: the game has %(number)s now. Your values are still here: "
    "press Save again to store them as hand %(next)s, or look at the score sheet first."
)
# a correction of a hand that another phone deleted meanwhile: the form becomes a new hand's
CORRECTION_OF_DELETED = N_(
    "Meanwhile another phone deleted this hand. Your values are still here, not saved: press Save to "
    "store them as hand %(next)s, or go back to the score sheet, where Undo brings the deleted hand back."
)

# a new hand's form sent again with other figures after it was saved: the form becomes its correction
OTHER_FIGURES = N_(
    "Hand %(number)s was saved from this form already, with other figures. Yours are here, not saved: "
    "press Save to correct hand %(number)s with them, or go back to the score sheet."
)

ANSWERS: dict[str, Answer] = {
    service.MISSING: Answer(404, "game", MISSING_TEXT),
    service.LOCKED: Answer(409, "game", OVER_MESSAGE, LOCKED_MESSAGE),
    service.REFUSED: Answer(409, "game"),  # a tournament's table: its problem says why
    service.OVERTAKEN: Answer(
        409,
        "based_on",
        N_(
            "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is the same hand, "
            "do not save this one. If it is another hand, press Save again to store it as hand %(next)s."
        ),
        N_(
            "Meanwhile another phone changed or corrected this hand. Your values are still here: press Save again "
            "to replace the other phone's, or go back to the score sheet to see them."
        ),
        N_(
            "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is another "
            "hand, enter it again."
        ),
    ),
    service.PROBLEMS: Answer(422, ""),  # each problem beside its field
    service.WARNINGS: Answer(422, ""),  # each unlikely figure beside its field, to confirm
}


def message(verdict: service.Verdict, correction: bool = False, queued: bool = False) -> str:
    """The verdict's message in the reader's language, for a new hand, a correction or a queued hand."""
    answer = ANSWERS[verdict.status]
    if verdict.status == service.REFUSED:
        return i18n.problem_message(verdict.problems[0])
    text = (answer.queued if queued else answer.correction if correction else "") or answer.new
    if verdict.status == service.OVERTAKEN and not correction:
        if verdict.extra.get("fewer") and not queued:
            text = DELETED_MEANWHILE
        return gettext(text, number=verdict.now, next=(verdict.now or 0) + 1)
    return gettext(text)
