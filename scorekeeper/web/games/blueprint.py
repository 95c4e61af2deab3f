"""The games blueprint: home and a new game, the score sheet, hand entry and correction, a complete
Game's Partien, the change log. Each module declares its routes on it with decorators."""

from flask import Blueprint

bp = Blueprint("games", __name__)
