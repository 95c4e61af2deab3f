"""Cards of one rank the entries imply across all sides, against the deck's: Modern's unfinished melds
of pure aces or 7s, players holding three or more of them, and natural canastas of aces or 7s.

docs/rules.md, Modern American Canasta, "Penalties" and "Canastas": each unfinished meld of pure aces
or 7s has at least 3 of them, each player holding 3 or more at least 3, and a natural canasta of aces
or 7s 7 of one of the two ranks; the deck holds 8 of each rank in 108 cards.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from scorekeeper.core.checks.reading import ReadSide
from scorekeeper.core.entry import side_fields
from scorekeeper.core.messages import N_, Msg, Problem
from scorekeeper.core.rulesets import RANKS, CanastaKind, Deduction, RuleSet


class RankRow(NamedTuple):
    """A deduction that implies cards of one rank: its field and how many each side entered."""

    field: str
    deduction: Deduction
    entered: list[int]


def rank_rows(rules: RuleSet, reads: Sequence[ReadSide]) -> list[RankRow]:
    """The unfinished melds and players holding that imply cards of a rank, with each side's entries."""
    names = {(f.group, f.key): f.name for f in side_fields(rules)}
    return [
        RankRow(names[group, d.key], d, [getattr(read.hand, attribute).get(d.key, 0) for read in reads])
        for group, attribute, table in (
            ("incomplete", "incomplete_melds", rules.incomplete_melds),
            ("holding", "holding", rules.holding_penalties),
        )
        for d in table
        if d.rank
    ]


def too_many_of_a_rank(rules: RuleSet, rows: list[RankRow], least: dict[str, int]) -> list[Problem]:
    """The unfinished melds and players holding need more cards of a rank than the deck has."""
    deck = rules.cards_per_rank
    return [
        Problem(
            i,
            row.field,
            N_(
                "The deck holds %(deck)s %(cards)s; the unfinished melds and the players holding "
                "3 or more entered in all need at least %(least)s."
            ),
            {"deck": deck, "cards": Msg(RANKS[row.deduction.rank]), "least": least[row.deduction.rank]},
            shared=True,
        )
        for row in rows
        if least[row.deduction.rank] > deck
        for i, n in enumerate(row.entered)
        if n
    ]


def rank_canastas_fit(
    rules: RuleSet, reads: Sequence[ReadSide], kind: CanastaKind, rows: list[RankRow], least: dict[str, int]
) -> list[Problem]:
    """Canastas of seven cards of one rank (at most 7 cards a meld) fit in the room their ranks have left."""
    deck = rules.cards_per_rank
    entered = [read.hand.canasta_count(kind.key) for read in reads]
    if sum(entered) <= sum(max(deck - least[rank], 0) // 7 for rank in kind.ranks):
        return []
    field = next(f.name for f in side_fields(rules) if f.group == "canastas" and f.key == kind.key)
    problems = [
        Problem(
            i,
            field,
            N_(
                "%(count)s × %(canasta)s: each takes 7 cards of one rank and the deck holds %(deck)s "
                "of each; with the unfinished melds and players holding 3 or more entered, they do not fit."
            ),
            {"count": sum(entered), "canasta": Msg(kind.label), "deck": deck},
            shared=True,
        )
        for i, n in enumerate(entered)
        if n
    ]
    problems += [
        Problem(
            i,
            row.field,
            N_("The deck cannot hold this with the %(canasta)s entered: each takes 7 cards of one rank."),
            {"canasta": Msg(kind.label)},
            shared=True,
        )
        for row in rows
        if row.deduction.rank in kind.ranks
        for i, n in enumerate(row.entered)
        if n
    ]
    return problems


def rank_problems(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """Cards of one rank the entries imply across all sides, against the deck's."""
    rows = rank_rows(rules, reads)
    least = {
        rank: sum(row.deduction.least * sum(row.entered) for row in rows if row.deduction.rank == rank)
        for rank in RANKS
    }
    over = {rank for rank, n in least.items() if n > rules.cards_per_rank}
    problems = too_many_of_a_rank(rules, rows, least)
    for kind in rules.canasta_kinds:
        if kind.ranks and not over & set(kind.ranks):
            problems += rank_canastas_fit(rules, reads, kind, rows, least)
    return problems
