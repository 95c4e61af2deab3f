"""Every page and its error paths through the Flask test client, as a browser would use them.

Expected scores are worked by hand from docs/rules.md#classic (classic) and docs/rules.md#classic-2p (2 players).
"""

import html
import re

from scorekeeper.core import rulesets
from scorekeeper.storage import records
from tests.conftest import csrf_token
from tests.helpers import NAMES4, minimums, post_hand, side_fields, start_game, totals


def test_home_empty_state(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "No games yet" in page.text
    assert 'href="/games/new"' in page.text


def test_new_game_lists_every_rule_set_with_its_reference(client):
    page = client.get("/games/new")
    assert page.status_code == 200
    for variant in rulesets.RULE_SETS:
        assert f'href="/games/new/{variant}"' in page.text
        assert f'href="/rules/{variant}"' in page.text
    assert client.get("/games/new/poker").status_code == 404
    classic = client.get("/games/new/classic")
    assert classic.status_code == 200 and "Wild-card melds" in classic.text


def test_start_classic_game_shows_empty_scoreboard(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert "Anna &amp; Carl" in page.text and "Bert &amp; Dora" in page.text  # partners sit opposite
    assert totals(page.text) == [0, 0]
    assert minimums(page.text) == [50, 50]  # docs/rules.md#classic › Opening minimum: 0–1495 → 50
    assert "Next deal: <strong>Anna</strong>" in page.text
    assert "No hands yet" in page.text
    home = client.get("/")
    assert "Anna &amp; Carl vs Bert &amp; Dora" in home.text


def test_empty_names_get_defaults(client):
    game_id = start_game(client, names=["", "", "", ""])
    page = client.get(f"/games/{game_id}")
    assert "Player 1 &amp; Player 3" in page.text


def test_new_game_without_csrf_token_is_refused_with_a_message(client):
    response = client.post("/games/new/classic", data={"players-0": "Anna"})
    assert response.status_code == 400
    assert "reload the page" in response.text


def test_new_game_duplicate_names_keep_what_was_typed(client):
    data = {
        "csrf_token": csrf_token(client, "/games/new/classic"),
        "first_dealer": "0",
        "players-0": "Anna",
        "players-1": "Bert",
        "players-2": "anna",
        "players-3": "Dora",
    }
    response = client.post("/games/new/classic", data=data)
    assert response.status_code == 422
    assert "Two players have this name" in response.text
    assert 'value="Bert"' in response.text and 'value="anna"' in response.text


def test_new_game_too_long_name_bad_layout_and_target(client):
    data = {
        "csrf_token": csrf_token(client, "/games/new/austrian"),
        "layout": "7",
        "first_dealer": "0",
        "players-0": "x" * 41,
        "target": "5003",
    }
    response = client.post("/games/new/austrian", data=data)
    assert response.status_code == 422
    assert "At most 40 characters." in response.text
    assert "Not a valid choice" in response.text
    data.update(layout="4", target="5003", **{"players-0": "Anna"})
    response = client.post("/games/new/austrian", data=data)
    assert response.status_code == 422 and "Scores are multiples of 5." in response.text
    assert 'value="5003"' in response.text


def test_a_refused_complete_game_stores_nothing(client):
    url = "/games/new/austrian"
    before = client.get("/history").text.count("/games/")
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        "complete_game": "y",
        "layout": "2",
        "players-0": "Anna",
        "players-1": "Bert",
    }
    for _ in range(2):  # and sent again
        response = client.post(url, data=data)
        assert response.status_code == 422 and "A complete Game is for 4 players." in response.text
        assert 'value="Anna"' in response.text
    assert client.get("/history").text.count("/games/") == before


def test_two_player_game_uses_two_seats_and_checks_the_dealer(client):
    data = {
        "csrf_token": csrf_token(client, "/games/new/classic-2p"),
        "first_dealer": "2",
        "players-0": "Anna",
        "players-1": "Bert",
    }
    response = client.post("/games/new/classic-2p", data=data)
    assert response.status_code == 422
    assert "Pick one of the players at the table." in response.text
    game_id = start_game(client, variant="classic-2p", names=["Anna", "Bert", "ignored", "ignored too"], first_dealer=1)
    page = client.get(f"/games/{game_id}")
    assert "ignored" not in page.text
    assert "Next deal: <strong>Bert</strong>" in page.text


def test_hand_form_shows_minimums_and_both_sides(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}/hands/new")
    assert page.status_code == 200
    assert page.text.count('class="cell side-head"') == 2  # the sides side by side, as columns
    assert "Total 0 · opening meld 50" in page.text
    assert 'inputmode="numeric"' in page.text


def test_hand_form_writes_a_total_below_zero_with_a_real_minus(client):
    # docs/rules.md#classic › Card values: the stock ran out; 120 melded; the other side melded
    # nothing and held 100 in hand: −100 (its opening meld then 15: docs/rules.md#classic › Opening minimum)
    game_id = start_game(client)
    assert post_hand(client, game_id, side_fields(0, melded=120), side_fields(1, hand=100)).status_code == 302
    page = client.get(f"/games/{game_id}/hands/new").text
    assert "Total \u2212100 · opening meld 15" in page and "Total -100" not in page


def test_enter_a_hand_and_see_the_breakdown(client):
    game_id = start_game(client)
    # docs/rules.md#classic › Going out, side A: out 100 + natural 500 + mixed 300 + 2 red threes 200 + melded 420 −
    # hand 15 = 1505 side B: red three 100 + melded 95 − hand 130 = 65
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, mixed=1, red=2, melded=420, hand=15),
        side_fields(1, red=1, melded=95, hand=130),
    )
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [1505, 65]
    assert minimums(page.text) == [90, 50]  # docs/rules.md#classic › Opening minimum: 1500–2995 → 90
    assert "Next deal: <strong>Bert</strong>" in page.text  # the deal passes to the left
    for line in (
        "Going out",
        "1 natural canasta",
        "1 mixed canasta",
        "2 red threes",
        "Melded cards",
        "Cards left in hand",
    ):
        assert line in page.text
    assert "+1505" in page.text and "+65" in page.text and "Hand saved." in page.text


def test_card_counts_become_points(client):
    game_id = start_game(client)
    # melded by counts: 2 jokers 100 + 3 twos/aces 60 + 8 K–8 80 + 6 7–4 30 = 270; one mixed canasta 300
    # hand by counts: 1 joker 50 + 2 black threes 10 = 60 → 300 + 270 − 60 = 510 (docs/rules.md#classic › Card values)
    response = post_hand(
        client,
        game_id,
        side_fields(
            0,
            mixed=1,
            melded_cards={"jokers": 2, "twos_aces": 3, "high": 8, "low": 6},
            hand_cards={"jokers": 1, "black_threes": 2},
        ),
        side_fields(1, melded=0, hand=0),
    )
    assert response.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [510, 0]
    hand_id = int(re.search(r"/hands/(\d+)/edit", client.get(f"/games/{game_id}").text).group(1))
    edit = client.get(f"/games/{game_id}/hands/{hand_id}/edit")
    assert re.search(r'id="mode-1"[^>]*value="counts" checked', edit.text)
    assert re.search(r'name="sides-0-melded_high"[^>]*value="8"', edit.text, re.S)


def test_black_threes_left_in_hand_are_counted_with_the_7_to_4(client):
    """docs/rules.md#classic › Card values: a black three left in hand counts 5, as a 7 to 4 does. Counting
    cards, the pad has one row for both ("7 to 4, black 3s"), up to the deck's 32 and 4; a hand stored
    with black threes apart (the API, or entered before) shows their row when it is corrected."""
    game_id = start_game(client)
    form = client.get(f"/games/{game_id}/hands/new").text
    assert "7 to 4, black 3s (5)" in form and 'name="sides-1-hand_black_threes"' not in form
    assert re.search(r'name="sides-1-hand_low"[^>]*data-max="36"[^>]*data-pool="black_threes"', form)
    # side 0 went out: natural canasta 500 + 100 + 12 K–8 120 = 720; side 1: 6 K–8 60 melded (the opening
    # minimum 50), in hand four 7 to 4 and a black three, 5 of "7 to 4, black 3s": 60 − 25 = 35
    out = side_fields(0, went_out="normal", natural=1, melded_cards={"high": 12})
    response = post_hand(client, game_id, out, side_fields(1, melded_cards={"high": 6}, hand_cards={"low": 5}))
    assert response.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [720, 35]
    # stored with the black three apart: the same 5, and the correction form shows its row with it
    sides = (out, side_fields(1, melded_cards={"high": 6}, hand_cards={"low": 4, "black_threes": 1}))
    assert post_hand(client, game_id, *sides).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [1440, 70]
    hands = client.get(f"/api/games/{game_id}").get_json()["hands"]
    url = f"/games/{game_id}/hands/{hands[1]['id']}/edit"
    edit = client.get(url).text
    assert re.search(r'name="sides-1-hand_black_threes"[^>]*value="1"', edit)
    assert re.search(r'name="sides-1-hand_low"[^>]*value="4"', edit)
    assert post_hand(client, game_id, *sides, url=url).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [1440, 70]
    # something wrong typed there (a form of the page before) comes back in its row, with the message
    wrong = side_fields(1, melded_cards={"high": 6}, hand_cards={"low": 4, "black_threes": "x"})
    response = post_hand(client, game_id, out, wrong)
    assert response.status_code == 422
    assert re.search(r'name="sides-1-hand_black_threes"[^>]*value="x"', response.text)


def test_red_threes_without_a_meld_count_minus(client):
    game_id = start_game(client)
    # docs/rules.md#classic › Red and black threes: side B never melded: 4 red threes −800 and 85 in hand → −885; side
    # A: out with 1 natural canasta 100 + 500 + melded 300 − 0 = 900
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=300), side_fields(1, red=4, hand=85))
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [900, -885]
    assert "4 red threes (nothing melded: minus)" in page.text
    assert minimums(page.text) == [50, 15]  # docs/rules.md#classic › Opening minimum: negative → 15


def test_bad_input_keeps_every_typed_value_and_says_why(client):
    game_id = start_game(client)
    response = post_hand(
        client,
        game_id,
        side_fields(0, natural=0, melded="abc", hand=12),
        side_fields(1, went_out="concealed", natural=1, melded=200, red=3),
    )
    assert response.status_code == 422
    text = response.text
    assert "Enter a whole number." in text
    assert 'value="abc"' in text and 'value="12"' in text and 'value="200"' in text
    # who went out and how, asked once for the hand, keep what was chosen
    assert re.search(r'id="out-1" name="out" value="1" checked', text)
    assert re.search(r'id="how-concealed" name="how" value="concealed" checked', text)


def test_cross_side_checks_show_beside_the_field(client):
    game_id = start_game(client)
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=0, mixed=0, melded=120, hand=12, red=3),
        side_fields(1, went_out="concealed", natural=1, melded=200, red=2),
    )
    assert response.status_code == 422
    text = response.text
    assert "Only one side can go out in a hand." in text
    assert "Going out needs at least 1 completed canasta; this side has 0." in text
    assert "Points are always a multiple of 5; 12 is not." in text
    # one problem about both sides is said once, beside the first; the other side's field is marked
    assert text.count("the sides entered 5 in all") == 1
    assert 'id="sides-0-red_threes-error"' in text and 'id="sides-1-red_threes-error"' not in text
    marked = r'name="sides-1-red_threes"[^>]*aria-invalid="true" aria-describedby="sides-0-red_threes-error"'
    assert re.search(marked, text)
    assert client.get(f"/games/{game_id}").text.count('class="hand-line"') == 0  # nothing stored


def test_the_same_words_for_two_fields_stand_beside_each(client):
    """Two mistakes that read alike ("Enter a whole number.") in different rows are each said beside
    their own field, in their own side's name; only a sentence about several fields together (the
    deck's cards in all) is said once (the test above)."""
    game_id = start_game(client, names=("Anna", "Bernd", "Clara", "Dieter"))
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=120, hand="12.5"),
        side_fields(1, red="x", melded=60, hand=20),
    )
    assert response.status_code == 422
    text = html.unescape(response.text)
    for field, side in (("sides-0-hand_points", "Anna & Clara"), ("sides-1-red_threes", "Bernd & Dieter")):
        said = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', text)
        assert said and said.group(1) == f"{side}: Enter a whole number.", (field, said and said.group(1))
        assert re.search(rf'name="{field}"[^>]*aria-invalid="true" aria-describedby="{field}-error"', text), field
        assert f'data-focus="{field}"' in text  # the list at the Save button leads to each
    assert "Anna & Clara, Bernd & Dieter" not in text


def test_a_sentence_about_both_sides_comes_marked_shared_in_json(client):
    """Two sides out at once is one sentence about both: the JSON marks it shared, so a page says it once."""
    body = {"variant": "classic", "sides": [{"went_out": "normal", "natural_canastas": 1}, {"went_out": "normal"}]}
    errors = client.post("/api/score", json=body).get_json()["errors"]
    both = "Only one side can go out in a hand."
    assert [(e["side"], e["shared"]) for e in errors if e["message"] == both] == [(0, True), (1, True)], errors
    assert all(e["shared"] is False for e in errors if e["message"] != both), errors  # each its own field's


def test_a_refused_hand_says_each_problem_in_two_places_at_most(client):
    # issue 29: beside the field, and the list at the Save button that jumps to it; no banner at the top
    # repeating "check the fields marked in red"
    game_id = start_game(client)
    response = post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=200, hand=12), side_fields(1, melded=50)
    )
    assert response.status_code == 422
    text = response.text
    # docs/rules.md#classic › Card values: points are multiples of 5
    assert text.count("Points are always a multiple of 5; 12 is not.") == 1  # beside the field
    summary = text.split('class="problem-list"')[1].split("</div>")[0]
    assert 'href="#sides-0-hand_points"' in summary  # and once at the Save button, naming the field
    assert "fields marked in red" not in text
    assert text.count('class="error-box"') == 0
    places = text.count('id="sides-0-hand_points-error"') + summary.count('data-focus="sides-0-hand_points"')
    assert places == 2


def test_a_deck_wide_excess_names_both_sides(client):
    # issue 29. docs/rules.md#classic › Card values: the deck holds 4 jokers; 3 counted by each side are 6 in all,
    # neither side's fault alone: said once, naming both sides, and both sides' fields marked
    game_id = start_game(client)
    response = post_hand(
        client,
        game_id,
        side_fields(0, melded_cards={"jokers": 3, "high": 4}),
        side_fields(1, melded_cards={"jokers": 3, "low": 4}),
    )
    assert response.status_code == 422
    text = response.text
    sentence = "The deck holds 4 cards of the kind “Jokers”; 6 are entered in all."
    assert text.count(sentence) == 1
    assert f"Anna &amp; Carl, Bert &amp; Dora: {sentence}" in text
    marked = r'name="sides-1-melded_jokers"[^>]*aria-invalid="true" aria-describedby="sides-0-melded_jokers-error"'
    assert re.search(marked, text)
    # a sentence about one side still names that side alone
    response = post_hand(client, game_id, side_fields(0, melded=120, hand=12), side_fields(1, melded=50))
    assert "Anna &amp; Carl: Points are always a multiple of 5; 12 is not." in response.text


def test_a_check_on_counted_cards_is_shown_where_the_counts_are(client):
    # docs/rules.md#classic › Canastas: a natural canasta holds at least 35 points; two K-8 cards are 20. Counted on the
    # pad, the message must be on the pad, not only beside the points box that the pad hides.
    game_id = start_game(client)
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded_cards={"high": 2}),
        side_fields(1, melded=50),
    )
    assert response.status_code == 422
    row = response.text.split('data-row="melded_jokers"')[1].split('data-row="melded_twos_aces"')[0]
    assert 'id="sides-0-melded_jokers-error"' in row and "35" in row


def test_canastas_need_their_points(client):
    game_id = start_game(client)
    # a natural canasta holds at least 35, a mixed one at least 50: 2 natural + 1 mixed need 120
    response = post_hand(client, game_id, side_fields(0, natural=2, mixed=1, melded=115), side_fields(1))
    assert response.status_code == 422
    assert "hold at least 120 points" in response.text


def test_two_players_need_two_canastas_and_an_empty_hand_to_go_out(client):
    game_id = start_game(client, variant="classic-2p", names=["Anna", "Bert"])
    response = post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=200, hand=10), side_fields(1)
    )
    assert response.status_code == 422
    assert "Going out needs at least 2 completed canastas; this side has 1." in response.text
    assert "A player who went out has no cards left in hand." in response.text
    # docs/rules.md#classic-2p › Going out: out 100 + 2 natural 1000 + melded 400 = 1500; Bert: melded 60 − hand 45 = 15
    ok = post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=2, melded=400), side_fields(1, melded=60, hand=45)
    )
    assert ok.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [1500, 15]


def _hand_ids(client, game_id):
    return [int(h) for h in re.findall(r"/hands/(\d+)/edit", client.get(f"/games/{game_id}").text)]


def test_edit_an_earlier_hand_and_everything_follows(client):
    game_id = start_game(client)
    post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=1, melded=300), side_fields(1, melded=100, hand=50)
    )
    post_hand(
        client, game_id, side_fields(0, melded=100, hand=20), side_fields(1, went_out="normal", mixed=1, melded=200)
    )
    # hand 1: A 100+500+300 = 900, B 100−50 = 50; hand 2: A 100−20 = 80, B 100+300+200 = 600
    assert totals(client.get(f"/games/{game_id}").text) == [980, 650]
    first, second = _hand_ids(client, game_id)
    edit_url = f"/games/{game_id}/hands/{first}/edit"
    assert "Correct hand 1" in client.get(edit_url).text
    # now side A went out concealed with 3 red threes: 200+500+300+300 = 1300; hand 1 total 1300 then +80 = 1380
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="concealed", natural=1, red=3, melded=300),
        side_fields(1, melded=100, hand=50),
        url=edit_url,
    )
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [1380, 650]
    assert "Concealed going out" in page.text
    assert _hand_ids(client, game_id) == [first, second]  # the hand keeps its place


def test_edit_with_bad_input_keeps_values(client):
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1))
    (hand_id,) = _hand_ids(client, game_id)
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    response = post_hand(client, game_id, side_fields(0, melded=-5), side_fields(1, penalties=7), url=url)
    assert response.status_code == 422
    assert "Cannot be negative." in response.text and "7 is not" in response.text
    assert 'value="-5"' in response.text
    assert totals(client.get(f"/games/{game_id}").text) == [100, 0]


def test_delete_and_undo(client):
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=50))
    post_hand(client, game_id, side_fields(0, melded=200), side_fields(1, melded=50))
    first, second = _hand_ids(client, game_id)
    token = csrf_token(client, f"/games/{game_id}")
    response = client.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": token}, follow_redirects=True)
    assert "Hand deleted." in response.text and "Undo" in response.text
    assert totals(response.text) == [200, 50]
    assert client.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": token}).status_code == 404
    response = client.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": token}, follow_redirects=True)
    assert "Hand restored." in response.text
    assert totals(response.text) == [300, 100]
    assert _hand_ids(client, game_id) == [first, second]
    assert client.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": token}).status_code == 404


def test_delete_without_csrf_is_refused(client):
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1))
    (hand_id,) = _hand_ids(client, game_id)
    assert client.post(f"/games/{game_id}/hands/{hand_id}/delete").status_code == 400
    assert len(_hand_ids(client, game_id)) == 1


def test_missing_game_and_hand_are_404(client):
    assert client.get("/games/99").status_code == 404
    assert "There is nothing here" in client.get("/games/99").text
    assert client.get("/games/99/hands/new").status_code == 404
    assert client.get("/games/99/minimums").status_code == 404
    game_id = start_game(client)
    other = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1))
    (hand_id,) = _hand_ids(client, game_id)
    assert client.get(f"/games/{other}/hands/{hand_id}/edit").status_code == 404
    assert client.get(f"/games/{game_id}/hands/12345/edit").status_code == 404


def test_dealer_rotates_to_the_left(client):
    game_id = start_game(client, first_dealer=2)
    names = []
    for _ in range(5):
        names.append(re.search(r"Next deal: <strong>(\w+)</strong>", client.get(f"/games/{game_id}").text).group(1))
        post_hand(client, game_id, side_fields(0, melded=50), side_fields(1, melded=50))
    assert names == ["Carl", "Dora", "Anna", "Bert", "Carl"]


def test_game_ends_with_winner_and_margin(client):
    game_id = start_game(client)
    # each hand: A out with 4 natural canastas 100 + 2000 + melded 600 + 4 red threes 800 = 3500;
    # B melded 200 − hand 50 = 150. After 2 hands: A 7000, B 300 → A wins by 6700 (docs/rules.md#classic › End of the
    # game)
    big = side_fields(0, went_out="normal", natural=4, red=4, melded=600)
    small = side_fields(1, melded=200, hand=50)
    post_hand(client, game_id, big, small)
    page = client.get(f"/games/{game_id}")
    assert "win by" not in page.text and totals(page.text) == [3500, 150]
    assert minimums(page.text) == [120, 50]  # docs/rules.md#classic › Opening minimum: 3000 or more → 120
    post_hand(client, game_id, big, small)
    page = client.get(f"/games/{game_id}")
    assert "Anna &amp; Carl win</strong>" in page.text and "by 6700 points" in page.text
    assert "Enter hand" not in page.text
    response = client.get(f"/games/{game_id}/hands/new", follow_redirects=True)
    assert "This game is over" in response.text
    home = client.get("/")
    assert "Anna &amp; Carl won" in home.text


def test_both_sides_past_target_higher_total_wins(client):
    game_id = start_game(client, variant="classic-2p", names=["Anna", "Bert"])
    # A: 2 natural + melded 500 + 4 red threes 800 = 2300 per hand (not out)
    # B: out 100 + 2 natural 1000 + melded 450 = 1550, then a bigger one
    post_hand(
        client,
        game_id,
        side_fields(0, natural=2, red=4, melded=500),
        side_fields(1, went_out="normal", natural=2, melded=450),
    )
    post_hand(
        client,
        game_id,
        side_fields(0, natural=2, red=4, melded=500),
        side_fields(1, went_out="normal", natural=2, melded=450),
    )
    assert totals(client.get(f"/games/{game_id}").text) == [4600, 3100]
    # hand 3: A 2300 → 6900; B out 100 + 4 natural 2000 + melded 650 = 2750 → 5850: both past 5000
    # (500 + 650 melded: within the deck's 1180 card points, docs/rules.md#classic › Card values)
    post_hand(
        client,
        game_id,
        side_fields(0, natural=2, red=4, melded=500),
        side_fields(1, went_out="normal", natural=4, melded=650),
    )
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [6900, 5850]
    assert "Anna wins</strong>" in page.text and "by 1050 points" in page.text


def test_tie_at_the_top_plays_on(client):
    game_id = start_game(client, variant="classic-2p", names=["Anna", "Bert"])
    # each side, each hand: 2 natural canastas 1000 + 2 red threes 200 + melded 300 = 1500 (docs/rules.md#classic)
    for _ in range(4):
        response = post_hand(
            client, game_id, side_fields(0, natural=2, red=2, melded=300), side_fields(1, natural=2, red=2, melded=300)
        )
        assert response.status_code == 302
    page = client.get(f"/games/{game_id}")
    assert totals(page.text) == [6000, 6000]
    # docs/rules.md#classic › House rules: by default a tie plays another hand
    assert "Tie at 6000!" in page.text and "play another hand" in page.text
    assert "Enter hand 5" in page.text


def test_a_tie_of_two_of_three_sides_is_announced_at_their_total(client):
    # docs/rules.md#encyclopedia (3 players each for himself), target 500; docs/rules.md#encyclopedia › House rules: by
    # default a tie at the top plays on. Totals 100, 500, 500: the tie is at 500, not at the first player's 100.
    game_id = start_game(client, variant="encyclopedia", names=["Anna", "Bert", "Carl"], layout="3", target=500)
    response = post_hand(
        client,
        game_id,
        side_fields(0, melded=100),
        side_fields(1, melded=500),
        side_fields(2, melded=500),
        extra={"stock_out": "y"},
    )
    assert response.status_code == 302, response.text
    page = client.get(f"/games/{game_id}").text
    assert "Tie at 500!" in page and "Tie at 100" not in page


def test_a_reopened_game_is_locked_again_when_the_corrections_are_done(client):
    game_id = start_game(client, target=1000)
    # docs/rules.md#classic › End of the game: 100 + 500 + 400 = 1000 reaches the target
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    token = csrf_token(client, f"/games/{game_id}")
    assert "Edit hand 1" not in client.get(f"/games/{game_id}").text
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    page = client.get(f"/games/{game_id}").text
    assert "Edit hand 1" in page and "Corrections done: lock the sheet" in page
    client.post(f"/games/{game_id}/lock", data={"csrf_token": token})
    page = client.get(f"/games/{game_id}").text
    assert "Edit hand 1" not in page and "Reopen for corrections" in page


def test_a_correction_saved_after_another_phone_locked_the_game_comes_back_with_its_figures(client):
    """A review lost a correction this way: phone B opens hand 1 of a reopened game, phone A taps
    "Corrections done", B saves 270. The answer was a redirect to the sheet, which the phone's script
    takes for "stored" and forgets the typing; it is the form again (409) with the figures and why."""
    game_id = start_game(client, target=1000)
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    hand = client.get(f"/api/games/{game_id}").get_json()["hands"][0]["id"]
    edit = f"/games/{game_id}/hands/{hand}/edit"
    form = client.get(edit).text
    based_on = re.search(r'name="based_on"[^>]*value="([^"]*)"', form).group(1)
    client.post(f"/games/{game_id}/lock", data={"csrf_token": token})  # phone A, meanwhile
    answer = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=270),
        side_fields(1, melded=50),
        url=edit,
        extra={"based_on": based_on},
    )
    page = " ".join(html.unescape(answer.text).split())
    assert answer.status_code == 409 and "This game is finished and read-only." in page
    assert re.search(r'name="sides-0-melded_points"[^>]*value="270"', answer.text)
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1000, 50]  # nothing stored


def _two_hands(client) -> tuple[int, list[int]]:
    """A game of two hands (docs/rules.md#classic: melded points only, no side near the target)."""
    game_id = start_game(client)
    for melded in (300, 400):
        post_hand(client, game_id, side_fields(0, melded=melded), side_fields(1, melded=50))
    return game_id, [h["id"] for h in client.get(f"/api/games/{game_id}").get_json()["hands"]]


def test_a_correction_of_a_hand_deleted_meanwhile_keeps_its_figures_as_a_new_hand(client):
    """A review lost a correction to a bare "Not found": phone B corrects hand 2 (950) while phone A
    deletes it. B's figures come back on a new hand's form (409), saved as hand 2 with one tap."""
    game_id, (_first, second) = _two_hands(client)
    edit = f"/games/{game_id}/hands/{second}/edit"
    client.get(edit)
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/hands/{second}/delete", data={"csrf_token": token})  # phone A
    answer = post_hand(client, game_id, side_fields(0, melded=950), side_fields(1, melded=50), url=edit)
    page = " ".join(html.unescape(answer.text).split())
    assert answer.status_code == 409 and "Meanwhile another phone deleted this hand." in page
    assert "press Save to store them as hand 2" in page
    assert re.search(r'name="sides-0-melded_points"[^>]*value="950"', answer.text)
    assert f'action="/games/{game_id}/hands/new"' in answer.text
    data = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', answer.text))
    assert (
        post_hand(
            client,
            game_id,
            side_fields(0, melded=950),
            side_fields(1, melded=50),
            extra={"based_on": data["based_on"], "client_key": data["client_key"]},
        ).status_code
        == 302
    )
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1250, 100]


def test_a_deleted_hand_can_be_brought_back_after_the_undo_message_is_gone(client):
    """A review lost a hand so: phone A deletes hand 1, phone B saves a hand, A's sheet refreshes and
    the message with Undo is gone. The sheet lists the game's deleted hands with a way back."""
    game_id, (first, _second) = _two_hands(client)
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": token})
    client.get(f"/games/{game_id}")  # the message shown once, with its Undo
    post_hand(client, game_id, side_fields(0, melded=200), side_fields(1, melded=50))  # another phone
    page = client.get(f"/games/{game_id}").text
    listed = page[page.index('class="deleted-hands') :].split("</details>")[0]
    assert "1 deleted hand" in listed and "+300 : +50" in listed  # its scores as kept
    assert f'action="/games/{game_id}/hands/{first}/restore"' in listed and "Bring it back" in listed
    client.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": token})
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [900, 150]
    assert 'class="deleted-hands' not in client.get(f"/games/{game_id}").text


def test_a_new_hand_after_another_phone_deleted_one_says_so(client):
    game_id, (first, _second) = _two_hands(client)
    form = client.get(f"/games/{game_id}/hands/new").text
    based_on = re.search(r'name="based_on"[^>]*value="([^"]*)"', form).group(1)
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": token})
    answer = post_hand(
        client, game_id, side_fields(0, melded=200), side_fields(1, melded=50), extra={"based_on": based_on}
    )
    page = " ".join(html.unescape(answer.text).split())
    assert answer.status_code == 409 and "Meanwhile another phone deleted a hand: the game has 1 now." in page
    assert "saved hand" not in page


def test_opening_meld_table_highlights_each_side(client):
    game_id = start_game(client)
    # A: 3 natural canastas 1500 + melded 300 = 1800 → row 1500–2995 (90); B: 1 red three, no meld, −100 → negative (15)
    post_hand(client, game_id, side_fields(0, natural=3, melded=300), side_fields(1, red=1))
    page = client.get(f"/games/{game_id}/minimums")
    assert page.status_code == 200
    rows = re.findall(
        r"<tr( class=\"current\")?>\s*<td>([^<]+)</td>\s*<td class=\"num\">(\d+)</td>\s*<td>([^<]*)</td>", page.text
    )
    assert [(r[1], int(r[2])) for r in rows] == [
        ("negative", 15),
        ("0 – 1495", 50),
        ("1500 – 2995", 90),
        ("3000 or more", 120),
    ]
    current = {r[1]: r[3] for r in rows if r[0]}
    assert current == {"negative": "Bert &amp; Dora (-100)", "1500 – 2995": "Anna &amp; Carl (1800)"}
    assert f'href="/games/{game_id}/minimums"' in client.get(f"/games/{game_id}").text


def test_names_are_shown_as_text_not_html(client):
    game_id = start_game(client, names=["<script>alert(1)</script>", "Bert", "Carl", "Dora"])
    page = client.get(f"/games/{game_id}")
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;" in page.text


def test_security_headers(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_session_outlives_closing_the_browser(client):
    response = client.get("/games/new/classic")  # the form's token is put in the session
    cookie = response.headers.get("Set-Cookie", "")
    assert "session=" in cookie and "Expires=" in cookie
    # and is not sent again on every page (a repeat view stays cacheable)
    assert "Set-Cookie" not in client.get("/games/new/classic").headers


def test_melded_below_the_minimum_asks_to_confirm(client):
    game_id = start_game(client)
    fields = (side_fields(0, melded=40, hand=10), side_fields(1, melded=120))
    response = post_hand(client, game_id, *fields)
    assert response.status_code == 422  # docs/rules.md#classic › Opening minimum: warn and ask, do not refuse
    assert "below this side&#39;s opening meld of 50" in response.text
    assert 'name="confirm"' in response.text and 'value="40"' in response.text
    confirmed = post_hand(client, game_id, *fields, extra={"confirm": "y"})
    assert confirmed.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [30, 120]


def test_concealed_going_out_needs_no_minimum_confirmation(client):
    game_id = start_game(client)
    # docs/rules.md#classic › Opening minimum: exception: concealed out 200 + natural canasta 500 + melded 35 = 735, no
    # question asked
    response = post_hand(client, game_id, side_fields(0, went_out="concealed", natural=1, melded=35), side_fields(1))
    assert response.status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [735, 0]


def test_a_side_that_counted_cards_starts_on_the_pad_next_hand(client):
    game_id = start_game(client)
    post_hand(
        client, game_id, side_fields(0, melded=100), side_fields(1, melded_cards={"high": 6}, hand_cards={"low": 2})
    )
    page = client.get(f"/games/{game_id}/hands/new").text
    # the table counted cards last hand: the whole form starts on the count pad, and says so
    assert re.search(r'id="mode-1"[^>]*value="counts" checked', page)
    assert not re.search(r'id="mode-0"[^>]*value="points" checked', page)


def test_play_again_starts_a_new_game_with_the_same_table(client):
    # a custom target keeps the game short: one hand of 3500 (as above) reaches 3000
    game_id = start_game(client, first_dealer=1, target=3000, settings={"wild_melds": "True"})
    assert "Play again" not in client.get(f"/games/{game_id}").text  # only once it is over
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=4, red=4, melded=600),
        side_fields(1, melded=200, hand=50),
    )
    page = client.get(f"/games/{game_id}")
    assert "win</strong>" in page.text
    link = re.search(r'href="([^"]*again=[^"]*)"', page.text).group(1).replace("&amp;", "&")
    form = client.get(link)
    assert form.status_code == 200
    for seat, name in enumerate(NAMES4):
        assert f'name="players-{seat}" type="text" value="{name}"' in form.text
    # the deal passes on: Bert dealt hand 1, so Carl (seat 3) deals first now
    assert re.search(r'name="first_dealer" value="2" checked', form.text)
    assert re.search(r'name="target"[^>]*value="3000"', form.text)
    assert re.search(r'name="setting_wild_melds" value="True" checked', form.text)
    # another rule set's or an unknown game is simply not copied
    other = client.get(f"/games/new/classic-2p?again={game_id}")
    assert other.status_code == 200 and 'type="text" value="Anna"' not in other.text
    assert client.get("/games/new/classic?again=99999999999999999999").status_code == 200


def test_a_sheet_never_locks_on_a_result_its_hands_contradict(app, client):
    """docs/rules.md#classic › End of the game: the game ends with the hand in which a side reaches 5000. A correction
    that ends it
    earlier leaves the later hand after the end: the sheet says so, the history shows the totals
    of the ending hand, and the sheet cannot be locked until that hand is corrected or deleted."""
    from scorekeeper.storage import db as dbmod
    from scorekeeper.storage import totals

    game_id = start_game(client, target=1000)
    # hand 1, docs/rules.md#classic › Going out: 100 going out + 500 natural + 300 melded = 900 : 80; hand 2: +900 : +80
    # ends it
    first = (side_fields(0, went_out="normal", natural=1, melded=300), side_fields(1, melded=80, hand=0))
    assert post_hand(client, game_id, *first).status_code == 302
    assert post_hand(client, game_id, *first).status_code == 302  # 1800 : 160, finished
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    with app.app_context():
        hands = records.hands(dbmod.get_db(), game_id)
    # hand 1 corrected to 100 + 500 + 500 (natural) + 400 melded = 1500: the game ends with hand 1
    url = f"/games/{game_id}/hands/{hands[0].id}/edit"
    corrected = (side_fields(0, went_out="normal", natural=2, melded=400), side_fields(1, melded=80, hand=0))
    assert post_hand(client, game_id, *corrected, url=url, extra={"confirm": "y"}).status_code == 302
    sheet = client.get(f"/games/{game_id}").text
    assert "1 hand was recorded after it" in sheet
    response = client.post(f"/games/{game_id}/lock", data={"csrf_token": csrf_token(client, f"/games/{game_id}")})
    assert response.status_code == 302
    assert "yet 1 more hand came after it: correct or delete it before locking" in client.get(f"/games/{game_id}").text
    with app.app_context():
        db = dbmod.get_db()
        assert records.get_game(db, game_id).reopened  # still open for corrections
        row = next(r for r in totals.history(db)[0] if r.game_id == game_id)
        assert row.totals == [1500, 80]  # the ending hand's totals, not 2400 : 160
    client.post(
        f"/games/{game_id}/hands/{hands[1].id}/delete", data={"csrf_token": csrf_token(client, f"/games/{game_id}")}
    )
    client.post(f"/games/{game_id}/lock", data={"csrf_token": csrf_token(client, f"/games/{game_id}")})
    with app.app_context():
        assert not records.get_game(dbmod.get_db(), game_id).reopened


def test_undo_is_refused_on_a_finished_game(client):
    # target 1000: hand 1 is deleted, hand 2 ends the game 1000:50 and the sheet is read-only;
    # bringing hand 1 back (a second phone's Undo) would change the result: refused, as a deletion is
    game_id = start_game(client, target=1000)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=50))
    (first,) = _hand_ids(client, game_id)
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/hands/{first}/delete", data={"csrf_token": token})
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    assert totals(client.get(f"/games/{game_id}").text) == [1000, 50]
    response = client.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": token})
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}").text
    assert "This game is finished and read-only." in page and "Hand restored." not in page
    assert totals(page) == [1000, 50]
    changes = [row["action"] for row in client.get(f"/api/games/{game_id}/changes").get_json()]
    assert changes == ["game created", "hand added", "hand deleted", "hand added"]
    # reopened for corrections, the hand can be brought back
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    response = client.post(f"/games/{game_id}/hands/{first}/restore", data={"csrf_token": token}, follow_redirects=True)
    assert "Hand restored." in response.text and totals(response.text) == [1100, 100]


def test_a_hand_form_of_the_older_page_is_still_read(client):
    # a phone may hold the previous version of the form (in its cache, offline): each side with its
    # own "went out" and points-or-counts, and a "stock ran out" tick; it is stored as it meant.
    # The rules reference, "Scoring a hand": A out 100 + natural canasta 500 + 200 melded = 800;
    # B counted 6 K–8 melded (60) and holds 10: 50.
    game_id = start_game(client)
    data = {"csrf_token": csrf_token(client, f"/games/{game_id}/hands/new")}
    data.update(
        {
            "sides-0-went_out": "normal",
            "sides-0-natural_canastas": "1",
            "sides-0-melded_mode": "points",
            "sides-0-melded_points": "200",
            "sides-1-went_out": "no",
            "sides-1-melded_mode": "counts",
            "sides-1-melded_high": "6",
            "sides-1-hand_mode": "points",
            "sides-1-hand_points": "10",
        }
    )
    assert client.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [800, 50]


def test_who_went_out_is_one_answer_for_the_hand(client):
    # "out" names the side (or the stock), "how" the way: the other sides did not go out
    game_id = start_game(client)
    data = {"csrf_token": csrf_token(client, f"/games/{game_id}/hands/new"), "out": "1", "how": "concealed"}
    data.update({"sides-1-natural_canastas": "1", "sides-1-melded_points": "100", "sides-0-melded_points": "50"})
    assert client.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    # B: concealed 200 + natural 500 + 100 melded = 800; A: 50
    assert totals(client.get(f"/games/{game_id}").text) == [50, 800]
    # no answer at all: said once, beside the question, and listed at the Save button
    data = {"csrf_token": csrf_token(client, f"/games/{game_id}/hands/new"), "sides-0-melded_points": "50"}
    page = client.post(f"/games/{game_id}/hands/new", data=data)
    assert page.status_code == 422
    assert page.text.count("Mark the side that went out, or that the stock ran out.") == 1
    assert 'id="out-error"' in page.text and 'data-focus="out-0"' in page.text


def test_the_pads_script_gets_the_scoreboard_in_the_answer_to_its_save(client):
    # one request instead of a redirect and a second one: the stored hand's scoreboard, saying so
    game_id = start_game(client)
    data = {"csrf_token": csrf_token(client, f"/games/{game_id}/hands/new"), "out": "stock"}
    data.update({"sides-0-melded_points": "100", "sides-1-melded_points": "50"})
    answer = client.post(f"/games/{game_id}/hands/new", data=data, headers={"X-Canasta-Pad": "1"})
    assert answer.status_code == 200 and answer.headers["X-Canasta-Saved"] == f"/games/{game_id}"
    assert totals(answer.text) == [100, 50] and "Hand saved." in answer.text
    assert 'class="saved-line" data-hand="1"' in answer.text
    # the message was shown there: the next scoreboard does not say it again
    assert "Hand saved." not in client.get(f"/games/{game_id}").text
    # a refused hand comes back as the form, as without the header
    data = {"csrf_token": csrf_token(client, f"/games/{game_id}/hands/new"), "sides-0-melded_points": "12"}
    answer = client.post(f"/games/{game_id}/hands/new", data=data, headers={"X-Canasta-Pad": "1"})
    assert answer.status_code == 422 and "X-Canasta-Saved" not in answer.headers


def test_a_page_fetched_in_the_background_leaves_the_message_for_the_page_shown(client):
    # the phone keeps the next hand's form (and the scoreboard, for offline) by fetching them in
    # the background; such a fetch must not take the "Hand saved." that the scoreboard shows next
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=50))
    kept = client.get(f"/games/{game_id}/hands/new", headers={"X-Canasta-Background": "1"})
    assert kept.status_code == 200 and "Hand saved." not in kept.text
    shown = client.get(f"/games/{game_id}")
    assert "Hand saved." in shown.text and 'class="saved-line" data-hand="1"' in shown.text
