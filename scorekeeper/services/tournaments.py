"""A club night at several tables (docs/tournaments.md): every change the organiser makes, one
``BEGIN IMMEDIATE`` transaction each, its conflicts decided inside it (the tournament's version is a
condition of its update; a round's number and a game's table are unique), each on record. The
tables' games are ordinary games: ``hand_guard`` is what the games' service asks before a change."""

from __future__ import annotations

import secrets
from typing import Any, Sequence

from sqlite_utils import Database

from scorekeeper.core import clock, club_night, names
from scorekeeper.core.messages import N_, Problem
from scorekeeper.services import tournament_state
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, PROBLEMS, REFUSED, SAVED, Verdict
from scorekeeper.storage import changes, evenings, games, players, records, results, tournament_records, transaction
from scorekeeper.storage import tournaments as store

# why a closed tournament's game takes no change, and who can change that (reopening the game itself is refused)
CLOSED = N_(
    "The tournament is closed: its games are read-only. To correct a result, the organiser reopens the tournament "
    "on its page."
)


def _refused(text: str, **args: Any) -> Verdict:
    return Verdict(REFUSED, problems=(Problem(None, "tournament", text, args),))


def _problems(fmt: str, entrants: Sequence[Sequence[str]], table_rules: Any) -> list[Problem]:
    """Why these entrants, with these rules for tables of five and six (as kept, or as the tournament
    reads them), cannot play the format."""
    problems = club_night.entrant_problems(fmt, entrants)
    if not problems:
        rules = table_rules if _read(table_rules) else tournament_records.table_rules(table_rules)
        found = club_night.table_rules_problem(fmt, len(entrants), rules)
        problems = [found] if found else []
    return problems


def _read(table_rules: Any) -> bool:
    """Whether rules for tables of five and six are as a tournament reads them (sizes to TableRules)."""
    return bool(table_rules) and all(isinstance(r, club_night.TableRules) for r in table_rules.values())


def _fields(entrants: Sequence[Sequence[str]], fmt: str, round_end: str, settings: Any, **given: Any) -> dict[str, Any]:
    """A tournament's columns as the form gives them (a round's number of hands or minutes only where it ends so)."""
    assert fmt in club_night.FORMATS and round_end in club_night.ROUND_ENDS
    given.update(entrants=entrants, format=fmt, round_end=round_end, settings=settings or {})
    given["round_hands"] = given.get("round_hands") if round_end == "hands" else None
    given["round_minutes"] = given.get("round_minutes") if round_end == "minutes" else None
    return given


def create(
    db: Database,
    *,
    entrants: Sequence[Sequence[str]],
    fmt: str,
    round_end: str = "target",
    settings=None,
    phone: str | None = None,
    **fields: Any,
) -> Verdict:
    """A new tournament (``fields``: name, variant, layout, house_rules_id, target, round_hands, round_minutes,
    season_points, bye_score, ties, table_rules, confirm_hands): SAVED with its id, or PROBLEMS when the
    entrants cannot play the format. Its evening in the archive is made when its first round starts, with
    the players as they are then."""
    problems = _problems(fmt, entrants, fields.get("table_rules"))
    if problems:
        return Verdict(PROBLEMS, problems=tuple(problems))
    fields.setdefault("season_points", club_night.DEFAULT_SEASON_POINTS)
    with transaction.write(db):
        tournament_id = store.insert(db, _fields(entrants, fmt, round_end, settings, **fields))
        store.log(
            db, tournament_id, "created", {"name": fields["name"], "format": fmt, "entrants": len(entrants)}, phone
        )
        return Verdict(SAVED, id=tournament_id)


def change(
    db: Database,
    tournament_id: int,
    version: int,
    *,
    entrants: Sequence[Sequence[str]],
    fmt: str,
    round_end: str = "target",
    settings=None,
    phone: str | None = None,
    **fields: Any,
) -> Verdict:
    """Change a tournament before its draw (its players, format, rules, round end, season points):
    SAVED; PROBLEMS; REFUSED once drawn; OVERTAKEN when another phone changed it since ``version``. A
    check-in saved keeps those still on the list (none left, or another format: no check-in)."""
    problems = _problems(fmt, entrants, fields.get("table_rules"))
    if problems:
        return Verdict(PROBLEMS, problems=tuple(problems))
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if t.seed is not None:
            return _refused(N_("The seats are drawn: the tournament can no longer be changed."))
        fields = _fields(entrants, fmt, round_end, settings, **fields)
        checked = tournament_records.checked_in(db, t.id)
        if checked is not None:  # who has come and is still on the list stays checked in (in another format: nobody)
            kept = [e for e in map(tuple, entrants) if e in set(checked)] if fmt == t.format else []
            fields["checked_in"] = kept or None
        if not store.set_fields(db, t.id, version, **fields):
            return Verdict(OVERTAKEN, id=t.id, now=t.version)
        store.log(db, t.id, "changed", {"name": fields["name"], "format": fmt, "entrants": len(entrants)}, phone)
        return Verdict(SAVED, id=t.id)


def delete(db: Database, tournament_id: int) -> Verdict:
    """Delete a tournament before its first round (nothing was played: no game, no evening): SAVED with
    its name in ``extra``; REFUSED once a round has started; MISSING."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if tournament_state.rounds(db, t):
            return _refused(N_("A round has started: the tournament can no longer be deleted."))
        store.delete(db, t.id)
        return Verdict(SAVED, id=t.id, extra={"name": t.name})


def check_in(
    db: Database,
    tournament_id: int,
    version: int,
    *,
    present: Sequence[int],
    walk_ins: Sequence[Sequence[str]] = (),
    phone: str | None = None,
) -> Verdict:
    """Who has come, before the draw: the entrants ticked (``present``: their places in the list as the
    organiser saw it at ``version``) and the walk-ins, who join the entrants checked in. The draw then
    seats only those checked in. SAVED with how many in ``extra``; PROBLEMS when the format cannot seat
    them (nothing stored); REFUSED once drawn; OVERTAKEN when the tournament changed since ``version``."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if t.seed is not None:
            return _refused(N_("The seats are drawn already: who has come can no longer change."))
        if t.version != version:
            return Verdict(OVERTAKEN, id=t.id, now=t.version)
        walk_ins, ticked = [tuple(w) for w in walk_ins], set(present)  # a place that is no entrant's ticks nobody
        checked = [e for i, e in enumerate(t.entrants) if i in ticked] + walk_ins
        problems = _problems(t.format, checked, t.table_rules)
        if problems:
            return Verdict(PROBLEMS, problems=tuple(problems))
        store.set_fields(db, t.id, t.version, entrants=[*t.entrants, *walk_ins], checked_in=checked)
        detail = {"checked_in": len(checked), "walk_ins": [" & ".join(w) for w in walk_ins]}
        store.log(db, t.id, "changed", detail, phone)
        return Verdict(SAVED, id=t.id, extra={"count": len(checked)})


def _seated(db: Database, t: club_night.Tournament) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]] | None]:
    """Whom the draw seats: those checked in (once a check-in was saved), in the list's order; and the
    others, left out (None: no check-in, everyone is seated)."""
    checked = tournament_records.checked_in(db, t.id)
    if checked is None:
        return list(t.entrants), None
    return [e for e in t.entrants if e in set(checked)], [e for e in t.entrants if e not in set(checked)]


def draw(db: Database, tournament_id: int, phone: str | None = None, seed: int | None = None) -> Verdict:
    """The draw by lot: the seating of every round follows from it. Once a check-in was saved it seats
    only those checked in: the others leave the entrants (on record). REFUSED once drawn, or when the
    format cannot seat those checked in (the reason)."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if t.seed is not None:
            return _refused(N_("The seats are drawn already."))
        entrants, left_out = _seated(db, t)
        problems = _problems(t.format, entrants, t.table_rules)
        if problems:
            return Verdict(REFUSED, problems=tuple(problems[:1]))
        seed = secrets.randbelow(2**31) if seed is None else seed
        order = club_night.draw(len(entrants), seed)  # kept as drawn: no later version of the shuffle re-seats anyone
        # the list is fixed from now on: its names that are players already are known by id (a rename
        # before round 1 keeps the seat); the others become players when round 1 starts
        ids = [[players.player_named(db, name) for name in e] for e in entrants]
        fields = dict(seed=seed, draw_order=order, drawn_at=transaction.utc_now(), entrant_ids=ids)
        detail: dict[str, Any] = {"order": order}
        if left_out is not None:
            fields.update(entrants=entrants, checked_in=entrants)
            detail["left_out"] = [" & ".join(e) for e in left_out]
        store.set_fields(db, t.id, t.version, **fields)
        store.log(db, t.id, "draw", detail, phone)
        return Verdict(SAVED, id=t.id)


def replace(
    db: Database, tournament_id: int, version: int, unit: int, slot: int, name: str, phone: str | None = None
) -> Verdict:
    """Give a no-show's seat to another player, between the draw and round 1: ``slot`` of entrant ``unit``
    (a pair's first or second player). The replacement keeps the seat (draw number, table, seat) and is
    named in the no-show's place everywhere, known as a player of the archive as the draw knows them (a
    new name becomes a player when round 1 starts). SAVED with both names in ``extra``; PROBLEMS when
    the name is someone's in the tournament already (look-alikes are one name); REFUSED before the draw
    or once round 1 has started; OVERTAKEN when the tournament changed since ``version``."""
    name = names.normal(name)
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None or not 0 <= unit < len(t.entrants) or not 0 <= slot < len(t.entrants[unit]):
            return Verdict(MISSING)
        if t.seed is None:
            return _refused(N_("Draw the seats first."))
        if tournament_records.rounds_started(db, t.id):
            return _refused(N_("Round 1 has started: a seat can no longer be given to another player."))
        if t.version != version:
            return Verdict(OVERTAKEN, id=t.id, now=t.version)
        pid = players.player_named(db, name)  # known by id as the draw knows its players (a new one: at round 1)
        name = records.get_player(db, pid).name if pid is not None else name  # as the archive names him
        known = t.entrant_ids or tuple((None,) * len(e) for e in t.entrants)
        # every entrant named as the archive names him now (a renamed player too): one name is one person
        seated = next((n for e in t.entrants for n in e if names.skeleton(n) == names.skeleton(name)), None)
        if seated is not None:
            problem = Problem(None, "name", N_("%(name)s has a seat in this tournament already."), {"name": seated})
            return Verdict(PROBLEMS, problems=(problem,))
        gone = t.entrants[unit][slot]
        entrants, ids = [list(e) for e in t.entrants], [list(e) for e in known]
        entrants[unit][slot], ids[unit][slot] = name, pid
        fields: dict[str, Any] = {"entrants": entrants, "entrant_ids": ids}
        if tournament_records.checked_in(db, t.id) is not None:  # the drawn are those checked in: so is who comes in
            fields["checked_in"] = entrants
        store.set_fields(db, t.id, t.version, **fields)
        store.log(db, t.id, "replaced", {"unit": unit, "slot": slot, "gone": gone, "name": name}, phone)
        return Verdict(SAVED, id=t.id, extra={"gone": gone, "name": name})


def _values_now(db: Database, t: club_night.Tournament) -> dict[str, Any]:
    """The values of the table's own rule sets a tournament plays, as they are now (taken when round 1
    starts: a rule set changed after the tournament was made plays its new values; one deleted meanwhile
    keeps the values the tournament had)."""
    out: dict[str, Any] = {}
    own = records.get_house_rules(db, t.house_rules_id) if t.house_rules_id else None
    if own is not None:
        out["settings"] = dict(own.changes)
    kept = {
        str(size): {
            "variant": r.variant,
            "layout": r.layout,
            "house_rules_id": r.house_rules_id,
            "settings": dict(r.settings),
        }
        for size, r in t.table_rules.items()
    }
    for rules in kept.values():
        found = records.get_house_rules(db, rules["house_rules_id"]) if rules["house_rules_id"] else None
        if found is not None:
            rules["settings"] = dict(found.changes)
    if kept:
        out["table_rules"] = kept
    return out


def _open_evening(db: Database, t: club_night.Tournament) -> club_night.Tournament:
    """The tournament's evening, opened with its first round, and its entrants' player ids (their
    seats follow a rename from now on); the tournament as it is then."""
    evening_id = evenings.create_evening(db, clock.today(), [n for e in t.entrants for n in e], place=t.name)
    known = t.entrant_ids or [[None] * len(e) for e in t.entrants]
    ids = [
        [pid if pid is not None else players.player_id(db, name) for pid, name in zip(e_ids, e)]
        for e_ids, e in zip(known, t.entrants)
    ]
    store.set_fields(db, t.id, t.version, evening_id=evening_id, entrant_ids=ids, **_values_now(db, t))
    return tournament_records.get(db, t.id)


def _seat_table(db: Database, t: club_night.Tournament, number: int, table, phone: str | None) -> None:
    """One table of a round started: its game (by the tournament's rules, or the table size's own) and
    its place in the round, written to the change log."""
    own = t.table_rules.get(len(table.seats)) if len(table.seats) != 4 else None
    variant, layout, settings, house_rules_id = (
        (own.variant, own.layout, dict(own.settings), own.house_rules_id)
        if own
        else (t.variant, t.layout, t.settings, t.house_rules_id)
    )
    game_id = games.create_game(
        db,
        variant,
        list(table.seats),
        table.first_dealer,
        layout=layout,
        settings=settings,
        target=t.target,
        evening_id=t.evening_id,
        house_rules_id=house_rules_id,
    )
    store.add_table(db, t.id, number, table.table, game_id, table.units)
    changes.log_change(
        db, game_id, None, "game created", None, changes.game_record(records.get_game(db, game_id)), phone
    )


def start_round(db: Database, tournament_id: int, phone: str | None = None) -> Verdict:
    """Start the next round: a game for every table, seated by the movement (``final``'s round 2: the
    final table). REFUSED before the draw, after the close, while a round is being played, or when
    every round is played; decided inside the write, so two taps start one round."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        problem = club_night.start_problem(t, rounds := tournament_state.rounds(db, t))
        if problem:
            return Verdict(REFUSED, problems=(problem,))
        number = len(rounds) + 1
        if t.evening_id is None:  # the first round: the tournament's evening, with its players as they are now
            t = _open_evening(db, t)
        if rounds and rounds[-1].ended is None:  # the round before is over for good: no table of it adds a hand
            store.end_round(db, t.id, rounds[-1].number)
            store.log(db, t.id, "round ended", {"round": rounds[-1].number, "by": "next round"}, phone)
        store.start_round(db, t.id, number, transaction.utc_now())
        for table in club_night.next_tables(t, rounds):
            _seat_table(db, t, number, table, phone)
        store.set_fields(db, t.id, t.version)
        store.log(db, t.id, "round started", {"round": number}, phone)
        results.refresh_tournament_games(db, t.id)  # the games of the rounds before end with them
        return Verdict(SAVED, id=number)


def end_round(db: Database, tournament_id: int, number: int, phone: str | None = None) -> Verdict:
    """The organiser ends a round for the tables still playing (their games keep the hands saved so
    far): SAVED, REFUSED when it is over already, MISSING."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        rounds = tournament_state.rounds(db, t)
        if not 0 < number <= len(rounds):
            return Verdict(MISSING)
        if t.closed_at or rounds[number - 1].complete:
            return _refused(N_("Round %(round)s is over already."), round=number)
        store.end_round(db, t.id, number)
        store.set_fields(db, t.id, t.version)
        store.log(db, t.id, "round ended", {"round": number}, phone)
        return Verdict(SAVED, id=number)


def close(db: Database, tournament_id: int, phone: str | None = None) -> Verdict:
    """Close the tournament: its standings and season points are final and its games read-only.
    A game still open for corrections on its sheet is locked with it (on its change log). REFUSED
    while a round is being played or before any round, while a hand waits for its confirmation (where the
    tournament asks for them: ``services.confirmations``), or when closed already."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if t.closed_at:
            return _refused(N_("The tournament is closed."))
        rounds = tournament_state.rounds(db, t)
        if not rounds:
            return _refused(N_("No round has been played yet."))
        playing = next((r for r in rounds if not r.complete), None)
        if playing is not None:
            return _refused(N_("Round %(round)s is still being played."), round=playing.number)
        waiting = tournament_records.unconfirmed(db, t)  # the standings it keeps stand on confirmed hands only
        if waiting:
            return _refused(
                N_(
                    "Hands not confirmed yet: %(count)s. Confirm them (listed on this page), then close the tournament."
                ),
                count=len(waiting),
            )
        for game_id in tournament_records.open_for_corrections(db, t.id):  # the close locks them: read-only from now
            games.reopen_game(db, game_id, False)
            changes.log_change(db, game_id, None, "game locked", {"reopened": True}, {"reopened": False}, phone)
        places = [
            [p.place, p.unit, p.match_points, p.points, p.won, p.played, p.byes, p.tied, p.line]
            for p in club_night.ranking(t, rounds)
        ]
        store.set_fields(db, t.id, t.version, closed_at=transaction.utc_now(), places=places)
        store.log(db, t.id, "closed", {"places": [row[:2] for row in places]}, phone)
        results.refresh_tournament_games(db, t.id)  # the last round's games end with it
        return Verdict(SAVED, id=t.id)


def reopen(db: Database, tournament_id: int, phone: str | None = None) -> Verdict:
    """Reopen a closed tournament to correct a result: its games take corrections again, and its places
    and season points are worked out anew until it is closed again (the close is on record, and so is
    this). REFUSED when it is not closed."""
    with transaction.write(db):
        t = tournament_records.get(db, tournament_id)
        if t is None:
            return Verdict(MISSING)
        if not t.closed_at:
            return _refused(N_("The tournament is not closed."))
        store.set_fields(db, t.id, t.version, closed_at=None, places=None)
        store.log(db, t.id, "reopened", {}, phone)
        results.refresh_tournament_games(db, t.id, every=True)  # its last round's games are open again
        return Verdict(SAVED, id=t.id)


ROUND_OVER = N_("The round is over at this table: no more hands.")


def hand_guard(db: Database, game_id: int, adding: bool, organiser: bool = False) -> Verdict | None:
    """Asked by the games' service inside its write: a tournament's game is read-only once the
    tournament is closed, and takes no new hand once its table's round is over (corrections stay
    possible until the close): REFUSED with the reason. None: go ahead. The organiser (``organiser``:
    from the director's grid) still enters a table's missing hands from its paper score card after
    its round has ended, until the next round starts (docs/tournaments.md, "The director's grid"):
    as many as the round's hands, where it has a number of them."""
    return _guarded(db, tournament_state.table_of_game(db, game_id), adding, organiser)


def _guarded(
    db: Database, at: tournament_state.GameTable | None, adding: bool, organiser: bool = False
) -> Verdict | None:
    """``hand_guard`` for a game's tournament table as read (None: a game outside any tournament)."""
    if at is None:
        return None
    t, table = at.tournament, at.table
    if t.closed_at:
        return _refused(CLOSED)
    final = t.kind.final_round
    if final and table.round < final and tournament_state.one_round(db, t, final) is not None:
        return _refused(N_("The final table has started: the first round's results stand as they are."))
    if not adding:
        return None
    if table.done and not table.finished and not (organiser and _card_still_taken(db, t, table)):
        return _refused(ROUND_OVER)
    return None


def restore_guard(db: Database, game_id: int, hand_id: int) -> Verdict | None:
    """``hand_guard`` for a deleted hand brought back (Undo): a correction's rule, and, once the table's
    round is over, ``club_night.hand_may_come_back``: REFUSED (ROUND_OVER) for the hand it finished after
    the clock when it has saved another since, or for one past the round's number of hands."""
    at = tournament_state.table_of_game(db, game_id)  # read once, for both rules
    guarded = _guarded(db, at, adding=False)
    if at is None or guarded is not None:
        return guarded
    saved = tournament_records.hand_saved_at(db, game_id, hand_id)
    if saved is None:
        return None
    organisers = tournament_records.organiser_hands(db, game_id)
    if club_night.hand_may_come_back(at.tournament, at.round, at.table, saved, hand_id, organisers):
        return None
    return _refused(ROUND_OVER)


def _card_still_taken(db: Database, t, table) -> bool:
    """Whether a table whose round is over still takes the organiser's hands from its score card: its
    round is the last one started, and a round of a number of hands has not had them all."""
    game = records.get_game(db, table.game_id)
    if game is None or game.round_past:
        return False
    return t.round_end != "hands" or len(table.hands) < (t.round_hands or 0)
