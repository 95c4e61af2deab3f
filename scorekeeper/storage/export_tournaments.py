"""The tournaments of an export (version 4; none in an older file), checked before anything is
restored (docs/tournaments.md): each one's own values, its draw, its rounds, its tables' games and the
organiser's actions."""

from __future__ import annotations

from typing import Any

from scorekeeper.core import club_night, names
from scorekeeper.storage.export_types import (
    NAME_LENGTH,
    SEED_RANGE,
    TOURNAMENT_NAME_LENGTH,
    VERSION_RANGE,
    _check_rules,
    _Damaged,
    _id,
    _json_numbers,
    _list,
    _number,
    _text,
    _time,
    _unique,
)


def _check_tournaments(data: dict[str, Any]) -> None:
    """The tournaments (version 4; none in an older file): each one's id (once), name, format, rules,
    round end, season points and entrants (who can play its format), its draw, evening and times; its
    rounds, its tables (each a game of the export, a game at one table only) and the organiser's
    actions (ids once among all tournaments, phones of the export)."""
    tournaments = _list(data.setdefault("tournaments", []), "tournaments")
    games = {g["id"]: g for g in data["games"]}
    own = {h["id"] for h in data.get("house_rules", [])}
    phones = {p["id"] for p in data["phones"]}
    ids: set[int] = set()
    tabled: set[int] = set()
    logged: set[int] = set()
    for i, t in enumerate(tournaments):
        where = f"tournaments[{i}]"
        _unique(_id(t["id"], f"{where}.id"), ids, f"{where}.id")
        entrants = _check_settings(t, where, own, {e["id"] for e in data["evenings"]})
        _check_kept(t, where, entrants, {p["id"] for p in data["players"]})
        rounds = _check_rounds(t, where, len(entrants))
        places: set[tuple[int, int]] = set()
        seated: set[tuple[int, int]] = set()
        variants_played = {t["variant"]} | _check_table_rules(t, where, own)
        for j, table in enumerate(_list(t["tables"], f"{where}.tables")):
            at = f"{where}.tables[{j}]"
            _check_table(table, at, variants_played, rounds, len(entrants), games, (places, tabled))
            _check_seated(t, table, at, len(entrants), seated)
        for j, entry in enumerate(_list(t["log"], f"{where}.log")):
            _check_log_entry(entry, f"{where}.log[{j}]", logged, phones)


def _check_settings(t: dict[str, Any], where: str, own: set[int], evenings: set[int]) -> list[list[str]]:
    """A tournament's name, format, rules, round end, choices, season points, entrants, draw, evening
    and times; its entrants."""
    if not _text(t["name"], f"{where}.name", length=TOURNAMENT_NAME_LENGTH).strip():
        raise _Damaged(f"{where}.name is empty")
    if t["format"] not in club_night.FORMATS:
        raise _Damaged(f"{where}.format is not one of {', '.join(club_night.FORMATS)}")
    _, layout, _, _ = _check_rules(t, where)
    if layout.players != 4 or len(layout.sides) != 2:
        raise _Damaged(f"{where}.layout is not a table of four in two partnerships")
    if _id(t.get("house_rules_id"), f"{where}.house_rules_id", null=True) not in own | {None}:
        raise _Damaged(f"{where}.house_rules_id is not a table's own rule set")
    _check_round_end(t, where)
    if t.get("confirm_hands") not in (None, True, False):
        raise _Damaged(f"{where}.confirm_hands is not true or false")
    for key, allowed in (("bye_score", club_night.BYE_SCORES), ("ties", club_night.TIE_RULES)):
        if t.get(key) is not None and t[key] not in allowed:
            raise _Damaged(f"{where}.{key} is not one of {', '.join(allowed)}")
    _check_season_points(t, where)
    entrants = _check_entrants(t, where)
    _number(t.get("seed"), f"{where}.seed", null=True, within=SEED_RANGE)
    for key in ("drawn_at", "closed_at"):
        _time(t.get(key), f"{where}.{key}", null=True)
    if _id(t.get("evening_id"), f"{where}.evening_id", null=True) not in evenings | {None}:
        raise _Damaged(f"{where}.evening_id is not an evening")
    _number(t.get("version"), f"{where}.version", within=VERSION_RANGE)
    for key in ("created_at", "updated_at"):
        _time(t.get(key), f"{where}.{key}")
    return entrants


def _check_log_entry(entry: dict[str, Any], at: str, logged: set[int], phones: set[int]) -> None:
    """One of the organiser's actions: its id (once), action, detail, time and phone."""
    _unique(_id(entry["id"], f"{at}.id"), logged, f"{at}.id")
    if entry.get("action") not in club_night.ACTIONS:
        raise _Damaged(f"{at}.action is not one this app writes")
    if entry.get("detail") is not None and not isinstance(entry["detail"], dict):
        raise _Damaged(f"{at}.detail is not an entry")
    _json_numbers(entry.get("detail"), f"{at}.detail")
    _time(entry.get("at"), f"{at}.at")
    if _id(entry.get("phone_id"), f"{at}.phone_id", null=True) not in phones | {None}:
        raise _Damaged(f"{at}.phone_id is not a phone")


def _check_kept(t: dict[str, Any], where: str, entrants: list[list[str]], players: set[int]) -> None:
    """What a tournament keeps as it goes (each null until then): the order drawn (each entrant once),
    its entrants' players (from the archive, as many as its entrants' names), its places (once closed:
    place, entrant, match points, points, won, played, byes and, since shared places, how many share it
    and the line it stands on)."""
    if t.get("draw_order") is not None:
        order = [_number(u, f"{where}.draw_order") for u in _list(t["draw_order"], f"{where}.draw_order")]
        if sorted(order) != list(range(len(entrants))):
            raise _Damaged(f"{where}.draw_order is not an order of its entrants")
    if t.get("entrant_ids") is not None:
        ids = _list(t["entrant_ids"], f"{where}.entrant_ids")
        if len(ids) != len(entrants) or any(
            len(_list(e, f"{where}.entrant_ids")) != len(n) for e, n in zip(ids, entrants)
        ):
            raise _Damaged(f"{where}.entrant_ids do not match its entrants")
        if any(_id(pid, f"{where}.entrant_ids", null=True) not in players | {None} for e in ids for pid in e):
            raise _Damaged(f"{where}.entrant_ids name a player who is not in the export")
        known = [pid for e in ids for pid in e if pid is not None]
        if len(set(known)) != len(known):  # one person would hold two seats
            raise _Damaged(f"{where}.entrant_ids name one player for two entrants")
    if t.get("places") is not None:
        if t.get("closed_at") is None:
            raise _Damaged(f"{where}.places are kept before the close")
        for row in _list(t["places"], f"{where}.places"):
            figures = [_number(x, f"{where}.places") for x in _list(row, f"{where}.places")]
            if len(figures) not in (7, 8, 9) or not 0 <= figures[1] < len(entrants) or figures[0] < 1:
                raise _Damaged(f"{where}.places are not places of its entrants")


def _check_round_end(t: dict[str, Any], where: str) -> None:
    """When a tournament's round ends: at the target, after a number of hands or after some minutes (the
    number within the form's range, given where the round ends so)."""
    if t["round_end"] not in club_night.ROUND_ENDS:
        raise _Damaged(f"{where}.round_end is not one of {', '.join(club_night.ROUND_ENDS)}")
    for key, end, within in (
        ("round_hands", "hands", club_night.ROUND_HANDS),
        ("round_minutes", "minutes", club_night.ROUND_MINUTES),
    ):
        if _number(t.get(key), f"{where}.{key}", null=True, within=within) is None and t["round_end"] == end:
            raise _Damaged(f"{where}.{key} is missing: its rounds end after a number of {end}")


def _check_season_points(t: dict[str, Any], where: str) -> None:
    """A tournament's season points by place, as the form takes them."""
    most, places = club_night.SEASON_POINTS_MOST, club_night.SEASON_PLACES_MOST
    points = _list(t["season_points"], f"{where}.season_points")
    if not 1 <= len(points) <= places or not all(
        not isinstance(p, bool) and isinstance(p, int) and 0 <= p <= most for p in points
    ):
        raise _Damaged(f"{where}.season_points are not 1 to {places} whole numbers from 0 to {most}")
    if club_night.points_grow(points):
        raise _Damaged(f"{where}.season_points give a place more than the place before it")


def _check_entrants(t: dict[str, Any], where: str) -> list[list[str]]:
    """A tournament's entrants: each a list of names (a player, or a pair in the Mitchell movement),
    as many as its format seats; and who has come (a check-in saved: null before), each one of them.
    Before the draw a check-in may leave some out (a reserve, a no-show): the list may then hold
    more than the format seats, each entrant still a player (a pair in the Mitchell movement)."""
    entrants = _list(t["entrants"], f"{where}.entrants")
    for k, entrant in enumerate(entrants):
        for name in _list(entrant, f"{where}.entrants[{k}]"):
            if not _text(name, f"{where}.entrants[{k}]", length=NAME_LENGTH).strip():
                raise _Damaged(f"{where}.entrants[{k}] has an empty name")
    # the form's rules (no one twice, in any case, Unicode form or look-alike), then each name as kept
    problem = club_night.names_problem(club_night.pairs(t["format"]), [tuple(e) for e in entrants])
    if problem is not None:
        raise _Damaged(f"{where}.entrants: {problem.message}")
    for k, entrant in enumerate(entrants):
        if any(names.normal(name) != name for name in entrant):
            raise _Damaged(
                f"{where}.entrants[{k}] is not written as the archive keeps a name (NFC, one space between words)"
            )
    if t.get("checked_in") is not None:
        if any(e not in entrants for e in _list(t["checked_in"], f"{where}.checked_in")):
            raise _Damaged(f"{where}.checked_in are not entrants of the tournament")
    if t.get("checked_in") is not None and t.get("seed") is None:
        if any(len(e) != (2 if club_night.format_of(t["format"]).pairs else 1) for e in entrants):
            raise _Damaged(f"{where}.entrants cannot play its format")
    elif club_night.entrant_problems(t["format"], entrants):
        raise _Damaged(f"{where}.entrants cannot play its format")
    return entrants


def _check_table_rules(t: dict[str, Any], where: str, own: set[int]) -> set[str]:
    """What tables of five and six play (null: nothing chosen): per size, a rule set with a seating for
    that many players (and a table's own rule set of the export, if one). The rule sets named."""
    kept = t.get("table_rules")
    if kept is None:
        return set()
    if not isinstance(kept, dict) or not set(kept) <= {"5", "6"}:
        raise _Damaged(f"{where}.table_rules are not rules for tables of five and six")
    for size, rules in kept.items():
        at = f"{where}.table_rules.{size}"
        if not isinstance(rules, dict):
            raise _Damaged(f"{at} is not a rule set")
        found, layout, _settings, _target = _check_rules(rules, at)
        if layout.players != int(size):
            raise _Damaged(f"{at}.layout does not seat {size} players")
        if _id(rules.get("house_rules_id"), f"{at}.house_rules_id", null=True) not in own | {None}:
            raise _Damaged(f"{at}.house_rules_id is not a table's own rule set")
    return {rules["variant"] for rules in kept.values()}


def _check_rounds(t: dict[str, Any], where: str, entrants: int) -> set[int]:
    """A tournament's rounds: numbered 1, 2, 3 … in order, none before the draw nor beyond its
    format's; when each started and ended. Their numbers."""
    numbers = []
    for j, r in enumerate(_list(t["rounds"], f"{where}.rounds")):
        numbers.append(_id(r["round"], f"{where}.rounds[{j}].round"))
        _time(r.get("started_at"), f"{where}.rounds[{j}].started_at")
        _time(r.get("ended_at"), f"{where}.rounds[{j}].ended_at", null=True)
    if numbers != list(range(1, len(numbers) + 1)):
        raise _Damaged(f"{where}.rounds are not numbered 1, 2, 3 … in order")
    if numbers and t.get("seed") is None:
        raise _Damaged(f"{where}.rounds were started before the draw")
    if len(numbers) > club_night.rounds_of(t["format"], entrants):
        raise _Damaged(f"{where}.rounds are more than its format plays")
    return set(numbers)


def _check_table(
    table: dict[str, Any],
    where: str,
    variants_played: set[str],
    rounds: set[int],
    entrants: int,
    games: dict[int, dict[str, Any]],
    seen: tuple[set[tuple[int, int]], set[int]],
) -> None:
    """A table's game of a round: a started round, its table's number once in the round, a game of
    the export (of the tournament's rules, at four seats) at this table only, each side's entrants.
    ``seen``: the tournament's (round, table) so far, and the games at any tournament's table."""
    places, tabled = seen
    rnd = _id(table["round"], f"{where}.round")
    if rnd not in rounds:
        raise _Damaged(f"{where}.round is not a round of its tournament")
    place = (rnd, _number(table["table_no"], f"{where}.table_no"))
    if place in places:
        raise _Damaged(f"{where}.table_no {place[1]} of round {rnd} is given twice")
    places.add(place)
    game_id = _id(table["game_id"], f"{where}.game_id")
    game = games.get(game_id)
    if game is None:
        raise _Damaged(f"{where}.game_id {game_id} is not a game of the export")
    if game_id in tabled:
        raise _Damaged(f"{where}.game_id {game_id} is another table's game")
    tabled.add(game_id)
    if game["variant"] not in variants_played or not 4 <= len(game["seats"]) <= 6:
        raise _Damaged(f"{where}.game_id {game_id} is not a game of its tournament's rules")
    units = _list(table["units"], f"{where}.units")
    if len(units) not in (2, 3):
        raise _Damaged(f"{where}.units are not two or three sides")
    for side in units:
        indexes = _list(side, f"{where}.units")
        if not indexes or not all(0 <= _number(u, f"{where}.units") < entrants for u in indexes):
            raise _Damaged(f"{where}.units are not entrants of its tournament")


def _check_seated(
    t: dict[str, Any], table: dict[str, Any], where: str, entrants: int, seated: set[tuple[int, int]]
) -> None:
    """A table's number among its tournament's tables, and its entrants seated nowhere else in its round
    (``seated``: the tournament's (round, entrant) so far)."""
    most = club_night.tables_of(t["format"], entrants)
    if not 1 <= table["table_no"] <= most:
        raise _Damaged(f"{where}.table_no is not a table of its tournament (1 to {most})")
    for unit in (u for side in table["units"] for u in side):
        if (table["round"], unit) in seated:
            raise _Damaged(f"{where}.units seat an entrant already seated in round {table['round']}")
        seated.add((table["round"], unit))
