"""Statistics as the pages show them: a player's record, a partnership's, a row of the history,
and how an evening settles. Pure: no Flask, no database (``queries`` reads them from the results
kept on every write)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerStats:
    """One player's record."""

    id: int
    name: str
    games: int
    finished: int
    won: int
    hands: int
    points: int
    best_hand: int | None
    canastas: int
    margin: int

    @property
    def win_rate(self) -> float | None:
        """Won out of finished games, 0–1."""
        return self.won / self.finished if self.finished else None

    @property
    def average_hand(self) -> float | None:
        """Average hand score."""
        return self.points / self.hands if self.hands else None

    @property
    def canastas_per_hand(self) -> float | None:
        """Canastas of his side per hand played."""
        return self.canastas / self.hands if self.hands else None


def _player(row: dict[str, Any]) -> PlayerStats:
    """A PlayerStats from a query row."""
    return PlayerStats(
        row["id"],
        row["name"],
        row["games"],
        row["finished"],
        row["won"],
        row["hands"],
        row["points"],
        row["best_hand"],
        row["canastas"],
        row["margin"],
    )


@dataclass(frozen=True)
class Partnership:
    """Two players who played on the same side."""

    names: tuple[str, str]
    games: int
    finished: int
    won: int
    margin: int


@dataclass(frozen=True)
class HistoryRow:
    """A game in the history list."""

    game_id: int
    day: str
    variant: str
    hands: int
    finished: bool
    winner: int | None
    margin: int | None
    totals: list[int]
    sides: list[str]
    evening_id: int | None


def _history_row(r: dict[str, Any]) -> HistoryRow:
    """A HistoryRow from a game_results row."""
    return HistoryRow(
        r["game_id"],
        r["day"],
        r["variant"],
        r["hands"],
        bool(r["finished"]),
        r["winner"],
        r["margin"],
        json.loads(r["totals"]),
        json.loads(r["sides"]),
        r.get("evening_id"),
    )


def settle(balances: dict[str, int]) -> list[tuple[str, str, int]]:
    """Payments that settle these balances (who pays whom how much), fewest first by size."""
    debtors = sorted(((-b, n) for n, b in balances.items() if b < 0), reverse=True)
    creditors = sorted(((b, n) for n, b in balances.items() if b > 0), reverse=True)
    payments = []
    i = j = 0
    debtors = [list(d) for d in debtors]
    creditors = [list(c) for c in creditors]
    while i < len(debtors) and j < len(creditors):
        amount = min(debtors[i][0], creditors[j][0])
        payments.append((debtors[i][1], creditors[j][1], amount))
        debtors[i][0] -= amount
        creditors[j][0] -= amount
        if debtors[i][0] == 0:
            i += 1
        if creditors[j][0] == 0:
            j += 1
    return payments
