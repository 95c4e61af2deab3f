"""A club night's standings as the organiser and the big screen show them (docs/tournaments.md, "A pair
that sits out", "Shared places", "Season points"): the choices on the form, a bye by average, places
shared and their season points split, the final table named between the rounds, the season's table and
its ladder; bad input refused beside its field with what was typed kept."""

from __future__ import annotations

import html
import re

from scorekeeper.services import tournaments as service
from scorekeeper.services.verdicts import SAVED
from scorekeeper.storage import db as dbmod
from tests.helpers import post_hand, side_fields, win_hand
from tests.test_tournaments import EIGHT, act, create, four_pairs, small_hand, started, state, table_game


def _ranking(page: str) -> list[tuple[str, str]]:
    """The organiser's page's standings: (place as shown, names) a line."""
    block = page[page.index('class="t-ranking"') :]
    block = block[: block.index("</ol>")]
    rows = re.findall(r'class="t-place num">(.*?)</span> <span class="t-name">(.*?)</span>', block, re.S)
    return [(re.sub(r"<[^>]+>", "", place).strip(), html.unescape(names)) for place, names in rows]


def test_the_form_offers_the_bye_and_the_ties_and_keeps_them(client, app):
    page = client.get("/tournaments/new").text
    assert 'name="bye_score" value="average" checked' in page and 'name="ties" value="shared" checked' in page
    response = create(client, format="mitchell", entrants="A & B\nC & D\nE & F", bye_score="win", ties="lot")
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    t, _rounds = state(app, tid)
    assert (t.bye_score, t.ties) == ("win", "lot")
    edit = client.get(f"/tournaments/{tid}/edit").text
    assert 'name="bye_score" value="win" checked' in edit and 'name="ties" value="lot" checked' in edit
    assert client.get(f"/api/tournaments/{tid}").get_json()["bye_score"] == "win"


def test_bad_choices_and_season_points_that_grow_are_refused_beside_their_field(client, app):
    for fields, field, message in (
        ({"bye_score": "half"}, "bye_score", "Not a valid choice"),
        ({"ties": "coin"}, "ties", "Not a valid choice"),
        ({"season_points": "10, 8, 9"}, "season_points", "A place cannot get more season points than the place"),
        ({"season_points": "10, ², 1"}, "season_points", "Whole numbers with commas between them"),
    ):
        response = create(client, name="Refused night", **fields)
        assert response.status_code == 422, fields
        page = html.unescape(response.text)
        assert f'id="{field}-error"' in page and message in page, fields
        if field == "season_points":
            assert f'value="{fields[field]}"' in page  # what was typed stays
    assert "Refused night" not in client.get("/tournaments").text  # nothing stored


def test_a_bye_counts_the_pairs_average_and_level_pairs_share_the_place(client, app):
    """Three pairs between tables, one hand a round: round 1 the North–South pair wins 150 to 130 and the
    third sits out; round 2 it wins again 150 to 130 against the third while the second sits out. Each
    East–West pair: one game lost (0 match points, 130) and a bye by its average (0 and 130): 0 and 260
    each, level, never met: they share 2nd place."""
    tid = started(
        client, format="mitchell", entrants="Ann & Bob\nCid & Dee\nEve & Fay", round_end="hands", round_hands="1"
    )
    t, rounds = state(app, tid)
    north_south, first_east_west, bye = (t.names[u] for u in t.order)
    assert rounds[0].byes[0].unit == t.order[2]
    page = client.get(f"/tournaments/{tid}").text
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert "1 bye (average)" in page and [place for place, _n in _ranking(page)] == ["1="] * 3  # nothing yet
    assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert _ranking(page)[-1] == ("3", bye)  # no game yet: nothing counts for the bye, it stands last
    act(client, tid, "/rounds")
    assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert _ranking(page) == [("1", north_south), ("2=", first_east_west), ("2=", bye)]
    page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert page.count("0 MP · 260 · 1 bye (average)") == 2
    big = client.get(f"/tournaments/{tid}/standings").text
    assert big.count('<span class="s-place">2<abbr') == 2 and "the place is shared" in big
    act(client, tid, "/close")
    closed = client.get(f"/tournaments/{tid}").text
    # places 2 and 3 shared: (8 + 6) / 2 = 7 season points each
    closed = closed.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
    assert closed.count("7 season points") == 2 and "10 season points" in closed


def test_players_level_on_everything_split_the_season_points(client, app):
    """Players changing partners, one hand a Partie, side 1 & 3 always winning 150 to 130: the player
    drawn first is on the winning side all three times (450, 6 match points); each other player once
    (150 + 130 + 130 = 410, 2 match points): three share 2nd place and (8 + 6 + 5) / 3 = 6.33 season
    points each; by lot they take 2nd, 3rd and 4th."""
    for ties, places, points in (
        ("shared", ["1", "2=", "2=", "2="], ["6.33"] * 3),
        ("lot", ["1", "2", "3", "4"], ["8", "6", "5"]),
    ):
        tid = started(
            client,
            name=f"Rotation {ties}",
            format="rotation",
            entrants="\n".join(EIGHT[:4]),
            round_end="hands",
            round_hands="1",
            ties=ties,
        )
        for partie in (1, 2, 3):
            assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
            if partie < 3:
                act(client, tid, "/rounds")
        act(client, tid, "/close")
        page = client.get(f"/tournaments/{tid}").text
        t, _rounds = state(app, tid)
        assert [place for place, _name in _ranking(page)] == places
        assert _ranking(page)[0][1] == t.names[t.order[0]]
        page = page.replace("\xa0", " ")  # a figure's words are held together by no-break spaces
        assert re.findall(r"(\d+(?:\.\d+)?) season points", page)[1:] == points
        assert client.get(f"/api/tournaments/{tid}").get_json()["standings"][1]["season_points"] == float(points[0])
        if ties == "shared":  # in German, with the German decimal sign; the API's figure stays a JSON number
            client.get(f"/prefs?lang=de&next=/tournaments/{tid}")
            for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings", "/tournaments/season"):
                german = client.get(path).text.replace("\xa0", " ")
                assert "6,33" in german and "6.33" not in german, path
            client.get(f"/prefs?lang=en&next=/tournaments/{tid}")


def test_the_big_screen_names_the_final_table_between_the_rounds(client, app):
    tid = started(client, round_end="hands", round_hands="1")
    assert "The final table:" not in client.get(f"/tournaments/{tid}/standings").text
    for table in (1, 2):
        assert post_hand(client, table_game(client, tid, table), *small_hand()).status_code == 302
    t, rounds = state(app, tid)
    page = html.unescape(client.get(f"/tournaments/{tid}/standings").text)
    # each table's side 0 won 150 to 130 in one hand: level leads, so the draw seats table 1's pair first
    first, second = (t.side_players(rounds[0].tables[k], 0) for k in (0, 1))
    assert f"The final table: {' & '.join(first)} against {' & '.join(second)}" in re.sub(r"</?b>", "", page)
    act(client, tid, "/rounds")
    assert "The final table:" not in client.get(f"/tournaments/{tid}/standings").text


def test_the_qualifiers_stand_with_their_lead_per_hand(client, app):
    """docs/tournaments.md, "Tables with a final": the qualifiers rank by their lead per hand, which the
    organiser's page says beside them so a director can check the order (a club night's review could not):
    table 1's winners led 4000 − 50 = 3950 in one hand (docs/rules.md#classic › Going out), table 2's
    150 − 130 = 20; the losing sides show none."""
    tid = started(client, round_end="hands", round_hands="1")
    assert post_hand(client, table_game(client, tid, 1), *win_hand()).status_code == 302
    assert post_hand(client, table_game(client, tid, 2), *small_hand()).status_code == 302
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", client.get(f"/tournaments/{tid}").text)).split())
    assert page.count("lead 3950 a hand") == 1 and page.count("lead 20 a hand") == 1
    assert page.index("lead 3950 a hand") < page.index("lead 20 a hand")  # the better qualifier first
    # the big screen keeps its lines short, to be read from three metres (its own browser test)
    assert "a hand" not in client.get(f"/tournaments/{tid}/standings").text


def _closed_night(client, app, name: str) -> None:
    """A closed club night of one table of four drawn with seed 1, one hand: the side of seats 1 and 3 wins
    150 to 130 (the same partners win every such night)."""
    response = create(client, name=name, entrants="\n".join(EIGHT[:4]), round_end="hands", round_hands="1")
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert service.draw(dbmod.get_db(), tid, seed=1).status == SAVED
    assert act(client, tid, "/rounds").status_code == 302
    assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
    assert act(client, tid, "/close").status_code == 302


def test_the_seasons_table_shares_ranks_and_keeps_a_ladder(client, app):
    _closed_night(client, app, "First night")
    _closed_night(client, app, "Second night")
    page = client.get("/tournaments/season").text
    rows = re.findall(r"<tr[^>]*><td class=\"num\">(.*?)</td><td>(.*?)</td><td class=\"num\">(.*?)</td>", page)
    # the same table twice: the pair drawn first wins both nights, 10 + 10 each, sharing 1st; the others 8 + 8
    assert [(re.sub(r"<[^>]+>", "", place), points) for place, _name, points in rows] == [
        ("1=", "20"),
        ("1=", "20"),
        ("3=", "16"),
        ("3=", "16"),
    ]
    ladder = client.get("/tournaments/season?best=1&min=2").text
    assert "Each player&#39;s best evening counts." in ladder or "Each player's best evening counts." in ladder
    played_two = r"<td class=\"num\">(\d+)</td><td class=\"num season-wide\">2</td>"
    assert re.findall(played_two, ladder) == ["10", "10", "8", "8"]
    assert ladder.count("counted: Second night") == 4  # the newest of two equal evenings
    for query, field, message in (
        ("best=x", "best", "A whole number from 1 up."),
        ("min=3", "min", "This season has 2 closed tournaments: at most 2."),
    ):
        refused = client.get(f"/tournaments/season?{query}")
        assert refused.status_code == 422 and f'id="{field}-error"' in refused.text
        assert message in html.unescape(refused.text) and f'value="{query.split("=")[1]}"' in refused.text


def test_one_season_point_is_said_in_the_singular_and_the_others_in_the_plural(client, app):
    """Three pairs between tables, season points 3, 2, 1: the last place's line says "1 season point"."""
    tid = started(
        client,
        format="mitchell",
        entrants="Ann & Bob\nCid & Dee\nEve & Fay",
        round_end="hands",
        round_hands="1",
        season_points="3, 2, 1",
    )
    assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
    act(client, tid, "/close")
    page = client.get(f"/tournaments/{tid}").text.replace("\xa0", " ")  # a figure's words held by no-break spaces
    said = set(re.findall(r"(\d+) (season points?)(?![a-z])", page))
    assert {("3", "season points"), ("2", "season points"), ("1", "season point")} <= said, said
    assert ("1", "season points") not in said
    client.get(f"/prefs?lang=de&next=/tournaments/{tid}")
    german = client.get(f"/tournaments/{tid}").text.replace("\xa0", " ")
    assert "Saisonpunkte: 1" in german and "Saisonpunkte: 3" in german


def test_the_seating_of_the_rounds_says_who_sits_out_each_round(client, app):
    """Three pairs between tables: one table a round and a pair sitting out, another each round; the
    organiser's seating of the rounds names it under each round's table, as the grid and the guide cards do."""
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee\nEve & Fay")
    t, rounds = state(app, tid)
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    plan = page[page.index("Seating of the rounds") :]
    blocks = plan.split('<details class="t-round-plan"')[1:]
    out = [re.findall(r'<li class="t-plan-bye"><b>Sits out</b> (.*?)</li>', block) for block in blocks]
    assert len(out) == t.kind.planned_rounds(3) >= 2 and all(len(names) == 1 for names in out), out
    assert len({names[0] for names in out}) == len(out)  # another pair each round
    assert out[0] == [t.names[rounds[0].byes[0].unit]]


def test_the_standings_lead_back_to_the_tournament_on_a_phone(client, app):
    """A phone that opened the standings (the big screen's page) finds its way back to the tournament's
    page without the browser's back button (a club night's review); the big screen hides the link with
    the page's other phone links (static/tournaments.css: .prefs)."""
    tid = started(client)
    page = client.get(f"/tournaments/{tid}/standings").text
    assert re.search(rf'<p class="prefs s-back"><a href="/tournaments/{tid}">← Club night</a></p>', page)
    assert page.index('class="prefs s-back"') < page.index("</main>")  # inside a landmark (axe: region)


def test_a_side_below_zero_is_written_with_a_minus_sign_on_the_tournaments_pages(client, app):
    """docs/rules.md#classic › Red and black threes: one red three of a side that melded nothing counts −100
    (the other side melded 130): the organiser's page and the standings write "−100", as the game
    pages do, never "-100" (a club night's review)."""
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee\nEve & Fay\nGus & Hal")
    game = table_game(client, tid, 1)
    assert post_hand(client, game, side_fields(0, red=1), side_fields(1, melded=130)).status_code == 302
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings"):
        page = client.get(path).text
        assert "−100" in page and "-100" not in page, path


def test_the_final_standings_give_the_ranking_first_and_every_rounds_tables(client, app):
    """A closed club night's standings are its record, printed and pinned up: the ranking first, then
    each round's tables under the round's number with their totals, not only the last round's (a club
    night's review: the printed final standings showed round 2's tables alone above the ranking). Four
    pairs between tables, one hand a round, each table's North–South pair winning 150 to 130 (the
    stock ran out, docs/rules.md#classic › Card values; tests.test_tournaments.small_hand)."""
    tid = four_pairs(client, 1)
    for round_number in (1, 2):
        if round_number == 2:
            assert act(client, tid, "/rounds").status_code == 302
        for table in (1, 2):
            assert post_hand(client, table_game(client, tid, table), *small_hand()).status_code == 302
    t, rounds = state(app, tid)
    playing = client.get(f"/tournaments/{tid}/standings").text
    assert "Round 1</h2>" not in playing and playing.index('class="s-tables"') < playing.index('class="s-ranking"')
    assert act(client, tid, "/close").status_code == 302
    page = html.unescape(client.get(f"/tournaments/{tid}/standings").text)
    assert re.search(r'class="standings\s+final"', page)
    assert page.index('class="s-ranking"') < page.index('class="s-tables"') < page.index("Round 1</h2>")
    for number, played in enumerate(rounds, start=1):
        block = page[page.index(f"Round {number}</h2>") :]
        block = block[: block.index("</ul>")]
        for table in played.tables:
            names = [" & ".join(t.side_players(table, side)) for side in (0, 1)]
            shown = re.sub(r"<[^>]+>", "", block)
            assert all(name in shown for name in names), (number, names)
        assert block.count(">150</b>") == block.count(">130</b>") == 2, number
    assert page.index("Round 1</h2>") < page.index("Round 2</h2>")


def test_a_table_whose_round_ended_without_a_hand_says_so_without_a_tick(client, app):
    """docs/tournaments.md, the director's grid: a table whose round is over without a hand saved has
    nothing finished, so no tick; the standings' tiles say the same (they said "0 hands · ✓ over").
    Four pairs between tables, one hand a round: table 1 saves its hand, table 2 none, the organiser
    ends the round."""
    tid = four_pairs(client, 1)
    assert post_hand(client, table_game(client, tid, 1), *small_hand()).status_code == 302
    assert act(client, tid, "/rounds/1/end").status_code == 302
    t, rounds = state(app, tid)
    assert all(table.done for table in rounds[0].tables)
    page = html.unescape(client.get(f"/tournaments/{tid}/standings").text)
    states = [
        re.sub(r"<[^>]+>", "", s).strip() for s in re.findall(r'<span class="s-state">(.*?)</span>\s*</li>', page, re.S)
    ]
    assert states == ["1 hand · ✓ over", "over · no hand saved"], states


def test_a_loss_a_partie_is_written_with_the_minus_sign(client):
    """Players changing partners at tables of four and five show each player's points a Partie: a loss was
    written "-130 a Partie" with a hyphen where every other figure has "−" (a review found it). Side 1
    holds 130 in hand with nothing melded: −130 (docs/rules.md#classic › Card values)."""
    tid = started(client, format="rotation", entrants="\n".join([*EIGHT, "Ida"]), round_end="hands", round_hands="1")
    lost = side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, hand=130)
    assert post_hand(client, table_game(client, tid, 1), *lost).status_code == 302
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings"):
        page = html.unescape(client.get(path).text).replace("\xa0", " ")
        assert "−130 a Partie" in page and "-130" not in page, path
