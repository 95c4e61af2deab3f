"""The game pages, one blueprint ("games"): home and a new game, the score sheet, hand entry and
correction, fair partners, the change log and the app's own files. Its routes are a table: each
area's views are plain functions in a module of their own, and every endpoint keeps its name
(``games.new_hand``), so the templates' links stay as they are."""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.web.games import (
    appfiles,
    changelog,
    confirm,
    hands,
    house,
    house_transfer,
    newgame,
    partners,
    sheets,
)
from scorekeeper.web.games.changelog import ACTION_NAMES
from scorekeeper.web.games.common import saved_category
from scorekeeper.web.games.sheets import scoreboard_page

__all__ = ["ACTION_NAMES", "bp", "saved_category", "scoreboard_page"]

bp = Blueprint("games", __name__)

# (rule, view, methods): the endpoint is the view's name
ROUTES = [
    ("/sw.js", appfiles.service_worker, ["GET"]),
    ("/hand.js", appfiles.hand_script, ["GET"]),
    ("/manifest.webmanifest", appfiles.manifest, ["GET"]),
    ("/prefs", appfiles.prefs, ["GET"]),
    ("/offline", appfiles.offline, ["GET"]),
    ("/", newgame.index, ["GET"]),
    ("/games/new", newgame.choose_rules, ["GET"]),
    ("/games/new/<variant>", newgame.new_game, ["GET", "POST"]),
    ("/matches/<int:match_id>/next", newgame.next_partie, ["POST"]),
    ("/matches/<int:match_id>", newgame.match, ["GET"]),
    ("/rules/<variant>", newgame.reference, ["GET"]),
    ("/house-rules", house.house_list, ["GET"]),
    ("/house-rules/new/<variant>", house.new_house, ["GET", "POST"]),
    ("/house-rules/<int:house_id>", house.edit_house, ["GET", "POST"]),
    ("/house-rules/<int:house_id>/export.json", house_transfer.export_house, ["GET"]),
    ("/house-rules/import", house_transfer.import_house, ["GET", "POST"]),
    ("/evenings/<int:evening_id>/partners", partners.fair_partners, ["GET"]),
    ("/games/<int:game_id>", sheets.scoreboard, ["GET"]),
    ("/games/<int:game_id>/reopen", sheets.reopen, ["POST"]),
    ("/games/<int:game_id>/lock", sheets.lock, ["POST"]),
    ("/games/<int:game_id>/minimums", sheets.minimums, ["GET"]),
    ("/games/<int:game_id>/hands/new", hands.new_hand, ["GET", "POST"]),
    ("/games/<int:game_id>/hands.json", hands.add_hand_json, ["POST"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/edit", hands.edit_hand, ["GET", "POST"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/delete", hands.delete_hand, ["POST"]),
    ("/games/<int:game_id>/delete", hands.delete_game, ["POST"]),
    ("/games/<int:game_id>/restore", hands.restore_game, ["POST"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/restore", hands.restore_hand, ["POST"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/confirm", confirm.confirm_hand, ["POST"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/history", changelog.hand_history, ["GET"]),
    ("/games/<int:game_id>/hands/<int:hand_id>/history/<int:change_id>", changelog.restore_version, ["POST"]),
    ("/games/<int:game_id>/changes", changelog.changes, ["GET"]),
    ("/phone/name", changelog.name_phone, ["POST"]),
]

for _rule, _view, _methods in ROUTES:
    bp.add_url_rule(_rule, _view.__name__, _view, methods=_methods)
bp.add_app_template_global(house.game_settings, "game_settings")
bp.add_app_template_global(confirm.confirmer_name, "confirmer_name")
bp.add_app_template_global(house_transfer.house_transfer, "house_transfer")
