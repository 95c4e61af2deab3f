"""Renaming and merging players: one ``BEGIN IMMEDIATE`` transaction each, the conflicts decided
inside it (a name another player has by then, a player merged away meanwhile, two players who sat in
the same game), so two changes sent at once cannot both be told "done" when only one can stand."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.core import names
from scorekeeper.core.messages import N_, Problem
from scorekeeper.services.verdicts import MISSING, REFUSED, SAVED, Verdict
from scorekeeper.storage import players, records, tournament_records, transaction


def _refused(field: str, text: str, **values) -> Verdict:
    """A refusal with one reason."""
    return Verdict(REFUSED, problems=(Problem(None, field, text, values),))


def rename_player(db: Database, pid: int, name: str) -> Verdict:
    """Rename a player everywhere: SAVED; MISSING if there is no such player; REFUSED when another
    player has that name (in any case): then the two are merged instead."""
    name = names.normal(name)
    with transaction.write(db):
        if records.get_player(db, pid) is None:
            return Verdict(MISSING)
        if records.player_named(db, name, other_than=pid) is not None:
            return _refused("name", N_("There is already a player called %(name)s; merge the two instead."), name=name)
        players.rename_player(db, pid, name)
        return Verdict(SAVED, id=pid)


def merge_players(db: Database, keep: int, gone: int) -> Verdict:
    """Merge player ``gone`` into ``keep``, keeping all history: SAVED (``extra["name"]``: the name
    merged away); MISSING if ``keep`` is gone; REFUSED for one player twice, a player no longer
    there, or two who sat in the same game (two people)."""
    if keep == gone:
        return _refused("other", N_("Pick two different players."))
    with transaction.write(db):
        if records.get_player(db, keep) is None:
            return Verdict(MISSING)
        other = records.get_player(db, gone)
        if other is None:  # merged away or into another meanwhile
            return _refused("other", N_("There is no player %(id)s."), id=gone)
        if records.shared_games(db, keep, gone):
            return _refused("other", N_("Both played in the same game, so they are two people."))
        shared = tournament_records.shared_tournament(db, keep, gone)
        if shared is not None:  # two entrants of one tournament: merged, one person would hold two seats
            return _refused("other", N_("Both play in the tournament %(name)s, so they are two people."), name=shared)
        players.merge_players(db, keep, gone)
        return Verdict(SAVED, id=keep, extra={"name": other.name})
