"""Pure scoring: hand scores with a breakdown, running totals, opening minimums and the result.

No Flask, no database: functions of (rule set, hand entries). Each rule cites the heading of
docs/rules.md that explains it in the project's own words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from scorekeeper.core.rulesets import CARD_GROUP_KEYS, N_, LoneAllFour, LoneRedSign, RedThreeSign, RuleSet, TieRule


@dataclass(frozen=True)
class SideHand:
    """What one side scored with in one hand, in card points (counts already converted)."""

    melded_points: int = 0
    hand_points: int = 0
    natural_canastas: int = 0
    mixed_canastas: int = 0
    red_threes: int = 0
    went_out: str | None = None  # None, or the key of one of the rule set's ways of going out
    has_melded: bool | None = (
        None  # None: derived from melded points and canastas (docs/rules.md, "How a hand is scored")
    )
    penalties: int = 0  # points entered by hand
    other_canastas: Mapping[str, int] = field(
        default_factory=dict
        # other kinds, by key (docs/rules.md, "House rules", "Classic Canasta, 6 players in three teams of 2", "Modern
        # American Canasta", "Canadian Canasta (3 decks)")
    )
    black_threes: int = 0  # Modern: black threes melded, scored by the three-table (docs/rules.md, "Penalties")
    black_threes_in_hand: int = 0  # Canadian: −100 each (docs/rules.md, "Canadian Canasta (3 decks)")
    exact_cut: bool = (
        False  # Canadian: the cut was exact and this team did not deal (docs/rules.md, "Canadian Canasta (3 decks)")
    )
    incomplete_melds: Mapping[str, int] = field(default_factory=dict)  # by Deduction key
    holding: Mapping[str, int] = field(default_factory=dict)  # Modern: players holding 3+ aces / 7s
    offences: Mapping[str, int] = field(default_factory=dict)  # penalty catalogue, by key

    def canasta_count(self, key: str) -> int:
        """Completed canastas of one kind."""
        if key == "natural":
            return self.natural_canastas
        if key == "mixed":
            return self.mixed_canastas
        return self.other_canastas.get(key, 0)

    @property
    def canastas(self) -> int:
        """Completed canastas of any kind."""
        return self.natural_canastas + self.mixed_canastas + sum(self.other_canastas.values())

    @property
    def melded(self) -> bool:
        """Whether the side has at least one meld on the table (red threes are not melds: docs/rules.md,
        "How a hand is scored")."""
        if self.has_melded is not None:
            return self.has_melded
        return self.melded_points > 0 or self.canastas > 0 or self.black_threes > 0


@dataclass(frozen=True)
class LineItem:
    """One named line of a hand's breakdown, like a row on a paper score sheet."""

    item: str  # stable key, e.g. "natural_canastas"
    label: str  # what the sheet shows in English, e.g. "2 natural canastas"
    points: int
    name: str = ""  # the thing counted, as a message id to translate, e.g. "Natural canastas"
    count: int = 0  # how many of it (0: not a count)
    note: str = ""  # why the sign is what it is, e.g. "nothing melded: minus"


@dataclass(frozen=True)
class SideScore:
    """A side's score for one hand: the breakdown's points add up to ``score``."""

    breakdown: tuple[LineItem, ...]

    @property
    def score(self) -> int:
        """The hand score: the sum of the breakdown."""
        return sum(line.points for line in self.breakdown)


@dataclass(frozen=True)
class Result:
    """Where the game stands after a hand (docs/rules.md, "End of the game")."""

    finished: bool
    winner: int | None = None  # side index
    margin: int | None = None
    tie: bool = False  # sides level at the top at or above the target
    leads: tuple[int, ...] = ()  # the winner's lead over each side (0 for the winner)


@dataclass(frozen=True)
class HandOutcome:
    """One hand of a game: each side's score, the totals after it and the next opening minimums."""

    scores: tuple[SideScore, ...]
    totals: tuple[int, ...]
    opening_minimums: tuple[int, ...]  # for the next hand
    result: Result


@dataclass(frozen=True)
class GameState:
    """A whole game replayed from its hands."""

    hands: tuple[HandOutcome, ...]
    totals: tuple[int, ...]
    opening_minimums: tuple[int, ...]
    result: Result
    ended_after: int | None = None  # index of the hand that ended the game
    extra_hands: int = field(default=0)  # hands recorded after the game had ended

    @property
    def final_totals(self) -> tuple[int, ...]:
        """The totals the result is about: after the hand that ended the game (a hand recorded after it
        leaves them), else now; as ``sheet.Running.final_totals`` keeps them."""
        return self.totals if self.ended_after is None else self.hands[self.ended_after].totals


def card_points(rules: RuleSet, counts: Mapping[str, int]) -> int:
    """Card points of a count of cards by value group: jokers, 2s and aces, K–8, 7–4, black 3s
    (docs/rules.md, "Card values")."""
    return sum(rules.card_values[key] * int(counts.get(key, 0) or 0) for key in CARD_GROUP_KEYS)


def _plural(n: int, word: str) -> str:
    """ "1 natural canasta", "2 natural canastas"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def threes_sign(rules: RuleSet, side: SideHand) -> tuple[int, str]:
    """+1, 0 or −1 for the side's red (and Modern black) threes, and why, by the rule set's sign rule."""
    if rules.red_three_sign == RedThreeSign.ALWAYS:  # docs/rules.md, "Canadian Canasta (3 decks)"
        return 1, ""
    if rules.red_three_sign == RedThreeSign.MINUS:  # docs/rules.md, "A table's own rules": never a bonus
        return -1, N_("always minus")
    if (
        rules.red_three_sign == RedThreeSign.CANASTA_COUNT
    ):  # docs/rules.md, "Red and black threes": 0 canastas −, 1 nothing, 2 or more +
        if side.canastas >= 2:
            return 1, ""
        return (0, N_("one canasta: not scored")) if side.canastas == 1 else (-1, N_("no canasta: minus"))
    if (
        rules.red_three_sign == RedThreeSign.CANASTA
    ):  # docs/rules.md, "Vienna Canasta (Wiener Canasta)", "Going out": plus only with a canasta
        if side.canastas:
            return 1, ""
        if side.melded and rules.red_three_melded_no_canasta == 0:  # docs/rules.md, "House rules" alternative
            return 0, N_("no canasta: not scored")
        return -1, N_("no canasta: minus")
    return (1, "") if side.melded else (-1, N_("nothing melded: minus"))  # docs/rules.md, "How a hand is scored"


def _canasta_label(kind_label: str, n: int) -> str:
    """ "2 natural canastas", "1 natural canasta" from the kind's label "Natural canastas"."""
    label = kind_label[0].lower() + kind_label[1:]
    return f"{n} {label}" if n != 1 else f"1 {label.replace('canastas', 'canasta')}"


def going_out_lines(way) -> list[LineItem]:
    """The bonus lines of the way the side went out (docs/rules.md, "Going out")."""
    return [LineItem(item, label, points, label) for item, label, points in way.lines if points]


def canasta_lines(rules: RuleSet, side: SideHand) -> list[LineItem]:
    """Each kind of completed canasta times its bonus (docs/rules.md, "Canastas")."""
    lines = []
    for canasta in rules.canasta_kinds:
        n = side.canasta_count(canasta.key)
        if n:
            label = _canasta_label(canasta.label, n)
            lines.append(LineItem(f"{canasta.key}_canastas", label, canasta.bonus * n, canasta.label, n))
    return lines


def three_lines(rules: RuleSet, side: SideHand) -> list[LineItem]:
    """Red threes (and Modern's melded black threes) from the threes table, with the sign the rule set
    gives them (docs/rules.md, "Red and black threes")."""
    sign, why = threes_sign(rules, side)
    note = f" ({why})" if why else ""
    lines = []
    if side.red_threes:
        points = rules.red_three_values[side.red_threes] * sign
        if points < 0 and rules.red_three_minus_cap:  # docs/rules.md, "House rules": a cap on minus red threes
            points = max(points, -rules.red_three_minus_cap)
        label = _plural(side.red_threes, "red three") + note
        lines.append(LineItem("red_threes", label, points, N_("Red threes"), side.red_threes, why))
    if side.black_threes and rules.black_three_values:
        points = rules.black_three_values[side.black_threes] * sign
        label = _plural(side.black_threes, "black three") + note
        lines.append(LineItem("black_threes", label, points, N_("Black threes"), side.black_threes, why))
    return lines


def card_lines(rules: RuleSet, side: SideHand) -> list[LineItem]:
    """Melded cards plus (Modern: minus with no canasta), cards left in hand minus (docs/rules.md, "How a
    hand is scored"; Modern American Canasta, "Penalties")."""
    lines = []
    if side.melded_points:
        minus = rules.melded_minus_without_canasta and side.canastas == 0
        label = "Melded cards (no canasta: minus)" if minus else "Melded cards"
        points = -side.melded_points if minus else side.melded_points
        note = N_("no canasta: minus") if minus else ""
        lines.append(LineItem("melded_cards", label, points, N_("Melded cards"), 0, note))
    if side.hand_points and rules.hand_counts:  # docs/rules.md, "House rules": a table may not count them
        lines.append(LineItem("cards_in_hand", "Cards left in hand", -side.hand_points, N_("Cards left in hand")))
    return lines


def canadian_lines(rules: RuleSet, side: SideHand) -> list[LineItem]:
    """Black threes left in hand and the exact cut (docs/rules.md, Canadian Canasta, "Penalties" and
    "Going out")."""
    lines = []
    if side.black_threes_in_hand and rules.black_three_in_hand:
        lines.append(
            LineItem(
                "black_threes_in_hand",
                _plural(side.black_threes_in_hand, "black three") + " in hand",
                -rules.black_three_in_hand * side.black_threes_in_hand,
                N_("Black threes in hand"),
                side.black_threes_in_hand,
            )
        )
    if side.exact_cut and rules.exact_cut_bonus:
        lines.append(LineItem("exact_cut", "Exact cut", rules.exact_cut_bonus, N_("Exact cut")))
    return lines


def deduction_lines(rules: RuleSet, side: SideHand) -> list[LineItem]:
    """Unfinished melds, players holding three aces or 7s, the rule book's offences, and penalty points
    entered by hand (docs/rules.md, "Penalties")."""
    lines = []
    for table, item, counts in (
        (rules.incomplete_melds, "incomplete", side.incomplete_melds),
        (rules.holding_penalties, "holding", side.holding),
        (rules.penalty_catalogue, "offence", side.offences),
    ):
        for deduction in table:
            n = counts.get(deduction.key, 0)
            if n:
                label = deduction.label if n == 1 else f"{deduction.label} × {n}"
                points = -deduction.points * n
                lines.append(LineItem(f"{item}_{deduction.key}", label, points, deduction.label, n if n > 1 else 0))
    if side.penalties:
        lines.append(LineItem("penalties", "Penalties", -side.penalties, N_("Penalties")))
    return lines


def score_side(rules: RuleSet, side: SideHand) -> SideScore:
    """One side's hand score with its breakdown, by the rule set's tables.

    Classic: going out + canastas + red threes (signed by whether the side melded) + melded cards −
    cards in hand − penalties; the other rule sets change the tables (canasta kinds, ways of going
    out, red-three sign) and add their items: unfinished melds, Modern's three-table and players
    holding three aces or 7s, Canadian black threes in hand and the exact cut, penalty catalogues.
    A Modern special hand scores only itself (docs/rules.md, Modern American Canasta, "Going out").
    """
    way = rules.going_out_kind(side.went_out) if side.went_out else None
    lines = going_out_lines(way) if way is not None else []
    if way is not None and way.special:
        lines = [LineItem(item, label, points, label) for item, label, points in way.lines]
        if rules.special_with_going_out:  # docs/rules.md, "A table's own rules": and the bonus for going out
            lines += going_out_lines(rules.going_out[0])
        if not rules.special_adds:
            return SideScore(tuple(lines))
    lines += canasta_lines(rules, side)
    lines += three_lines(rules, side)
    lines += card_lines(rules, side)
    lines += canadian_lines(rules, side)
    lines += deduction_lines(rules, side)
    return SideScore(tuple(lines))


def pool(sides: Sequence[SideHand]) -> SideHand:
    """The partnership of a hand in classic 3 players (docs/rules.md, "Classic Canasta (3 players)"):
    melds, canastas, going out and cards in
    hand pooled; red threes and penalties left out, since each partner keeps his own."""
    other: dict[str, int] = {}
    for side in sides:
        for key, n in side.other_canastas.items():
            other[key] = other.get(key, 0) + n
    # docs/rules.md, "Classic Canasta (3 players)": the partnership has melded when either partner has, as entered or
    # derived;
    # one partner's "nothing melded" must not hide the other's melds
    return SideHand(
        melded_points=sum(s.melded_points for s in sides),
        hand_points=sum(s.hand_points for s in sides),
        black_threes_in_hand=sum(s.black_threes_in_hand for s in sides),  # cards in hand: a table's own penalty
        natural_canastas=sum(s.natural_canastas for s in sides),
        mixed_canastas=sum(s.mixed_canastas for s in sides),
        went_out=next((s.went_out for s in sides if s.went_out), None),
        has_melded=any(s.melded for s in sides),
        penalties=0,  # each partner's own, as his red threes (docs/rules.md, "House rules": the offender's score)
        other_canastas=other,
    )


def score_hand(rules: RuleSet, sides: Sequence[SideHand], lone: int | None = None) -> tuple[SideScore, ...]:
    """Every side's score for one hand.

    ``lone`` (classic 3 players, docs/rules.md, "Classic Canasta (3 players)"): the player who played
    alone this hand; the other two form a
    partnership whose score for cards and canastas goes to both, each adding his own red threes,
    with the sign by whether the partnership has melded. None: each scores alone.
    """
    if lone is None or len(sides) != 3:
        return tuple(score_side(rules, side) for side in sides)
    partners = [i for i in range(len(sides)) if i != lone]
    pooled = pool([sides[i] for i in partners])
    shared = score_side(rules, pooled).breakdown
    # docs/rules.md, "Classic Canasta (3 players)": the all-four value is one player's; the setting also gives it to
    # partners who
    # hold the four between them, each counting his own at the all-four rate (800 / 4 = 200 each)
    partners_red = sum(sides[i].red_threes for i in partners)
    all_four_shared = rules.lone_all_four == LoneAllFour.PARTNERSHIP and partners_red == len(rules.red_three_values) - 1
    scores: list[SideScore] = []
    for i, side in enumerate(sides):
        if i == lone:
            scores.append(score_side(rules, side))
            continue
        lines = [replace(line, label=f"Partnership: {line.label[0].lower()}{line.label[1:]}") for line in shared]
        if side.red_threes:
            # docs/rules.md, "Classic Canasta (3 players)": the sign by whether the partnership has melded; the setting:
            # the partner's own melds
            sign, why = threes_sign(rules, side if rules.lone_red_sign == LoneRedSign.OWN else pooled)
            value = rules.red_three_values[side.red_threes]
            if all_four_shared:
                value = rules.red_three_values[-1] * side.red_threes // partners_red
            label = _plural(side.red_threes, "own red three") + (f" ({why})" if why else "")
            lines.append(LineItem("red_threes", label, value * sign, N_("Own red threes"), side.red_threes, why))
        if side.penalties:  # docs/rules.md, "House rules": off the offending player's own total, not his partner's
            lines.append(LineItem("penalties", "Penalties", -side.penalties, N_("Penalties")))
        scores.append(SideScore(tuple(lines)))
    return tuple(scores)


def opening_minimum(rules: RuleSet, total: int, hand: int | None = None) -> int:
    """The opening-meld minimum for a side whose total at the start of the hand is ``total``
    (docs/rules.md, "Opening minimum"). A table's own rule set may set it by the hand's number
    (``hand``, from 1) instead: a list for hand 1, 2, 3, ... whose last goes on, or a number times the
    hand's number (docs/rules.md, "A table's own rules"); without a hand number the table by total applies."""
    if hand and rules.opening_per_hand:
        return rules.opening_per_hand * hand
    if hand and rules.opening_by_hand:
        return rules.opening_by_hand[min(hand, len(rules.opening_by_hand)) - 1]
    return opening_row(rules, total).minimum


def opening_row(rules: RuleSet, total: int):
    """The row of the variant's opening table that a total falls in: the last row starting at or
    below it (totals are multiples of 5, but any integer gets a row)."""
    found = rules.opening_minimums[0]
    for row in rules.opening_minimums:
        if row.low is None or total >= row.low:
            found = row
    return found


def game_result(rules: RuleSet, totals: Sequence[int], hands: int = 0, went_out: int | None = None) -> Result:
    """Whether the game has ended after a hand with these totals, who won and by how much
    (docs/rules.md, "End of the game").

    The game ends when one or more sides have reached the target; the highest total wins and the
    margin is its lead over the next side (with three sides, ``leads`` gives the lead over each,
    docs/rules.md, "House rules"). Sides level at the top: no source covers it; by default (docs/rules.md,
    "House rules") the app announces the
    tie and plays another hand, the "draw" setting ends the game drawn. A table's own rule set may
    end the game after a fixed number of hands (``hands``: how many have been played; docs/rules.md,
    "House rules"): then the highest total wins, whatever it is. Its tie rule may give a tie at the
    top to the side that went out in the last hand (``went_out``: that side's index) when it is one of
    the leaders; otherwise they play on (docs/rules.md, "A table's own rules").
    """
    limit_reached = bool(rules.hands_limit) and hands >= rules.hands_limit
    if not totals or (max(totals) < rules.target and not limit_reached):
        return Result(finished=False)
    top = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == top]
    if len(leaders) > 1 and not (rules.tie_rule == TieRule.WENT_OUT and went_out in leaders):
        return Result(finished=rules.tie_rule == TieRule.DRAW, tie=True)
    winner = went_out if len(leaders) > 1 else leaders[0]
    runner_up = max(t for i, t in enumerate(totals) if i != winner)
    leads = tuple(top - t if i != winner else 0 for i, t in enumerate(totals))
    return Result(finished=True, winner=winner, margin=top - runner_up, leads=leads)


def round_result(totals: Sequence[int]) -> Result:
    """The result of a tournament table's game that ended with its round before any side reached the
    target (docs/tournaments.md, "When a round ends"): the highest total wins by its lead over the
    next; level totals at the top are a draw, as no hand can follow."""
    top = max(totals)
    leaders = [i for i, total in enumerate(totals) if total == top]
    if len(leaders) > 1:
        return Result(finished=True, tie=True)
    winner = leaders[0]
    runner_up = max(t for i, t in enumerate(totals) if i != winner)
    return Result(finished=True, winner=winner, margin=top - runner_up, leads=tuple(top - t for t in totals))


def went_out_side(sides: Sequence[SideHand]) -> int | None:
    """The index of the side that went out in a hand, or None."""
    return next((i for i, side in enumerate(sides) if side.went_out), None)


def play(
    rules: RuleSet,
    hands: Sequence[Sequence[SideHand]],
    totals_before: Sequence[int] | None = None,
    lones: Sequence[int | None] | None = None,
) -> GameState:
    """Replay a game hand by hand: scores, running totals, minimums and the result.

    ``lones`` gives each hand's lone player in classic 3 players (docs/rules.md, "Classic Canasta (3 players)").

    The game ends after the first hand that decides it; hands recorded after that are kept and
    counted in the totals shown, and ``extra_hands`` says how many there are, so the sheet can warn.
    """
    totals = tuple(totals_before) if totals_before is not None else (0,) * rules.sides
    outcomes: list[HandOutcome] = []
    ended_after: int | None = None
    for index, sides in enumerate(hands):
        scores = score_hand(rules, sides, lones[index] if lones else None)
        totals = tuple(t + s.score for t, s in zip(totals, scores))
        result = game_result(rules, totals, index + 1, went_out_side(sides))
        minimums = tuple(opening_minimum(rules, t, index + 2) for t in totals)
        outcomes.append(HandOutcome(scores, totals, minimums, result))
        if result.finished and ended_after is None:
            ended_after = index
    if ended_after is None:
        final = game_result(rules, totals, len(outcomes), went_out_side(hands[-1]) if hands else None)
        extra = 0
    else:
        final = outcomes[ended_after].result
        extra = len(outcomes) - 1 - ended_after
    return GameState(
        hands=tuple(outcomes),
        totals=totals,
        opening_minimums=tuple(opening_minimum(rules, t, len(outcomes) + 1) for t in totals),
        result=final,
        ended_after=ended_after,
        extra_hands=extra,
    )
