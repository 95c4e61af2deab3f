"""The tournaments' answers of the JSON API (docs/api.md, "GET /api/tournaments/<id>"): a tournament's
settings and entrants, its draw (each entrant's draw number, every round's seats known so far), every
round started with its tables as they stand, and the standings. The types are ``api_tournament_models``;
the routes are in ``api``."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.core import club_night
from scorekeeper.services import tournament_state
from scorekeeper.storage import records, tournament_records
from scorekeeper.web import api_tournament_models as tm


def listed(db: Database) -> list[tm.TournamentListed]:
    """Every tournament, the newest first: what it is and how far it has come."""
    return [
        tm.TournamentListed(
            id=t.id,
            name=t.name,
            format=t.format,
            entrants=len(t.entrants),
            rounds=t.rounds,
            rounds_started=tournament_records.rounds_started(db, t.id),
            drawn=t.seed is not None,
            closed=t.closed_at is not None,
        )
        for t in tournament_records.all_tournaments(db)
    ]


def _moment(at) -> str | None:
    return at.isoformat() if at is not None else None


def _round(t: club_night.Tournament, r: club_night.RoundState) -> tm.TournamentRound:
    """A round as it stands: each table's sides with their players (by the draw's seats) and totals."""
    return tm.TournamentRound(
        number=r.number,
        started_at=r.started.isoformat(),
        ended_at=_moment(r.ended),
        stops_at=_moment(r.stop),
        over=r.complete,
        tables=[
            tm.TournamentTable(
                table=table.table,
                game=table.game_id,
                sides=[
                    tm.TournamentSide(players=t.side_players(table, side), total=table.totals[side])
                    for side in range(len(table.units))
                ],
                hands=len(table.hands),
                over=table.done,
                unconfirmed=table.unconfirmed_numbers,
            )
            for table in r.tables
        ],
        sitting_out=[list(t.entrants[bye.unit]) for bye in r.byes],
    )


def draw_numbers(t: club_night.Tournament) -> list[int] | None:
    """Each entrant's draw number (its place in the order drawn, from 1), in the order of the entrants;
    None before the draw (docs/tournaments.md, "The draw")."""
    if t.seed is None:
        return None
    number = {unit: place for place, unit in enumerate(t.order, start=1)}
    return [number[unit] for unit in range(len(t.entrants))]


def _table(table: int, seats, first_dealer: int) -> tm.DrawTable:
    """A table's seats as "table.seat" with their names (in the game's seat order) and its first dealer."""
    return tm.DrawTable(
        table=table,
        seats=[
            tm.DrawSeat(seat=club_night.seat_label(table, seat), name=name) for seat, name in enumerate(seats, start=1)
        ],
        first_dealer=club_night.seat_label(table, first_dealer + 1),
    )


def _byes(t: club_night.Tournament, byes) -> list[list[str]]:
    return [list(t.entrants[bye.unit]) for bye in byes]


def seating(db: Database, t: club_night.Tournament, rounds: list[club_night.RoundState]) -> list[tm.DrawRound]:
    """Every round's seats known so far: each round started as its games were seated (their players and
    first dealer), then each round not started yet whose seating the movement fixes at the draw (the
    Mitchell movement and the rotation: all of them; tables with a final: round 1 only, the final table
    comes from its results). Empty before the draw."""
    if t.seed is None:
        return []
    out = []
    for r in rounds:
        games = [(table, records.get_game(db, table.game_id)) for table in r.tables]
        tables = [_table(table.table, table.seats, game.first_dealer if game else 0) for table, game in games]
        out.append(tm.DrawRound(number=r.number, started=True, tables=tables, sitting_out=_byes(t, r.byes)))
    fixed = t.kind.planned_rounds(len(t.entrants))
    for number in range(len(rounds) + 1, fixed + 1):
        tables, byes = club_night.round_plan(t, number)
        out.append(
            tm.DrawRound(
                number=number,
                started=False,
                tables=[_table(table.table, table.seats, table.first_dealer) for table in tables],
                sitting_out=_byes(t, byes),
            )
        )
    return out


def _season_points(t: club_night.Tournament, p: club_night.Place) -> int | float | None:
    """A place's season points once closed (a shared place's split: a whole number where it is one)."""
    if not t.closed_at:
        return None
    points = club_night.season_points(p.place, t.season_points, p.tied)
    return points.numerator if points.denominator == 1 else round(float(points), 2)


def answer(db: Database, t: club_night.Tournament) -> tm.Tournament:
    """A tournament: its settings and entrants, its draw, every round started with its tables as they
    stand, and the standings by the format's rule (final once it is closed)."""
    rounds = tournament_state.rounds(db, t)
    places = club_night.ranking(t, rounds) if rounds else []
    return tm.Tournament(
        id=t.id,
        name=t.name,
        format=t.format,
        variant=t.variant,
        house_rules=t.house_rules_id,
        target=t.target,
        round_end=t.round_end,
        round_hands=t.round_hands,
        round_minutes=t.round_minutes,
        rounds=t.rounds,
        bye_score=t.bye_score,
        ties=t.ties,
        confirm_hands=t.confirm_hands,
        table_rules=[
            tm.TableRules(players=size, variant=r.variant, layout=r.layout, house_rules=r.house_rules_id)
            for size, r in sorted(t.table_rules.items())
            if size in t.table_sizes  # a choice for tables this tournament does not seat says nothing
        ],
        table_sizes=t.table_sizes,
        season_points=list(t.season_points),
        entrants=[list(e) for e in t.entrants],
        drawn_at=t.drawn_at,
        closed_at=t.closed_at,
        evening=t.evening_id,
        draw_numbers=draw_numbers(t),
        seating=seating(db, t, rounds),
        played=[_round(t, r) for r in rounds],
        standings=[_standing(t, p) for p in places],
    )


def _standing(t: club_night.Tournament, p) -> tm.Standing:
    """One place of the standings, as the API gives it."""
    return tm.Standing(
        place=p.place,
        players=list(t.entrants[p.unit]),
        match_points=p.match_points,
        points=p.points,
        won=p.won,
        played=p.played,
        byes=p.byes,
        shared=p.tied,
        line=p.line,
        season_points=_season_points(t, p),
    )
