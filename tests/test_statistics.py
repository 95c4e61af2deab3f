"""The statistics page: each table sorted by any column either way with plain links, for a period
(this year, the last 12 months, all time) and a rule set; empty states; unknown parameters fall back
to the defaults.

The archive is built through the app's forms, on evenings whose dates put the games in and out of
the periods, with "today" fixed at 2025-06-15. Every figure is worked by hand from
docs/rules.md#classic (Classic: 100 going out, 500 a natural canasta, 100 a red three, 800 all four,
plus the melded cards) and docs/rules.md#classic-2p (two players):

    G1  2025-03-10  classic     Anna & Carl 4000 + 4000 = 8000 (4 natural canastas a hand) beat
                                Bert & Dora 50 + 50 = 100: finished, margin 7900.
    G3  2025-03-10  classic-2p  Anna 3800 (out 100 + 4 natural 2000 + 4 red threes 800 + 900 melded)
                                against Fritz 100; in play.
    G2  2024-11-20  classic     Bert & Dora 3600 + 3600 = 7200 (out 100 + 4 natural 2000 + 800 + 700)
                                beat Anna & Carl 900 + 900 = 1800 (a natural canasta 500 + 400):
                                finished, margin 5400.
    G4  2023-05-01  classic     Anna & Eva 8000 beat Dora & Fritz 100 as in G1: margin 7900.

A player's figures are the sums over his games: games, finished, won, hands, points (his side's
totals), best hand, canastas (his side's), margin (+ the margin of a game won, − of one lost).
Win % = won / finished; average hand = points / hands; canastas per hand = canastas / hands.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.core import clock
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import totals
from tests.helpers import game_in_evening, new_evening, post_hand, side_fields, win_hand

TODAY = "2025-06-15"


def _post(client, game_id, *sides):
    response = post_hand(client, game_id, *sides)
    assert response.status_code == 302, response.text


@pytest.fixture
def archive(app, client, monkeypatch, made_once):
    """The four games of the module docstring (built once, each test on its own copy); the client."""
    monkeypatch.setattr(clock, "today", lambda: TODAY)
    made_once(app, client, _four_games)
    return client


def _four_games(client):
    e1 = new_evening(client, ["Anna", "Bert", "Carl", "Dora"], when="2025-03-10")
    g1, _ = game_in_evening(client, e1)
    for _ in range(2):
        _post(client, g1, *win_hand())  # 4000 : 50
    g3, _ = game_in_evening(client, e1, variant="classic-2p", names=["Anna", "Fritz"])
    _post(client, g3, side_fields(0, went_out="normal", natural=4, red=4, melded=900), side_fields(1, melded=100))
    e2 = new_evening(client, ["Anna", "Bert", "Carl", "Dora"], when="2024-11-20")
    g2, _ = game_in_evening(client, e2)
    for _ in range(2):  # 900 : 3600
        _post(
            client,
            g2,
            side_fields(0, natural=1, melded=400),
            side_fields(1, went_out="normal", natural=4, red=4, melded=700),
        )
    e3 = new_evening(client, ["Anna", "Dora", "Eva", "Fritz"], when="2023-05-01")
    g4, _ = game_in_evening(client, e3)
    for _ in range(2):
        _post(client, g4, *win_hand())


FIGURES = ("games", "won", "rate", "avg", "best", "canastas", "margin")


def players_table(page: str) -> list[tuple[str, list[str]]]:
    """The players' table as (name, [its seven figures: FIGURES]) in the order shown; the columns are
    found by the key their header sorts by (other columns are left out)."""
    page = page.replace(' role="row"', "").replace(' role="cell"', "")  # the roles a phone's grid keeps (issue 29)
    table = page.split('<table class="ref stats players"', 1)[1].split("</table>", 1)[0] if "ref stats" in page else ""
    keys = re.findall(r'<th scope="col"[^>]*><a href="[^"]*[?&;]sort=(\w+)', table)
    out = []
    for row in re.findall(r"<tr><td>.*?</tr>", table, re.S):
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        by_key = dict(zip(keys, cells))
        out.append((html.unescape(by_key["name"]), [by_key[key] for key in FIGURES]))
    return out


def pairs_table(page: str) -> list[tuple[str, list[str]]]:
    """The partnerships' table as (names, [games, won, margin]) in the order shown."""
    rows = re.findall(r'<tr><td>([^<]+)</td>((?:<td class="num">[^<]*</td>)+)</tr>', page)
    return [(html.unescape(names), re.findall(r'<td class="num">([^<]*)</td>', cells)) for names, cells in rows]


def names(rows) -> list[str]:
    return [name for name, _ in rows]


# All time, from the kept totals: games finished (G3 is in play: not counted until it ends), won,
# win %, average hand, best hand, canastas per hand (every hand, G3's too), margin.
#   Anna  G1 G2 G3 G4: 4 games, 3 finished, 2 won, 7 hands, 8000 + 1800 + 3800 + 8000 = 21600 points,
#         best 4000, 8 + 2 + 4 + 8 = 22 canastas, +7900 − 5400 + 7900 = +10400
#   Bert  G1 G2: 2, 2, 1, 4 hands, 100 + 7200 = 7300, best 3600, 8 canastas, −7900 + 5400 = −2500
#   Carl  G1 G2: 2, 2, 1, 4 hands, 8000 + 1800 = 9800, best 4000, 10 canastas, +2500
#   Dora  G1 G2 G4: 3, 3, 1, 6 hands, 100 + 7200 + 100 = 7400, best 3600, 8 canastas, −7900 + 5400 − 7900 = −10400
#   Eva   G4: 1, 1, 1, 2 hands, 8000, best 4000, 8 canastas, +7900
#   Fritz G3 G4: 2, 1, 0, 3 hands, 100 + 100 = 200, best 100, 0 canastas, −7900
ALL_TIME = {
    "Anna": ["3", "2", "67%", "3086", "4000", "3.14", "+10400"],  # 2/3; 21600/7 = 3085.7; 22/7 = 3.14
    "Bert": ["2", "1", "50%", "1825", "3600", "2.00", "−2500"],
    "Carl": ["2", "1", "50%", "2450", "4000", "2.50", "+2500"],
    "Dora": ["3", "1", "33%", "1233", "3600", "1.33", "−10400"],  # 1/3; 7400/6 = 1233.3; 8/6
    "Eva": ["1", "1", "100%", "4000", "4000", "4.00", "+7900"],
    "Fritz": ["1", "0", "0%", "67", "100", "0.00", "−7900"],  # 200/3 = 66.7
}

# Each column both ways; ties go by games won (most first), then games finished, then games played
# (most first), then name, and
# a blank figure comes last either way.
ORDERS = {
    ("name", "asc"): ["Anna", "Bert", "Carl", "Dora", "Eva", "Fritz"],
    ("name", "desc"): ["Fritz", "Eva", "Dora", "Carl", "Bert", "Anna"],
    ("games", "desc"): ["Anna", "Dora", "Bert", "Carl", "Eva", "Fritz"],  # finished 3 (won 2, 1), 2, 1 (won 1, 0)
    ("games", "asc"): ["Eva", "Fritz", "Bert", "Carl", "Anna", "Dora"],
    ("won", "desc"): ["Anna", "Dora", "Bert", "Carl", "Eva", "Fritz"],  # 2; 1 (games 3, 2, 2, 1); 0
    ("won", "asc"): ["Fritz", "Dora", "Bert", "Carl", "Eva", "Anna"],
    ("rate", "desc"): ["Eva", "Anna", "Bert", "Carl", "Dora", "Fritz"],  # 100 %, 67 %, 50 %, 50 %, 33 %, 0 %
    ("rate", "asc"): ["Fritz", "Dora", "Bert", "Carl", "Anna", "Eva"],
    ("avg", "desc"): ["Eva", "Anna", "Carl", "Bert", "Dora", "Fritz"],  # 4000, 3086, 2450, 1825, 1233, 67
    ("avg", "asc"): ["Fritz", "Dora", "Bert", "Carl", "Anna", "Eva"],
    ("best", "desc"): ["Anna", "Carl", "Eva", "Dora", "Bert", "Fritz"],  # 4000 (won 2; won 1: games 2, 1), 3600, 100
    ("best", "asc"): ["Fritz", "Dora", "Bert", "Anna", "Carl", "Eva"],
    ("canastas", "desc"): ["Eva", "Anna", "Carl", "Bert", "Dora", "Fritz"],  # 4.00, 3.14, 2.50, 2.00, 1.33, 0
    ("canastas", "asc"): ["Fritz", "Dora", "Bert", "Carl", "Anna", "Eva"],
    ("margin", "desc"): ["Anna", "Eva", "Carl", "Bert", "Fritz", "Dora"],  # +10400, +7900, +2500, −2500, −7900, −10400
    ("margin", "asc"): ["Dora", "Fritz", "Bert", "Carl", "Eva", "Anna"],
}

# Partnerships (the lower-numbered player first): Anna & Carl G1 won, G2 lost: 2 games, 1 won, +2500;
# Bert & Dora the other way round: 2, 1, −2500; Anna & Eva G4 won: 1, 1, +7900; Dora & Fritz G4 lost: 1, 0, −7900.
PAIRS = {
    "Anna & Carl": ["2", "1", "+2500"],
    "Bert & Dora": ["2", "1", "−2500"],
    "Anna & Eva": ["1", "1", "+7900"],
    "Dora & Fritz": ["1", "0", "−7900"],
}
PAIR_ORDERS = {
    ("games", "desc"): ["Anna & Carl", "Bert & Dora", "Anna & Eva", "Dora & Fritz"],
    ("games", "asc"): ["Anna & Eva", "Dora & Fritz", "Anna & Carl", "Bert & Dora"],
    ("names", "asc"): ["Anna & Carl", "Anna & Eva", "Bert & Dora", "Dora & Fritz"],
    ("names", "desc"): ["Dora & Fritz", "Bert & Dora", "Anna & Eva", "Anna & Carl"],
    ("won", "desc"): ["Anna & Carl", "Bert & Dora", "Anna & Eva", "Dora & Fritz"],
    ("won", "asc"): ["Dora & Fritz", "Anna & Carl", "Bert & Dora", "Anna & Eva"],
    ("margin", "desc"): ["Anna & Eva", "Anna & Carl", "Bert & Dora", "Dora & Fritz"],
    ("margin", "asc"): ["Dora & Fritz", "Bert & Dora", "Anna & Carl", "Anna & Eva"],
}


def test_all_time_figures_come_from_the_kept_totals(archive):
    page = archive.get("/stats").text
    rows = players_table(page)
    assert dict(rows) == ALL_TIME
    assert names(rows) == ORDERS[("won", "desc")]  # the default: most games won first
    assert dict(pairs_table(page)) == PAIRS
    assert names(pairs_table(page)) == PAIR_ORDERS[("games", "desc")]  # most games together first
    assert '<a href="/stats?period=year"' in page and 'aria-current="page">All time</a>' in page


def test_players_sort_by_every_column_both_ways(archive):
    for column, direction in ORDERS:
        page = archive.get(f"/stats?sort={column}&dir={direction}").text
        rows = players_table(page)
        assert names(rows) == ORDERS[(column, direction)], (column, direction)
        assert dict(rows) == ALL_TIME  # the same figures, in another order
        assert names(pairs_table(page)) == PAIR_ORDERS[("games", "desc")]  # the other table keeps its order
        # the column's header says so, and links to the other way round
        other = "asc" if direction == "desc" else "desc"
        header = re.search(r'<th scope="col"[^>]*aria-sort="(\w+)"><a href="([^"]+)">', page)
        assert header.group(1) == ("descending" if direction == "desc" else "ascending")
        assert html.unescape(header.group(2)) == f"/stats?sort={column}&dir={other}"


def test_partnerships_sort_by_every_column_both_ways(archive):
    for column, direction in PAIR_ORDERS:
        page = archive.get(f"/stats?psort={column}&pdir={direction}&sort=margin&dir=asc").text
        assert names(pairs_table(page)) == PAIR_ORDERS[(column, direction)], (column, direction)
        assert dict(pairs_table(page)) == PAIRS
        assert names(players_table(page)) == ORDERS[("margin", "asc")]
        # a header of one table keeps the other table's order in its link
        links = [html.unescape(u) for u in re.findall(r'<th scope="col"[^>]*><a href="([^"]+)">', page)]
        other = "asc" if direction == "desc" else "desc"
        assert f"/stats?sort=margin&dir=asc&psort={column}&pdir={other}" in links
        kept = "" if (column, direction) == ("games", "desc") else f"&psort={column}&pdir={direction}"
        assert f"/stats?sort=won&dir=desc{kept}" in links


def test_this_year_counts_only_this_years_games(archive):
    # 2025: G1 and G3. Anna G1 + G3: 2 games, 1 finished and won, 3 hands, 8000 + 3800 = 11800 points,
    # 4 + 4 + 4 = 12 canastas, +7900; Carl G1: 8000 in 2 hands; Bert and Dora G1: 100 in 2 hands, −7900;
    # Fritz G3: 100 in 1 hand, none finished (no win rate). Eva played in 2023 only.
    page = archive.get("/stats?period=year").text
    rows = players_table(page)
    assert dict(rows) == {
        "Anna": ["1", "1", "100%", "3933", "4000", "4.00", "+7900"],  # 11800 / 3; G3 in play
        "Bert": ["1", "0", "0%", "50", "50", "0.00", "−7900"],
        "Carl": ["1", "1", "100%", "4000", "4000", "4.00", "+7900"],
        "Dora": ["1", "0", "0%", "50", "50", "0.00", "−7900"],
        "Fritz": ["0", "0", "—", "100", "100", "0.00", "0"],
    }
    assert names(rows) == ["Anna", "Carl", "Bert", "Dora", "Fritz"]  # won 1 (2 games, 1), won 0 by finished
    assert dict(pairs_table(page)) == {"Anna & Carl": ["1", "1", "+7900"], "Bert & Dora": ["1", "0", "−7900"]}
    assert 'aria-current="page">This year</a>' in page
    # the sort links keep the period
    assert "/stats?period=year&amp;sort=margin&amp;dir=desc" in page


def test_the_last_12_months_leave_out_older_games(archive):
    # 2024-06-16 to 2025-06-15: G1, G2, G3 (not G4 of 2023).
    # Anna G1 G2 G3: 3 games, 2 finished (G), 1 won, 5 hands, 8000 + 1800 + 3800 = 13600, 8 + 2 + 4 = 14
    # canastas, +7900 − 5400 = +2500; Bert and Dora G1 G2: 100 + 7200 = 7300 in 4 hands, 8 canastas, −2500;
    # Carl G1 G2: 9800, 10 canastas, +2500; Fritz G3 only.
    page = archive.get("/stats?period=12m").text
    rows = players_table(page)
    assert dict(rows) == {
        "Anna": ["2", "1", "50%", "2720", "4000", "2.80", "+2500"],
        "Bert": ["2", "1", "50%", "1825", "3600", "2.00", "−2500"],
        "Carl": ["2", "1", "50%", "2450", "4000", "2.50", "+2500"],
        "Dora": ["2", "1", "50%", "1825", "3600", "2.00", "−2500"],
        "Fritz": ["0", "0", "—", "100", "100", "0.00", "0"],
    }
    assert dict(pairs_table(page)) == {"Anna & Carl": ["2", "1", "+2500"], "Bert & Dora": ["2", "1", "−2500"]}
    # a blank win rate comes last whichever way the column is sorted
    for direction in ("desc", "asc"):
        rows = players_table(archive.get(f"/stats?period=12m&sort=rate&dir={direction}").text)
        assert names(rows) == ["Anna", "Bert", "Carl", "Dora", "Fritz"]  # all 50 %: Anna won as often in 3 games


def test_a_rule_set_with_a_period(archive):
    # Classic this year: G1 alone.
    page = archive.get("/stats?period=year&variant=classic").text
    assert dict(players_table(page)) == {
        "Anna": ["1", "1", "100%", "4000", "4000", "4.00", "+7900"],
        "Bert": ["1", "0", "0%", "50", "50", "0.00", "−7900"],
        "Carl": ["1", "1", "100%", "4000", "4000", "4.00", "+7900"],
        "Dora": ["1", "0", "0%", "50", "50", "0.00", "−7900"],
    }
    assert '<option value="classic" selected>' in page
    assert '<input type="hidden" name="period" value="year">' in page  # the rule-set form keeps the period
    # Classic for two, all time: G3, in play; no partnerships in it.
    page = archive.get("/stats?variant=classic-2p").text
    assert dict(players_table(page)) == {
        "Anna": ["0", "0", "—", "3800", "3800", "4.00", "0"],
        "Fritz": ["0", "0", "—", "100", "100", "0.00", "0"],
    }
    assert "No partnerships in this period." in page
    # Classic, all time: G1, G2, G4, the four-player games: everyone but Fritz's G3
    rows = dict(players_table(archive.get("/stats?variant=classic&period=all").text))
    assert rows["Anna"] == ["3", "2", "67%", "2967", "4000", "3.00", "+10400"]  # 8000 + 1800 + 8000 = 17800 / 6; 18 / 6
    assert rows["Fritz"] == ["1", "0", "0%", "50", "50", "0.00", "−7900"]  # G4: 100 in 2 hands, best 50


def test_empty_periods_and_rule_sets_say_so(archive, monkeypatch):
    page = archive.get("/stats?variant=modern").text
    assert "No games with these rules in this period." in page and "No partnerships in this period." in page
    assert players_table(page) == []
    monkeypatch.setattr(clock, "today", lambda: "2027-02-01")
    page = archive.get("/stats?period=year").text
    assert "No games in this period." in page and players_table(page) == []
    page = archive.get("/stats?period=12m").text
    assert "No games in this period." in page


def test_an_empty_archive(client):
    page = client.get("/stats?period=year&sort=best&dir=asc").text
    assert "No games in this period." in page and "No partnerships in this period." in page
    page = client.get("/stats").text
    assert "No players yet." in page and "No partnerships yet." in page


BAD_QUERIES = [
    "sort=bogus&dir=sideways",
    "sort=&dir=",
    "sort=name;drop table players&dir=desc--",
    "period=decade",
    "period=YEAR",
    "variant=poker",
    "variant=",
    "variant=classic%00",
    "psort=nobody&pdir=up",
    "sort=won&sort=name&dir=desc&dir=asc&period=all&period=year",  # the first of each
    "page=2&foo=bar",
]


def test_unknown_parameters_fall_back_to_the_defaults(archive):
    default = archive.get("/stats").text
    for query in BAD_QUERIES:
        response = archive.get(f"/stats?{query}")
        assert response.status_code == 200, query
        assert players_table(response.text) == players_table(default), query
        assert pairs_table(response.text) == pairs_table(default), query


def test_a_known_column_with_an_unknown_direction_goes_its_own_way(archive):
    assert names(players_table(archive.get("/stats?sort=margin&dir=up").text)) == ORDERS[("margin", "desc")]
    assert names(players_table(archive.get("/stats?sort=name&dir=up").text)) == ORDERS[("name", "asc")]
    assert names(pairs_table(archive.get("/stats?psort=names").text)) == PAIR_ORDERS[("names", "asc")]


def test_headers_are_short_with_their_full_names(archive):
    page = archive.get("/stats").text
    for full in (
        "Games finished (a game in play counts once it ends)",
        "Games won",
        "Win rate: games won of games finished",
        "Average hand score (every hand, games in play too)",
        "Best hand score",
        "Canastas per hand",
    ):
        assert f'<abbr title="{full}">' in page
    assert 'aria-sort="descending"><a href="/stats?sort=won&amp;dir=asc"><abbr title="Games won">W</abbr>' in page
    assert "<script" not in page.split("</main>")[0]  # plain links and a GET form


# --- the queries ------------------------------------------------------------------------------------


def test_periods():
    assert totals.period_days("year", "2025-06-15") == ("2025-01-01", "2025-12-31")
    assert totals.period_days("12m", "2025-06-15") == ("2024-06-16", "2025-06-15")
    assert totals.period_days("12m", "2024-02-29") == ("2023-03-01", "2024-02-29")
    assert totals.period_days("all", "2025-06-15") == (None, None)


def test_sort_order():
    assert totals.sort_order(None, None, totals.PLAYER_SORTS, "won") == ("won", True)
    assert totals.sort_order("name", None, totals.PLAYER_SORTS, "won") == ("name", False)
    assert totals.sort_order("best", "asc", totals.PLAYER_SORTS, "won") == ("best", False)
    assert totals.sort_order("x", "asc", totals.PLAYER_SORTS, "won") == ("won", False)
    assert totals.sort_order("names", "up", totals.PAIR_SORTS, "games") == ("names", False)


def test_filtered_reads_go_through_the_indexes(app, archive):
    """A period or a rule set reads game_results by its index on (variant, day) or on day, and each
    game's result rows by their key: no table is scanned whole."""
    database = dbmod.open_db(app.config["DATABASE"])
    seen = []
    query = database.query

    def recording(sql, params=None):
        seen.append((sql, params))
        return query(sql, params)

    database.query = recording
    for variant in (None, "classic"):
        totals.player_table(database, "avg", True, "2025-01-01", "2025-12-31", variant)
        totals.partnership_table(database, "margin", False, "2025-01-01", "2025-12-31", variant)
    assert len(seen) == 4
    for sql, params in seen:
        plan = [row[3] for row in database.execute("explain query plan " + sql, params).fetchall()]
        assert not [step for step in plan if step.startswith("SCAN") and "subquery" not in step.lower()], plan
        assert any("game_results" in step and "INDEX" in step for step in plan), plan
    database.close()


def test_a_game_in_play_is_not_counted_until_it_ends(client):
    """A won game and an empty one started after it read "G 1 · W 1 · 100%", not "G 2 · W 1 · Win % 100%":
    G counts the finished games, as the win rate does."""
    evening = new_evening(client, ["Anna", "Bert", "Carl", "Dora"])
    won, _ = game_in_evening(client, evening)
    for _ in range(2):
        _post(client, won, *win_hand())
    game_in_evening(client, evening)  # the next game, not played yet
    rows = dict(players_table(client.get("/stats").text))
    assert rows["Anna"][:3] == ["1", "1", "100%"] and rows["Bert"][:3] == ["1", "0", "0%"]
    assert dict(pairs_table(client.get("/stats").text))["Anna & Carl"] == ["1", "1", "+7900"]
