"""Starting and changing an evening: one ``BEGIN IMMEDIATE`` transaction each. A changed date moves
its games' day in the statistics in the same transaction, so no page ever reads an evening on one
day and its games' results on another."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.services.verdicts import MISSING, SAVED, Verdict
from scorekeeper.storage import evenings, records, results, transaction


def create_evening(db: Database, date: str, names: list[str], place: str = "", note: str = "") -> Verdict:
    """Start an evening with the players present (found or added by name): SAVED with its id."""
    with transaction.write(db):
        return Verdict(SAVED, id=evenings.create_evening(db, date, names, place, note))


def update_evening(
    db: Database, evening_id: int, date: str, names: list[str], place: str = "", note: str = ""
) -> Verdict:
    """Change an evening's date, place, note and players (players of its games stay), and its games'
    results with it (the evening's date is their day): SAVED, or MISSING if it is gone."""
    with transaction.write(db):
        if records.get_evening(db, evening_id) is None:
            return Verdict(MISSING)
        evenings.update_evening(db, evening_id, date, names, place, note)
        for game in records.evening_games(db, evening_id):
            results.refresh_results(db, game.id)
        return Verdict(SAVED, id=evening_id)
