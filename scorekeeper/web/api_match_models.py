"""The JSON API's answer for a complete Game of three Partien (the Austrian rulebook; docs/api.md,
``GET /api/matches/<id>``): its types, as ``api_models`` has the rest."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field
from typing_extensions import TypedDict

from scorekeeper.web.api_models import GameSide, Id, Result, VariantId


class Partie(Result, closed=True):
    """One Partie of a complete Game: its game, partnerships, totals and result."""

    number: Annotated[int, Field(ge=1, le=3, description="1, 2 or 3")]
    game: Annotated[Id, Field(description="its game (GET /api/games/<id>)")]
    layout: Annotated[str, Field(description="its partnerships: 4, 4-ne or 4-nw")]
    sides: list[GameSide]
    hands: Annotated[int, Field(ge=0, description="the hands played")]
    totals: list[int]


class Balance(TypedDict, closed=True):
    """A player's net balance over the Partien."""

    name: str
    points: Annotated[int, Field(description="each finished Partie's margin, won plus, lost minus")]


class Match(TypedDict, closed=True):
    """A complete Game of three Partien (the Austrian rulebook): the Partien so far and each player's
    net balance."""

    id: Annotated[Id, Field(description="the complete Game's id: its first Partie's game")]
    variant: VariantId
    target: int
    players: Annotated[list[str], Field(description="the four players in seat order (North, East, South, West)")]
    partien: Annotated[list[Partie], Field(description="the Partien started, the first first")]
    balance: Annotated[list[Balance], Field(description="each player's net balance, in the players' order")]
    complete: Annotated[bool, Field(description="all three Partien played and won")]
