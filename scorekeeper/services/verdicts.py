"""What a change came to: a status and what goes with it, for a page or a JSON answer to show.
Every service answers with a Verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.messages import Problem

SAVED = "saved"  # stored (``new``: a new row)
UNCHANGED = "unchanged"  # nothing to do: sent twice, or the same figures again
PROBLEMS = "problems"  # refused: ``problems`` says why, field by field
WARNINGS = "warnings"  # possible but unlikely figures: saved only once confirmed
OVERTAKEN = "overtaken"  # another phone changed it first: ``now`` is what it is at now
LOCKED = "locked"  # the game is finished and read-only
MISSING = "missing"  # no such game or hand
REFUSED = "refused"  # refused as a whole: ``problems`` holds the one reason


@dataclass(frozen=True)
class Verdict:
    """What a change came to, for a page or a JSON answer to show."""

    status: str
    id: int | None = None
    problems: tuple[Problem, ...] = ()
    now: int | None = None  # OVERTAKEN: hands in the game now (new hand) or the hand's version now
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the change is stored (now or before)."""
        return self.status in (SAVED, UNCHANGED)
