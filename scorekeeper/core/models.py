"""The things the archive keeps, as plain values: a game, a hand, a player, an evening.

Pure: no Flask, no database. The store reads rows into these; the core and the pages take them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Game:
    """A stored game: its rule set, the players in seat order and who dealt first."""

    id: int
    variant: str
    players: list[str]
    first_dealer: int
    created_at: str
    layout: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    target: int | None = None
    match_id: int | None = None  # [003] complete Game: the first Partie's id
    partie: int | None = None  # 1, 2 or 3
    evening_id: int | None = None
    reopened: bool = False  # a finished game opened again for corrections
    version: int = 0  # rises with every change (phones follow it)
    house_rules_id: int | None = None  # started from a table's own rule set (its values are in ``settings``)
    round_past: bool = False  # a tournament table's game whose round is past: it has ended with it


@dataclass(frozen=True)
class Hand:
    """A stored hand: the raw entry of each side."""

    id: int
    game_id: int
    sides: list[dict[str, Any]]
    created_at: str
    updated_at: str
    stock_out: bool | None = None
    lone: int | None = None
    version: int = 0  # rises with every change to this hand: a save based on an older one is refused
    confirmed_at: str | None = None  # when the other side (or the organiser) confirmed it; None: not yet
    confirmed_by: str | None = None  # "side 1", "side 2" … or "organiser"


@dataclass(frozen=True)
class Player:
    """A person kept across evenings."""

    id: int
    name: str


@dataclass(frozen=True)
class Evening:
    """A dated evening with the players present."""

    id: int
    date: str
    place: str
    note: str
    players: list[Player]


@dataclass(frozen=True)
class Change:
    """One entry of the change log."""

    id: int
    game_id: int | None
    hand_id: int | None
    at: str
    phone_id: int | None
    phone: str  # the phone's name, or "phone N"
    action: str
    before: Any
    after: Any
    phone_named: bool = False  # the phone gave itself a name
    entered_by: str | None = None  # "organiser": the organiser entered it from the director's grid
