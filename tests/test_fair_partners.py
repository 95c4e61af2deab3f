"""Fair partners: from the players present tonight (4 or 6), the seatings whose predicted chances of
winning are closest to even, on a page of the evening and as JSON (``GET /api/teams``); one tap
starts the game with that seating."""

from __future__ import annotations

import random
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from scorekeeper.core import ratings
from tests.conftest import csrf_token, make_app
from tests.helpers import game_in_evening, new_evening, post_hand, quick_hash, start_game, win_hand

R = ratings.Rating


# --- the core ---------------------------------------------------------------------------------


def test_every_split_once():
    assert ratings.splits([1, 2, 3, 4], [2, 2]) == [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    assert len(ratings.splits(list(range(6)), [2, 2, 2])) == 15
    assert len(ratings.splits(list(range(6)), [3, 3])) == 10
    with pytest.raises(ValueError):
        ratings.splits(list(range(5)), [2, 3])


def test_the_strongest_plays_with_the_weakest():
    current = {1: R(40, 2, 30), 2: R(30, 2, 30), 3: R(20, 2, 30), 4: R(10, 2, 30)}
    best, *rest = ratings.fair_seatings([1, 2, 3, 4], [2, 2], current, random.Random(1))
    assert best.sides == ((1, 4), (2, 3)) and best.chances == pytest.approx((0.5, 0.5))
    assert [s.unevenness for s in rest] == sorted(s.unevenness for s in rest)
    assert rest[-1].sides == ((1, 2), (3, 4)) and rest[-1].chances[0] > 0.9


def test_three_pairs_of_six_as_even_as_can_be():
    current = {p: R(20 + 2 * p, 2, 30) for p in range(1, 7)}
    best = ratings.fair_seatings(list(range(1, 7)), [2, 2, 2], current, random.Random(1))[0]
    assert sorted(sum(p for p in side) for side in best.sides) == [7, 7, 7]
    assert sum(best.chances) == pytest.approx(1) and max(best.unevenness, 0) < 0.01


def test_newcomers_are_drawn_at_random():
    """Four players without a rated game: every seating is as even as the others, in random order."""
    firsts = {ratings.fair_seatings([1, 2, 3, 4], [2, 2], {}, random.Random(seed))[0].sides for seed in range(30)}
    assert len(firsts) == 3
    # two rated players of equal rating and two newcomers: the rated pair is split, the newcomers drawn
    current = {1: R(30, 2, 30), 2: R(30, 2, 30)}
    for seed in range(10):
        best = ratings.fair_seatings([1, 2, 3, 4], [2, 2], current, random.Random(seed))[0]
        assert all(len({1, 2} & set(side)) == 1 for side in best.sides)


# --- the page and the API ---------------------------------------------------------------------


@pytest.fixture
def evening(app, client, made_once):
    """An evening of four: Anna and Carl won two games together against Bert and Dora (built once,
    each test on its own copy)."""
    return made_once(app, client, _evening_of_four)


def _evening_of_four(client):
    evening_id = new_evening(client, ["Anna", "Bert", "Carl", "Dora"])
    for _ in range(2):
        game, _names = game_in_evening(client, evening_id)  # Anna & Carl against Bert & Dora
        post_hand(client, game, *win_hand())
        post_hand(client, game, *win_hand())
    return evening_id


def _ids(client) -> dict[str, int]:
    return {p["name"]: p["id"] for p in client.get("/api/players").get_json()}


def test_the_api_proposes_the_even_seating_first(client, evening):
    ids = _ids(client)
    response = client.get("/api/teams?players=" + ",".join(str(ids[n]) for n in ("Anna", "Bert", "Carl", "Dora")))
    assert response.status_code == 200
    body = response.get_json()
    assert (body["variant"], body["layout"]) == ("classic", "4") and len(body["seatings"]) == 3
    best, *_rest, worst = body["seatings"]
    together = [{p["name"] for p in side["players"]} for side in worst["sides"]]
    assert {"Anna", "Carl"} in together and max(side["chance"] for side in worst["sides"]) > 0.75
    assert {"Anna", "Carl"} not in [{p["name"] for p in side["players"]} for side in best["sides"]]
    assert sum(side["chance"] for side in best["sides"]) == pytest.approx(1)
    assert abs(best["sides"][0]["chance"] - 0.5) < 0.01
    # the seats in order: partners opposite (seats 1 & 3 against 2 & 4), and the link that starts it
    names = [seat["name"] for seat in best["seats"]]
    assert {names[0], names[2]} == {p["name"] for p in best["sides"][0]["players"]}
    query = parse_qs(urlsplit(best["start"]).query)
    assert query["seats"] == [",".join(names)] and query["layout"] == ["4"]


@pytest.mark.parametrize(
    ("query", "fields"),
    [
        ("", ["players"]),
        ("?players=", ["players"]),
        ("?players=1,2,3", ["players"]),
        ("?players=1,2,3,x", ["players"]),
        ("?players=1, 2,3,4", ["players"]),
        ("?players=1,1,2,3", ["players"]),
        ("?players=1,2,3,99", ["players"]),
        ("?players=1,2,3,99999999999999999999", ["players"]),
        ("?players=1,2,3,4&variant=nope", ["variant"]),
        ("?players=1,2,3,4&variant=six-3x2", ["variant"]),
        ("?players=1,2,3,4&layout=6-pairs", ["layout"]),
        ("?players=1,2,3,4,5,6", ["players", "players"]),
    ],
)
def test_the_api_refuses_anything_but_4_or_6_known_players(client, evening, query, fields):
    response = client.get("/api/teams" + query)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert [e["field"] for e in errors] == fields and all(e["side"] is None and e["message"] for e in errors)


def test_six_players_in_three_pairs_or_two_trios(client):
    names = ["Anna", "Bert", "Carl", "Dora", "Eva", "Fritz"]
    start_game(client, variant="six-3x2", names=names)
    ids = ",".join(str(i) for i in sorted(_ids(client).values()))
    pairs = client.get(f"/api/teams?players={ids}").get_json()
    assert pairs["variant"] == "six-3x2" and len(pairs["seatings"]) == 15
    assert all(len(s["sides"]) == 3 and len(s["sides"][0]["players"]) == 2 for s in pairs["seatings"])
    trios = client.get(f"/api/teams?players={ids}&variant=encyclopedia").get_json()
    assert trios["layout"] == "6-trios" and len(trios["seatings"]) == 10
    both = client.get(f"/api/teams?players={ids}&variant=encyclopedia&layout=6-pairs").get_json()
    assert both["layout"] == "6-pairs" and len(both["seatings"]) == 15
    rotating = client.get(f"/api/teams?players={ids}&variant=austrian").get_json()
    assert rotating["layout"] == "6-rotating"
    # the new game of the first seating, as its link fills it in
    first = trios["seatings"][0]
    page = client.get(first["start"]).text
    filled = re.findall(r'name="players-\d+" type="text" value="([^"]*)"', page)
    assert filled == [seat["name"] for seat in first["seats"]]
    assert re.search(r'value="6-trios"[^>]*checked', page)


def test_the_page_of_the_evening_starts_the_fair_game_in_one_tap(client, evening):
    page = client.get(f"/evenings/{evening}")
    link = re.search(r'href="(/evenings/\d+/partners)"', page.text).group(1)
    partners = client.get(link)
    assert partners.status_code == 200
    shown = re.findall(r'<span class="team">([−+-]?\d+)', partners.text)  # the losers' ratings are below 0
    assert any(r.startswith("−") for r in shown) and not any(r.startswith("-") for r in shown), shown
    starts = re.findall(r'href="(/games/new/classic\?[^"]+)"', partners.text)
    assert len(starts) == 3 and "Start this game" in partners.text
    best = starts[0].replace("&amp;", "&")
    form = client.get(best).text
    names = re.findall(r'name="players-\d+" type="text" value="([^"]*)"', form)[:4]
    assert sorted(names) == ["Anna", "Bert", "Carl", "Dora"]
    assert {names[0], names[2]} not in ({"Anna", "Carl"}, {"Bert", "Dora"})  # the winners split up
    data = {"csrf_token": csrf_token(client, best), "first_dealer": "0", "evening": str(evening)}
    data.update({f"players-{i}": name for i, name in enumerate(names)})
    response = client.post("/games/new/classic", data=data)
    assert response.status_code == 302
    game = client.get("/api/games/" + response.headers["Location"].rsplit("/", 1)[1]).get_json()
    assert game["players"] == names


def test_the_page_asks_for_4_or_6(client):
    evening = new_evening(client, ["Anna", "Bert", "Carl", "Dora", "Eva"])
    page = client.get(f"/evenings/{evening}/partners")
    assert page.status_code == 200 and "Start this game" not in page.text and "Tick 4 or 6" in page.text
    ids = list(_ids(client).values())
    three = client.get(f"/evenings/{evening}/partners?" + "&".join(f"player={i}" for i in ids[:3]))
    assert three.status_code == 422 and "Give 4 or 6 players." in three.text
    four = client.get(f"/evenings/{evening}/partners?" + "&".join(f"player={i}" for i in ids[:4]))
    assert four.status_code == 200 and four.text.count("Start this game") == 3
    assert client.get("/evenings/999/partners").status_code == 404


def test_names_with_a_comma_are_given_seat_by_seat(client):
    evening = new_evening(client, ["Anna", "Bert", "Carl"])
    start_game(client, names=["Anna", "Bert", "Carl", "Dora, Jr."])
    ids = ",".join(str(i) for i in sorted(_ids(client).values()))
    start = client.get(f"/api/teams?players={ids}").get_json()["seatings"][0]["start"]
    seats = parse_qs(urlsplit(start).query)["seats"]
    assert len(seats) == 4 and "Dora, Jr." in seats
    filled = re.findall(r'name="players-\d+" type="text" value="([^"]*)"', client.get(start).text)[:4]
    assert filled == seats
    assert evening


def test_with_a_password_the_names_stay_behind_it(tmp_path):
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "locked.sqlite"),
            "PASSWORD_HASH": quick_hash("rote drei"),
        }
    )
    locked = app.test_client()
    for url in ("/api/players", "/api/teams?players=1,2,3,4"):
        response = locked.get(url)
        assert response.status_code == 401 and response.get_json()["errors"][0]["field"] == "password"
    assert locked.get("/evenings/1/partners").status_code == 302  # to the login page
