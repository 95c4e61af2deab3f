"""A tournament's list of entrants as the organiser types it (docs/tournaments.md, "Running a club
night"): one player a line, or one pair a line ("Anna & Ben") where the format is entered as pairs;
each name as the archive keeps it, and no one on the list twice, in any case or look-alike. Pure: the
new-tournament form, the check-in's walk-ins, a seat given to another player and the import read the
same rules here."""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

from scorekeeper.core import names
from scorekeeper.core.club_night import formats
from scorekeeper.core.messages import N_, Problem

PAIR_SPLIT = re.compile(r"\s*[&+/]\s*")  # "Anna & Ben", "Anna + Ben", "Anna/Ben"
NAME_MOST = 40  # characters of a name, as a player's (web.forms)


def pairs(fmt: str) -> bool:
    """Whether a format is entered as pairs (an unknown one: no; its field says so)."""
    kind = formats.REGISTRY.get(fmt)
    return bool(kind and kind.pairs)


def parse_entrants(fmt: str, text: str | None) -> list[tuple[str, ...]]:
    """The players, or pairs ("Anna & Ben") where the format is entered as pairs, typed one a line,
    each name as the archive keeps it (NFC, one space between words)."""
    lines = [" ".join(line.split()) for line in (text or "").splitlines()]
    lines = [unicodedata.normalize("NFC", line) for line in lines if line]
    if pairs(fmt):
        return [tuple(n for n in PAIR_SPLIT.split(line) if n) for line in lines]
    return [(line,) for line in lines]


def names_problem(pairs: bool, entrants: Sequence[Sequence[str]]) -> Problem | None:
    """What the names of a list of entrants cannot be (field ``entrants``), or None: each name at most
    NAME_MOST characters, all visible; no name twice on the list (any case, Unicode forms and
    look-alikes counted as one: ``names.skeleton``); one player a line where the format is not
    entered as pairs (``pairs``: the format's, as ``pairs(fmt)`` says)."""
    seen: set[str] = set()
    for name in (n for e in entrants for n in e):
        if len(name) > NAME_MOST or names.invisible(name):
            return Problem(
                None,
                "entrants",
                N_("Each name: at most 40 characters, all of them visible (%(name)s)."),
                {"name": name[:NAME_MOST]},
            )
        if names.skeleton(name) in seen:
            return Problem(None, "entrants", N_("%(name)s is on the list twice; add an initial."), {"name": name})
        seen.add(names.skeleton(name))
    if not pairs and any(PAIR_SPLIT.search(e[0]) for e in entrants if e):
        return Problem(None, "entrants", N_("One player a line here: pairs are for “Pairs moving between tables”."))
    return None
