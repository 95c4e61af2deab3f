"""A stored game's results, worked out from its running figures: each player's result row for the
statistics (who won, the settlement margin), its hands' scores (scored once when stored without
them), and what its result means for the ratings. Pure: storage keeps what these return."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorekeeper.core import ratings, rulesets, scoring, sheet
from scorekeeper.core.models import Game, Hand

Scored = tuple[tuple[int, ...], tuple[int, ...], int | None]  # a hand's (side scores, canastas, who went out)


def settlement_balance(rules: rulesets.RuleSet, running: sheet.Running) -> dict[int, int]:
    """Each seat's balance from the game's settlement (what it pays and is paid), 0 left out."""
    balance: dict[int, int] = {}
    for payer, payee, points in sheet.settlement_of(rules, running.result):
        balance[payer] = balance.get(payer, 0) - points
        balance[payee] = balance.get(payee, 0) + points
    return balance


def player_rows(
    game: Game, rules: rulesets.RuleSet, running: sheet.Running, seats: dict[int, int], day: str
) -> list[dict[str, Any]]:
    """Each seated archive player's result row for the statistics (``seats``: seat → player id,
    guests left out), from the game's running figures: his side, whether it won, its points, best
    hand and canastas, and his margin in the settlement."""
    balance = settlement_balance(rules, running)
    result = running.result
    rows = []
    for side, seat_list in enumerate(sheet.side_seats(rules)):
        for seat in seat_list:
            if seat in seats:
                rows.append(
                    {
                        "game_id": game.id,
                        "player_id": seats[seat],
                        "side": side,
                        "day": day,
                        "finished": int(result.finished),
                        "won": int(result.finished and result.winner == side),
                        "hands": running.hands,
                        "points": running.totals[side],
                        "best_hand": running.best[side],
                        "canastas": running.canastas[side],
                        "margin": balance.get(seat, 0),
                        "total": running.totals[side],
                        "lead": side_lead(result, side),
                    }
                )
    return rows


def side_lead(result: scoring.Result, side: int) -> int:
    """A side's result as its partnership's +/− counts it: won, its leads over the sides that lost; lost,
    minus the winner's lead over it; else 0. Where sides are of one size it is each of its players'
    margin in the settlement; where they are not (Austrian, 2 against 3) the settlement gives the two
    winners 1580 and 790 of a lead of 790, and the partnership counted whichever partner came first."""
    if not result.finished or result.winner is None:
        return 0
    if not result.leads:  # figures kept before the leads were: the margin over the next
        return (result.margin or 0) * (1 if side == result.winner else -1)
    return sum(result.leads) if side == result.winner else -result.leads[side]


def score_hands(
    rules: rulesets.RuleSet, stored: Sequence[tuple[Hand, tuple[int, ...] | None]]
) -> tuple[list[Scored], dict[int, tuple[int, ...]]]:
    """Each hand's (side scores, canastas), in order, from ``stored`` (a hand with the scores kept
    for it, or None when it was stored without them: by an older version, or an import); and the
    scores worked out now for those, by hand id, for storage to keep."""
    scored: list[Scored] = []
    new: dict[int, tuple[int, ...]] = {}
    for hand, scores in stored:
        if scores is None:
            scores = new[hand.id] = sheet.hand_scores(rules, hand)
        scored.append((tuple(scores), sheet.hand_canastas(rules, hand), sheet.hand_went_out(hand)))
    return scored, new


def rating_outcome(
    rules: rulesets.RuleSet, running: sheet.Running, players: Sequence[tuple[int, int]]
) -> ratings.Outcome | None:
    """A game's outcome for the ratings from its rules, its running figures and its archive players
    as (player id, side); None if it does not count (not finished, or fewer than two sides with an
    archive player)."""
    seats = sheet.side_seats(rules)
    sides: list[list[int]] = [[] for _ in seats]
    for pid, side in players:
        if 0 <= side < len(sides):
            sides[side].append(pid)
    result = running.result
    return ratings.outcome(
        sides,
        [len(s) for s in seats],
        rules.layouts[0].playing,
        result.finished,
        result.winner,
        result.leads,
        running.totals,
    )


def outcome_key(outcome: ratings.Outcome | None) -> str | None:
    """An outcome as a text (equal outcomes, equal texts): what a rated game is kept with."""
    return None if outcome is None else json.dumps(outcome.as_json(), sort_keys=True)


RATED_AS_BEFORE = "as before"  # the outcome is the one the game was rated with: nothing to do
RATE_NEXT = "next"  # a game newly finished after every rated one: rated from its players' ratings alone
RATE_AGAIN = "again"  # any other change: every game from this one on is rated again


def rating_step(game_id: int, outcome: ratings.Outcome | None, rated_with: str | None, last_rated: int | None) -> str:
    """What a game's new result means for the ratings (``rated_with``: the outcome it was rated
    with, if any; ``last_rated``: the last rated game's id): RATED_AS_BEFORE, RATE_NEXT or RATE_AGAIN."""
    if outcome_key(outcome) == rated_with:
        return RATED_AS_BEFORE
    if rated_with is None and outcome is not None and (last_rated is None or game_id > last_rated):
        return RATE_NEXT
    return RATE_AGAIN
