"""Paper for when the batteries die (docs/tournaments.md): as bridge clubs print for when the
terminals fail, each entrant's guide card (its table and seat in every round, with whom, against whom,
who deals first) and each table's score card of a round (the seats, the sides, empty rows for the
hands, a line for the signatures), printed on A4 from the browser (static/style.css, "Paper").
Available from the draw on; read-only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext, ngettext

from scorekeeper.core import club_night
from scorekeeper.services import tournament_state
from scorekeeper.storage import tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web.tournament_forms import FORMAT_NAMES

bp = Blueprint("tournament_paper", __name__)

# a round on a guide card: seated, sitting out, done (a player changing partners at a table of four,
# whose three Partien are over while a table of five plays on), the final table
PLAY, BYE, DONE, FINAL = "play", "bye", "done", "final"
SCORE_ROWS = 12  # a score card's rows for the hands, a round to the target or a time
TWO_A_PAGE = 12  # score cards of at most this many rows go two to an A4 page
MOST_ROWS = 30  # one card to a page holds this many rows (a round of more hands: continued on the back)


@dataclass(frozen=True)
class Seat:
    """A seat at a table: its number (1 …), "3.2" (table 3, seat 2), who sits there, whether he deals first."""

    number: int
    label: str
    name: str
    deals: bool


@dataclass(frozen=True)
class ScoreCard:
    """A table's score card of a round: its seats and its sides (each side's players, "Anna & Ben")."""

    round: int
    table: int
    seats: tuple[Seat, ...]
    sides: tuple[str, ...]
    final: bool


@dataclass(frozen=True)
class Stop:
    """A round on an entrant's guide card: seated (``PLAY``: the table, the entrant's own seats, its
    side, its partners, the other sides, who deals first), sitting out (``BYE``), done for the evening
    (``DONE``), or the final table, known only once the first round is over (``FINAL``)."""

    round: int
    kind: str
    table: int = 0
    seats: tuple[Seat, ...] = ()
    side: int = 0
    partners: tuple[str, ...] = ()
    against: tuple[str, ...] = ()
    dealer: str = ""

    @property
    def seat_names(self) -> str:
        """The entrant's seats with who sits there: "3.2 Cid, 3.4 Dee"."""
        return ", ".join(f"{seat.label} {seat.name}" for seat in self.seats)


@dataclass(frozen=True)
class Guide:
    """An entrant's guide card: its name and where it plays each round; ``home`` the table it keeps all
    evening (a North–South pair, a player changing partners), else 0."""

    unit: int
    name: str
    stops: tuple[Stop, ...]
    home: int


@dataclass(frozen=True)
class Printed:
    """A guide card as it reads: the name, the line under it (how the entrant goes), a line a round
    (where, then with whom, against whom, who deals first)."""

    unit: int
    name: str
    way: str
    rounds: tuple[tuple[str, str], ...]


def _seats(table: club_night.Table) -> tuple[Seat, ...]:
    """A table's seats in order, however many it has."""
    return tuple(
        Seat(i, club_night.seat_label(table.table, i), name, i - 1 == table.first_dealer)
        for i, name in enumerate(table.seats, start=1)
    )


def _side(t: club_night.Tournament, table: club_night.Table, side: int) -> list[str]:
    """The players of a side, as entered (a pair's two players, or the partners drawn)."""
    return [name for unit in table.units[side] for name in t.entrants[unit]]


def _stop(t: club_night.Tournament, number: int, tables: Sequence[club_night.Table], unit: int, byes: Sequence) -> Stop:
    """Where an entrant plays in a round (a player's or a pair's seats, found by name: the names of a
    tournament are all different); not at a table: it sits the round out if the round's byes name it,
    else it has played all its Partien (docs/tournaments.md: a table of four is done after three)."""
    mine = set(t.entrants[unit])
    for table in tables:
        for side, units in enumerate(table.units):
            if unit not in units:
                continue
            others = range(len(table.units))
            return Stop(
                number,
                PLAY,
                table.table,
                tuple(s for s in _seats(table) if s.name in mine),
                side,
                tuple(n for n in _side(t, table, side) if n not in mine),
                tuple(" & ".join(_side(t, table, o)) for o in others if o != side),
                table.seats[table.first_dealer],
            )
    if not any(bye.unit == unit for bye in byes):
        return Stop(number, DONE)
    return Stop(number, BYE)


def guides(t: club_night.Tournament, rounds: Sequence[club_night.RoundState] = ()) -> list[Guide]:
    """Every entrant's guide card, in the order of the draw: each round the movement fixes at the draw;
    in tables with a final, round 2 is the final table (its seats come from round 1's results: a
    finalist's card gives his seat once it has started, the others' say who plays it)."""
    known = t.kind.planned_rounds(len(t.entrants))
    plans = [club_night.round_plan(t, r) for r in range(1, known + 1)]
    seated = score_rounds(t, rounds)  # the final table's seats, once it has started
    out = []
    for unit in t.order:
        stops = [_stop(t, r, tables, unit, byes) for r, (tables, byes) in enumerate(plans, start=1)]
        for r in range(known + 1, t.rounds + 1):
            at = _stop(t, r, seated[r], unit, ()) if r in seated else None
            stops.append(at if at is not None and at.kind == PLAY else Stop(r, FINAL))
        # pairs moving between tables: the first side (North–South) keeps its table
        tables = {s.table for s in stops if s.kind == PLAY and (not t.kind.pairs or s.side == 0)}
        home = tables.pop() if len(tables) == 1 and not t.kind.final_round else 0
        out.append(Guide(unit, t.names[unit], tuple(stops), home))
    return out


def score_rounds(
    t: club_night.Tournament, rounds: Sequence[club_night.RoundState]
) -> dict[int, list[club_night.Table]]:
    """The tables of each round whose seats are known: every round of the movement from the draw; in
    tables with a final, the final table once it has started (it comes from round 1's results)."""
    planned = t.kind.planned_rounds(len(t.entrants))
    known = {r: club_night.round_plan(t, r)[0] for r in range(1, planned + 1)}
    final = t.kind.final_round
    if final and len(rounds) >= final:
        known[final] = club_night.next_tables(t, rounds[: final - 1])
    return known


def score_cards(t: club_night.Tournament, tables: Sequence[club_night.Table]) -> list[ScoreCard]:
    """A score card for each table of a round."""
    return [
        ScoreCard(
            table.round,
            table.table,
            _seats(table),
            tuple(" & ".join(_side(t, table, side)) for side in range(len(table.units))),
            table.round == t.kind.final_round,
        )
        for table in tables
    ]


def score_rows(t: club_night.Tournament) -> int:
    """Rows for the hands: a round's number of hands, else enough for a game to the target."""
    if t.round_end == "hands" and t.round_hands:
        return min(t.round_hands, MOST_ROWS)
    return SCORE_ROWS


def _way(t: club_night.Tournament, guide: Guide) -> str:
    """How the entrant goes all evening, after the tournament's name."""
    played = sum(1 for stop in guide.stops if stop.kind == PLAY)
    if t.kind.pairs and guide.home:
        way = gettext("North–South: you stay at table %(table)s all evening.", table=guide.home)
    elif t.kind.pairs and t.rounds > 1:
        way = gettext("East–West: after each round, move on to the next higher table (from the last table to table 1).")
    elif guide.home and played > 1:
        way = gettext(
            "%(count)s Partien at table %(table)s, with a new partner in each.", count=played, table=guide.home
        )
    else:
        way = gettext(t.kind.name)
    return f"{t.name} · {way}"


def _said(stop: Stop) -> tuple[str, str]:
    """A round on a guide card: where (a table and seat, sitting out, the final table), then who else
    is there and who deals first."""
    if stop.kind == BYE:
        return gettext("Round %(round)s: sits out", round=stop.round), ""
    if stop.kind == DONE:
        return gettext("Round %(round)s: your Partien are over", round=stop.round), ""
    if stop.kind == FINAL:
        return gettext("Round %(round)s: the final table, for the tables' winners", round=stop.round), ""
    where = dict(round=stop.round, table=stop.table)
    if len(stop.seats) == 1:
        seat = stop.seats[0]
        head = gettext(
            "Round %(round)s: table %(table)s, seat %(seat)s (%(label)s)", **where, seat=seat.number, label=seat.label
        )
    else:
        head = gettext("Round %(round)s: table %(table)s, seats %(seats)s", **where, seats=stop.seat_names)
    who = [
        gettext("Against: %(names)s", names=", ".join(stop.against)),
        gettext("First deal: %(name)s", name=stop.dealer),
    ]
    if stop.partners:
        count = len(stop.partners)
        who.insert(0, ngettext("Partner: %(names)s", "Partners: %(names)s", count, names=" & ".join(stop.partners)))
    return head, " · ".join(who)


def printed(t: club_night.Tournament, cards: Sequence[Guide]) -> list[Printed]:
    """The guide cards as they read, in the reader's language."""
    return [Printed(g.unit, g.name, _way(t, g), tuple(_said(s) for s in g.stops)) for g in cards]


def _pages(items: list, per_page: int) -> list[list]:
    return [items[i : i + per_page] for i in range(0, len(items), per_page)]


def _drawn(tournament_id: int) -> club_night.Tournament | None:
    """The tournament (404 when there is none); None, with the reason on the next page, before the draw."""
    t = tournament_records.get(get_db(), tournament_id)
    if t is None:
        abort(404)
    if t.seed is None:
        flash(gettext("Draw the seats first."))
        return None
    return t


def _to_organiser(tournament_id: int):
    return redirect(url_for("tournaments.tournament", tournament_id=tournament_id))


@bp.get("/tournaments/<int:tournament_id>/guide-cards")
def guide_cards(tournament_id: int):
    """Every entrant's guide card, to print at the draw and hand out."""
    t = _drawn(tournament_id)
    if t is None:
        return _to_organiser(tournament_id)
    cards = printed(t, guides(t, tournament_state.rounds(get_db(), t)))
    return render_template("tournaments/guide_cards.html", t=t, cards=cards, formats=FORMAT_NAMES)


@bp.get("/tournaments/<int:tournament_id>/score-cards", defaults={"number": None})
@bp.get("/tournaments/<int:tournament_id>/score-cards/<int:number>")
def score_card_pages(tournament_id: int, number: int | None):
    """The tables' score cards: of one round, or of every round whose seats are known."""
    t = _drawn(tournament_id)
    if t is None:
        return _to_organiser(tournament_id)
    known = score_rounds(t, tournament_state.rounds(get_db(), t))
    if number is not None and number not in known:
        if number == t.kind.final_round and t.rounds >= number:
            flash(gettext("The final table's score card can be printed once the final table has started."))
            return redirect(url_for("tournament_paper.score_card_pages", tournament_id=t.id))
        abort(404)
    cards = [card for r in ([number] if number else sorted(known)) for card in score_cards(t, known[r])]
    rows = score_rows(t)
    per_page = 2 if rows <= TWO_A_PAGE else 1
    return render_template(
        "tournaments/score_cards.html",
        t=t,
        number=number,
        known=sorted(known),
        rows=rows,
        per_page=per_page,
        pages=_pages(cards, per_page),
        formats=FORMAT_NAMES,
        final_waits=bool(t.kind.final_round) and t.rounds >= t.kind.final_round and t.kind.final_round not in known,
    )
