"""Whole club nights through the pages on the real server (waitress, real HTTP, CSRF on), as an organiser
and the tables' phones do them (docs/tournaments.md): 13 players at tables of four, four and five with
a final table of six in three pairs and a hand entered from the director's grid; five pairs between
tables with byes; fourteen players changing partners at a table of six; each closed with its shared
places and split season points; and two organisers entering a hand at one table at once.

Classic hands (docs/rules.md, "Classic Canasta"): the stock ran out, melded points only, each above the
opening minimum of a side at 0 (50): 150 against 130 (against 120 at a table of three sides)."""

from __future__ import annotations

import html
import http.cookiejar
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from scorekeeper.services import tournament_state
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, tournament_records
from tests.conftest import make_app
from tests.helpers import as_the_form_posts, served, side_fields

NAMES = "Anna Ben Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar Maria Norbert Olga".split()


class Phone:
    """A phone with its own cookies talking to the server; redirects are not followed (their address is
    what a test looks at)."""

    def __init__(self, base: str):
        self.base = base

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), Stay)

    def open(self, path: str, fields: dict | None = None) -> tuple[int, str, str]:
        """(status, page, where it redirects) of a GET, or of a POST of ``fields``."""
        data = None if fields is None else urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=30) as answer:
                return answer.status, answer.read().decode(), ""
        except urllib.error.HTTPError as answer:
            return answer.code, answer.read().decode(), answer.headers.get("Location", "")

    def form(self, page_path: str, action: str, **fields) -> tuple[int, str, str]:
        """POST ``fields`` to ``action`` with the CSRF token (and the hand form's keys) of ``page_path``."""
        page = self.open(page_path)[1]
        token = {"csrf_token": re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)}
        for name in ("based_on", "client_key", "by"):
            found = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
            if found and action.endswith("/hands/new"):
                token[name] = found.group(1)
        return self.open(action, {**token, **fields})

    def hand(self, game: int, melded: tuple[int, ...]) -> int:
        """A hand (the stock ran out, melded points only) through the hand form: its status."""
        sides = {k: v for side, points in enumerate(melded) for k, v in side_fields(side, melded=points).items()}
        url = f"/games/{game}/hands/new"
        return self.form(url, url, **as_the_form_posts(sides, {}))[0]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("evening")
    app = make_app({"TESTING": True, "SECRET_KEY": "evening", "DATABASE": str(folder / "e.sqlite")})
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", app


def _create(organiser: Phone, **fields) -> int:
    status, _page, where = organiser.form("/tournaments/new", "/tournaments/new", **fields)
    assert status == 302, _page[:2000]
    tid = int(where.rsplit("/", 1)[1])
    for step in ("/draw", "/rounds"):
        assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}{step}")[0] == 302
    return tid


def _round(app, tid: int):
    with app.app_context():
        db = dbmod.get_db()
        t = tournament_records.get(db, tid)
        return t, tournament_state.rounds(db, t)


def _play_round(app, phone: Phone, tid: int, organiser: Phone | None = None) -> None:
    """Every table of the round being played saves one hand: side 1 of each table wins (150, 130, 120);
    table 2's from the director's grid when an organiser is given."""
    t, rounds = _round(app, tid)
    for table in rounds[-1].tables:
        melded = (150, 130, 120)[: len(table.units)]
        if organiser is not None and table.table == 2:
            assert organiser.open(f"/tournaments/{tid}/grid/games/{table.game_id}")[0] == 302
            assert organiser.hand(table.game_id, melded) == 302
        else:
            assert phone.hand(table.game_id, melded) == 302


def _ranking(page: str) -> list[tuple[str, str]]:
    block = page[page.index('class="t-ranking"') :]
    block = block[: block.index("</ol>")]
    rows = re.findall(r'class="t-place num">(.*?)</span> <span class="t-name">(.*?)</span>', block, re.S)
    return [(re.sub(r"<[^>]+>", "", place).strip(), html.unescape(names)) for place, names in rows]


def _close(organiser: Phone, tid: int) -> str:
    assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}/close", sure="y")[0] == 302
    return organiser.open(f"/tournaments/{tid}")[1]


def test_thirteen_players_a_final_of_six_and_a_hand_from_the_grid(server):
    """13 players: tables of 4, 4 and 5. Each table's first side wins 150 to 130 in one hand (a lead of 20
    a hand at every table): the three winning pairs fit a table of six in three pairs, so all three play
    the final. The other sides (two pairs and the three at the table of five) level on 130 and 0 match
    points share 4th place and split the season points of places 4 to 6: (5 + 4 + 3) / 3 = 4 each."""
    base, app = server
    organiser, phone = Phone(base), Phone(base)
    tid = _create(
        organiser,
        name="Thirteen",
        format="final",
        rules="classic",
        round_end="hands",
        round_hands="1",
        entrants="\n".join(NAMES[:13]),
        rules_5="austrian:5",
        rules_6="six-3x2:6-pairs",
        season_points="10, 8, 6, 5, 4, 3, 2, 1",
        bye_score="average",
        ties="shared",
    )
    t, rounds = _round(app, tid)
    assert [len(x.seats) for x in rounds[0].tables] == [4, 4, 5]
    _play_round(app, phone, tid, organiser)
    with app.app_context():
        changes = records.changes(dbmod.get_db(), rounds[0].tables[1].game_id)
    assert [c.entered_by for c in changes if c.action == "hand added"] == [records.ORGANISER]
    grid = organiser.open(f"/tournaments/{tid}/grid")[1]
    assert "the tables' winners" not in html.unescape(grid)  # round 1 over: the final's pairs are known
    big = html.unescape(organiser.open(f"/tournaments/{tid}/standings")[1])
    final_line = re.search(r'<p class="s-final">(.*?)</p>', big, re.S).group(1)
    # three winning pairs at a final of six: three sides, two "against"
    assert re.sub(r"<[^>]+>", "", final_line).count(" against ") == 2 and final_line.count("<b>") == 3
    assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds")[0] == 302
    t, rounds = _round(app, tid)
    [table] = rounds[1].tables
    assert len(table.seats) == 6 and len(table.units) == 3  # three pairs
    assert phone.hand(table.game_id, (150, 130, 120)) == 302
    page = _close(organiser, tid)
    places = _ranking(page)
    assert [place for place, _names in places] == ["1", "2", "3", "4=", "4=", "4="], places
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert page.count("4 season points") == 3 and "10 season points" in page


def test_five_pairs_between_tables_with_byes_share_their_places(server):
    """Five pairs, one hand a round, North–South always winning 150 to 130: the two North–South pairs win
    all three games (6 match points, 450) and never meet: they share 1st; the three East–West pairs lose
    two and sit one out (by its average: 0 match points, 130): 0 and 390 each, sharing 3rd."""
    base, app = server
    organiser, phone = Phone(base), Phone(base)
    pairs = ["Anna & Ben", "Clara & Dieter", "Emma & Frank", "Gisela & Heinz", "Ingrid & Jürgen"]
    tid = _create(
        organiser,
        name="Pairs night",
        format="mitchell",
        rules="classic",
        round_end="hands",
        round_hands="1",
        entrants="\n".join(pairs),
        season_points="10, 8, 6, 5, 4",
    )
    for number in (1, 2, 3):
        _play_round(app, phone, tid)
        if number < 3:
            assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds")[0] == 302
    page = _close(organiser, tid)
    assert [place for place, _names in _ranking(page)] == ["1=", "1=", "3=", "3=", "3="]
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert page.count("6 MP · 450") == 2 and page.count("0 MP · 390 · 1 bye (average)") == 3
    assert page.count("9 season points") == 2 and page.count("5 season points") == 3  # (6 + 5 + 4) / 3


def test_fourteen_players_changing_partners_at_a_table_of_six(server):
    """14 players changing partners: tables of 4, 4 and 6 (three pairs); five rounds, the tables of four
    done after three; every player's points per Partie on the closed standings."""
    base, app = server
    organiser, phone = Phone(base), Phone(base)
    tid = _create(
        organiser,
        name="Partners",
        format="rotation",
        rules="classic",
        round_end="hands",
        round_hands="1",
        entrants="\n".join(NAMES[:14]),
        rules_6="six-3x2:6-pairs",
    )
    for number in range(1, 6):
        _play_round(app, phone, tid)
        if number < 5:
            assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds")[0] == 302
    t, rounds = _round(app, tid)
    assert [len(r.tables) for r in rounds] == [3, 3, 3, 1, 1]
    page = _close(organiser, tid)
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert len(_ranking(page)) == 14 and page.count("a Partie") == 14


def test_two_organisers_entering_a_hand_at_one_table_store_one(server):
    """Two phones that opened the same table's hand form (the same hand count) save at the same moment:
    one hand is stored, the other phone is told the game changed meanwhile."""
    base, app = server
    organiser = Phone(base)
    tid = _create(organiser, name="Race", format="final", rules="classic", entrants="\n".join(NAMES[:8]))
    game = _round(app, tid)[1][0].tables[0].game_id
    phones = [Phone(base), Phone(base)]
    forms = []
    for p in phones:
        assert p.open(f"/tournaments/{tid}/grid/games/{game}")[0] == 302
        page = p.open(f"/games/{game}/hands/new")[1]
        fields = {
            name: re.search(rf'name="{name}"[^>]*value="([^"]*)"', page).group(1)
            for name in ("csrf_token", "based_on", "client_key")
        }
        sides = {**side_fields(0, melded=150), **side_fields(1, melded=130)}
        forms.append({**fields, **as_the_form_posts(sides, {})})
    statuses: list[int] = []
    start = threading.Barrier(2)

    def send(p: Phone, fields: dict) -> None:
        start.wait()
        statuses.append(p.open(f"/games/{game}/hands/new", fields)[0])

    threads = [threading.Thread(target=send, args=pair) for pair in zip(phones, forms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [302, 409], statuses
    with app.app_context():
        assert len(records.hands(dbmod.get_db(), game)) == 1
