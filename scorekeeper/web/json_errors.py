"""The one shape of a refusal in JSON: ``{"errors": [{"side", "field", "message", "shared"}]}`` with its status.

Used by every JSON endpoint, the phones' queue and the error handlers, so a phone reads one shape
whatever refused it (``api_models.Errors``). Messages are translated here, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Response, jsonify

from scorekeeper.core.messages import Problem
from scorekeeper.web import i18n
from scorekeeper.web.api_models import Error, Errors


def error(problem: Problem) -> Error:
    """One problem with its side, field and translated message, and whether it is about several
    fields together (``Problem.shared``)."""
    return Error(side=problem.side, field=problem.field, message=i18n.problem_message(problem), shared=problem.shared)


def json_problems(problems: Iterable[Problem], status: int = 422) -> tuple[Response, int]:
    """The answer listing every problem, each with its side, field and translated message."""
    return jsonify(Errors(errors=[error(p) for p in problems])), status


def json_error(field: str, message: str, status: int, side: int | None = None) -> tuple[Response, int]:
    """The answer for one refusal with an already translated message."""
    return jsonify(Errors(errors=[Error(side=side, field=field, message=message, shared=False)])), status
