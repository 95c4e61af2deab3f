"""A tournament as the archive keeps it (docs/tournaments.md): its format, entrants, rules, round end,
draw and what it keeps at the close. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from scorekeeper.core.club_night import formats
from scorekeeper.core.club_night.formats.model import Format
from scorekeeper.core.club_night.tables import FOUR_SIDES, Table, TableRules, draw, seat_label


@dataclass(frozen=True)
class Tournament:
    """A stored tournament: its format, entrants, rules, round end and draw."""

    id: int
    name: str
    format: str
    variant: str
    layout: str | None
    settings: dict
    house_rules_id: int | None
    target: int | None
    round_end: str
    round_hands: int | None
    round_minutes: int | None
    season_points: tuple[int, ...]
    entrants: tuple[tuple[str, ...], ...]
    seed: int | None
    drawn_at: str | None
    closed_at: str | None
    evening_id: int | None
    version: int
    created_at: str
    draw_order: tuple[int, ...] | None = None  # the order drawn, kept at the draw
    entrant_ids: tuple[tuple[int, ...], ...] | None = None  # each entrant's players, from the first round on
    places: tuple[tuple[int, ...], ...] | None = None  # the standings kept at the close (place, unit, figures …)
    bye_score: str = "average"  # what a round sat out counts: "average", "win" or "nothing"
    ties: str = "shared"  # entrants level on everything: "shared" places, or by "lot" (the draw number)
    table_rules: Mapping[int, TableRules] = field(default_factory=dict)  # what tables of five and six play
    confirm_hands: bool = False  # the other side confirms each hand saved at a table

    @property
    def order(self) -> list[int]:
        """The draw (empty before it)."""
        if self.draw_order is not None:
            return list(self.draw_order)
        return [] if self.seed is None else draw(len(self.entrants), self.seed)

    @property
    def kind(self) -> Format:
        """The format, as its module in ``formats/`` describes it."""
        return formats.get(self.format)

    @property
    def rounds(self) -> int:
        return self.kind.rounds(len(self.entrants))

    @property
    def names(self) -> list[str]:
        """How each entrant is named: a player, or a pair "Anna & Ben"."""
        return [" & ".join(e) for e in self.entrants]

    @property
    def table_sizes(self) -> list[int]:
        """The tables' sizes (players at each) for its entrants."""
        return self.kind.sizes(len(self.entrants)) or []

    @property
    def draw_seats(self) -> list[tuple[int, str]]:
        """Each entrant in the order drawn with where the draw puts it: "1.3" (table 1, seat 3) where
        players are drawn to seats, the draw number where pairs are."""
        if self.kind.pairs:
            return [(unit, str(k)) for k, unit in enumerate(self.order, start=1)]
        labels = [seat_label(n, s) for n, size in enumerate(self.table_sizes, start=1) for s in range(1, size + 1)]
        return list(zip(self.order, labels))

    def side_players(self, table: Table, side: int) -> list[str]:
        """Who plays on a side of a table of a round (a ``Table`` or a ``TableState``)."""
        return [name for unit in table.units[side] for name in self.entrants[unit]]

    def sides_at(self, size: int) -> tuple[tuple[int, ...], ...] | None:
        """The sides (seat indexes) of a game of ``size`` players: four in two partnerships, five and six by
        the rule set chosen for them (None when none is)."""
        if size == 4:
            return FOUR_SIDES
        rules = self.table_rules.get(size)
        return rules.sides if rules else None
