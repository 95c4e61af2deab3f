"""Tonight's table: who plays the next game of an evening, and a fair random draw of the seats.

Pure: no Flask, no database. Everyone sits out in turn: the players who have played fewest games
this evening come first, and among equals those who played longest ago.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def who_plays(
    players: Sequence[int], played: dict[int, int], last_game: dict[int, int], seats: int
) -> tuple[list[int], list[int]]:
    """(who plays, who sits out) of ``players`` (in the evening's order) for a game of ``seats``:
    fewest games played this evening first, then whoever played longest ago (never: first), then
    the evening's order. ``played`` and ``last_game``: per player, games played and the id of the
    last one this evening."""
    order = sorted(
        range(len(players)),
        key=lambda i: (played.get(players[i], 0), last_game.get(players[i], -1), i),
    )
    chosen = sorted(order[:seats])  # in the evening's order
    return [players[i] for i in chosen], [players[i] for i in range(len(players)) if i not in chosen]


def draw_seats(players: Sequence[str], rng: random.Random | None = None) -> list[str]:
    """The players in a random seat order: partners are whoever the draw puts opposite each other
    (seats 1 and 3 against 2 and 4, and so on), as cutting the cards for partners would."""
    seated = list(players)
    (rng or random.SystemRandom()).shuffle(seated)
    return seated
