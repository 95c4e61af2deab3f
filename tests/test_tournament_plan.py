"""Worked examples of the tournaments' pure core (``scorekeeper/core/tournaments.py``): the draw, the
three movements, the round's end, and a whole tournament's rounds through to its places (the ranking
itself, its ties and the season points: tests/test_tournament_ranking.py).

Every expected value here was worked out by hand from the rules (docs/tournaments.md, the heading is
cited beside each case), never copied from the code's output. Seats are counted 1 … 4 in the draw
("1.3" is table 1, seat 3): seat 1 is North, 2 East, 3 South, 4 West; a game's seats 0 and 2 (the
draw's seats 1 and 3) are partners against 1 and 3.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import combinations

import pytest

from scorekeeper.core import club_night
from scorekeeper.core.club_night import Bye, Clock, Table, TableState

START = datetime(2026, 11, 26, 19, 0)


def minutes(m: float) -> datetime:
    """A moment ``m`` minutes after the round's start."""
    return START + timedelta(minutes=m)


def players(count: int) -> list[tuple[str, ...]]:
    return [(f"P{i}",) for i in range(count)]


def pairs(count: int) -> list[tuple[str, ...]]:
    return [(f"A{i}", f"B{i}") for i in range(count)]


def tournament(fmt: str, entrants, seed: int | None = 7, round_end: str = "target", **fields) -> club_night.Tournament:
    values = dict(
        id=1,
        name="Club night",
        format=fmt,
        variant="classic",
        layout=None,
        settings={},
        house_rules_id=None,
        target=5000,
        round_end=round_end,
        round_hands=None,
        round_minutes=None,
        season_points=club_night.DEFAULT_SEASON_POINTS,
        entrants=tuple(tuple(e) for e in entrants),
        seed=seed,
        drawn_at=None,
        closed_at=None,
        evening_id=1,
        version=1,
        created_at="2026-11-26T18:00:00",
    )
    values.update(fields)
    return club_night.Tournament(**values)


# --- The draw ---------------------------------------------------------------------------------------


def test_the_draw_is_a_permutation_fixed_by_its_seed():
    """docs/tournaments.md "The draw": by lot, every entrant once; the same seed gives the same draw."""
    for count in (1, 4, 9, 64):
        assert sorted(club_night.draw(count, 12345)) == list(range(count))
        assert club_night.draw(count, 12345) == club_night.draw(count, 12345)
    assert club_night.draw(0, 3) == []
    assert any(club_night.draw(20, seed) != club_night.draw(20, 0) for seed in range(1, 4))
    assert len({tuple(club_night.draw(8, seed)) for seed in range(10)}) > 1


# --- Pairs moving between tables (Mitchell) ----------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 34))
def test_mitchell_movement(count):
    """docs/tournaments.md "Pairs moving between tables": North–South pairs keep their table, East–West
    pairs move one table up each round (the last to table 1), rounds = tables, every North–South pair
    meets every East–West pair once; an odd number of pairs: the East–West pair at the last table (no
    North–South pair there) has a bye, once each."""
    entrants = pairs(count)
    order = club_night.draw(count, count)
    tables = (count + 1) // 2
    odd = count % 2 == 1
    assert club_night.tables_of("mitchell", count) == count // 2  # the tables played at: the last is empty when odd
    assert club_night.rounds_of("mitchell", count) == tables
    north_south = set(order[: count // 2])  # the first half of the draw
    east_west = set(order) - north_south
    meetings: Counter = Counter()
    at_table: dict[int, dict[int, int]] = {}  # round → East–West pair → its table (the last: a bye)
    ns_table: dict[int, set[int]] = {u: set() for u in north_south}
    byes: Counter = Counter()
    for rnd in range(1, tables + 1):
        games, round_byes = club_night.round_plan(tournament("mitchell", entrants, draw_order=tuple(order)), rnd)
        assert all(g.round == rnd for g in games) and all(b.round == rnd for b in round_byes)
        # every table one game (the last table with an odd count: the bye instead)
        assert [g.table for g in games] == list(range(1, tables + (0 if odd else 1)))
        assert len(round_byes) == (1 if odd else 0)
        seen = [u for g in games for side in g.units for u in side] + [b.unit for b in round_byes]
        assert sorted(seen) == sorted(order), "every pair once a round: a game or a bye"
        at_table[rnd] = {}
        for g in games:
            (ns,), (ew,) = g.units
            assert ns in north_south and ew in east_west, "never a pair of its own direction"
            assert g.seats == (entrants[ns][0], entrants[ew][0], entrants[ns][1], entrants[ew][1])
            meetings[ns, ew] += 1
            ns_table[ns].add(g.table)
            at_table[rnd][ew] = g.table
        for b in round_byes:
            assert b.unit in east_west
            byes[b.unit] += 1
            at_table[rnd][b.unit] = tables
    assert meetings == Counter({(ns, ew): 1 for ns in north_south for ew in east_west})
    # North–South pairs keep their table: the k-th drawn at table k
    assert all(ns_table[order[k]] == {k + 1} for k in range(len(north_south)))
    for rnd in range(1, tables):
        for ew, table in at_table[rnd].items():
            assert at_table[rnd + 1][ew] == table % tables + 1, (rnd, ew, table)
    assert byes == (Counter({ew: 1 for ew in east_west}) if odd else Counter())


def test_mitchell_five_pairs_worked_example():
    """docs/tournaments.md "Pairs moving between tables": 5 pairs, 3 tables (the third without a
    North–South pair); drawn 1st and 2nd sit North–South at tables 1 and 2, drawn 3rd … 5th start
    East–West at tables 1 … 3 and move up."""
    d = [3, 0, 4, 1, 2]  # d[k]: the pair drawn (k + 1)-th
    plan = {rnd: club_night.round_plan(tournament("mitchell", pairs(5), draw_order=tuple(d)), rnd) for rnd in (1, 2, 3)}
    meet = {rnd: [(g.table, g.units) for g in games] for rnd, (games, _) in plan.items()}
    assert meet[1] == [(1, ((d[0],), (d[2],))), (2, ((d[1],), (d[3],)))]
    assert meet[2] == [(1, ((d[0],), (d[4],))), (2, ((d[1],), (d[2],)))]
    assert meet[3] == [(1, ((d[0],), (d[3],))), (2, ((d[1],), (d[4],)))]
    assert [plan[rnd][1] for rnd in (1, 2, 3)] == [[Bye(1, d[4], 3)], [Bye(2, d[3], 3)], [Bye(3, d[2], 3)]]


# --- Players changing partners (rotation) -------------------------------------------------------


@pytest.mark.parametrize("count", range(4, 65, 4))
def test_rotation(count):
    """docs/tournaments.md "Players changing partners": each table of four plays three Partien,
    N–S v E–W, N–E v S–W, N–W v S–E (everyone partners each other player once and plays against
    each twice); the first deal passes to the left: the players drawn 1st, 2nd, 3rd at the table."""
    entrants = players(count)
    order = club_night.draw(count, 1000 + count)
    assert club_night.rounds_of("rotation", count) == 3
    assert club_night.tables_of("rotation", count) == count // 4
    partners: dict[int, Counter] = {}
    opponents: dict[int, Counter] = {}
    for rnd in (1, 2, 3):
        tables, byes = club_night.round_plan(tournament("rotation", entrants, draw_order=tuple(order)), rnd)
        assert byes == [] and [t.table for t in tables] == list(range(1, count // 4 + 1))
        for table in tables:
            n, e, s, w = order[4 * (table.table - 1) : 4 * table.table]  # drawn at seats 1 … 4
            expected = {1: ((n, s), (e, w)), 2: ((n, e), (s, w)), 3: ((n, w), (s, e))}[rnd]
            assert {frozenset(side) for side in table.units} == {frozenset(side) for side in expected}
            (a, c), (b, d) = table.units  # seats 0 and 2 against 1 and 3
            assert table.seats == tuple(entrants[u][0] for u in (a, b, c, d))
            assert table.seats[table.first_dealer] == entrants[(n, e, s)[rnd - 1]][0]
            assert table.round == rnd
            partners.setdefault(table.table, Counter()).update([frozenset((a, c)), frozenset((b, d))])
            opponents.setdefault(table.table, Counter()).update(frozenset((x, y)) for x in (a, c) for y in (b, d))
    for number, counts in partners.items():
        four = order[4 * (number - 1) : 4 * number]
        assert counts == Counter({frozenset(p): 1 for p in combinations(four, 2)})
        assert opponents[number] == Counter({frozenset(p): 2 for p in combinations(four, 2)})


# --- Tables with a final -----------------------------------------------------------------------------


def test_final_round_one_seats_by_the_draw():
    """docs/tournaments.md "Tables with a final" and "The draw": the k-th drawn player (k from 0) sits
    at table k // 4 + 1, seat k % 4 + 1; seats 1 and 3 are partners against 2 and 4."""
    entrants = players(12)
    order = club_night.draw(12, 99)
    tables, byes = club_night.round_plan(tournament("final", entrants, draw_order=tuple(order)), 1)
    assert byes == [] and [t.table for t in tables] == [1, 2, 3]
    for k, unit in enumerate(order):
        table = tables[k // 4]
        assert table.table == k // 4 + 1 and table.seats[k % 4] == entrants[unit][0]
    for table in tables:
        o = order[4 * (table.table - 1) : 4 * table.table]
        assert table.units == ((o[0], o[2]), (o[1], o[3]))
    assert club_night.seat_label(1, 3) == "1.3"
    assert club_night.seat_label(12, 4) == "12.4"
    assert club_night.rounds_of("final", 4) == 1
    assert club_night.rounds_of("final", 8) == 2
    assert club_night.rounds_of("final", 64) == 2


# --- Problems with the entrants ----------------------------------------------------------------------


def test_table_sizes():
    """docs/tournaments.md "Tables of four, five and six": as many tables of four as can be, the rest at a
    table of five or six, or one of each; four, five and six players sit at one table; seven cannot sit."""
    assert {n: club_night.table_sizes(n) for n in range(3, 16)} == {
        3: None,
        4: [4],
        5: [5],
        6: [6],
        7: None,
        8: [4, 4],
        9: [4, 5],
        10: [4, 6],
        11: [5, 6],
        12: [4, 4, 4],
        13: [4, 4, 5],
        14: [4, 4, 6],
        15: [4, 5, 6],
    }
    for n in range(8, 68):
        sizes = club_night.table_sizes(n)
        assert sum(sizes) == n and sizes.count(5) <= 1 and sizes.count(6) <= 1, n


def test_entrant_problems():
    """docs/tournaments.md "The draw" and "Tables of four, five and six": players at tables of four to
    six (at least four, not seven); pairs two or more, each line a pair; at most MAX_TABLES tables."""

    def one(fmt, entrants):
        problems = club_night.entrant_problems(fmt, entrants)
        assert len(problems) == 1 and problems[0].side is None and problems[0].field == "entrants"
        return problems[0]

    for fmt in ("final", "rotation"):
        assert one(fmt, players(3)).message == "Enter at least four players, one a line."
        assert one(fmt, []).message == "Enter at least four players, one a line."
        seven = one(fmt, players(7))
        assert seven.args == {"count": 7}
        assert seven.message == "7 players: tables seat four to six. Add one more or leave one out."
        for n in (4, 5, 6, 8, 9, 13, 14, 15, 64, 67):  # 67: fourteen tables of four, one of five, one of six
            assert club_night.entrant_problems(fmt, players(n)) == [], n
        too_many = one(fmt, players(68))  # 17 tables of four
        assert too_many.args == {"tables": club_night.MAX_TABLES} and too_many.message == "At most 16 tables."
    assert one("mitchell", pairs(1)).message == "Enter at least two pairs, one pair a line."
    assert (
        one("mitchell", pairs(2)[:1] + [("Cleo",)]).message == 'Each line is a pair: two names with "&" between them.'
    )
    assert one("mitchell", pairs(2) + [("Cleo", "Dan", "Eve")]).message.startswith("Each line is a pair")
    assert club_night.entrant_problems("mitchell", pairs(2)) == []
    assert club_night.entrant_problems("mitchell", pairs(31)) == []  # 16 tables
    assert club_night.entrant_problems("mitchell", pairs(32)) == []
    assert one("mitchell", pairs(33)).args == {"tables": 16}  # 17 tables
    assert club_night.MAX_TABLES == 16

    assert tournament("mitchell", [("Anna", "Ben")]).names == ["Anna & Ben"]


# --- When a round ends -------------------------------------------------------------------------------


def test_clock_warns_ten_minutes_before_the_end():
    """docs/tournaments.md "When a round ends": a round of minutes; the timer warns 10 minutes before."""
    clock = Clock(START, 45)
    assert clock.ends == minutes(45)
    assert clock.left(minutes(34)) == 11 * 60 and not clock.warning(minutes(34))
    assert clock.left(minutes(35)) == 10 * 60 and clock.warning(minutes(35))
    assert clock.left(minutes(44)) == 60 and clock.warning(minutes(44))
    assert clock.left(minutes(45)) == 0 and not clock.warning(minutes(45))
    assert clock.left(minutes(50)) == 0 and not clock.warning(minutes(50))


def test_stop_moment():
    """docs/tournaments.md "When a round ends": at the end of the round's minutes; in the final's round 1
    when the first table reaches the target; both: the earlier; else each table plays to its own end."""
    stops_all = {fmt: club_night.format_of(fmt).stops_all for fmt in club_night.FORMATS}
    assert stops_all == {"final": True, "mitchell": False, "rotation": False}
    assert club_night.stop_moment("minutes", 45, START, False, []) == minutes(45)
    assert club_night.stop_moment("target", None, START, True, [minutes(40), minutes(31)]) == minutes(31)
    assert club_night.stop_moment("minutes", 45, START, True, [minutes(50)]) == minutes(45)
    assert club_night.stop_moment("minutes", 45, START, True, [minutes(30)]) == minutes(30)
    assert club_night.stop_moment("minutes", 45, START, True, []) == minutes(45)
    assert club_night.stop_moment("target", None, START, True, []) is None
    assert club_night.stop_moment("target", None, START, False, [minutes(31)]) is None
    assert club_night.stop_moment("hands", None, START, False, []) is None


def test_table_done():
    """docs/tournaments.md "When a round ends": a table's round is over when its game reaches the target,
    when it played the round's hands, or once the round stopped and it saved the hand in progress."""
    stop = minutes(30)
    assert club_night.table_done("target", None, True, [minutes(29)], stop)
    assert club_night.table_done("target", None, True, [], None)
    assert not club_night.table_done("target", None, False, [minutes(10), minutes(20)], None)
    assert club_night.table_done("hands", 6, False, [minutes(i) for i in range(6)], None)
    assert not club_night.table_done("hands", 6, False, [minutes(i) for i in range(5)], None)
    assert not club_night.table_done("target", 6, False, [minutes(i) for i in range(6)], None)  # no hands' limit
    assert not club_night.table_done("minutes", None, False, [minutes(10), minutes(29)], stop)  # hand in progress
    assert club_night.table_done("minutes", None, False, [minutes(10), minutes(30)], stop)  # saved at the stop
    assert club_night.table_done("minutes", None, False, [minutes(10), minutes(33)], stop)
    assert not club_night.table_done("minutes", None, False, [], stop)


def _states(tables, totals, hands, finished=()):
    """Each table's state; its hands numbered in the order they were saved across the tables, as the
    archive numbers them."""
    saved = sorted((moment, table, i) for table, moments in hands.items() for i, moment in enumerate(moments))
    number = {(table, i): n for n, (_moment, table, i) in enumerate(saved, start=1)}
    return [
        TableState(
            t.round,
            t.table,
            100 + t.table,
            t.units,
            t.seats,
            totals[t.table],
            hands[t.table],
            t.table in finished,
            hand_ids=tuple(number[t.table, i] for i in range(len(hands[t.table]))),
        )
        for t in tables
    ]


def test_round_state_and_the_organisers_end():
    """docs/tournaments.md "When a round ends" and "Tables with a final": round 1 stops when table 1
    reaches the target; table 2 finishes its hand in progress; the organiser may end the round."""
    t = tournament("final", players(8))
    tables = club_night.next_tables(t, [])
    hands = {1: (minutes(10), minutes(25)), 2: (minutes(12), minutes(20))}
    states = _states(tables, {1: (5120, 2300), 2: (3000, 2100)}, hands, finished={1})
    state = club_night.round_state(t, 1, START, None, states)
    assert state.stop == minutes(25) and state.clock is None and state.byes == ()
    assert [s.done for s in state.tables] == [True, False] and not state.complete
    assert state.table(2).table == 2 and state.table(3) is None
    # table 2 saves the hand that was in progress
    hands[2] += (minutes(27),)
    state = club_night.round_state(t, 1, START, None, _states(tables, {1: (5120, 2300), 2: (3300, 2100)}, hands, {1}))
    assert [s.done for s in state.tables] == [True, True] and state.complete
    # the organiser ends the round: every table is done, the stop is the earlier moment
    ended = club_night.round_state(t, 1, START, minutes(26), states)
    assert ended.complete and all(s.done for s in ended.tables) and ended.stop == minutes(25)
    m = tournament("mitchell", pairs(4))
    free = _states(club_night.next_tables(m, []), {1: (900, 400), 2: (300, 200)}, {1: (minutes(5),), 2: (minutes(6),)})
    playing = club_night.round_state(m, 1, START, None, free)
    assert playing.stop is None and not playing.complete
    stopped = club_night.round_state(m, 1, START, minutes(40), free)
    assert stopped.stop == minutes(40) and stopped.complete
    timed = tournament("rotation", players(4), round_end="minutes", round_minutes=45)
    state = club_night.round_state(
        timed, 1, START, None, _states(club_night.next_tables(timed, []), {1: (0, 0)}, {1: ()})
    )
    assert state.clock == Clock(START, 45) and state.stop == minutes(45) and not state.complete
    early = club_night.round_state(timed, 1, START, minutes(30), state.tables)  # ended before the time is up
    assert early.stop == minutes(30) and early.complete and early.clock == Clock(START, 45)


def test_a_final_tournament_from_draw_to_places():
    """docs/tournaments.md "Tables with a final": round 1 by the draw, round 2 the final table of the two
    best qualifying pairs, then no more rounds; the places as they stand after each round."""
    assert tournament("final", players(8), seed=None).order == []
    t = tournament("final", players(8), seed=2026)
    o = t.order
    assert o == club_night.draw(8, 2026) and t.rounds == 2 and t.names == [f"P{i}" for i in range(8)]
    first = club_night.next_tables(t, [])
    assert [x.units for x in first] == [((o[0], o[2]), (o[1], o[3])), ((o[4], o[6]), (o[5], o[7]))]
    hands = {1: (minutes(30),), 2: (minutes(31),)}
    r1 = club_night.round_state(t, 1, START, None, _states(first, {1: (2500, 5040), 2: (4100, 2250)}, hands, {1}))
    assert r1.complete
    # qualifying: o1 & o3 (5040), o4 & o6 (4100); then o0 & o2 (2500) before o5 & o7 (2250)
    final = club_night.next_tables(t, [r1])
    assert final == [Table(2, 1, (f"P{o[1]}", f"P{o[4]}", f"P{o[3]}", f"P{o[6]}"), 0, ((o[1], o[3]), (o[4], o[6])))]
    assert [(p.place, p.unit) for p in club_night.ranking(t, [r1])] == [
        (1, o[1]),
        (1, o[3]),
        (2, o[4]),
        (2, o[6]),
        (3, o[0]),
        (3, o[2]),
        (4, o[5]),
        (4, o[7]),
    ]
    r2 = club_night.round_state(t, 2, minutes(40), None, _states(final, {1: (3000, 5100)}, {1: (minutes(70),)}, {1}))
    assert [(p.place, p.unit) for p in club_night.ranking(t, [r1, r2])] == [
        (1, o[4]),
        (1, o[6]),
        (2, o[1]),
        (2, o[3]),
        (3, o[0]),
        (3, o[2]),
        (4, o[5]),
        (4, o[7]),
    ]
    assert club_night.next_tables(t, [r1, r2]) == []
    single = tournament("final", players(4))
    assert single.rounds == 1 and len(club_night.next_tables(single, [])) == 1


def test_a_mitchell_tournament_counts_its_byes():
    """docs/tournaments.md "Pairs moving between tables" and "A pair that sits out": three pairs, two
    rounds; each bye as the organiser chose: the pair's average (the default), a win, or nothing."""
    t = tournament("mitchell", pairs(3), seed=5)
    o = t.order  # North–South o0 at table 1; o1, o2 East–West (table 2: no North–South pair)
    assert t.rounds == 2 and t.names == [f"A{i} & B{i}" for i in range(3)]
    tables1 = club_night.next_tables(t, [])
    assert [x.units for x in tables1] == [((o[0],), (o[1],))]
    r1 = club_night.round_state(t, 1, START, None, _states(tables1, {1: (5000, 3333)}, {1: (minutes(50),)}, {1}))
    assert r1.byes == (Bye(1, o[2], 2),) and r1.complete
    tables2 = club_night.next_tables(t, [r1])
    assert [x.units for x in tables2] == [((o[0],), (o[2],))]
    r2 = club_night.round_state(t, 2, minutes(60), None, _states(tables2, {1: (2000, 5010)}, {1: (minutes(99),)}, {1}))
    assert r2.byes == (Bye(2, o[1], 2),)
    # docs/tournaments.md "A pair that sits out": the bye counts the pair's average of its games.
    # o2: won 5010 (2 mp) + bye (2 / 1 = 2 mp, 5010 / 1 = 5010) = 4 mp 10020;
    # o1: lost 3333 (0 mp) + bye (0 mp, 3333 rounded down to 3330) = 0 mp 6663; o0: won, lost = 2 mp 7000
    figures = lambda t: [(p.place, p.unit, p.match_points, p.points, p.byes) for p in club_night.ranking(t, [r1, r2])]  # noqa: E731
    assert figures(t) == [(1, o[2], 4, 10020, 1), (2, o[0], 2, 7000, 0), (3, o[1], 0, 6663, 1)]
    # a bye as a win: 2 match points and the average points (o1: 2 mp 6663, behind o0 on points)
    win = tournament("mitchell", pairs(3), seed=5, bye_score="win")
    assert figures(win) == [(1, o[2], 4, 10020, 1), (2, o[0], 2, 7000, 0), (3, o[1], 2, 6663, 1)]
    # a bye for nothing: o2 2 mp 5010 is level with o0 (2 mp 7000) on match points, behind on points
    nothing = tournament("mitchell", pairs(3), seed=5, bye_score="nothing")
    assert figures(nothing) == [(1, o[0], 2, 7000, 0), (2, o[2], 2, 5010, 1), (3, o[1], 0, 3333, 1)]
    assert club_night.next_tables(t, [r1, r2]) == []


def test_the_round_stops_at_the_hand_that_reached_the_target_not_the_tables_last():
    """docs/tournaments.md "When a round ends": table 1 reached the target with its hand number 5 (a hand
    number 9 was recorded after the end, and is to be corrected); table 2's hand number 7 came after the
    stop: it was the hand in progress, so table 2 is done."""
    t = tournament("final", players(8))
    first, second = club_night.next_tables(t, [])
    one = TableState(
        1, 1, 101, first.units, first.seats, (5100, 300), (minutes(30), minutes(50)), True, hand_ids=(5, 9), ended_by=5
    )
    two = TableState(
        1, 2, 102, second.units, second.seats, (900, 700), (minutes(20), minutes(40)), False, hand_ids=(3, 7)
    )
    state = club_night.round_state(t, 1, START, None, [one, two])
    assert state.stop == minutes(30) and [table.done for table in state.tables] == [True, True]
    unknown = club_night.round_state(t, 1, START, None, [TableState(**{**one.__dict__, "ended_by": None}), two])
    assert [table.done for table in unknown.tables] == [True, False]  # by the last hand (9): 7 came before it


# --- Tables of four, five and six ---------------------------------------------------------------------


FIVE = club_night.TableRules("austrian", "5")  # a pair (seats 1, 2) against three (seats 3, 4, 5) taking turns
SIX_PAIRS = club_night.TableRules("six-3x2", "6-pairs")  # three partnerships: seats 1 & 4, 2 & 5, 3 & 6


def test_tables_with_a_final_seat_a_table_of_five_by_its_rule_set():
    """ "Tables of four, five and six": 13 players sit at tables of four, four and five, in the order
    drawn; the table of five is seated as its rule set seats five (a pair against three)."""
    order = [12, 3, 7, 0, 9, 1, 11, 5, 2, 10, 4, 8, 6]
    t = tournament("final", players(13), draw_order=tuple(order), table_rules={5: FIVE})
    tables, byes = club_night.round_plan(t, 1)
    assert byes == [] and [len(x.seats) for x in tables] == [4, 4, 5]
    assert tables[2] == Table(1, 3, ("P2", "P10", "P4", "P8", "P6"), 0, ((2, 10), (4, 8, 6)))
    assert t.draw_seats[8:] == [(2, "3.1"), (10, "3.2"), (4, "3.3"), (8, "3.4"), (6, "3.5")]
    assert club_night.table_rules_problem("final", 13, {}).field == "rules_5"
    assert club_night.table_rules_problem("final", 13, {5: FIVE}) is None
    assert club_night.table_rules_problem("final", 12, {}) is None  # tables of four only: nothing to choose


def test_players_changing_partners_at_a_table_of_five():
    """ "Players changing partners": a table of five plays five Partien; each player sits one out and
    partners every other player exactly once (k sits out, k+1 & k+4 against k+2 & k+3); the tables of
    four play their three Partien and are done."""
    t = tournament("rotation", players(13), draw_order=tuple(range(13)))
    assert t.rounds == 5 and club_night.tables_of("rotation", 13) == 3
    partners, out = Counter(), Counter()
    for rnd in range(1, 6):
        tables, byes = club_night.round_plan(t, rnd)
        assert [x.table for x in tables] == ([1, 2, 3] if rnd <= 3 else [3])
        five = tables[-1]
        assert byes == [Bye(rnd, 8 + rnd - 1, 3)] and len(five.seats) == 4
        for side in five.units:
            partners[frozenset(side)] += 1
        out[byes[0].unit] += 1
    assert club_night.round_plan(t, 1)[0][2] == Table(1, 3, ("P9", "P10", "P12", "P11"), 0, ((9, 12), (10, 11)))
    assert set(partners) == {frozenset(p) for p in combinations(range(8, 13), 2)} and set(partners.values()) == {1}
    assert out == Counter(range(8, 13))


def test_players_changing_partners_at_a_table_of_six_in_three_pairs():
    """ "Players changing partners": a table of six plays five Partien in three pairs, every two players
    partners exactly once (6th & k, k+1 & k+4, k+2 & k+3); each pair to its side's seats."""
    t = tournament("rotation", players(14), draw_order=tuple(range(14)), table_rules={6: SIX_PAIRS})
    g = list(range(8, 14))
    first = club_night.round_plan(t, 1)[0][2]
    # Partie 1: g5 & g0 at seats 1 and 4, g1 & g4 at 2 and 5, g2 & g3 at 3 and 6
    assert first.units == ((g[5], g[0]), (g[1], g[4]), (g[2], g[3]))
    assert first.seats == tuple(f"P{u}" for u in (g[5], g[1], g[2], g[0], g[4], g[3]))
    partners = Counter(frozenset(side) for rnd in range(1, 6) for side in club_night.round_plan(t, rnd)[0][-1].units)
    assert set(partners) == {frozenset(p) for p in combinations(g, 2)} and set(partners.values()) == {1}
    trios = tournament("rotation", players(14), table_rules={6: club_night.TableRules("six-2x3", "6-trios")})
    assert club_night.table_rules_problem("rotation", 14, trios.table_rules).field == "rules_6"
