"""Choosing and playing each rule set through the pages (Flask client), with worked figures.

Expected scores are worked by hand from docs/rules.md, the heading named per test.
"""

import re

import pytest

from scorekeeper.core import rulesets
from tests.helpers import post_hand, side_fields, start_game, totals

NAMES6 = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


@pytest.mark.parametrize("variant", list(rulesets.RULE_SETS))
def test_reference_page_is_built_from_the_tables(client, variant):
    rules = rulesets.configure(rulesets.get(variant))
    page = client.get(f"/rules/{variant}")
    assert page.status_code == 200
    assert rules.name.replace("'", "&#39;") in page.text
    for kind in rules.canasta_kinds:
        assert re.search(rf"{re.escape(kind.label)}, each</td><td class=\"num\">{kind.bonus}<", page.text)
    for row in rules.opening_minimums:
        assert f'<td>{row.label}</td><td class="num">{row.minimum}</td>' in page.text
    for g in rules.going_out:
        assert g.label.replace("'", "&#39;") in page.text
    for d in rules.penalty_catalogue + rules.incomplete_melds:
        assert f"−{d.points}" in page.text
    assert f"reaches {rules.target}" in page.text


def test_unknown_rule_set_pages_are_404(client):
    assert client.get("/rules/bridge").status_code == 404
    assert client.get("/games/new/bridge").status_code == 404


def test_six_players_three_teams(client):
    game_id = start_game(client, variant="six-3x2", names=NAMES6)
    page = client.get(f"/games/{game_id}")
    assert "Anna &amp; Dora" in page.text and "Bert &amp; Emil" in page.text and "Carl &amp; Fritz" in page.text
    assert totals(page.text) == [0, 0, 0]
    # docs/rules.md#six-3x2 › Red and black threes: out 100 + natural 500 + mixed 300 + 4 red threes 400
    # + melded 400 = 1700;
    # 2 red threes 200 + melded 150 − 30 = 320; never melded: −85
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, mixed=1, red=4, melded=400),
        side_fields(1, red=2, melded=150, hand=30),
        side_fields(2, hand=85),
    )
    assert response.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [1700, 320, -85]
    # going out with one canasta is refused for six players (docs/rules.md#six-3x2 › Going out: two canastas)
    response = post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=100), side_fields(1), side_fields(2)
    )
    assert response.status_code == 422
    assert "Going out needs at least 2 completed canastas" in response.text


def test_six_players_three_teams_winner_leads(client):
    game_id = start_game(client, variant="six-3x2", names=NAMES6, target=3000)
    # custom target 3000: A 100 + 2 natural 1000 + 6 red threes 1200 + melded 700 = 3000 → wins;
    # B melded 100 → lead 2900; C melded 50 → lead 2950
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=2, red=6, melded=700),
        side_fields(1, melded=100),
        side_fields(2, melded=50),
    )
    page = client.get(f"/games/{game_id}")
    assert "game to 3000" in page.text
    assert "Anna &amp; Dora win</strong>" in page.text
    assert "2900 points over Bert &amp; Emil" in page.text and "2950 points over Carl &amp; Fritz" in page.text


def test_classic_three_players_lone_player(client):
    game_id = start_game(client, variant="classic-3p", names=["Anna", "Bert", "Carl"])
    fields = (
        side_fields(0, went_out="normal", natural=1, melded=200),
        side_fields(1, mixed=1, melded=150, red=1),
        side_fields(2, hand=40, red=2),
    )
    missing = post_hand(client, game_id, *fields)
    assert missing.status_code == 422 and "Pick who played alone." in missing.text
    assert 'value="150"' in missing.text
    # docs/rules.md#classic-3p › Red and black threes: lone Anna 100 + 500 + 200 = 800; partners pool 300 + 150 − 40 =
    # 410, plus own red threes
    response = post_hand(client, game_id, *fields, extra={"lone": "0"})
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [800, 510, 610]
    assert "Partnership: 1 mixed canasta" in page.text and "2 own red threes" in page.text
    hand_id = re.search(r"/hands/(\d+)/edit", page.text).group(1)
    edit = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert re.search(r'name="lone" value="0" checked', edit.text)
    # nobody alone while someone went out is refused
    refused = post_hand(client, game_id, *fields, extra={"lone": "none"})
    assert refused.status_code == 422 and "Mark who played alone" in refused.text


def test_modern_special_hand_and_stock_out(client):
    game_id = start_game(client, variant="modern")
    # a special hand only for a team with no melds (docs/rules.md#modern › Going out)
    refused = post_hand(client, game_id, side_fields(0, went_out="straight", melded=60), side_fields(1))
    assert refused.status_code == 422 and "only for a team that had not melded" in refused.text
    # nobody went out and the stock box left unticked
    unticked = post_hand(
        client, game_id, side_fields(0, melded=130), side_fields(1, melded=130), extra={"stock_out": ""}
    )
    assert unticked.status_code == 422 and "or that the stock ran out" in unticked.text
    # Straight 3000, nothing else; the other team: 2 canastas (natural 500 + mixed 300) + red three 100
    # + melded 400 − hand 25 = 1275
    ok = post_hand(
        client,
        game_id,
        side_fields(0, went_out="straight"),
        side_fields(1, natural=1, mixed=1, red=1, melded=400, hand=25),
    )
    assert ok.status_code == 302
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [3000, 1275]
    assert "Straight" in page.text
    assert "Opening meld <strong>155</strong>" in page.text  # docs/rules.md#modern › Opening minimum: 3000–4995 → 155


def test_canadian_exact_cut_and_black_threes(client):
    game_id = start_game(client, variant="canadian")
    # docs/rules.md#canadian › Going out: out 100 + 2 natural 600 + wild 300 + melded 900 = 1900; Anna dealt hand 1, so
    # the exact cut is Bert & Dora's: mixed 200 + melded 220 − 60 − 2 black threes in hand 200 + cut 100 = 260
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=2, wild_canastas=1, melded=900),
        side_fields(1, mixed=1, melded=220, hand=60, black_threes_in_hand=2, exact_cut="y"),
    )
    assert response.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [1900, 260]
    both = post_hand(
        client, game_id, side_fields(0, melded=100, exact_cut="y"), side_fields(1, melded=100, exact_cut="y")
    )
    assert both.status_code == 422 and "exact-cut bonus" in both.text
    # hand 2 is dealt by Bert (seat 2), so Bert & Dora cannot have the exact-cut bonus
    dealer = post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=100, exact_cut="y"))
    assert dealer.status_code == 422 and "the team that did not deal" in dealer.text


def test_austrian_five_players_sit_out_in_turn(client):
    game_id = start_game(client, variant="austrian", layout="5", names=NAMES6[:5])
    page = client.get(f"/games/{game_id}")
    assert "Anna &amp; Bert" in page.text and "Carl &amp; Dora &amp; Emil" in page.text
    seen = []
    for _ in range(4):
        seen.append(re.search(r"sitting out: <strong>(\w+)</strong>", client.get(f"/games/{game_id}").text).group(1))
        # docs/rules.md#austrian › Penalties: melded 100 − penalty for taking the pile out of turn 100 = 0; other side
        # melded 50
        post_hand(client, game_id, side_fields(0, melded=100, offence_pile_out_of_turn=1), side_fields(1, melded=50))
    assert seen == ["Carl", "Dora", "Emil", "Carl"]
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [0, 200]
    assert "Took the pile out of turn" in page.text


def test_house_rules_are_shown_and_applied(client):
    game_id = start_game(
        client, variant="vienna", settings={"hand_canasta_adds": True, "red_three_melded_no_canasta": 0}
    )
    page = client.get(f"/games/{game_id}")
    assert "House rules in force" in page.text
    assert "Canasta in hand (Hand-Canasta) 1000: <strong>plus the 100 for going out</strong>" in page.text
    # docs/rules.md#vienna › Going out, House rules: Hand-Canasta 1000 + 100 + natural 500 + melded 200 = 1800;
    # docs/rules.md#vienna › House rules: alternative: melded, no canasta: 2 red threes count nothing; melded 120 − 35
    # = 85
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="hand_canasta", natural=1, melded=200),
        side_fields(1, red=2, melded=120, hand=35),
    )
    assert totals(client.get(f"/games/{game_id}").text) == [1800, 85]


def test_hand_form_uses_the_rule_sets_words_and_fields(client):
    modern = start_game(client, variant="modern")
    text = client.get(f"/games/{modern}/hands/new").text
    for words in (
        "Pairs with 2s, 7s and aces",
        "Garbage",
        "Incomplete pure aces meld",
        "Players holding 3 or more 7s",
        "Black threes melded",
    ):
        assert words in text
    vienna = start_game(client, variant="vienna")
    text = client.get(f"/games/{vienna}/hands/new").text
    assert "Went out (Ausmachen)" in text and "Hand-Canasta" in text and "(Verdeckt Ausmachen)" in text
    assert "Incomplete" not in text and "Exact cut" not in text
    canadian = start_game(client, variant="canadian")
    assert "Exact cut" in client.get(f"/games/{canadian}/hands/new").text


def test_austrian_complete_game_of_three_partien(client):
    from tests.conftest import csrf_token

    url = "/games/new/austrian"
    data = {
        "csrf_token": csrf_token(client, url),
        "layout": "4",
        "first_dealer": "0",
        "target": "1000",
        "complete_game": "y",
        "players-0": "Nord",
        "players-1": "Ost",
        "players-2": "Sued",
        "players-3": "West",
    }
    response = client.post(url, data=data)
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/games/{game_id}")
    assert "Partie 1 of 3" in page.text and "Nord &amp; Sued" in page.text
    token = csrf_token(client, url)
    early = client.post(f"/matches/{game_id}/next", data={"csrf_token": token}, follow_redirects=True)
    assert "Partie 1 is still being played" in early.text
    # docs/rules.md#austrian › Going out: out 100 + natural 500 + melded 400 = 1000 → Partie won by 1000 − 50 = 950
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    second = client.post(f"/matches/{game_id}/next", data={"csrf_token": token})
    second_id = int(second.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/games/{second_id}")
    assert "Partie 2 of 3" in page.text and "Nord &amp; Ost" in page.text and "Sued &amp; West" in page.text
    # Partie 2: Sued & West win: out 100 + mixed 300 + melded 600 = 1000; Nord & Ost melded 200 → 800
    post_hand(client, second_id, side_fields(0, melded=200), side_fields(1, went_out="normal", mixed=1, melded=600))
    third = client.post(f"/matches/{game_id}/next", data={"csrf_token": token})
    third_id = int(third.headers["Location"].rsplit("/", 1)[1])
    assert "Nord &amp; West" in client.get(f"/games/{third_id}").text
    match = client.get(f"/matches/{game_id}")
    # balance: Nord +950 −800 = 150; Sued +950 +800 = 1750; Ost −950 −800 = −1750; West −950 +800 = −150
    rows = dict(re.findall(r"<tr><td>(\w+)</td><td class=\"num\">([+−]\d+)</td></tr>", match.text))
    assert rows == {"Nord": "+150", "Ost": "−1750", "Sued": "+1750", "West": "−150"}
    assert client.get("/matches/999").status_code == 404


def test_encyclopedia_asks_to_confirm_a_concealed_opening_below_the_minimum(client):
    game_id = start_game(client, variant="encyclopedia")
    # docs/rules.md#encyclopedia › Opening minimum: no exemption, so a concealed going out with 35 melded (minimum 50)
    # is questioned
    fields = (side_fields(0, went_out="concealed", natural=1, melded=35), side_fields(1))
    asked = post_hand(client, game_id, *fields)
    assert asked.status_code == 422 and "opening meld of 50" in asked.text
    assert post_hand(client, game_id, *fields, extra={"confirm": "y"}).status_code == 302
    # concealed 200 + natural 500 + melded 35 = 735
    assert totals(client.get(f"/games/{game_id}").text) == [735, 0]


def test_austrian_two_players_go_out_with_one_canasta(client):
    # docs/rules.md#austrian › Going out: [003] has no two-canasta rule for two players
    game_id = start_game(client, variant="austrian", layout="2", names=["Anna", "Bert"])
    response = post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=100), side_fields(1, melded=60, hand=30)
    )
    assert response.status_code == 302
    # out 100 + natural 500 + 100 = 700; 60 − 30 = 30
    assert totals(client.get(f"/games/{game_id}").text) == [700, 30]
