"""The score sheet of a stored game: sides, dealers, per-hand breakdowns, totals and the result.

Pure: takes a stored game and its hands, reads them with ``checks`` and replays them with
``scoring``. Used by the pages and the JSON API alike.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from scorekeeper.core import checks, rulesets, scoring
from scorekeeper.core.models import Game, Hand


def side_seats(rules: rulesets.RuleSet) -> list[list[int]]:
    """Seat indexes of each side, from the layout (partners opposite: seats 0, 2 against 1, 3)."""
    return [list(seats) for seats in rules.layouts[0].sides]


def rules_for(game: Game) -> rulesets.RuleSet:
    """The game's rule set with its layout, house-rule settings and target applied."""
    return rulesets.configure(rulesets.get(game.variant), game.settings, game.layout, game.target)


def settings_chosen(game: Game) -> list[tuple[str, str]]:
    """The game's settings as its sheet lists them: (the setting's label, the chosen option's label), as
    message ids (docs/rules.md, "House rules")."""
    chosen = []
    for setting in rulesets.get(game.variant).settings:
        value = game.settings.get(setting.key, setting.default)
        chosen.append((setting.label, dict(setting.choices).get(value, str(value))))
    return chosen


def values_changed(game: Game) -> list[tuple[rulesets.Value, Any]]:
    """The table's own values the game plays with (its settings aside): (the value, the game's)
    (docs/rules.md, "A table's own rules"). A setting of the rule set that shares its name with a value
    (Canadian's going-out bonus, red threes, black three in hand) holding one of the setting's choices is
    a setting, not a value changed: a Canadian game with its defaults listed three "changed" (a review
    found it); a table's own figure outside those choices (0 for a black three) is a value changed."""
    base = rulesets.get(game.variant)
    chosen = {setting.key: {str(value) for value, _label in setting.choices} for setting in base.settings}
    return [
        (spec, game.settings[spec.name])
        for spec in rulesets.values_of(rulesets.with_settings(base, game.settings))
        if spec.group != "settings"
        and spec.name in game.settings
        and str(game.settings[spec.name]) not in chosen.get(spec.name, ())  # one of its setting's choices
    ]


def sitting_out(rules: rulesets.RuleSet, hand_index: int) -> list[int]:
    """Seats that sit this hand out: in a side larger than the playing size, players take turns
    (docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)", "Encyclopedia rules (2–6 players)")."""
    layout = rules.layouts[0]
    if not layout.playing:
        return []
    out = []
    for seats in layout.sides:
        resting = len(seats) - layout.playing
        for k in range(resting):
            out.append(seats[(hand_index * resting + k) % len(seats)])
    return sorted(out)


@dataclass(frozen=True)
class SheetHand:
    """One row of the sheet."""

    number: int
    hand: Hand
    dealer: str
    sitting_out: list[str]
    outcome: scoring.HandOutcome
    opening_minimums: tuple[int, ...]  # that applied during this hand
    after_end: bool  # recorded after the hand that ended the game


@dataclass(frozen=True)
class Sheet:
    """Everything the scoreboard shows."""

    game: Game
    rules: rulesets.RuleSet
    side_names: list[str]
    rows: list[SheetHand]
    state: scoring.GameState

    @property
    def next_dealer(self) -> str:
        """Who deals the next hand: the deal passes to the left (the next seat)."""
        return dealer(self.game, len(self.rows), self.rules)

    @property
    def next_sitting_out(self) -> list[str]:
        """Who sits out the next hand."""
        return [self.game.players[seat] for seat in sitting_out(self.rules, len(self.rows))]

    def opening_rows(self) -> list[rulesets.OpeningRow]:
        """The opening-table row each side is in now."""
        return [scoring.opening_row(self.rules, total) for total in self.state.totals]


@dataclass(frozen=True)
class Heading:
    """What a page of one game shows at its head, whatever else it shows: the game, its rules and each
    side's name (the hand form needs no more of the sheet)."""

    game: Game
    rules: rulesets.RuleSet
    side_names: list[str]


def heading(game: Game) -> Heading:
    """The game's heading."""
    rules = rules_for(game)
    return Heading(game, rules, side_names(game, rules))


def next_hand(rules: rulesets.RuleSet, running: Running) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The next hand's number, the totals before it and each side's opening minimum during it, from the
    game's kept running figures: the same as the replayed sheet's, without replaying a hand (docs/rules.md,
    "Opening minimum": by each side's total, and where the table's rules say so by the hand's number)."""
    number = running.hands + 1
    return number, running.totals, tuple(scoring.opening_minimum(rules, total, number) for total in running.totals)


def dealer(game: Game, hand_index: int, rules: rulesets.RuleSet | None = None) -> str:
    """The dealer of the hand with this 0-based index: the deal passes to the left, past anyone sitting out."""
    resting = set(sitting_out(rules, hand_index)) if rules else set()
    seat = (game.first_dealer + hand_index) % len(game.players)
    for _ in range(len(game.players)):
        if seat not in resting:
            break
        seat = (seat + 1) % len(game.players)
    return game.players[seat]


def side_names(game: Game, rules: rulesets.RuleSet) -> list[str]:
    """Each side's name: the partners' names joined with "&"."""
    return [" & ".join(game.players[seat] for seat in seats) for seats in side_seats(rules)]


def read_stored(rules: rulesets.RuleSet, hand: Hand) -> list[scoring.SideHand]:
    """A stored hand's sides as the scoring takes them (stored hands passed the checks when saved)."""
    return checks.read_hand(rules, hand.sides, lone=hand.lone)[0]


def build(game: Game, hands: list[Hand]) -> Sheet:
    """Replay a stored game into its score sheet."""
    rules = rules_for(game)
    entries = [read_stored(rules, hand) for hand in hands]
    state = scoring.play(rules, entries, lones=[hand.lone for hand in hands])
    if game.round_past and hands and not state.result.finished:  # ended with its tournament round
        state = dataclasses.replace(state, result=scoring.round_result(state.totals), ended_after=len(hands) - 1)
    rows = []
    minimums = tuple(scoring.opening_minimum(rules, 0, 1) for _ in range(rules.sides))
    for index, (hand, outcome) in enumerate(zip(hands, state.hands)):
        after_end = state.ended_after is not None and index > state.ended_after
        resting = [game.players[seat] for seat in sitting_out(rules, index)]
        rows.append(SheetHand(index + 1, hand, dealer(game, index, rules), resting, outcome, minimums, after_end))
        minimums = outcome.opening_minimums
    return Sheet(game, rules, side_names(game, rules), rows, state)


def hand_went_out(hand: Hand) -> int | None:
    """The side that went out in a stored hand, or None."""
    return next((i for i, side in enumerate(hand.sides) if isinstance(side, dict) and side.get("went_out")), None)


def canastas_of(hand: Hand, side: int) -> int:
    """Completed canastas of every kind a side entered for a hand."""
    entry = hand.sides[side] if side < len(hand.sides) else {}
    return sum(int(v or 0) for k, v in entry.items() if k.endswith("_canastas") and isinstance(v, int))


def result_dict(result: scoring.Result) -> dict[str, Any]:
    """The result as the JSON API gives it."""
    return {
        "finished": result.finished,
        "winner": result.winner,
        "margin": result.margin,
        "tie": result.tie,
        "leads": list(result.leads) or None,
    }


def breakdown_dicts(score: scoring.SideScore, label=lambda line: line.label) -> list[dict[str, Any]]:
    """A breakdown as the JSON API gives it (``label`` turns a line into its text, e.g. translated)."""
    return [{"item": line.item, "label": label(line), "points": line.points} for line in score.breakdown]


def match_balance(sheets: list[Sheet]) -> dict[str, int]:
    """Each player's net balance over the Partien of a complete Game (docs/rules.md, "Austrian rulebook
    (Spielregeln, 2–6 players)", the app's reading): a finished
    Partie adds its margin to each winner and takes it from each loser."""
    players = sheets[0].game.players if sheets else []
    balance = {name: 0 for name in players}
    for s in sheets:
        result = s.state.result
        if not result.finished or result.winner is None:
            continue
        for side, seats in enumerate(side_seats(s.rules)):
            for seat in seats:
                balance[s.game.players[seat]] += result.margin if side == result.winner else -result.margin
    return balance


def settlement_of(rules: rulesets.RuleSet, result: scoring.Result) -> list[tuple[int, int, int]]:
    """Who pays whom at the end of a game, as (paying seat, receiving seat, points), the way the
    rulebooks settle it (docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)", "Encyclopedia
    rules (2–6 players)"): each player of a losing side pays the winners' lead over
    his side to one player of the winning side (in turn); with players on their own, the winner
    collects from each. Empty while the game is not won."""
    if not result.finished or result.winner is None:
        return []
    seats = side_seats(rules)
    winners = seats[result.winner]
    payments = []
    for side, losers in enumerate(seats):
        if side == result.winner or not result.leads[side]:
            continue
        for k, seat in enumerate(losers):
            payments.append((seat, winners[k % len(winners)], result.leads[side]))
    return payments


# ---------------------------------------------------------------------------------------------
# What the archive keeps of a game, brought up to date hand by hand


@dataclass(frozen=True)
class Running:
    """A game's running figures as the archive keeps them: enough to add the next hand and to fill
    the statistics without replaying a single hand. Each hand's side scores are kept with the hand."""

    hands: int
    totals: tuple[int, ...]
    best: tuple[int | None, ...]  # each side's best hand score
    canastas: tuple[int, ...]  # each side's completed canastas of every kind
    ended_after: int | None  # index of the hand that ended the game
    result: scoring.Result
    end_totals: tuple[int, ...] | None = None  # the totals after the hand that ended the game

    @property
    def after_end(self) -> int:
        """Hands recorded after the hand that ended the game."""
        return 0 if self.ended_after is None else self.hands - 1 - self.ended_after

    @property
    def final_totals(self) -> tuple[int, ...]:
        """The totals the result is about: at the end of the game, else now."""
        return self.end_totals or self.totals

    def as_dict(self) -> dict[str, Any]:
        """The JSON the store keeps."""
        r = self.result
        return {
            "hands": self.hands,
            "totals": list(self.totals),
            "best": list(self.best),
            "canastas": list(self.canastas),
            "ended_after": self.ended_after,
            "end_totals": None if self.end_totals is None else list(self.end_totals),
            "result": {
                "finished": r.finished,
                "winner": r.winner,
                "margin": r.margin,
                "tie": r.tie,
                "leads": list(r.leads),
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Running:
        """Back from the store's JSON."""
        r = data["result"]
        result = scoring.Result(r["finished"], r["winner"], r["margin"], r["tie"], tuple(r["leads"]))
        return cls(
            data["hands"],
            tuple(data["totals"]),
            tuple(data["best"]),
            tuple(data["canastas"]),
            data["ended_after"],
            result,
            None if data.get("end_totals") is None else tuple(data["end_totals"]),
        )


def running_start(rules: rulesets.RuleSet) -> Running:
    """A game without hands."""
    zeros = (0,) * rules.sides
    return Running(0, zeros, (None,) * rules.sides, zeros, None, scoring.game_result(rules, zeros))


def hand_scores(rules: rulesets.RuleSet, hand: Hand) -> tuple[int, ...]:
    """Each side's score of one stored hand."""
    return tuple(s.score for s in scoring.score_hand(rules, read_stored(rules, hand), hand.lone))


def with_hand(
    rules: rulesets.RuleSet,
    running: Running,
    scores: tuple[int, ...],
    canastas: tuple[int, ...],
    went_out: int | None = None,
) -> Running:
    """The running figures with one more hand at the end: its scores added, the result decided once
    (a hand recorded after the end counts in the totals, the result stays that of the ending hand).
    ``went_out``: the side that went out in it (a tie rule may give the game to it)."""
    totals = tuple(t + s for t, s in zip(running.totals, scores))
    best = tuple(s if b is None else max(b, s) for b, s in zip(running.best, scores))
    summed = tuple(c + n for c, n in zip(running.canastas, canastas))
    ended_after, result, end_totals = running.ended_after, running.result, running.end_totals
    if ended_after is None:
        result = scoring.game_result(rules, totals, running.hands + 1, went_out)
        if result.finished:
            ended_after, end_totals = running.hands, totals
    return Running(running.hands + 1, totals, best, summed, ended_after, result, end_totals)


def ended_with_round(running: Running) -> Running:
    """The running figures of a tournament table's game whose round is past (docs/tournaments.md,
    "When a round ends"): a game already decided, or without a hand, stays as it is; any other ends
    after its last hand, with the result of its totals then (``scoring.round_result``)."""
    if running.result.finished or not running.hands:
        return running
    return dataclasses.replace(
        running,
        result=scoring.round_result(running.totals),
        ended_after=running.hands - 1,
        end_totals=running.totals,
    )


def running_of_hands(rules: rulesets.RuleSet, hands: list[tuple]) -> Running:
    """The running figures of a game from each hand's (scores, canastas, the side that went out), in order."""
    running = running_start(rules)
    for scores, canastas, went_out in hands:
        running = with_hand(rules, running, scores, canastas, went_out)
    return running


def hand_canastas(rules: rulesets.RuleSet, hand: Hand) -> tuple[int, ...]:
    """Each side's completed canastas in one stored hand. In a hand of three players where one
    played alone, the other two share their canastas (docs/rules.md, "Classic Canasta (3 players)"):
    each partner is credited with the partnership's, whichever partner's column holds them, as each
    is credited with the partnership's score."""
    own = tuple(canastas_of(hand, side) for side in range(rules.sides))
    if hand.lone is None or rules.sides != 3:
        return own
    shared = sum(n for side, n in enumerate(own) if side != hand.lone)
    return tuple(n if side == hand.lone else shared for side, n in enumerate(own))
