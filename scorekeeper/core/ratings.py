"""Ratings across changing partners: openskill's Plackett-Luce model (a Bayesian rating of players
who play in teams), fed one finished game at a time in game order. See docs/ratings.md.

Pure: no Flask, no database. ``rating_store`` feeds it the games and keeps what it computes.

A game is an ``Outcome``: its sides (the archive players of each, how many guests sat with them,
and what share of the side plays each hand) and each side's rank (0 the winner; equal ranks a tie).
A player's rating is a mean ``mu`` and an uncertainty ``sigma``; the figure the pages show is the
conservative ``mu - 3 sigma`` (skill this high or higher, almost surely), times 100 and rounded.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0  # openskill's defaults: a newcomer is 25 ± 8.33, shown as 0
SIGMA = MU / 3
SCALE = 100  # the shown rating is (mu - 3 sigma) × SCALE, rounded
PROVISIONAL = 5  # under this many rated games a rating is provisional


def _full_step(*_args) -> float:
    """openskill's gamma, the share of what a game says that lowers a player's uncertainty: 1, where
    openskill's default takes about 1/2 in a game of two partnerships. By default the uncertainty
    came down so slowly that a player's last 15 games or so counted as much as all before them; with
    1 each game counts about alike once the first few are in, and the ratings ranked the players of
    the synthetic clubs better at every amount of luck tried (docs/ratings.md). openskill passes c, k,
    mu, sigma_squared, team, rank and weights, none needed."""
    return 1.0


MODEL = PlackettLuce(mu=MU, sigma=SIGMA, gamma=_full_step)


@dataclass(frozen=True)
class Rating:
    """One player's rating: openskill's mean and uncertainty, and the rated games behind it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The conservative figure the pages show: (mu - 3 sigma) × 100, rounded."""
        return shown(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        """sigma × 100, rounded: the rating is three of these below the best estimate of skill."""
        return round(self.sigma * SCALE)

    @property
    def provisional(self) -> bool:
        """Fewer than PROVISIONAL rated games."""
        return self.games < PROVISIONAL


NEWCOMER = Rating()


def shown(mu: float, sigma: float) -> int:
    """The conservative figure the pages show for a mean and uncertainty."""
    return round((mu - 3 * sigma) * SCALE)


@dataclass(frozen=True)
class Side:
    """One side of a game: its archive players (ids, sorted), the guests who sat with them (rated
    as newcomers, never kept), and the share of the side that plays each hand (2/3 when three take
    turns, two at a time)."""

    players: tuple[int, ...]
    guests: int = 0
    share: float = 1.0


@dataclass(frozen=True)
class Outcome:
    """A finished game as the ratings see it: its sides and each side's rank (0 best, ties equal)."""

    sides: tuple[Side, ...]
    ranks: tuple[int, ...]

    def as_json(self) -> dict:
        """What the store keeps of it (to tell later whether a game's outcome changed)."""
        return {
            "sides": [{"players": list(s.players), "guests": s.guests, "share": s.share} for s in self.sides],
            "ranks": list(self.ranks),
        }


def dense_ranks(values: Sequence[float]) -> tuple[int, ...]:
    """Ranks of values where lower is better: 0 for the lowest, equal values share a rank."""
    order = sorted(set(values))
    return tuple(order.index(v) for v in values)


def outcome(
    sides: Sequence[Sequence[int]],
    seats_per_side: Sequence[int],
    playing: int,
    finished: bool,
    winner: int | None,
    leads: Sequence[int],
    totals: Sequence[int],
) -> Outcome | None:
    """The outcome of a game from its result, or None if it is not rated: not finished, or fewer
    than two sides with an archive player.

    ``sides`` holds each side's archive players, ``seats_per_side`` its seats (the rest are guests),
    ``playing`` how many of a larger side play each hand (0: all). A won game ranks the winner first
    and the others by the winner's lead over them (their totals when it ended: a hand recorded after
    the end changes nothing); a drawn game ranks by the totals, the leaders level."""
    if not finished:
        return None
    if winner is not None and len(leads) == len(sides):
        ranks = dense_ranks(leads)
    else:
        ranks = dense_ranks([-t for t in totals])
    if sum(1 for players in sides if players) < 2:
        return None
    out = []
    for players, seats in zip(sides, seats_per_side):
        share = min(playing, seats) / seats if playing and seats else 1.0
        out.append(Side(tuple(sorted(players)), seats - len(players), share))
    return Outcome(tuple(out), ranks)


def _team(side: Side, ratings: dict[int, Rating]) -> list:
    """The side as openskill's team: each player's rating (guests as newcomers), scaled by the side's
    share, so a side of three of whom two play each hand is as strong as the mean pair of it."""
    c = side.share
    members = [ratings.get(pid, NEWCOMER) for pid in side.players] + [NEWCOMER] * side.guests
    return [MODEL.rating(mu=r.mu * c, sigma=r.sigma * c) for r in members]


def rate(ratings: dict[int, Rating], game: Outcome) -> dict[int, tuple[Rating, Rating]]:
    """Rate one game: each archive player's rating before and after it. ``ratings`` is not changed."""
    teams = [_team(side, ratings) for side in game.sides]
    # openskill wants every team to hold someone: a side of guests only is a side of newcomers
    new = MODEL.rate(teams, ranks=[float(r) for r in game.ranks])
    changes = {}
    for side, team in zip(game.sides, new):
        c = side.share
        for pid, after in zip(side.players, team):
            before = ratings.get(pid, NEWCOMER)
            changes[pid] = (before, Rating(after.mu / c, after.sigma / c, before.games + 1))
    return changes


# --- fair partners ------------------------------------------------------------------------------


def win_chances(sides: Sequence[Sequence[int]], ratings: dict[int, Rating], share: float = 1.0) -> list[float]:
    """Each side's predicted chance of winning (openskill's prediction; newcomers at the start
    rating; ``share``: of each side that plays each hand, as in ``rate``)."""
    teams = [_team(Side(tuple(side), 0, share), ratings) for side in sides]
    return MODEL.predict_win(teams)


def splits(players: Sequence[int], sizes: Sequence[int]) -> list[tuple[tuple[int, ...], ...]]:
    """Every way to split the players into sides of these sizes (sides of equal size unordered: Anna
    & Bert against Carl & Dora is one split, however the sides are listed)."""
    if len(set(sizes)) > 1:
        raise ValueError("sides of one size only")
    if not sizes:
        return [()] if not players else []
    size, rest_sizes = sizes[0], sizes[1:]
    first, rest = players[0], list(players[1:])
    out = []
    for others in itertools.combinations(rest, size - 1):
        side = (first, *others)
        left = [p for p in rest if p not in others]
        for tail in splits(left, rest_sizes):
            out.append((side, *tail))
    return out


@dataclass(frozen=True)
class Seating:
    """A proposed split into sides with each side's chance of winning."""

    sides: tuple[tuple[int, ...], ...]
    chances: tuple[float, ...]

    @property
    def unevenness(self) -> float:
        """How far the chances are from even: the largest gap to 1/(number of sides)."""
        even = 1 / len(self.chances)
        return max(abs(c - even) for c in self.chances)


def fair_seatings(
    players: Sequence[int],
    sizes: Sequence[int],
    ratings: dict[int, Rating],
    rng: random.Random | None = None,
    share: float = 1.0,
) -> list[Seating]:
    """Every split of the players into sides of ``sizes``, the closest to even chances first.
    Splits that come out equally even (newcomers swapped between sides) are in random order, so
    players without a rated game are drawn at random."""
    rng = rng or random.Random()
    seatings = [
        Seating(sides, tuple(win_chances(sides, ratings, share))) for sides in splits(list(players), list(sizes))
    ]
    rng.shuffle(seatings)
    # rounded: swapping two newcomers differs by float noise only
    return sorted(seatings, key=lambda s: round(s.unevenness, 9))
