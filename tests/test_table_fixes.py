"""What a review at the table found: the evening past midnight, the Partien of a complete Game in
their evening, a refused complete Game storing nothing, two phones' queues and an expired token."""

from datetime import datetime

from scorekeeper import clock
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields, start_game


def _evening(client, players="Anna, Bert, Carl, Dora"):
    token = csrf_token(client, "/evenings/new")
    response = client.post(
        "/evenings/new", data={"csrf_token": token, "date": clock.today(), "new_players": players}
    )
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def test_tonights_evening_is_still_tonights_after_midnight(client, monkeypatch):
    class Clock(datetime):
        now_value = datetime(2026, 11, 21, 21, 0)

        @classmethod
        def now(cls, tz=None):
            return cls.now_value

    monkeypatch.setattr(clock, "datetime", Clock)
    evening = _evening(client)
    continue_link = f'href="/evenings/{evening}">Continue tonight'
    assert clock.today() == "2026-11-21" and continue_link in client.get("/").text
    Clock.now_value = datetime(2026, 11, 22, 0, 40)  # the game goes on past midnight
    assert clock.today() == "2026-11-21" and continue_link in client.get("/").text
    Clock.now_value = datetime(2026, 11, 22, 18, 0)  # the next evening is another one
    assert clock.today() == "2026-11-22" and continue_link not in client.get("/").text


def test_every_partie_of_a_complete_game_stays_in_its_evening(client):
    evening = _evening(client)
    url = f"/games/new/austrian?evening={evening}"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        "complete_game": "y",
        "layout": "4",
        "target": "1000",
        **{f"players-{i}": name for i, name in enumerate(["Anna", "Bert", "Carl", "Dora"])},
    }
    response = client.post(url, data=data)
    assert response.status_code == 302, response.text
    first = int(response.headers["Location"].split("/")[-1])
    # §10.5: out 100 + natural 500 + melded 400 = 1000 reaches the target of 1000
    post_hand(client, first, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    second = client.post(f"/matches/{first}/next", data={"csrf_token": csrf_token(client, f"/games/{first}")})
    second_id = int(second.headers["Location"].split("/")[-1])
    assert second_id != first and f'href="/evenings/{evening}"' in client.get(f"/games/{second_id}").text
    evening_page = client.get(f"/evenings/{evening}").text
    assert f'href="/games/{first}"' in evening_page and f'href="/games/{second_id}"' in evening_page


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


def test_two_phones_queues_the_same_hand_is_refused_the_next_one_stored(client, app):
    game_id = start_game(client)
    other = app.test_client()
    url = f"/games/{game_id}/hands.json"
    mine = {"X-CSRFToken": csrf_token(client, f"/games/{game_id}/hands/new")}
    theirs = {"X-CSRFToken": csrf_token(other, f"/games/{game_id}/hands/new")}
    hand = {"stock_out": True, "sides": [{"melded_points": 100}, {"melded_points": 60}]}
    # both phones entered hand 1 offline (each knew of 0 hands); the first to reach the server is stored
    assert client.post(url, json={**hand, "client_key": "a" * 12, "based_on": 0}, headers=mine).status_code == 201
    late = other.post(url, json={**hand, "client_key": "b" * 12, "based_on": 0}, headers=theirs)
    assert late.status_code == 409 and late.get_json()["errors"][0]["field"] == "based_on"
    assert "another phone saved hand 1" in late.get_json()["errors"][0]["message"]
    # one phone's two queued hands: the second is based on the first, and both are stored in order
    assert client.post(url, json={**hand, "client_key": "c" * 12, "based_on": 1}, headers=mine).status_code == 201
    assert client.post(url, json={**hand, "client_key": "d" * 12, "based_on": 2}, headers=mine).status_code == 201
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [300, 180]


def test_an_expired_token_is_told_to_the_queue_as_json(client):
    game_id = start_game(client)
    response = client.post(
        f"/games/{game_id}/hands.json",
        json={"client_key": "k" * 12, "sides": [{}, {}]},
        headers={"X-CSRFToken": "not-a-token"},
    )
    assert response.status_code == 400 and response.get_json()["errors"][0]["field"] == "csrf_token"
    # a form still gets the page
    assert "reload the page" in client.post(f"/games/{game_id}/hands/new", data={}).text


def test_the_session_outlives_closing_the_browser(client):
    response = client.get("/games/new/classic")  # the form's token is put in the session
    cookie = response.headers.get("Set-Cookie", "")
    assert "session=" in cookie and "Expires=" in cookie
    # and is not sent again on every page (a repeat view stays cacheable)
    assert "Set-Cookie" not in client.get("/games/new/classic").headers


def test_a_typo_in_a_hand_field_is_told_in_the_readers_language(client):
    game_id = start_game(client)
    client.get(f"/prefs?lang=de&next=/games/{game_id}")
    response = post_hand(client, game_id, side_fields(0, melded="1.000"), side_fields(1, melded="abc"))
    assert response.status_code == 422
    assert "Not a valid integer value" not in response.text
    assert response.text.count("Gib eine ganze Zahl ein") + response.text.count("ganze Zahl") >= 2
    assert 'value="1.000"' in response.text and 'value="abc"' in response.text


def test_a_game_started_by_mistake_is_deleted_and_comes_back_with_undo(client):
    evening = _evening(client)
    url = f"/games/new/classic?evening={evening}"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        **{f"players-{i}": name for i, name in enumerate(["Anna", "Bert", "Carl", "Dora"])},
    }
    keep = int(client.post(url, data=data).headers["Location"].split("/")[-1])
    mistake = int(client.post(url, data=data).headers["Location"].split("/")[-1])
    for game in (keep, mistake):  # §2.5: 100 + 500 + 200 = 800 against 50 − 30 = 20
        post_hand(
            client, game, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50, hand=30)
        )
    client.get("/")  # the flash of the saved hand is shown once
    stats_before = client.get("/stats").text
    assert "Delete this game" in client.get(f"/games/{mistake}").text
    token = csrf_token(client, f"/games/{mistake}")
    response = client.post(f"/games/{mistake}/delete", data={"csrf_token": token})
    assert response.headers["Location"].endswith(f"/evenings/{evening}")
    page = client.get(response.headers["Location"]).text
    assert "Game deleted." in page and f"/games/{mistake}/restore" in page
    assert client.get(f"/games/{mistake}").status_code == 404
    assert f'href="/games/{mistake}"' not in client.get("/history").text
    assert f'href="/games/{mistake}"' not in client.get(f"/evenings/{evening}").text
    anna = client.get("/api/games/%d" % keep).get_json()
    assert anna["totals"] == [800, 20]
    # statistics count the game that was kept only
    stats_after = client.get("/stats").text
    assert stats_after != stats_before
    # Undo: the game, its hands and the statistics are back as they were
    restored = client.post(f"/games/{mistake}/restore", data={"csrf_token": token})
    assert restored.headers["Location"].endswith(f"/games/{mistake}")
    assert client.get(f"/api/games/{mistake}").get_json()["totals"] == [800, 20]
    client.get("/")  # "Game restored."
    assert client.get("/stats").text == stats_before
    assert client.post(f"/games/{mistake}/restore", data={"csrf_token": token}).status_code == 404  # once


def test_a_reopened_game_is_locked_again_when_the_corrections_are_done(client):
    game_id = start_game(client, target=1000)
    # §2.5: 100 + 500 + 400 = 1000 reaches the target
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    token = csrf_token(client, f"/games/{game_id}")
    assert "Edit hand 1" not in client.get(f"/games/{game_id}").text
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    page = client.get(f"/games/{game_id}").text
    assert "Edit hand 1" in page and "Corrections done: lock the sheet" in page
    client.post(f"/games/{game_id}/lock", data={"csrf_token": token})
    page = client.get(f"/games/{game_id}").text
    assert "Edit hand 1" not in page and "Reopen for corrections" in page


def test_the_evenings_list_shows_who_came_out_ahead(client):
    evening = _evening(client)
    assert "ahead:" not in client.get("/evenings").text  # nothing played yet
    url = f"/games/new/classic?evening={evening}"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        "target": "1000",
        **{f"players-{i}": name for i, name in enumerate(["Anna", "Bert", "Carl", "Dora"])},
    }
    game_id = int(client.post(url, data=data).headers["Location"].split("/")[-1])
    # §2.5: Anna & Carl 100 + 500 + 400 = 1000 against 50: won by 950; §10.6/§11.6 settlement:
    # each loser pays one winner 950, so Anna and Carl are each +950
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    listing = client.get("/evenings").text
    assert "ahead: Anna, Carl +950" in listing  # partners share the lead


def test_a_tie_of_two_of_three_sides_is_announced_at_their_total(client):
    # §11 (encyclopedia, 3 players each for himself), target 500; §15.4 default: a tie at the top
    # plays on. Totals 100, 500, 500: the tie is at 500, not at the first player's 100.
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


def test_a_check_on_counted_cards_is_shown_where_the_counts_are(client):
    # §1.2: a natural canasta holds at least 35 points; two K-8 cards are 20. Counted on the pad,
    # the message must be on the pad, not only beside the points box that the pad hides.
    game_id = start_game(client)
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded_cards={"high": 2}),
        side_fields(1, melded=50),
    )
    assert response.status_code == 422
    pad = response.text.split('<div class="as-counts">')[1].split("</fieldset>")[0]
    assert 'class="error counts-error"' in pad and "35" in pad


def test_a_deleted_game_leaves_no_best_hand_and_its_number_is_never_given_again(client):
    big = start_game(client)
    # §2.5: 100 + 4 natural 2000 + 4 red threes 800 + 200 melded = 3100, the best hand of the evening
    post_hand(client, big, side_fields(0, went_out="normal", natural=4, red=4, melded=200), side_fields(1, melded=50))
    small = start_game(client)
    # 100 + 500 + 200 = 800
    post_hand(client, small, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50))
    token = csrf_token(client, f"/games/{big}")
    client.post(f"/games/{big}/delete", data={"csrf_token": token})
    client.get("/")
    stats = client.get("/stats").text
    assert "3100" not in stats and "800" in stats
    newer = start_game(client)
    assert newer not in (big, small) and newer > small
    assert (
        client.post(f"/games/{big}/restore", data={"csrf_token": token}).headers["Location"].endswith(f"/games/{big}")
    )
    assert client.get(f"/api/games/{big}").get_json()["totals"] == [3100, 50]


def test_a_finished_game_is_not_deleted_without_reopening_it(client):
    game_id = start_game(client, target=1000)
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    assert "Delete this game" not in client.get(f"/games/{game_id}").text
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": csrf_token(client, f"/games/{game_id}")})
    assert "Delete this game" in client.get(f"/games/{game_id}").text
