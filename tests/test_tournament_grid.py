"""The director's grid (docs/tournaments.md): tables down, rounds across, each cell's sides, totals, hands
and state, the missing results, a bye; its page (404s, a locked phone, the link from the organiser's
page); a hand the organiser enters or corrects from it, on record as the organiser's (the form, the
phone's queue, the change log, an export).

The core's worked examples seat the entrants in the order they are listed (the draw kept as 0, 1, 2 …):
Mitchell's North–South pairs are the first half, East–West pair k sits at table k + round − 1 (counted
round), the last table of an odd number of pairs has no North–South pair (docs/tournaments.md, "Pairs
moving between tables"); tables of four seat players 1 to 4 at table 1, seats 1 and 3 partners."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime, timedelta, timezone

import pytest

from scorekeeper.core import club_night
from scorekeeper.core.club_night import grid as grids
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, quick_hash, win_hand
from tests.test_tournaments import act, create, four_pairs, small_hand, started, state, table_game

START = datetime(2026, 11, 26, 19, 0, tzinfo=timezone.utc)


def at(m: float) -> datetime:
    """``m`` minutes after the round's start."""
    return START + timedelta(minutes=m)


def tournament(fmt: str, entrants, round_end: str = "target", **fields) -> club_night.Tournament:
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
        seed=7,
        drawn_at="2026-11-26T18:50:00",
        closed_at=None,
        evening_id=1,
        version=1,
        created_at="2026-11-26T18:00:00",
        draw_order=tuple(range(len(entrants))),
    )
    values.update(fields)
    return club_night.Tournament(**values)


def played(t, number: int, table: int, saved=(), totals=(0, 0), finished=False, ids=None) -> club_night.TableState:
    """Table ``table`` of round ``number`` as the movement seats it, with hands saved at these minutes."""
    seating = next(x for x in club_night.round_plan(t, number)[0] if x.table == table)
    ids = tuple(ids or range(1, len(saved) + 1))
    return club_night.TableState(
        number,
        table,
        100 * number + table,
        seating.units,
        seating.seats,
        totals,
        tuple(at(m) for m in saved),
        finished,
        hand_ids=ids,
        ended_by=ids[-1] if finished else None,
    )


def view(g: grids.Grid) -> list[list[tuple]]:
    """The grid as (state, sides as "A & B", totals, hands, missing) per cell, None where no table plays."""
    return [
        [None if c is None else (c.state, [" & ".join(s) for s in c.sides], c.totals, c.hands, c.missing) for c in row]
        for row in g.rows
    ]


PAIRS = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal"), ("Ida", "Jon")]


# --- the core: worked examples ----------------------------------------------------------------------


def test_mitchell_with_a_bye_rounds_ahead_are_seated_and_the_empty_table_sits_out():
    """Five pairs: North–South Ann & Bob (table 1), Cid & Dee (table 2), none at table 3; East–West
    Eve & Fay, Gus & Hal, Ida & Jon start at tables 1, 2, 3 and move up a table each round. Round 1
    at the target, table 1 has saved two hands (300 : 150), table 2 none: both playing, nothing missing."""
    t = tournament("mitchell", PAIRS)
    r1 = club_night.round_state(t, 1, START, None, [played(t, 1, 1, (10, 20), (300, 150)), played(t, 1, 2)])
    g = grids.grid(t, [r1], at(30))
    assert (g.rounds, len(g.rows)) == (3, 3)
    assert view(g) == [
        [
            ("playing", ["Ann & Bob", "Eve & Fay"], (300, 150), 2, None),
            ("not started", ["Ann & Bob", "Ida & Jon"], None, 0, None),
            ("not started", ["Ann & Bob", "Gus & Hal"], None, 0, None),
        ],
        [
            ("playing", ["Cid & Dee", "Gus & Hal"], (0, 0), 0, None),
            ("not started", ["Cid & Dee", "Eve & Fay"], None, 0, None),
            ("not started", ["Cid & Dee", "Ida & Jon"], None, 0, None),
        ],
        [
            ("sits out", ["Ida & Jon"], None, 0, None),
            ("sits out", ["Gus & Hal"], None, 0, None),
            ("sits out", ["Eve & Fay"], None, 0, None),
        ],
    ]
    assert g.missing == [] and g.rows[0][0].game_id == 101 and g.rows[0][1].game_id is None


def test_a_round_on_time_stops_then_each_table_is_finished_or_missing_its_result():
    """Players changing partners, 12 players, 50 minutes a round (docs/tournaments.md, "When a round
    ends"): the round stops at 19:50 for everyone. Table 1 saved hands at 19:20 and 19:45 (the hand in
    progress at 19:50 is missing), table 2 at 19:10 and 19:52 (its last hand: finished), table 3 none."""
    t = tournament("rotation", [(f"P{i}",) for i in range(12)], round_end="minutes", round_minutes=50)
    tables = [played(t, 1, 1, (20,), (200, 150)), played(t, 1, 2, (10,), (100, 300)), played(t, 1, 3)]
    r1 = club_night.round_state(t, 1, START, None, tables)  # at 19:40
    before = grids.grid(t, [r1], at(40))
    assert [row[0].state for row in before.rows] == ["playing"] * 3 and before.missing == []
    assert grids.next_change([r1], at(40)) == 601  # the stop in ten minutes, and a second to be sure
    tables = [played(t, 1, 1, (20, 45), (400, 300)), played(t, 1, 2, (10, 52), (250, 600)), played(t, 1, 3)]
    r1 = club_night.round_state(t, 1, START, None, tables)  # at 19:55
    after = grids.grid(t, [r1], at(55))
    assert [row[0][:1] + row[0][3:] for row in view(after)] == [
        ("stopped", 2, "last hand"),
        ("finished", 2, None),
        ("stopped", 0, "no hand"),
    ]
    assert [(c.round, c.table, c.missing) for c in after.missing] == [(1, 1, "last hand"), (1, 3, "no hand")]
    assert grids.next_change([r1], at(55)) is None
    # the partners change each Partie at a table of four: P0 & P2, then P0 & P1, then P0 & P3
    assert [view(after)[0][r][1] for r in range(3)] == [
        ["P0 & P2", "P1 & P3"],
        ["P0 & P1", "P2 & P3"],
        ["P0 & P3", "P1 & P2"],
    ]


def test_a_round_ended_by_the_organiser_leaves_a_table_without_a_hand_missing():
    """The organiser ended round 1 at 19:40: table 1 (two hands) is finished; table 2, which saved
    nothing, is over (not "finished": nothing finished there) and its result is missing."""
    t = tournament("mitchell", PAIRS[:4])
    r1 = club_night.round_state(t, 1, START, at(40), [played(t, 1, 1, (10, 30), (500, 100)), played(t, 1, 2)])
    g = grids.grid(t, [r1], at(41))
    assert [row[0][:1] + row[0][3:] for row in view(g)] == [("finished", 2, None), ("over", 0, "no hand")]
    assert [(c.round, c.table) for c in g.missing] == [(1, 2)]


def test_the_final_table_is_unknown_until_the_first_round_is_over_then_its_pairs_show():
    """Tables with a final, 8 players (table 1: P0 P1 P2 P3, table 2: P4 … P7). Table 1 reaches the target
    with its second hand (hand 3, at 19:30): the round stops for table 2, which saved hand 2 at 19:20 and
    now owes the hand in progress. The final table: "the tables' winners", no sides yet, and no
    game at table 2 in round 2. Table 2 saves hand 4 (19:35; 900 : 2000): the final table is P0 & P2
    (5050, the better pair, seats 1 and 3) against P5 & P7 (2000)."""
    t = tournament("final", [(f"P{i}",) for i in range(8)])
    first = played(t, 1, 1, (10, 30), (5050, 1200), finished=True, ids=(1, 3))
    stopped = club_night.round_state(t, 1, START, None, [first, played(t, 1, 2, (20,), (400, 900), ids=(2,))])
    g = grids.grid(t, [stopped], at(32))
    assert view(g) == [
        [("finished", ["P0 & P2", "P1 & P3"], (5050, 1200), 2, None), ("not started", [], None, 0, None)],
        [("stopped", ["P4 & P6", "P5 & P7"], (400, 900), 1, "last hand"), None],
    ]
    over = club_night.round_state(t, 1, START, None, [first, played(t, 1, 2, (20, 35), (900, 2000), ids=(2, 4))])
    g = grids.grid(t, [over], at(36))
    assert view(g)[0][1] == ("not started", ["P0 & P2", "P5 & P7"], None, 0, None)
    assert view(g)[1] == [("finished", ["P4 & P6", "P5 & P7"], (900, 2000), 2, None), None]
    assert g.missing == []


def test_before_the_draw_the_grid_has_no_rows():
    t = tournament("mitchell", PAIRS, seed=None, draw_order=None)
    assert grids.grid(t, [], START) == grids.Grid(3, ())


# --- the page -----------------------------------------------------------------------------------------


def cell(page: str, number: int, table: int) -> str:
    """A cell's words as the page shows them (tags dropped, spaces folded)."""
    found = re.search(rf'<td class="([^"]*)" id="g-{number}-{table}">(.*?)</td>', page, re.S)
    assert found, f"no cell for round {number}, table {table}"
    words = html.unescape(re.sub(r"<[^>]+>", " ", found.group(2)))
    return found.group(1) + " | " + " ".join(words.split())


def _back_dated(app, tid, round_minutes, game, hand_minutes):
    """The tournament's rounds started, and the game's hands saved, that many minutes ago."""

    def ago(minutes):
        return (datetime.now(timezone.utc) - timedelta(minutes=minutes)).isoformat(timespec="seconds")

    with app.app_context():
        db = dbmod.get_db()
        with db.conn:
            db.execute("update tournament_rounds set started_at = ? where tournament_id = ?", [ago(round_minutes), tid])
            db.execute("update hands set created_at = ? where game_id = ?", [ago(hand_minutes), game])


FIVE_PAIRS = "\n".join(" & ".join(p) for p in PAIRS)


def test_the_page_shows_each_state_the_missing_results_and_a_bye(client, app):
    tid = started(client, format="mitchell", entrants=FIVE_PAIRS, round_end="minutes", round_minutes="50")
    t, rounds = state(app, tid)
    ns = {n: t.names[u] for n, u in ((1, t.order[0]), (2, t.order[1]))}  # North–South stay at tables 1 and 2
    first = table_game(client, tid, 1)
    post_hand(client, first, *small_hand())
    page = client.get(f"/tournaments/{tid}/grid").text
    assert re.search(r'data-refresh-in="(29\d\d|3000|3001)"', page)  # the stop in 50 minutes
    assert cell(page, 1, 1).startswith("g-cell g-playing | Round 1, table 1:") and "150 " in cell(page, 1, 1)
    assert "► playing · 1 hand" in cell(page, 1, 1) and ns[1] in cell(page, 1, 1)
    assert "playing · 0 hands" in cell(page, 1, 2) and "⚠" not in cell(page, 1, 2)
    assert cell(page, 1, 3) == f"g-cell g-sits-out | {t.names[rounds[0].byes[0].unit]} – sits out"
    # the row of who sits out is no table with a phone or a QR code: its head says so (a review)
    heads = [
        " ".join(re.sub(r"<[^>]+>", " ", h).split())
        for h in re.findall(r'<th scope="row" class="g-no">(.*?)</th>', page)
    ]
    assert heads == ["1", "2", "3 no table: who sits out"]
    assert cell(page, 2, 1).startswith("g-cell g-not-started |") and "○ not started" in cell(page, 2, 1)
    assert "hand" not in cell(page, 2, 1) and ns[1] in cell(page, 2, 1)
    assert "result missing" not in page and "results missing" not in page

    _back_dated(app, tid, 51, first, 30)  # time is up: table 1 owes its hand in progress, table 2 any hand
    page = client.get(f"/tournaments/{tid}/grid").text
    assert "data-refresh-in" not in page
    assert "g-missing" in cell(page, 1, 1) and "■ stopped · 1 hand ⚠ last hand not saved yet" in cell(page, 1, 1)
    assert "■ stopped ⚠ no hand saved" in cell(page, 1, 2)  # no "0 hands" beside "no hand saved"
    missing = re.search(r'<section class="g-missing-list".*?</section>', page, re.S).group(0)
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", missing)).split())
    assert said == "⚠ 2 results missing Round 1, table 1 : last hand not saved yet Round 1, table 2 : no hand saved"

    post_hand(client, first, *small_hand())  # the hand in progress
    assert act(client, tid, "/rounds/1/end").status_code == 302  # table 2 never saved one
    page = client.get(f"/tournaments/{tid}/grid").text
    assert "✓ finished · 2 hands" in cell(page, 1, 1) and "g-missing" not in cell(page, 1, 1)
    assert "■ over ⚠ no hand saved" in cell(page, 1, 2)  # nothing finished there: not "✓ finished"
    assert "finished" not in cell(page, 1, 2) and "hands" not in cell(page, 1, 2)
    assert "1 result missing" in page


def test_the_final_tables_cell_waits_for_the_first_round(client, app):
    tid = started(client)  # tables with a final, 8 players, to the target (Classic, 5000)
    page = client.get(f"/tournaments/{tid}/grid").text
    assert "the tables' winners ○ not started" in cell(page, 2, 1)
    assert re.search(r'<td class="g-cell g-none">.*?no table this round</span></td>', page)
    assert "the final table" in page
    first, second = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, first, *win_hand())
    post_hand(client, first, *win_hand())  # 8000: table 1 has reached the target, table 2 must finish its hand
    page = client.get(f"/tournaments/{tid}/grid").text
    assert "the tables' winners" in cell(page, 2, 1) and "■ stopped ⚠ no hand saved" in cell(page, 1, 2)
    post_hand(client, second, *small_hand())
    t, rounds = state(app, tid)
    final = club_night.next_tables(t, rounds)[0]
    page = client.get(f"/tournaments/{tid}/grid").text
    for side in (0, 1):
        assert " & ".join(t.side_players(final, side)) in cell(page, 2, 1)
    assert "the tables' winners" not in cell(page, 2, 1) and "result missing" not in page


def test_the_organisers_page_links_the_grid_once_the_seats_are_drawn(client):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    assert f"/tournaments/{tid}/grid" not in client.get(f"/tournaments/{tid}").text
    assert "Draw the seats first" in client.get(f"/tournaments/{tid}/grid").text
    act(client, tid, "/draw")
    assert f'href="/tournaments/{tid}/grid"' in client.get(f"/tournaments/{tid}").text
    page = client.get(f"/tournaments/{tid}/grid").text
    assert "○ not started" in cell(page, 1, 1) and "The round has not started yet" in page
    assert f'data-version-url="/tournaments/{tid}/standings/version"' in page and "/static/grid.js" in page
    assert "<script>" not in page  # the page's script is a file (the CSP forbids inline script)


def test_unknown_tournaments_and_games_of_another_are_not_found(client, app):
    tid = started(client)
    other = started(client, name="Other night")
    assert client.get("/tournaments/999/grid").status_code == 404
    assert client.get(f"/tournaments/999/grid/games/{table_game(client, tid, 1)}").status_code == 404
    assert client.get(f"/tournaments/{tid}/grid/games/{table_game(client, other, 1)}").status_code == 404
    assert client.get(f"/tournaments/{tid}/grid/games/99999999999999999999").status_code == 404
    assert client.get(f"/tournaments/{tid}/grid/games/{table_game(client, tid, 1)}").status_code == 302
    # a 404 marks nothing: the other tournament's game takes the phone's own hands
    assert 'name="by"' not in client.get(f"/games/{table_game(client, other, 1)}/hands/new").text


def test_a_locked_phone_sees_no_grid(tmp_path):
    app = make_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "l.sqlite"), "PASSWORD_HASH": quick_hash("pw")}
    )
    owner = app.test_client()
    owner.post("/login", data={"csrf_token": csrf_token(owner, "/login"), "password": "pw"})
    tid = started(owner, name="Secret night")
    game = table_game(owner, tid, 1)
    stranger = app.test_client()
    for url in (f"/tournaments/{tid}/grid", f"/tournaments/{tid}/grid/games/{game}"):
        answer = stranger.get(url)
        assert answer.status_code == 302 and answer.headers["Location"].startswith("/login"), url
        assert "Secret night" not in answer.text
    assert 'name="by"' not in stranger.get(f"/games/{game}/hands/new", follow_redirects=True).text
    assert "Secret night" in owner.get(f"/tournaments/{tid}/grid").text


# --- the organiser's hand -------------------------------------------------------------------------------


def _changes(client, game) -> list[str]:
    """The change log page's lines, newest first, in words."""
    page = client.get(f"/games/{game}/changes").text
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", li)).split()) for li in re.findall(r"<li>(.*?)</li>", page, re.S)
    ]


def test_a_hand_entered_from_the_grid_is_on_record_as_the_organisers(client, app):
    tid = started(client)
    game = table_game(client, tid, 1)
    phone = app.test_client()  # the table's own phone
    assert phone.get(f"/games/{game}/hands/new").status_code == 200
    assert f'href="/tournaments/{tid}/grid/games/{game}"' in client.get(f"/tournaments/{tid}/grid").text
    opened = client.get(f"/tournaments/{tid}/grid/games/{game}")
    assert opened.status_code == 302 and opened.headers["Location"] == f"/games/{game}"
    form = client.get(f"/games/{game}/hands/new").text
    assert '<input type="hidden" name="by" value="organiser">' in form
    assert "From the director's grid: this hand goes on record as the organiser's." in html.unescape(form)
    assert 'name="by"' not in phone.get(f"/games/{game}/hands/new").text  # the table's phone: its own
    # the sheet the tap opened says so too, with the way back; the table's phone's sheet does not (the
    # sheet is rendered once per change for every phone: the organiser's copy is kept apart)
    said = "Opened from the director's grid: a hand entered or corrected here goes on record as the organiser's."
    sheet = html.unescape(client.get(f"/games/{game}").text)
    assert said in sheet and f'href="/tournaments/{tid}/grid">← The director\'s grid</a>' in sheet
    assert said not in html.unescape(phone.get(f"/games/{game}").text)
    assert said in html.unescape(client.get(f"/games/{game}").text)  # and the table's copy did not replace it
    other = table_game(client, tid, 2)
    assert said not in html.unescape(client.get(f"/games/{other}").text)  # a game not opened from the grid

    assert post_hand(client, game, *small_hand(), extra={"by": "organiser"}).status_code == 302
    assert post_hand(phone, game, *small_hand()).status_code == 302
    log = _changes(client, game)
    assert len(log) == 3 and log[2].split(" · ", 1)[1].startswith("game created")
    assert "hand added · Hand 1" in log[1] and log[1].endswith("· by the organiser (from the grid)")
    assert "hand added · Hand 2" in log[0] and "organiser" not in log[0]

    # a correction from the grid, and the hand's history says whose each version was
    hand_id = records.hands(_db(app), game)[1].id
    url = f"/games/{game}/hands/{hand_id}/edit"
    assert 'name="by" value="organiser"' in client.get(url).text
    assert post_hand(client, game, *win_hand(), url=url, extra={"by": "organiser"}).status_code == 302
    assert "hand corrected · Hand 2" in _changes(client, game)[0] and "by the organiser" in _changes(client, game)[0]
    history = client.get(f"/games/{game}/hands/{hand_id}/history").text
    assert history.count("by the organiser (from the grid)") == 1  # version 2; version 1 was the phone's


def test_the_organiser_enters_a_missing_result_from_its_score_card_after_the_round_ended(client, app):
    """docs/tournaments.md, "The director's grid": a table whose phone entered nothing is missing its
    result; once the organiser has ended the round, he enters its hands from the paper score card
    (a review found the sheet offering no button and the server refusing the hand). The table's own
    phone still takes none; once the next round starts, neither does the grid (the round is over for
    good). Rounds of two hands: as many from the card, no more."""
    tid = four_pairs(client, 2)
    played, silent = table_game(client, tid, 1), table_game(client, tid, 2)
    for _ in range(2):
        assert post_hand(client, played, *small_hand()).status_code == 302
    act(client, tid, "/rounds/1/end")
    phone = app.test_client()  # the silent table's own phone
    refused = post_hand(phone, silent, *small_hand())
    assert refused.status_code == 409 and "The round is over at this table" in html.unescape(refused.text)
    client.get(f"/tournaments/{tid}/grid/games/{silent}")  # opened from the grid
    sheet = html.unescape(client.get(f"/games/{silent}").text)
    assert "Enter hand 1" in sheet and f'href="/games/{silent}/hands/new"' in sheet
    assert client.get(f"/games/{silent}/hands/new").status_code == 200
    for number in (1, 2):
        assert post_hand(client, silent, *small_hand(), extra={"by": "organiser"}).status_code == 302, number
    third = post_hand(client, silent, *small_hand(), extra={"by": "organiser"})
    assert third.status_code == 409  # the round's two hands, and no more
    assert len(client.get(f"/api/games/{silent}").get_json()["hands"]) == 2
    assert "Enter hand 3" not in html.unescape(client.get(f"/games/{silent}").text)


def test_the_grid_takes_no_card_once_the_next_round_has_started(client, app):
    tid = four_pairs(client, 2)
    silent = table_game(client, tid, 2)
    act(client, tid, "/rounds/1/end")
    assert act(client, tid, "/rounds").status_code == 302
    client.get(f"/tournaments/{tid}/grid/games/{silent}")
    late = post_hand(client, silent, *small_hand(), extra={"by": "organiser"})
    assert late.status_code == 409 and "The round is over at this table" in html.unescape(late.text)


def test_a_table_whose_round_was_ended_before_its_hands_were_played_says_so(client, app):
    """Rounds of two hands; the organiser ends round 1 after table 1 played one: the grid says "ended
    early · 1 of 2 hands", not "finished" (a club night's review), table 2 with both "finished"."""
    tid = four_pairs(client, 2)
    short, full = table_game(client, tid, 1), table_game(client, tid, 2)
    assert post_hand(client, short, *small_hand()).status_code == 302
    for _ in range(2):
        assert post_hand(client, full, *small_hand()).status_code == 302
    act(client, tid, "/rounds/1/end")
    page = html.unescape(client.get(f"/tournaments/{tid}/grid").text)
    cell = lambda table: re.search(rf'id="g-1-{table}">(.*?)</td>', page, re.S).group(1)  # noqa: E731
    assert "■ ended early · 1 of 2 hands" in " ".join(re.sub(r"<[^>]+>", " ", cell(1)).split())
    assert "✓ finished · 2 hands" in " ".join(re.sub(r"<[^>]+>", " ", cell(2)).split())


def _db(app):
    with app.app_context():
        return dbmod.get_db()


def test_the_phones_queue_carries_the_organisers_mark(client, app):
    tid = started(client)
    game = table_game(client, tid, 1)
    token = csrf_token(client, f"/games/{game}/hands/new")
    sides = [{"melded_points": 150}, {"melded_points": 130}]
    for key, by in (("a" * 16, "organiser"), ("b" * 16, "someone else"), ("c" * 16, None)):
        body = {"client_key": key, "sides": sides, "stock_out": True, **({"by": by} if by else {})}
        answer = client.post(f"/games/{game}/hands.json", json=body, headers={"X-CSRFToken": token})
        assert answer.status_code == 201, answer.text
    kept = [c.entered_by for c in records.changes(_db(app), game) if c.action == "hand added"]
    assert kept == ["organiser", None, None]  # only the word the form sends counts


def test_the_organisers_mark_survives_an_export_and_a_doctored_one_is_refused(client, app, tmp_path):
    tid = started(client)
    game = table_game(client, tid, 1)
    client.get(f"/tournaments/{tid}/grid/games/{game}")
    post_hand(client, game, *small_hand(), extra={"by": "organiser"})
    data = json.loads(client.get("/export.json").data)
    marked = [c for c in data["changes"] if "entered_by" in c]
    assert [(c["action"], c["entered_by"]) for c in marked] == [("hand added", "organiser")]

    def imported(doc, name):
        fresh = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / name)}).test_client()
        token = csrf_token(fresh, "/evenings/new")
        body = {"csrf_token": token, "file": (io.BytesIO(json.dumps(doc).encode()), "archive.json")}
        return fresh, fresh.post("/import", data=body, content_type="multipart/form-data")

    fresh, answer = imported(data, "fresh.sqlite")
    assert answer.status_code == 302, answer.text
    again = json.loads(fresh.get("/export.json").data)
    assert [c for c in again["changes"] if "entered_by" in c] == marked
    assert "by the organiser (from the grid)" in fresh.get(f"/games/{game}/changes").text
    marked[0]["entered_by"] = "the cat"
    _fresh, answer = imported(data, "doctored.sqlite")
    assert answer.status_code == 422 and "entered_by is not one this app writes" in html.unescape(answer.text)


@pytest.mark.parametrize("language, words", [("de", "Turnierleitung"), ("it", "organizzatore"), ("et", "korraldaja")])
def test_the_grid_speaks_the_readers_language(client, language, words):
    tid = started(client)
    client.get(f"/prefs?lang={language}&next=/")
    assert words in client.get(f"/tournaments/{tid}/grid").text


def test_a_table_of_five_changing_partners_shows_who_sits_out_on_its_cell(client, app):
    """Players changing partners, 9 players (a table of four and one of five): each round's cell of the
    table of five names who sits that Partie out (docs/tournaments.md, "Players changing partners"), the
    player drawn k-th there in Partie k."""
    tid = started(client, format="rotation", entrants="\n".join(f"Player{c}" for c in "ABCDEFGHI"))
    t, _rounds = state(app, tid)
    page = client.get(f"/tournaments/{tid}/grid").text
    for number in range(1, 6):
        cell = re.search(rf'id="g-{number}-2">(.*?)</td>', page, re.S).group(1)
        assert f"sits out: {t.names[t.order[4 + number - 1]]}" in cell, number
    assert "sits out" not in re.search(r'id="g-1-1">(.*?)</td>', page, re.S).group(1)
