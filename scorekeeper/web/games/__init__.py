"""The game pages, one blueprint ("games", in ``blueprint.py``): home and a new game, the score sheet,
hand entry and correction, a complete Game's Partien, the change log. Each module declares its routes
on the blueprint with decorators; importing them here puts them on it."""

from __future__ import annotations

from scorekeeper.web.games import changelog, confirm, hands, newgame, sheets
from scorekeeper.web.games.blueprint import bp

__all__ = ["bp", "changelog", "confirm", "hands", "newgame", "sheets"]
