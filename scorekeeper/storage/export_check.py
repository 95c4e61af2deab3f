"""Whether a file is a whole, sound export this app can restore: every value of the type and
within the range this app writes, checked before anything in the archive is touched. Nothing here
reads or writes the archive."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from scorekeeper.core import checks, rulesets, sheet
from scorekeeper.core.messages import N_, Refused
from scorekeeper.core.models import Hand
from scorekeeper.storage.export_tournaments import _check_tournaments
from scorekeeper.storage.export_types import (  # the checked values, shared with export_tournaments
    _NOCASE,
    NAME_LENGTH,
    NOTE_LENGTH,
    PLACE_LENGTH,
    VERSION_RANGE,
    _check_rules,
    _Damaged,
    _id,
    _json_numbers,
    _number,
    _text,
    _time,
    _unique,
)
from scorekeeper.storage.records import ACTIONS, ENTERED_BY, ORGANISER, confirming_side

FORMAT = "canasta-scorekeeper"
# 2: guests' seats (no player), the change log and the phones that made it; 3: the table's own rules;
# 4: tournaments (an older file has none); 5: each hand's client key (an older file has none: its hands
# are stored without, as before; an app reading up to 4 refuses a 5 rather than drop the keys)
VERSION = 5
READS = (1, 2, 3, 4, 5)  # versions this app imports: a version 1 file is brought up to version 2 first
KEY_LENGTH = 64  # a hand's client key, as the hand form and the phone's queue send it (web.forms, web.api_models)


class NotAnExport(Refused):
    """The file is not an export this app can restore (a message id and its values)."""


def _ended_early(rules: rulesets.RuleSet, game_id: int, hands: list[dict[str, Any]]) -> tuple[int, int] | None:
    """(the number of the hand that ended the game, how many hands follow it) when hands were
    recorded after a side reached the target, else None (the hands passed the checks)."""
    played = [
        Hand(h["id"], game_id, h["sides"], h["created_at"], h["updated_at"], h.get("stock_out"), h.get("lone"))
        for h in hands
        if h.get("deleted_at") is None
    ]
    running = sheet.running_of_hands(
        rules, [(sheet.hand_scores(rules, h), sheet.hand_canastas(rules, h), sheet.hand_went_out(h)) for h in played]
    )
    if running.ended_after is None or running.ended_after == len(played) - 1:
        return None
    return running.ended_after + 1, len(played) - 1 - running.ended_after


def _check(data: dict[str, Any]) -> None:
    """Refuse what the pages could not show or would show wrong: every value of the type and within
    the range this app writes (ids positive and each once, names and texts as the forms take them, a
    game's rule set, layout, settings, target and seats, each hand's figures read as a side entry),
    and no game holding hands after the hand that ended it (unless reopened for corrections)."""
    players = _check_players(data["players"])
    evenings = _check_evenings(data["evenings"], players)
    own = _check_house_rules(data.setdefault("house_rules", []))
    seen = _Seen(set(), set(), set())
    for i, g in enumerate(data["games"]):
        _check_game(g, f"games[{i}]", players, evenings, seen)
        if _id(g.get("house_rules_id"), f"games[{i}].house_rules_id", null=True) not in own | {None}:
            raise _Damaged(f"games[{i}].house_rules_id is not a table's own rule set")


def _check_house_rules(own: list[dict[str, Any]]) -> set[int]:
    """Each of the table's own rule sets (version 3): id once, a name given once, a built-in rule set,
    its layout and changes that make a possible table; their ids."""
    ids: set[int] = set()
    names: set[str] = set()
    for i, h in enumerate(own):
        where = f"house_rules[{i}]"
        _unique(_id(h["id"], f"{where}.id"), ids, f"{where}.id")
        name = _text(h["name"], f"{where}.name", length=60)
        if not name.strip() or name.translate(_NOCASE) in names:
            raise _Damaged(f"{where}.name is empty or another's")
        names.add(name.translate(_NOCASE))
        rules = rulesets.RULE_SETS.get(h["base"]) if isinstance(h["base"], str) else None
        if rules is None:
            raise _Damaged(f"{where}.base is unknown")
        if h.get("layout") is not None and h["layout"] not in [lay.key for lay in rules.layouts]:
            raise _Damaged(f"{where}.layout is unknown")
        if not isinstance(h["changes"], dict) or rulesets.problems(rules, h["changes"]):
            raise _Damaged(f"{where}.changes are not values of a possible table")
        _number(h.get("version"), f"{where}.version", within=VERSION_RANGE)
        for key in ("created_at", "updated_at"):
            _time(h.get(key), f"{where}.{key}")
    return ids


def _check_players(players: list[dict[str, Any]]) -> set[int]:
    """Each player's id (positive, once), name (as the forms take it, none the name of another in
    any case) and time; the players' ids."""
    ids: set[int] = set()
    names: set[str] = set()
    for i, p in enumerate(players):
        _unique(_id(p["id"], f"players[{i}].id"), ids, f"players[{i}].id")
        name = _text(p["name"], f"players[{i}].name", length=NAME_LENGTH)
        if not name.strip():
            raise _Damaged(f"players[{i}].name is empty")
        if name.translate(_NOCASE) in names:
            raise _Damaged(f"players[{i}].name is the name of another player")
        names.add(name.translate(_NOCASE))
        _time(p.get("created_at"), f"players[{i}].created_at")
    return ids


def _check_evenings(evenings: list[dict[str, Any]], players: set[int]) -> set[int]:
    """Each evening's id, date, place, note, time and players (known ones, each once); their ids."""
    ids: set[int] = set()
    for i, e in enumerate(evenings):
        _unique(_id(e["id"], f"evenings[{i}].id"), ids, f"evenings[{i}].id")
        day = _text(e["date"], f"evenings[{i}].date", length=64)
        try:
            if date.fromisoformat(day).isoformat() != day:
                raise ValueError(day)
        except ValueError:
            raise _Damaged(f"evenings[{i}].date is not a date written YYYY-MM-DD") from None
        _text(e.get("place"), f"evenings[{i}].place", null=True, length=PLACE_LENGTH, lines=True)
        _text(e.get("note"), f"evenings[{i}].note", null=True, length=NOTE_LENGTH, lines=True)
        _time(e.get("created_at"), f"evenings[{i}].created_at", null=True)
        present = [_id(pid, f"evenings[{i}].players") for pid in e["players"]]
        if not set(present) <= players:
            raise _Damaged(f"evenings[{i}].players has an unknown player")
        if len(set(present)) != len(present):
            raise _Damaged(f"evenings[{i}].players has a player twice")
    return ids


@dataclass(frozen=True)
class _Seen:
    """What the games checked so far hold: ids are given once, a Partie's number once in its match."""

    games: set[int]
    hands: set[int]
    parties: set[tuple[int, int]]


def _check_game(g: dict[str, Any], where: str, players: set[int], evenings: set[int], seen: _Seen) -> None:
    """One game: its id, rules, seats, evening, Partie, times and hands."""
    game_id = _unique(_id(g["id"], f"{where}.id"), seen.games, f"{where}.id")
    rules, layout, settings, target = _check_rules(g, where)
    _check_seats(g, where, layout, players)
    if _id(g.get("evening_id"), f"{where}.evening_id", null=True) not in evenings | {None}:
        raise _Damaged(f"{where}.evening_id is not an evening")
    _check_partie(g, where, seen.parties)
    if g.get("reopened") not in (None, True, False):
        raise _Damaged(f"{where}.reopened is not true or false")
    for key in ("created_at", "updated_at"):
        _time(g.get(key), f"{where}.{key}")
    configured = rulesets.configure(rules, settings, layout.key, target or None)
    if not isinstance(g["hands"], list):
        raise _Damaged(f"{where}.hands is not a list")
    for j, h in enumerate(g["hands"]):
        _check_hand(h, f"{where}.hands[{j}]", configured, seen.hands)
    _check_client_keys(g["hands"], where)
    # the app replays hands in the order of their ids (records.hands)
    hands = sorted(g["hands"], key=lambda h: h["id"])
    ended = None if g.get("reopened") else _ended_early(configured, game_id, hands)
    if ended is not None:
        number, extra = ended
        raise _Damaged(
            f"{where}.hands: the game ended with hand {number}, yet {extra} more "
            f"{'hand was' if extra == 1 else 'hands were'} recorded after it"
        )


def _check_seats(g: dict[str, Any], where: str, layout: rulesets.Layout, players: set[int]) -> None:
    """A game's seats (known players, each once, as many as its layout has), their names and its first dealer."""
    seats = [None if pid is None else _id(pid, f"{where}.seats") for pid in g["seats"]]
    people = [pid for pid in seats if pid is not None]
    if len(seats) != layout.players or not set(people) <= players:
        raise _Damaged(f"{where}.seats do not fit its layout")
    if len(set(people)) != len(people):
        raise _Damaged(f"{where}.seats have a player twice")
    seat_names = g.get("seat_names")
    if not isinstance(seat_names, list) or len(seat_names) != len(seats):
        raise _Damaged(f"{where}.seat_names do not fit its seats")
    for k, name in enumerate(seat_names):
        if not _text(name, f"{where}.seat_names[{k}]", length=NAME_LENGTH).strip():
            raise _Damaged(f"{where}.seat_names[{k}] is empty")
    if not 0 <= _number(g.get("first_dealer"), f"{where}.first_dealer") < len(seats):
        raise _Damaged(f"{where}.first_dealer is not a seat")


def _check_client_keys(hands: list[dict[str, Any]], where: str) -> None:
    """Each hand's client key (version 5; null: none, as in an older file): a text of 1 to KEY_LENGTH
    characters, each another hand's of its game at most once (a phone's queue sending a hand again gets
    the hand stored before: the archive's unique index per game)."""
    keys: set[str] = set()
    for j, h in enumerate(hands):
        at = f"{where}.hands[{j}].client_key"
        key = _text(h.get("client_key"), at, null=True, length=KEY_LENGTH, control=True)
        if key is None:
            continue
        if not key:
            raise _Damaged(f"{at} is empty")
        if key in keys:
            raise _Damaged(f"{at} is another hand's of its game")
        keys.add(key)


def _check_partie(g: dict[str, Any], where: str, parties: set[tuple[int, int]]) -> None:
    """A Partie's match and number (1, 2 or 3, once in its match)."""
    match_id = _id(g.get("match_id"), f"{where}.match_id", null=True)
    partie = _number(g.get("partie"), f"{where}.partie", null=True)
    if partie not in (None, 1, 2, 3):
        raise _Damaged(f"{where}.partie is not 1, 2 or 3")
    if match_id is not None and partie is not None:
        if (match_id, partie) in parties:
            raise _Damaged(f"{where}.partie {partie} of match {match_id} is given twice")
        parties.add((match_id, partie))


def _check_hand(h: dict[str, Any], at: str, rules: rulesets.RuleSet, hand_ids: set[int]) -> None:
    """One hand: its id, times, how it ended and each side's figures read as the form reads them."""
    _unique(_id(h["id"], f"{at}.id"), hand_ids, f"{at}.id")
    for key in ("created_at", "updated_at", "deleted_at"):
        _time(h.get(key), f"{at}.{key}", null=key == "deleted_at")
    if h.get("stock_out") not in (None, True, False):
        raise _Damaged(f"{at}.stock_out is not true, false or null")
    _check_confirmed(h, at, rules.sides)
    problems: list[checks.Problem] = []
    if not isinstance(h["sides"], list) or len(h["sides"]) != rules.sides:
        raise _Damaged(f"{at}.sides are not {rules.sides} sides")
    for k, side in enumerate(h["sides"]):
        checks.read_side(rules, side, k, problems)
    checks.read_lone(rules, h.get("lone"), problems)
    if problems:
        raise _Damaged(f"{at}: {problems[0].message}")


def _check_confirmed(h: dict[str, Any], at: str, sides: int) -> None:
    """Who confirmed a hand and when (both null: not confirmed): a side of its game ("side 1" …) or the
    organiser."""
    by = h.get("confirmed_by")
    _time(h.get("confirmed_at"), f"{at}.confirmed_at", null=True)
    if (h.get("confirmed_at") is None) != (by is None):
        raise _Damaged(f"{at}.confirmed_at and confirmed_by are not given together")
    if by is not None and by != ORGANISER:
        side = confirming_side(by) if isinstance(by, str) else None
        if side is None or not 0 <= side < sides or by != f"side {side + 1}":
            raise _Damaged(f"{at}.confirmed_by is not a side of its game or the organiser")


def validate(data: Any) -> dict[str, Any]:
    """Refuse a file that is not a whole, sound export of this app's format and a version it reads,
    before anything in the archive is touched; the export as this version writes it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotAnExport(N_("This is not an export of the Canasta score keeper."))
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version not in READS:
        raise NotAnExport(
            N_("This export has version %(found)s; this app reads version %(version)s."),
            found=_shown(version),
            version=VERSION,
        )
    try:
        if version == 1:
            data = _from_version_1(data)
        _check(data)
        _check_log(data)
        _check_tournaments(data)
    except (KeyError, TypeError, ValueError) as error:
        raise damaged(error) from None
    return data


# How an empty seat was named before guests existed, in the app's four languages.
_DEFAULT_SEAT_NAME = re.compile(r"(Player|Spieler|Giocatore|Mängija) [0-9]+")


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 export as version 2: seats get their names, players still called by an empty
    seat's default name ("Player 3") become guests of their games (as the archive's migration does),
    and there is no change log yet."""
    unnamed = {p["id"] for p in data["players"] if _DEFAULT_SEAT_NAME.fullmatch(str(p["name"]))}
    names = {p["id"]: p["name"] for p in data["players"]}
    games = []
    for g in data["games"]:
        seats = list(g["seats"])
        games.append(
            {
                **g,
                "seats": [None if pid in unnamed else pid for pid in seats],
                "seat_names": [names.get(pid, f"Player {k + 1}") for k, pid in enumerate(seats)],
            }
        )
    return {
        **data,
        "version": VERSION,
        "players": [p for p in data["players"] if p["id"] not in unnamed],
        "evenings": [{**e, "players": [pid for pid in e["players"] if pid not in unnamed]} for e in data["evenings"]],
        "games": games,
        "phones": [],
        "changes": [],
    }


def _check_log(data: dict[str, Any]) -> None:
    """The phones and the change log: ids positive and each once, names as the forms take them,
    times as ISO dates, every action one the app writes."""
    phones: set[int] = set()
    for i, phone in enumerate(data["phones"]):
        _unique(_id(phone["id"], f"phones[{i}].id"), phones, f"phones[{i}].id")
        _text(phone.get("name"), f"phones[{i}].name", null=True, length=NAME_LENGTH)
        _time(phone.get("created_at"), f"phones[{i}].created_at")
    seen: set[int] = set()
    for i, change in enumerate(data["changes"]):
        where = f"changes[{i}]"
        _unique(_id(change["id"], f"{where}.id"), seen, f"{where}.id")
        _id(change.get("game_id"), f"{where}.game_id", null=True)
        _id(change.get("hand_id"), f"{where}.hand_id", null=True)
        _time(change.get("at"), f"{where}.at")
        if _id(change.get("phone_id"), f"{where}.phone_id", null=True) not in phones | {None}:
            raise _Damaged(f"{where}.phone_id is not a phone")
        if change.get("action") not in ACTIONS:
            raise _Damaged(f"{where}.action is not one this app writes")
        if change.get("entered_by") not in (None, *ENTERED_BY):
            raise _Damaged(f"{where}.entered_by is not one this app writes")
        for key in ("before", "after"):
            if change.get(key) is not None and not isinstance(change[key], dict):
                raise _Damaged(f"{where}.{key} is not an entry")
            _json_numbers(change.get(key), f"{where}.{key}")


def _shown(value: Any) -> str:
    """A value of the file as JSON writes it (``true``, ``"1"``), cut short to fit in a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def damaged(error: Exception) -> NotAnExport:
    return NotAnExport(
        N_("The export is damaged (%(error)s); nothing was imported."),
        error=str(error) if isinstance(error, _Damaged) else f"{type(error).__name__}: {error}",
    )
