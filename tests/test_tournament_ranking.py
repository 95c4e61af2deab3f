"""Worked examples of a club night's ranking (``scorekeeper/core/club_night/ranking.py``): match points
and points, a game without a hand, a pair that sits out, the final table's qualifiers, shared places and
their season points, the season's table and its ladder.

Every expected value was worked out by hand from the rules as docs/tournaments.md states them (the
heading is cited beside each case), never copied from the code's output.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from fractions import Fraction

from scorekeeper.core import club_night
from scorekeeper.core.club_night import Bye, Place, Played, Table, TableState

START = datetime(2026, 11, 26, 19, 0)


def tournament(fmt: str, entrants, **fields) -> club_night.Tournament:
    values = dict(
        id=1,
        name="Club night",
        format=fmt,
        variant="classic",
        layout=None,
        settings={},
        house_rules_id=None,
        target=5000,
        round_end="target",
        round_hands=None,
        round_minutes=None,
        season_points=club_night.DEFAULT_SEASON_POINTS,
        entrants=tuple(tuple(e) for e in entrants),
        seed=7,
        drawn_at=None,
        closed_at=None,
        evening_id=1,
        version=1,
        created_at="2026-11-26T18:00:00",
    )
    values.update(fields)
    return club_night.Tournament(**values)


def players(count: int) -> list[tuple[str, ...]]:
    return [(f"P{i}",) for i in range(count)]


def mitchell(count, order, games, byes=(), **choices):
    """Pairs between tables: match points first, then points, then (two level) their own game."""
    return club_night.standings(count, order, games, byes, **choices, match_points_first=True, head_to_head=True)


def final_night(count: int, order, **fields) -> club_night.Tournament:
    """Tables with a final of ``count`` players (P0 …) drawn in ``order``."""
    return tournament("final", players(count), draw_order=tuple(order), **fields)


def lines(places) -> list[tuple[int, int]]:
    return [(p.place, p.unit) for p in places]


# --- Pairs moving between tables: match points, byes by average --------------------------------------


def test_mitchell_standings_with_byes_by_average():
    """ "Ranking and ties" and "A pair that sits out": match points (a win 2, a draw 1), then points; a bye
    counts the pair's average of its games: match points rounded down to a whole one, points rounded
    down to a multiple of 5."""
    d = [3, 0, 4, 1, 2]  # d[k]: the pair drawn (k + 1)-th; five pairs: d2, d3, d4 each sit one round out
    games = [
        Played(1, 1, ((d[0],), (d[2],)), (3000, 3000), 3),  # a draw
        Played(1, 2, ((d[1],), (d[3],)), (2200, 2600), 4),  # d3 beats d1
        Played(2, 1, ((d[0],), (d[4],)), (1500, 2635), 2),
        Played(2, 2, ((d[1],), (d[2],)), (2300, 1200), 3),
        Played(3, 1, ((d[0],), (d[3],)), (3400, 1815), 5),
        Played(3, 2, ((d[1],), (d[4],)), (2120, 1990), 2),
    ]
    byes = [Bye(1, d[4]), Bye(2, d[3]), Bye(3, d[2])]
    # d0: 1 + 0 + 2 = 3 mp, 3000 + 1500 + 3400 = 7900
    # d1: 0 + 2 + 2 = 4 mp, 2200 + 2300 + 2120 = 6620
    # d2: 1 + 0 = 1 mp in 2 games (average 0.5 → 0), 3000 + 1200 = 4200 (average 2100): 1 mp, 6300
    # d3: 2 + 0 = 2 mp in 2 games (average 1), 2600 + 1815 = 4415 (2207.5 → 2205): 3 mp, 6620
    # d4: 2 + 0 = 2 mp (average 1), 2635 + 1990 = 4625 (2312.5 → 2310): 3 mp, 6935
    assert mitchell(5, d, games, byes) == [
        Place(1, d[1], 4, 6620, 2, 3, 0),
        Place(2, d[0], 3, 7900, 1, 3, 0),
        Place(3, d[4], 3, 6935, 1, 2, 1),
        Place(4, d[3], 3, 6620, 1, 2, 1),
        Place(5, d[2], 1, 6300, 0, 2, 1),
    ]


def test_a_bye_no_longer_draws_level_with_a_win():
    """ "A pair that sits out": pair 0 won 2 of its 3 games and sat one round out; pair 1 won 3 of 4. As a
    win the bye drew pair 0 level on match points (6 each); by average it adds 4 / 3 → 1 match point."""
    games = [
        Played(1, 1, ((0,), (1,)), (3000, 2000), 2),
        Played(2, 1, ((0,), (2,)), (3000, 2000), 2),
        Played(3, 1, ((0,), (4,)), (2000, 3000), 2),
        Played(1, 2, ((1,), (2,)), (3000, 2000), 2),
        Played(2, 2, ((1,), (3,)), (3000, 2000), 2),
        Played(4, 2, ((1,), (4,)), (3000, 2000), 2),
    ]
    byes = [Bye(4, 0)]
    order = list(range(5))
    averaged = {p.unit: p for p in mitchell(5, order, games, byes)}
    # pair 0: 4 mp and 8000 in 3 games; the bye: 4 // 3 = 1 mp and 8000 / 3 = 2666.7 → 2665
    assert (averaged[0].match_points, averaged[0].points, averaged[0].byes) == (5, 10665, 1)
    assert (averaged[1].match_points, averaged[1].points) == (6, 11000) and averaged[1].place == 1
    as_win = {p.unit: p for p in mitchell(5, order, games, byes, bye_score="win")}
    assert (as_win[0].match_points, as_win[0].points) == (6, 10665)
    nothing = {p.unit: p for p in mitchell(5, order, games, byes, bye_score="nothing")}
    assert (nothing[0].match_points, nothing[0].points) == (4, 8000)


def test_a_bye_before_any_game_counts_once_the_pair_has_played():
    """ "A pair that sits out": a pair that sat out round 1 has no average yet: nothing counts for it and it
    stands after the pairs with a result; after its first game the bye counts that game's figures."""
    first = [Played(1, 1, ((0,), (1,)), (3000, 2000), 2)]
    ranked = mitchell(3, [0, 1, 2], first, [Bye(1, 2)])
    assert ranked == [Place(1, 0, 2, 3000, 1, 1), Place(2, 1, 0, 2000, 0, 1), Place(3, 2, 0, 0, 0, 0, 1)]
    # as a win, the bye counts its 2 match points at once (no points yet)
    as_win = mitchell(3, [0, 1, 2], first, [Bye(1, 2)], bye_score="win")
    assert as_win[1] == Place(2, 2, 2, 0, 0, 0, 1)
    # round 2: pair 2 beats pair 0 by 2520 to 1000: its bye adds 2 mp and 2520
    second = first + [Played(2, 1, ((0,), (2,)), (1000, 2520), 1)]
    ranked = mitchell(3, [0, 1, 2], second, [Bye(1, 2), Bye(2, 1)])
    # pair 1: lost 2000 in its game; its bye adds 0 mp and 2000
    assert ranked == [Place(1, 2, 4, 5040, 1, 1, 1), Place(2, 0, 2, 4000, 1, 2), Place(3, 1, 0, 4000, 0, 1, 1)]


def test_a_bye_after_losing_games_gives_the_average_rounded_down_below_zero():
    """ "A pair that sits out": pair 0 lost both its games, −130 and −125 (a side with cards in hand and no
    meld: docs/rules.md#classic › Card values); its bye by average adds 0 match points and −127.5
    rounded down to a multiple of 5: −130, never more than it averaged (127.5 would give 125)."""
    games = [
        Played(1, 1, ((0,), (1,)), (-130, 900), 1),
        Played(2, 1, ((0,), (2,)), (-125, 800), 1),
        Played(1, 2, ((2,), (3,)), (900, -125), 1),
        Played(2, 2, ((1,), (3,)), (800, 130), 1),
    ]
    ranked = {p.unit: p for p in mitchell(4, list(range(4)), games, [Bye(3, 0)])}
    assert (ranked[0].match_points, ranked[0].points, ranked[0].byes) == (0, -255 - 130, 1)
    won = [Played(1, 1, ((0,), (1,)), (130, -900), 1), Played(2, 1, ((0,), (2,)), (125, -800), 1)]
    assert {p.unit: p for p in mitchell(3, [0, 1, 2], won, [Bye(3, 0)])}[0].points == 255 + 125


# --- A game without a hand ---------------------------------------------------------------------------


def test_a_game_without_a_hand_counts_for_nobody():
    """ "Ranking and ties": a table that saved no hand gives no match point, no game played, no points;
    its players stand after everyone with a result, level with each other."""
    games = [Played(1, 1, ((0, 2), (1, 3)), (2600, 2400), 3), Played(1, 2, ((4, 6), (5, 7)), (0, 0), 0)]
    ranked = club_night.standings(8, list(range(8)), games)
    assert ranked[0] == Place(1, 0, 2, 2600, 1, 1, tied=2) and ranked[4] == Place(5, 4, 0, 0, 0, 0, tied=4)
    assert [(p.place, p.unit, p.match_points, p.played, p.tied) for p in ranked] == [
        (1, 0, 2, 1, 2),
        (1, 2, 2, 1, 2),
        (3, 1, 0, 1, 2),
        (3, 3, 0, 1, 2),
        (5, 4, 0, 0, 4),
        (5, 5, 0, 0, 4),
        (5, 6, 0, 0, 4),
        (5, 7, 0, 0, 4),
    ]
    by_lot = club_night.standings(8, list(range(8)), games, ties="lot")
    assert [p.place for p in by_lot] == list(range(1, 9)) and [p.unit for p in by_lot] == [0, 2, 1, 3, 4, 5, 6, 7]


# --- Shared places -----------------------------------------------------------------------------------


def test_mitchell_level_pairs_share_the_place():
    """ "Shared places": three pairs level on match points and points share a place (their games against
    each other do not count); two level pairs that drew their game share one too; by lot, the draw
    number orders them."""
    d = [4, 2, 5, 0, 3, 1]  # d[k]: the pair drawn (k + 1)-th; North–South d0, d1, d2
    games = [
        Played(1, 1, ((d[0],), (d[3],)), (2800, 2500), 2),
        Played(1, 2, ((d[1],), (d[4],)), (2600, 2000), 2),
        Played(1, 3, ((d[2],), (d[5],)), (2000, 3000), 2),
        Played(2, 1, ((d[0],), (d[5],)), (2700, 2000), 2),
        Played(2, 2, ((d[1],), (d[3],)), (2400, 2500), 2),  # d3 beats d1
        Played(2, 3, ((d[2],), (d[4],)), (1800, 1800), 2),  # a draw
    ]
    # d0: 4 mp 5500; d1, d3, d5: 2 mp 5000 each; d2, d4: 1 mp 3800 each
    shared = mitchell(6, d, games)
    assert [(p.place, p.unit, p.match_points, p.points, p.tied) for p in shared] == [
        (1, d[0], 4, 5500, 1),
        (2, d[1], 2, 5000, 3),
        (2, d[3], 2, 5000, 3),
        (2, d[5], 2, 5000, 3),
        (5, d[2], 1, 3800, 2),
        (5, d[4], 1, 3800, 2),
    ]
    by_lot = mitchell(6, d, games, ties="lot")
    assert [(p.place, p.unit, p.tied) for p in by_lot] == [
        (1, d[0], 1),
        (2, d[1], 1),
        (3, d[3], 1),
        (4, d[5], 1),
        (5, d[2], 1),
        (6, d[4], 1),
    ]


def test_two_level_pairs_the_one_that_won_their_game_first():
    """ "Ranking and ties": two pairs level on match points and points: the one that won their own game
    goes first, a place of its own; two that never met share the place."""
    d = [3, 1, 2, 0]
    met = [
        Played(1, 1, ((d[0],), (d[2],)), (2000, 3000), 1),
        Played(1, 2, ((d[1],), (d[3],)), (3000, 2000), 1),
        Played(2, 1, ((d[0],), (d[3],)), (3000, 2000), 1),
        Played(2, 2, ((d[1],), (d[2],)), (2000, 3000), 1),
    ]
    # d2 won both (4 mp 6000); d0 and d1 won one each (2 mp 5000), never met: level; d3 0 mp 4000
    assert lines(mitchell(4, d, met)) == [(1, d[2]), (2, d[0]), (2, d[1]), (4, d[3])]
    never = [Played(1, 1, ((d[0],), (d[2],)), (3000, 2000), 1), Played(1, 2, ((d[1],), (d[3],)), (3000, 2000), 1)]
    assert [(p.place, p.unit, p.tied) for p in mitchell(4, d, never)] == [
        (1, d[0], 2),
        (1, d[1], 2),
        (3, d[2], 2),
        (3, d[3], 2),
    ]
    # d0 and d1 level at 2 mp 3000; d0 beat d1 at their own table
    own = [Played(1, 1, ((d[0],), (d[1],)), (3000, 2000), 1), Played(2, 1, ((d[1],), (d[2],)), (1000, 0), 1)]
    own += [Played(2, 2, ((d[0],), (d[3],)), (0, 10), 1)]
    assert lines(mitchell(4, d, own))[:2] == [(1, d[0]), (2, d[1])]


def test_rotation_level_players_share_the_place():
    """ "Ranking and ties" and "Players changing partners": points (each player his side's total),
    then match points; level on both: one place shared."""
    d = [7, 5, 1, 0, 3, 6, 2, 4]  # d[k]: the player drawn (k + 1)-th; table 1: g0 … g3, table 2: h0 … h3
    g0, g1, g2, g3, h0, h1, h2, h3 = d
    games = [
        Played(1, 1, ((g0, g2), (g1, g3)), (2600, 2400), 3),
        Played(2, 1, ((g0, g1), (g2, g3)), (1800, 2000), 3),
        Played(3, 1, ((g0, g3), (g1, g2)), (1800, 1800), 3),
        Played(1, 2, ((h0, h2), (h1, h3)), (3200, 1800), 3),
        Played(2, 2, ((h0, h1), (h2, h3)), (1000, 1000), 3),
        Played(3, 2, ((h0, h3), (h1, h2)), (2000, 1700), 3),
    ]
    # g0 6200 3 mp, g1 6000 1, g2 6400 5, g3 6200 3; h0 6200 5, h1 4500 1, h2 5900 3, h3 4800 3
    assert [(p.place, p.unit, p.points, p.match_points, p.tied) for p in club_night.standings(8, d, games)] == [
        (1, g2, 6400, 5, 1),
        (2, h0, 6200, 5, 1),  # level on points with g0 and g3: more match points
        (3, g0, 6200, 3, 2),  # level with g3 on both: the place shared
        (3, g3, 6200, 3, 2),
        (5, g1, 6000, 1, 1),  # more points, fewer match points than h2: points first
        (6, h2, 5900, 3, 1),
        (7, h3, 4800, 3, 1),
        (8, h1, 4500, 1, 1),
    ]
    assert [p.place for p in club_night.standings(8, d, games, ties="lot")] == list(range(1, 9))


# --- Tables with a final -----------------------------------------------------------------------------


def test_qualifiers_by_their_lead_per_hand():
    """ "Tables with a final": each table's winning pair qualifies (a drawn table: the side whose first
    player was drawn first); they rank by their lead per hand, whatever the number of hands their table
    got in; a table without a hand sends nobody. The two best meet at the final table, the better at
    seats 1 and 3, dealing first."""
    order = list(range(12))  # player i drawn (i + 1)-th
    games = [
        Played(1, 1, ((0, 2), (1, 3)), (5100, 2000), 4),  # 0 & 2 lead by 3100 in 4 hands: 775 a hand
        Played(1, 2, ((4, 6), (5, 7)), (1200, 3400), 2),  # 5 & 7 lead by 2200 in 2 hands: 1100 a hand
        Played(1, 3, ((8, 10), (9, 11)), (0, 0), 0),  # no hand: nobody qualifies
    ]
    assert club_night.lead_per_hand(games[0]) == 775 and club_night.lead_per_hand(games[1]) == 1100
    assert club_night.qualifiers(order, games) == [(5, 7), (0, 2)]
    assert club_night.final_table(final_night(12, order), games) == Table(
        2, 1, ("P5", "P0", "P7", "P2"), 0, ((5, 7), (0, 2))
    )
    drawn = [Played(1, 1, ((1, 3), (0, 2)), (3000, 3000), 3), Played(1, 2, ((4, 6), (5, 7)), (3100, 3000), 4)]
    # a drawn table: 0 & 2 (drawn 1st) qualify with a lead of 0; 4 & 6 lead by 25 a hand
    assert club_night.qualifiers(order, drawn) == [(4, 6), (0, 2)]
    # level on the lead per hand: the draw number (the final table cannot be shared)
    level = [Played(1, 1, ((8, 10), (9, 11)), (900, 300), 2), Played(1, 2, ((4, 6), (5, 7)), (900, 0), 3)]
    assert club_night.qualifiers(order, level) == [(4, 6), (8, 10)]
    assert club_night.qualifiers(list(range(11, -1, -1)), level) == [(8, 10), (4, 6)]
    assert club_night.final_table(final_night(12, order), games[:1] + games[2:]) is None  # one table played: no final


def test_final_places_with_a_table_that_saved_no_hand():
    """ "Tables with a final": before the final the qualifiers lead by their lead per hand, the other pairs
    follow by points, the pairs of a table without a hand last, level; the final's winners 1st, its other
    pair 2nd, a finalist's figures adding both rounds."""
    order = list(range(12))
    pairs = [(0, 2), (1, 3), (4, 6), (5, 7), (8, 10), (9, 11)]
    first = [
        Played(1, 1, ((0, 2), (1, 3)), (5100, 2000), 4),
        Played(1, 2, ((4, 6), (5, 7)), (1200, 3400), 2),
        Played(1, 3, ((8, 10), (9, 11)), (0, 0), 0),
    ]
    before = club_night.final_places(final_night(12, order), first, pairs)
    assert [(p.place, p.unit, p.tied) for p in before] == [
        (1, 5, 1),
        (1, 7, 1),
        (2, 0, 1),
        (2, 2, 1),
        (3, 1, 1),
        (3, 3, 1),
        (4, 4, 1),
        (4, 6, 1),
        (5, 8, 2),
        (5, 10, 2),
        (5, 9, 2),
        (5, 11, 2),
    ]
    # a qualifier's lead per hand stands with it: 5 & 7 led by 2200 in 2 hands
    assert before[0] == Place(1, 5, 2, 3400, 1, 1, line=0, lead=1100)
    assert before[-1] == Place(5, 11, 0, 0, 0, 0, tied=2, line=5)
    # partners stand on one line: six sides, six lines
    assert [[p.unit for p in line] for line in club_night.place_lines(before)] == [
        [5, 7],
        [0, 2],
        [1, 3],
        [4, 6],
        [8, 10],
        [9, 11],
    ]
    final = first + [Played(2, 1, ((5, 7), (0, 2)), (3000, 5050), 3)]
    after = club_night.final_places(final_night(12, order), final, pairs)
    assert lines(after)[:4] == [(1, 0), (1, 2), (2, 5), (2, 7)]
    # 0 & 2: won 5100 and 5050: 4 mp 10150 in 2 games; 5 & 7: won 3400, lost 3000: 2 mp 6400
    assert after[0] == Place(1, 0, 4, 10150, 2, 2, line=0, lead=775)
    assert after[2] == Place(2, 5, 2, 6400, 1, 2, line=1, lead=1100)
    # a drawn final: the better qualifier (5 & 7) first
    drawn = club_night.final_places(
        final_night(12, order), first + [Played(2, 1, ((5, 7), (0, 2)), (4000, 4000), 3)], pairs
    )
    assert lines(drawn)[:4] == [(1, 5), (1, 7), (2, 0), (2, 2)]


def test_final_places_shared_and_their_season_points():
    """ "Shared places" and "Season points": two qualifiers level on their lead per hand share 1st place
    before the final (the draw seats the one drawn first at seats 1 and 3); three pairs level on points
    and match points share 4th. Each player of a pair sharing places 1 and 2 gets (10 + 8) / 2 = 9
    season points; of three pairs sharing 4 to 6, (5 + 4 + 3) / 3 = 4."""
    order = list(range(12))
    games = [
        Played(1, 1, ((0, 2), (1, 3)), (3000, 2500), 2),  # 500 in 2: 250 a hand
        Played(1, 2, ((4, 6), (5, 7)), (2500, 3100), 2),  # 600 in 2: 300 a hand
        Played(1, 3, ((8, 10), (9, 11)), (2800, 2500), 1),  # 300 in 1: 300 a hand
    ]
    places = club_night.final_places(final_night(12, order), games)
    assert [(p.place, p.unit, p.tied) for p in places] == [
        (1, 5, 2),
        (1, 7, 2),
        (1, 8, 2),
        (1, 10, 2),
        (3, 0, 1),
        (3, 2, 1),
        (4, 1, 3),
        (4, 3, 3),
        (4, 4, 3),
        (4, 6, 3),
        (4, 9, 3),
        (4, 11, 3),
    ]
    assert club_night.final_table(final_night(12, order), games).units == ((5, 7), (8, 10))
    table = club_night.DEFAULT_SEASON_POINTS
    assert [club_night.season_points(p.place, table, p.tied) for p in places[::2]] == [9, 9, 6, 4, 4, 4]
    # the final drawn, the two still level on their lead per hand: they share 1st
    drawn = club_night.final_places(final_night(12, order), games + [Played(2, 1, ((5, 7), (8, 10)), (2000, 2000), 2)])
    assert [(p.place, p.tied) for p in drawn[:4]] == [(1, 2)] * 4
    by_lot = club_night.final_places(final_night(12, order, ties="lot"), games)
    assert [(p.place, p.unit) for p in by_lot[::2]] == [(1, 5), (2, 8), (3, 0), (4, 1), (5, 4), (6, 9)]


def test_a_final_tournament_with_a_silent_table():
    """ "Tables with a final": live, a table with no hand saved yet gives its pairs nothing and no
    qualifier; when only one table saved a hand there is no final table to start."""
    t = tournament("final", players(8), draw_order=tuple(range(8)))
    one, two = club_night.next_tables(t, [])
    states = [
        TableState(1, 1, 101, one.units, one.seats, (5050, 1000), (START + timedelta(minutes=30),), True),
        TableState(1, 2, 102, two.units, two.seats, (0, 0), (), False),
    ]
    live = club_night.round_state(t, 1, START, None, states)
    assert [(p.place, p.unit, p.played, p.tied) for p in club_night.ranking(t, [live])] == [
        (1, 0, 1, 1),
        (1, 2, 1, 1),
        (2, 1, 1, 1),
        (2, 3, 1, 1),
        (3, 4, 0, 2),
        (3, 6, 0, 2),
        (3, 5, 0, 2),
        (3, 7, 0, 2),
    ]
    ended = club_night.round_state(t, 1, START, START + timedelta(minutes=40), states)
    assert club_night.next_tables(t, [ended]) == []
    problem = club_night.start_problem(t, [ended])
    assert problem is not None and "no final table" in problem.text


# --- Season points and the season's table ------------------------------------------------------------


def test_season_points_split_where_places_are_shared():
    """ "Season points": the table's points for places 1 …, none beyond it; entrants sharing places split
    the points of the places they hold evenly."""
    table = club_night.DEFAULT_SEASON_POINTS
    assert [club_night.season_points(place, table) for place in range(1, 11)] == [10, 8, 6, 5, 4, 3, 2, 1, 0, 0]
    assert club_night.season_points(2, table, 2) == 7  # (8 + 6) / 2
    assert club_night.season_points(5, table, 2) == Fraction(7, 2)  # (4 + 3) / 2
    assert club_night.season_points(8, table, 2) == Fraction(1, 2)  # (1 + 0) / 2
    assert club_night.season_points(1, (25, 18, 15), 3) == Fraction(58, 3)
    assert club_night.season_points(0, table) == 0 and club_night.season_points(1, ()) == 0
    assert [club_night.points_text(x) for x in (7, Fraction(7, 2), Fraction(58, 3), Fraction(1, 2))] == [
        "7",
        "3.5",
        "19.33",
        "0.5",
    ]


def _closed(tid: int, names: str, places: list[tuple[int, int, int]]) -> tuple[club_night.Tournament, list[Place]]:
    """A closed tournament of single players (``names``, one letter each) and its places (place, unit, tied)."""
    t = tournament("rotation", [(n,) for n in names], id=tid, closed_at="2026-11-26T23:00:00")
    return t, [Place(place, unit, 0, 0, 0, 1, 0, tied) for place, unit, tied in places]


def test_the_seasons_table_shares_ranks_and_keeps_a_ladder():
    """ "Season points": summed per player, ranked by points, then first places, then evenings played;
    level on all three, the rank is shared. A ladder counts only each player's best N evenings and ranks
    only players with at least M."""
    results = [
        _closed(3, "ABCE", [(1, 2, 1), (2, 3, 1), (3, 0, 1), (4, 1, 1)]),  # C 10, E 8, A 6, B 5
        _closed(2, "ABCD", [(1, 1, 1), (2, 0, 1), (3, 3, 1), (4, 2, 1)]),  # B 10, A 8, D 6, C 5
        _closed(1, "ABCD", [(1, 0, 1), (2, 1, 2), (2, 2, 2), (4, 3, 1)]),  # A 10, B and C 7 each, D 5
    ]
    # A 24 (1 first), B 22 (1 first, 3 evenings), C 22 (1 first, 3 evenings), D 11, E 8
    rows = club_night.season_table(results)
    assert [(r.place, r.name, r.points, r.played, r.firsts, r.tied) for r in rows] == [
        (1, "A", 24, 3, 1, 1),
        (2, "B", 22, 3, 1, 2),
        (2, "C", 22, 3, 1, 2),
        (4, "D", 11, 2, 0, 1),
        (5, "E", 8, 1, 0, 1),
    ]
    # the best two evenings: A 10 + 8, B 10 + 7, C 10 + 7, D 6 + 5, E 8; E below a minimum of 2 evenings
    ladder = club_night.season_table(results, best=2, minimum=2)
    assert [(r.place, r.name, r.points, r.counted) for r in ladder] == [
        (1, "A", 18, (1, 2)),
        (2, "B", 17, (2, 1)),
        (2, "C", 17, (3, 1)),
        (4, "D", 11, (2, 1)),
        (None, "E", 8, (3,)),
    ]
    # the best evening only: A, B and C 10 each, one first each, three evenings each: 1st shared by three
    best = club_night.season_table(results, best=1)
    assert [(r.place, r.name, r.points, r.tied) for r in best] == [
        (1, "A", 10, 3),
        (1, "B", 10, 3),
        (1, "C", 10, 3),
        (4, "E", 8, 1),
        (5, "D", 6, 1),
    ]


# --- The final table at tables of five and six --------------------------------------------------------

FIVE = club_night.TableRules("austrian", "5")  # a pair (seats 1, 2) against three (seats 3, 4, 5)
SIX_PAIRS = club_night.TableRules("six-3x2", "6-pairs")  # three partnerships: seats 1 & 4, 2 & 5, 3 & 6
SIX_TRIOS = club_night.TableRules("six-2x3", "6-trios")  # two teams of three: seats 1, 3, 5 against 2, 4, 6


def test_a_pair_and_three_meet_at_a_final_table_of_five():
    """ "Tables with a final": 9 players at a table of four and one of five; the three win at the table of
    five (lead 900 in 3 hands: 300 a hand), the pair at the table of four (lead 500 in 2: 250): both go
    to the final, a table of five (a pair against three); the better qualifier, the three, is seated on
    its side first and deals."""
    t = final_night(9, range(9), table_rules={5: FIVE})
    games = [Played(1, 1, ((0, 2), (1, 3)), (3000, 2500), 2), Played(1, 2, ((4, 5), (6, 7, 8)), (2100, 3000), 3)]
    assert club_night.qualifiers(t.order, games) == [(6, 7, 8), (0, 2)]
    assert club_night.final_table(t, games) == Table(2, 1, ("P0", "P2", "P6", "P7", "P8"), 2, ((0, 2), (6, 7, 8)))


def test_three_table_winners_meet_at_a_final_table_of_six():
    """ "Tables with a final": three tables send three pairs; with six players in three pairs they all play
    the final, the best at seats 1 and 4 dealing first; with six played in two teams of three they do not
    fit it: the two best pairs meet at a table of four."""
    games = [
        Played(1, 1, ((0, 2), (1, 3)), (3000, 2500), 2),  # 0 & 2: 250 a hand
        Played(1, 2, ((4, 6), (5, 7)), (2500, 3100), 2),  # 5 & 7: 300 a hand
        Played(1, 3, ((8, 10), (9, 11)), (2000, 3600), 4),  # 9 & 11: 400 a hand
    ]
    pairs = club_night.final_table(final_night(12, range(12), table_rules={6: SIX_PAIRS}), games)
    assert pairs == Table(2, 1, ("P9", "P5", "P0", "P11", "P7", "P2"), 0, ((9, 11), (5, 7), (0, 2)))
    trios = club_night.final_table(final_night(12, range(12), table_rules={6: SIX_TRIOS}), games)
    assert trios == Table(2, 1, ("P9", "P5", "P11", "P7"), 0, ((9, 11), (5, 7)))
    # the final of three pairs played: its sides by their totals, places 1 to 3; then the last qualifier's
    # table… all three qualified, so the other pairs by points
    final = Played(2, 1, ((9, 11), (5, 7), (0, 2)), (1500, 2600, 2600), 3)
    places = club_night.final_places(final_night(12, range(12), table_rules={6: SIX_PAIRS}), games + [final])
    # 5 & 7 and 0 & 2 share the most points: 5 & 7 had the better lead per hand; 9 & 11 third
    assert [(p.place, p.unit) for p in places[:6]] == [(1, 5), (1, 7), (2, 0), (2, 2), (3, 9), (3, 11)]
    # a final shared at the top: 1 match point each; 5 & 7 add both rounds: 2 + 1 mp, 3100 + 2600
    assert (places[0].match_points, places[0].points, places[0].won, places[0].played) == (3, 5700, 1, 2)


def test_players_changing_partners_at_tables_of_four_and_five_rank_by_points_per_partie():
    """ "Players changing partners": 9 players at a table of four (three Partien) and one of five (five
    Partien, each sits one out: four played). The first side wins every Partie 200 to 100. At the table
    of four the player drawn first is on the first side all three times: 600 in 3, 200 a Partie; the
    other three 400 in 3 (133.3). At the table of five each player is on the first side in two of the four
    Partien he plays: 600 in 4, 150 a Partie. By points per Partie he is first, the five share 2nd, the
    other three share 7th."""
    t = tournament("rotation", players(9), draw_order=tuple(range(9)))
    games = [
        Played(rnd, table.table, table.units, (200, 100), 1)
        for rnd in range(1, t.rounds + 1)
        for table in club_night.round_plan(t, rnd)[0]
    ]
    assert t.rounds == 5 and len(games) == 3 + 5
    ranked = club_night.standings(9, t.order, games, per_game=True)
    assert [(p.place, p.unit, p.points, p.played, p.tied) for p in ranked] == [
        (1, 0, 600, 3, 1),
        (2, 4, 600, 4, 5),
        (2, 5, 600, 4, 5),
        (2, 6, 600, 4, 5),
        (2, 7, 600, 4, 5),
        (2, 8, 600, 4, 5),
        (7, 1, 400, 3, 3),
        (7, 2, 400, 3, 3),
        (7, 3, 400, 3, 3),
    ]
    # by totals he would be level with the five on points (600), ahead only by match points (6 to 4)
    by_totals = club_night.standings(9, t.order, games)
    assert [(p.points, p.match_points) for p in by_totals[:2]] == [(600, 6), (600, 4)]


def test_points_per_partie_are_rounded_one_way_a_half_up():
    """docs/tournaments.md, "Ranking and ties": points per Partie as the standings write them; a club
    night saw 1490 in 4 Partien written 372 and 755 in 2 written 378 (Python rounds a half to even)."""
    assert club_night.per_game(1490, 4) == 373 and club_night.per_game(755, 2) == 378
    assert club_night.per_game(600, 3) == 200 and club_night.per_game(-30, 4) == -7  # −7.5: a half up
