"""Paper when the batteries die (web/tournament_paper.py): each entrant's guide card and each table's score
card of a round, checked against the rules of docs/tournaments.md ("The draw", "Pairs moving between
tables", "Players changing partners", "Tables with a final") for draws made with a fixed seed;
before the draw there is nothing to print, an unknown tournament is a 404."""

from __future__ import annotations

import html
import re

import pytest

import scorekeeper
from scorekeeper.services import tournaments as service
from scorekeeper.storage import db as dbmod
from tests.helpers import post_hand, side_fields, win_hand
from tests.test_tournaments import EIGHT, act, create, state, table_game

SEED = 20260426
TWELVE = "Anna Bernd Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar".split()
FIVE_PAIRS = ["Ann & Bob", "Cid & Dee", "Eve & Fay", "Gus & Hal", "Ida & Jon"]


def test_the_worktrees_package_is_the_one_tested():
    """The run imports this folder's scorekeeper (pytest puts the rootdir first), not another checkout's."""
    here = __file__.rsplit("/tests/", 1)[0]
    assert scorekeeper.__file__ == f"{here}/scorekeeper/__init__.py"


def drawn(client, app, **fields) -> int:
    """A tournament created through its form and drawn with SEED; its id."""
    response = create(client, **fields)
    assert response.status_code == 302, response.text
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert service.draw(dbmod.get_db(), tid, seed=SEED).status == "saved"
    return tid


def text(fragment: str) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", fragment).split()))


def flashes(page: str) -> list[str]:
    """The messages at the top of a page."""
    return [text(m) for m in re.findall(r'<div class="flash"[^>]*>(.*?)</div>', page, re.S)]


def guide_cards(client, tid) -> dict[str, list[str]]:
    """The guide cards: each entrant's name and its lines, one a round."""
    page = client.get(f"/tournaments/{tid}/guide-cards")
    assert page.status_code == 200
    cards = re.findall(r'<section class="guide-card"[^>]*>\s*<h2[^>]*>(.*?)</h2>(.*?)</section>', page.text, re.S)
    return {text(name): [text(li) for li in re.findall(r"<li>(.*?)</li>", body, re.S)] for name, body in cards}


def score_cards(client, tid, number=None) -> list[dict]:
    """The score cards of a round (or of all rounds): heading, seats ("1.3" → name), who deals, the sides,
    the rows for the hands, the signature lines."""
    page = client.get(f"/tournaments/{tid}/score-cards" + (f"/{number}" if number else ""))
    assert page.status_code == 200, page.status_code
    out = []
    for body in re.findall(r'<section class="score-card"[^>]*>(.*?)</section>', page.text, re.S):
        seats = re.findall(r"<li><b>([0-9.]+)</b> (.*?)</li>", body, re.S)
        out.append(
            {
                "heading": text(re.search(r"<h2[^>]*>(.*?)</h2>", body, re.S).group(1)),
                "seats": {label: text(re.sub(r"<em>.*?</em>", "", name)) for label, name in seats},
                "deals": [label for label, name in seats if "deals first" in name],
                "sides": [text(s) for s in re.findall(r'<th scope="colgroup" colspan="2">(.*?)</th>', body)],
                "rows": len(re.findall(r"<tr><th scope=\"row\"", body)),
                "signatures": [text(s) for s in re.findall(r'<p class="signature">(.*?)</p>', body)],
            }
        )
    return out


def sheets(client, url) -> list[int]:
    """How many score cards each printed page (.paper-sheet) holds."""
    page = client.get(url).text
    parts = page.split('<div class="paper-sheet">')[1:]
    return [len(re.findall(r'<section class="score-card"', part)) for part in parts]


# --- before the draw, unknown tournaments ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/guide-cards", "/score-cards", "/score-cards/1"])
def test_an_unknown_tournament_is_a_404(client, path):
    assert client.get(f"/tournaments/4242{path}").status_code == 404


@pytest.mark.parametrize("path", ["/guide-cards", "/score-cards", "/score-cards/1"])
def test_before_the_draw_the_organisers_page_says_to_draw_first(client, path):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    response = client.get(f"/tournaments/{tid}{path}")
    assert response.status_code == 302 and response.headers["Location"] == f"/tournaments/{tid}"
    assert "Draw the seats first." in flashes(client.get(f"/tournaments/{tid}").text)


def test_the_organisers_page_links_the_paper_once_the_seats_are_drawn(client, app):
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/tournaments/{tid}").text
    assert "guide-cards" not in page and "score-cards" not in page
    with app.app_context():
        service.draw(dbmod.get_db(), tid, seed=SEED)
    page = client.get(f"/tournaments/{tid}").text
    links = re.search(r'<p class="t-links">(.*?)</p>', page, re.S).group(1)
    assert f'href="/tournaments/{tid}/guide-cards">Guide cards</a>' in links
    assert f'href="/tournaments/{tid}/score-cards">Score cards</a>' in links


def test_the_print_button_is_an_external_script_and_the_pages_have_no_inline_script(client, app):
    tid = drawn(client, app)
    for path in ("/guide-cards", "/score-cards"):
        page = client.get(f"/tournaments/{tid}{path}").text
        assert '<script type="module" src="/static/print.js"></script>' in page
        assert re.search(
            r'<button type="button" class="btn primary paper-print" data-print hidden>Print</button>', page
        )
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # the CSP allows no inline script
    script = client.get("/static/print.js")
    assert script.status_code == 200 and b"window.print()" in script.data


# --- tables with a final ------------------------------------------------------------------------------


def test_tables_with_a_final_guide_cards_follow_the_draw_and_announce_the_final(client, app):
    tid = drawn(client, app, entrants="\n".join(TWELVE))
    t, _rounds = state(app, tid)
    cards = guide_cards(client, tid)
    assert list(cards) == [t.names[u] for u in t.order]  # in the order of the draw
    drawn_names = [t.names[u] for u in t.order]
    for i, name in enumerate(drawn_names):
        # "The draw": the first four drawn at table 1, seats 1 to 4, …; seats 1 and 3 partners against
        # 2 and 4; seat 1 deals first
        table, seat = i // 4 + 1, i % 4 + 1
        at_table = drawn_names[4 * (table - 1) : 4 * table]
        partner = at_table[(seat + 1) % 4]
        against = " & ".join(n for k, n in enumerate(at_table) if k % 2 != (seat - 1) % 2)
        assert cards[name] == [
            f"Round 1: table {table}, seat {seat} ({table}.{seat}) · Partner: {partner} · Against: {against}"
            f" · First deal: {at_table[0]}",
            "Round 2: the final table, for the tables' winners",
        ]
    page = client.get(f"/tournaments/{tid}/guide-cards").text
    assert "Round 2 is the final table: the tables' winners of round 1 play it" in html.unescape(page)


def test_tables_with_a_final_score_cards_of_round_1_then_of_the_final_table_once_it_started(client, app):
    tid = drawn(client, app, round_end="hands", round_hands="1")  # EIGHT: two tables
    t, _rounds = state(app, tid)
    names = [t.names[u] for u in t.order]
    cards = score_cards(client, tid)
    assert [c["heading"] for c in cards] == ["Table 1 · Round 1", "Table 2 · Round 1"]
    for n, card in enumerate(cards, start=1):
        a, b, c, d = names[4 * (n - 1) : 4 * n]
        assert card["seats"] == {f"{n}.1": a, f"{n}.2": b, f"{n}.3": c, f"{n}.4": d}
        assert card["deals"] == [f"{n}.1"] and card["sides"] == [f"{a} & {c}", f"{b} & {d}"]
        assert card["rows"] == 1  # a round of one hand
        assert card["signatures"] == [f"Signature for {a} & {c}", f"Signature for {b} & {d}"]
    assert score_cards(client, tid, 1) == cards
    page = client.get(f"/tournaments/{tid}/score-cards").text
    assert "The final table's score card can be printed once the final table has started." in page
    assert 'href="/tournaments/%d/score-cards/2"' % tid not in page
    # the final table before it is known: back to round 1's cards, saying why
    early = client.get(f"/tournaments/{tid}/score-cards/2")
    assert early.status_code == 302 and early.headers["Location"] == f"/tournaments/{tid}/score-cards"
    assert "The final table's score card can be printed once the final table has started." in flashes(
        client.get(f"/tournaments/{tid}/score-cards").text
    )

    assert act(client, tid, "/rounds").status_code == 302
    assert post_hand(client, table_game(client, tid, 1), *win_hand()).status_code == 302  # 4000 to 50
    small = side_fields(0, melded=150), side_fields(1, melded=130)
    assert post_hand(client, table_game(client, tid, 2), *small).status_code == 302  # 150 to 130
    assert act(client, tid, "/rounds").status_code == 302  # the final table
    final = score_cards(client, tid, 2)
    # the better qualifying pair (table 1's seats 1 and 3) at seats 1 and 3, dealing first; table 2's
    # winners (its seats 1 and 3) at 2 and 4
    a, b, c, d = names[0], names[4], names[2], names[6]
    assert final == [
        {
            "heading": "Table 1 · Round 2 · the final table",
            "seats": {"1.1": a, "1.2": b, "1.3": c, "1.4": d},
            "deals": ["1.1"],
            "sides": [f"{a} & {c}", f"{b} & {d}"],
            "rows": 1,
            "signatures": [f"Signature for {a} & {c}", f"Signature for {b} & {d}"],
        }
    ]
    _t, rounds = state(app, tid)
    assert tuple(final[0]["seats"].values()) == rounds[1].tables[0].seats  # as the final table's game is seated
    assert [c["heading"] for c in score_cards(client, tid)][-1] == "Table 1 · Round 2 · the final table"
    assert client.get(f"/tournaments/{tid}/score-cards/3").status_code == 404
    # the guide cards: a finalist's gives his seat at the final table now (a club night's review found
    # "the final table, for the tables' winners" on every card to the close); the others' say who plays it
    guides = guide_cards(client, tid)
    assert guides[a][1] == f"Round 2: table 1, seat 1 (1.1) · Partner: {c} · Against: {b} & {d} · First deal: {a}"
    assert guides[names[1]][1] == "Round 2: the final table, for the tables' winners"


# --- pairs moving between tables ----------------------------------------------------------------------


@pytest.mark.parametrize("pairs", [FIVE_PAIRS, FIVE_PAIRS + ["Kim & Lou"]], ids=["odd", "even"])
def test_pairs_moving_between_tables_north_south_stay_east_west_move(client, app, pairs):
    tid = drawn(client, app, format="mitchell", entrants="\n".join(pairs))
    t, _rounds = state(app, tid)
    tables = (len(pairs) + 1) // 2
    drawn_pairs = [t.entrants[u] for u in t.order]
    # "Pairs moving between tables": the first half of the draw North–South at tables 1, 2, …; with an odd
    # number of pairs the last table has no North–South pair
    north_south = {k + 1: pair for k, pair in enumerate(drawn_pairs[: len(pairs) // 2])}
    east_west = drawn_pairs[len(pairs) // 2 :]
    cards = guide_cards(client, tid)
    assert list(cards) == [" & ".join(p) for p in drawn_pairs]
    page = client.get(f"/tournaments/{tid}/guide-cards").text
    met = set()
    for table, (a, b) in north_south.items():
        assert f"North–South: you stay at table {table} all evening." in page
    for j, (c, d) in enumerate(east_west):
        lines = []
        for rnd in range(1, tables + 1):
            table = (j + rnd - 1) % tables + 1  # one table higher each round, the last table's pair to table 1
            if table not in north_south:
                lines.append(f"Round {rnd}: sits out")
                continue
            a, b = north_south[table]
            met.add((a, c))
            lines.append(
                f"Round {rnd}: table {table}, seats {table}.2 {c}, {table}.4 {d} · Against: {a} & {b} · First deal: {a}"
            )
            ns_line = (
                f"Round {rnd}: table {table}, seats {table}.1 {a}, {table}.3 {b} · Against: {c} & {d} · First deal: {a}"
            )
            assert cards[f"{a} & {b}"][rnd - 1] == ns_line
        assert cards[f"{c} & {d}"] == lines
    assert len(met) == len(north_south) * len(east_west)  # every North–South pair meets every East–West pair
    byes = [line for lines in cards.values() for line in lines if line.endswith("sits out")]
    assert len(byes) == (tables if len(pairs) % 2 else 0)  # each East–West pair sits out once
    # the score cards of every round: the same seats, one card per table played
    for rnd in range(1, tables + 1):
        for card in score_cards(client, tid, rnd):
            table = int(card["heading"].split()[1])
            a, b = north_south[table]
            c, d = east_west[(table - rnd) % tables]
            assert card["seats"] == {f"{table}.1": a, f"{table}.2": c, f"{table}.3": b, f"{table}.4": d}
            assert card["sides"] == [f"{a} & {b}", f"{c} & {d}"] and card["deals"] == [f"{table}.1"]
            assert card["rows"] == 12  # a round to the target
    every = score_cards(client, tid)
    assert len(every) == tables * len(north_south)
    assert sheets(client, f"/tournaments/{tid}/score-cards") == [2] * (len(every) // 2) + [1] * (len(every) % 2)


# --- players changing partners -------------------------------------------------------------------


LINE = re.compile(
    r"Round (\d): table (\d+), seat (\d) \((\d+)\.(\d)\) · Partner: (.+) · Against: (.+) · First deal: (.+)"
)


def test_four_players_changing_partners_each_partner_once_the_deal_passing_left(client, app):
    tid = drawn(client, app, format="rotation", entrants="\n".join(TWELVE))
    t, _rounds = state(app, tid)
    drawn_names = [t.names[u] for u in t.order]
    cards = guide_cards(client, tid)
    # "Players changing partners": N–S against E–W, then N–E against S–W, then N–W against S–E (the
    # four drawn at a table are N, E, S, W); the first deal: the player drawn first, then second, then third
    partnerships = [((0, 2), (1, 3)), ((0, 1), (2, 3)), ((0, 3), (1, 2))]
    seated = {}  # (round, table, seat) → name, from the guide cards
    for i, name in enumerate(drawn_names):
        table, position = i // 4 + 1, i % 4
        four = drawn_names[4 * (table - 1) : 4 * table]
        partners = set()
        for rnd, line in enumerate(cards[name], start=1):
            found = LINE.fullmatch(line)
            assert found, line
            r, tab, seat, label_table, label_seat, partner, against, dealer = found.groups()
            assert (int(r), int(tab), tab, seat) == (rnd, table, label_table, label_seat)
            if rnd == 1:
                assert int(seat) == position + 1  # seats 1 to 4 in the order drawn
            pair = partnerships[rnd - 1]
            mine, theirs = pair if position in pair[0] else pair[::-1]
            assert partner == four[sum(mine) - position]
            assert set(against.split(" & ")) == {four[k] for k in theirs}
            assert dealer == four[rnd - 1]
            partners.add(partner)
            seated[rnd, table, int(seat)] = name
        assert len(partners) == 3  # each player partners every other once
    for (rnd, table, seat), name in seated.items():  # partners sit opposite: seats 1 and 3, 2 and 4
        partner = seated[rnd, table, (seat + 1) % 4 + 1]
        assert re.search(rf"Partner: {partner} ·", cards[name][rnd - 1])
    assert len(seated) == 3 * 12
    # each round's score cards seat everyone where the guide cards say
    for rnd in (1, 2, 3):
        cards_of_round = score_cards(client, tid, rnd)
        assert [c["heading"] for c in cards_of_round] == [f"Table {n} · Round {rnd}" for n in (1, 2, 3)]
        for table, card in enumerate(cards_of_round, start=1):
            assert card["seats"] == {f"{table}.{s}": seated[rnd, table, s] for s in (1, 2, 3, 4)}
            dealer = drawn_names[4 * (table - 1) + rnd - 1]
            assert [card["seats"][label] for label in card["deals"]] == [dealer]
            s = card["seats"]
            one, two, three, four = (s[f"{table}.{k}"] for k in (1, 2, 3, 4))
            assert card["sides"] == [f"{one} & {three}", f"{two} & {four}"]
    page = client.get(f"/tournaments/{tid}/guide-cards").text
    assert page.count("3 Partien at table 1, with a new partner in each.") == 4


def test_nine_players_changing_partners_the_table_of_four_is_done_not_sitting_out(client, app):
    # docs/tournaments.md, "Players changing partners": a table of five plays five Partien (one sits
    # out each), a table of four is done after three. Its players' cards say so for rounds 4 and 5;
    # each of the five sits out once.
    tid = drawn(client, app, format="rotation", entrants="\n".join(TWELVE[:9]), rules_5="austrian:5")
    t, _rounds = state(app, tid)
    assert t.rounds == 5
    cards = guide_cards(client, tid)
    assert len(cards) == 9
    four = [name for name, lines in cards.items() if len(lines) == 5 and "over" in lines[3]]
    five = [name for name in cards if name not in four]
    assert len(four) == 4 and len(five) == 5
    for name in four:
        assert cards[name][3:] == ["Round 4: your Partien are over", "Round 5: your Partien are over"]
        assert all(line.startswith(f"Round {r}: table ") for r, line in enumerate(cards[name][:3], start=1))
    for name in five:
        assert len([line for line in cards[name] if line.endswith("sits out")]) == 1
        assert not [line for line in cards[name] if "over" in line]


def test_score_cards_go_two_to_a_printed_page(client, app):
    tid = drawn(client, app, format="rotation", entrants="\n".join(TWELVE))
    assert sheets(client, f"/tournaments/{tid}/score-cards/2") == [2, 1]
    assert sheets(client, f"/tournaments/{tid}/score-cards") == [2, 2, 2, 2, 1]
    # a round of more hands than fit two cards to a page: one card a page
    long = drawn(client, app, name="Long night", round_end="hands", round_hands="20")
    assert sheets(client, f"/tournaments/{long}/score-cards") == [1, 1]
    assert [c["rows"] for c in score_cards(client, long)] == [20, 20]
    assert 'class="paper scores one-a-page"' in client.get(f"/tournaments/{long}/score-cards").text


def test_a_round_that_does_not_exist_is_a_404(client, app):
    tid = drawn(client, app, format="rotation", entrants="\n".join(EIGHT))
    for number in (0, 4, 99):
        assert client.get(f"/tournaments/{tid}/score-cards/{number}").status_code == 404
    page = client.get(f"/tournaments/{tid}/score-cards/3").text
    nav = re.search(r'<nav class="paper-rounds"[^>]*>(.*?)</nav>', page, re.S).group(1)
    assert [text(a) for a in re.findall(r"<a [^>]*>(.*?)</a>", nav)] == ["All rounds", "Round 1", "Round 2", "Round 3"]
    assert re.search(rf'href="/tournaments/{tid}/score-cards/3" aria-current="page"', nav)


def test_the_cards_speak_the_readers_language(client, app):
    tid = drawn(client, app, format="mitchell", entrants="\n".join(FIVE_PAIRS))
    client.get("/prefs?lang=de&next=/")
    guide = client.get(f"/tournaments/{tid}/guide-cards").text
    assert "Laufkarten" in guide and "Durchgang 1: Tisch 1, Plätze 1.1" in guide and "Drucken" in guide
    scores = client.get(f"/tournaments/{tid}/score-cards/1").text
    assert "Punktezettel" in scores and "Unterschrift für" in scores and "gibt zuerst" in scores
    client.get("/prefs?lang=et&next=/")
    assert "Istumiskaardid" in client.get(f"/tournaments/{tid}/guide-cards").text
    client.get("/prefs?lang=it&next=/")
    assert "Cartellini segnapunti" in client.get(f"/tournaments/{tid}/score-cards").text
