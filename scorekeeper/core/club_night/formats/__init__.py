"""The formats of a club night (docs/tournaments.md), one module each, and their registry: a new format
is one module here and one line below (docs/architecture.md, "a new tournament format")."""

from __future__ import annotations

from scorekeeper.core.club_night.formats.final import FINAL
from scorekeeper.core.club_night.formats.mitchell import MITCHELL
from scorekeeper.core.club_night.formats.model import Format
from scorekeeper.core.club_night.formats.rotation import ROTATION

REGISTRY: dict[str, Format] = {f.key: f for f in (FINAL, MITCHELL, ROTATION)}
FORMATS = tuple(REGISTRY)


def get(key: str) -> Format:
    """The format with this key (KeyError for an unknown one)."""
    return REGISTRY[key]
