"""The other side confirms each hand (docs/tournaments.md): at the tables of a tournament that asks for
it, a hand saved at a table waits until a player of a side confirms it on the same phone (the app does
not know which side typed it: the sheet offers each side's button and keeps which side confirmed), or
until the organiser confirms it (on record as the organiser's).

Every change is one ``BEGIN IMMEDIATE`` transaction deciding its conflicts inside it: a confirmation
names the hand's version it showed, and a hand changed since is refused (OVERTAKEN: check it again), so
nobody confirms figures nobody saw; a hand confirmed already answers UNCHANGED (two taps confirm it once).
Until confirmed a hand is still its entering side's draft: correcting it is on record as the hand entered
again, not as a correction, and it stays unconfirmed; once confirmed, a correction is an ordinary one."""

from __future__ import annotations

from typing import Mapping

from sqlite_utils import Database

from scorekeeper.core import sheet
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.models import Game, Hand
from scorekeeper.services.tournaments import CLOSED
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, REFUSED, SAVED, UNCHANGED, Verdict
from scorekeeper.storage import changes, games, records, tournament_records, transaction

ORGANISER = records.ORGANISER
NOT_ASKED = N_("This tournament does not ask the other side to confirm its hands.")


def _refused(text: str) -> Verdict:
    return Verdict(REFUSED, problems=(Problem(None, "hand", text),))


def _names(game: Game) -> list[str]:
    """The game's sides as the sheet names them ("Anna & Ben")."""
    return sheet.side_names(game, sheet.rules_for(game))


def _mark(db: Database, game: Game, hand: Hand, by: str, phone: str | None) -> None:
    """Confirm the hand at the version it has (inside the caller's transaction) and put it on record."""
    assert games.confirm_hand(db, game.id, hand.id, hand.version, by)
    side = records.confirming_side(by)
    names = _names(game)[side] if side is not None else None
    after = {"by": by, "names": names, "version": hand.version}
    changes.log_change(db, game.id, hand.id, "hand confirmed", None, after, phone)


def confirm_hand(
    db: Database,
    game_id: int,
    hand_id: int,
    version: int,
    side: int | None,
    *,
    phone: str | None = None,
    tournament_id: int | None = None,
) -> Verdict:
    """A side of the table (``side``: 0, 1 …) confirms the hand as the page showed it (``version``); with
    ``side`` None the organiser does (``tournament_id``: from that tournament's page, the hand must be one
    of its). SAVED (``extra["by"]``); UNCHANGED when it was confirmed already (``extra["by"]``: by whom);
    OVERTAKEN when the hand changed since (``now``: its version); REFUSED where no confirmation is asked
    or the tournament is closed; MISSING (no such hand or side)."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        hand = records.get_hand(db, game_id, hand_id) if game else None
        seat = tournament_records.seat_of_game(db, game_id) if hand else None
        if hand is None or (tournament_id is not None and (seat is None or seat.tournament_id != tournament_id)):
            return Verdict(MISSING)
        t = tournament_records.get(db, seat.tournament_id) if seat else None
        if t is None or not t.confirm_hands:
            return _refused(NOT_ASKED)
        if t.closed_at:
            return _refused(CLOSED)
        if side is not None and not 0 <= side < len(_names(game)):
            return Verdict(MISSING)
        if hand.confirmed_at is not None:
            return Verdict(UNCHANGED, id=hand.id, extra={"by": hand.confirmed_by})
        if hand.version != version:
            return Verdict(OVERTAKEN, id=hand.id, now=hand.version)
        by = ORGANISER if side is None else records.side_confirmer(side)
        _mark(db, game, hand, by, phone)
        return Verdict(SAVED, id=hand.id, extra={"by": by})


def confirm_all(db: Database, tournament_id: int, shown: Mapping[int, int], phone: str | None = None) -> Verdict:
    """The organiser confirms every hand the page listed (``shown``: hand id → the version shown), at
    once: SAVED with ``extra["count"]``; UNCHANGED when each was confirmed meanwhile; OVERTAKEN, with none
    confirmed, when one of them changed since (``extra["changed"]``: (round, table, hand number) of each);
    a hand not on the page (saved since) is left for the organiser to see. REFUSED, MISSING as above."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if not t.confirm_hands:
            return _refused(NOT_ASKED)
        if t.closed_at:
            return _refused(CLOSED)
        seen = [u for u in tournament_records.unconfirmed(db, t) if u.hand_id in shown]
        changed = [(u.round, u.table, u.number) for u in seen if shown[u.hand_id] != u.version]
        if changed:
            return Verdict(OVERTAKEN, id=t.id, extra={"changed": changed})
        for u in seen:
            game = records.get_game(db, u.game_id)
            _mark(db, game, records.get_hand(db, u.game_id, u.hand_id), ORGANISER, phone)
        return Verdict(SAVED if seen else UNCHANGED, id=t.id, extra={"count": len(seen)})


def confirm_organisers(db: Database, game_id: int, hand_id: int, phone: str | None) -> None:
    """A hand the organiser entered from the director's grid, inside the transaction that stores it: where
    the tournament asks for confirmations it is confirmed by the organiser at once (no side entered it)."""
    if tournament_records.confirms_hands(db, game_id):
        _mark(db, records.get_game(db, game_id), records.get_hand(db, game_id, hand_id), ORGANISER, phone)


def correction_action(db: Database, game_id: int, hand: Hand) -> str:
    """How the change log keeps a correction of this hand: "hand entered again" while it waits for the other
    side's confirmation (the entering side's draft replaced: not a correction on record, and it stays
    unconfirmed), else "hand corrected"."""
    if hand.confirmed_at is None and tournament_records.confirms_hands(db, game_id):
        return "hand entered again"
    return "hand corrected"
