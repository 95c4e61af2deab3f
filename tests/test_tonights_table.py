"""Tonight's table in taps: the evening's players as chips, who sits out rotating over the evening,
and a random draw of the seats."""

from __future__ import annotations

import random
import re

from scorekeeper.core import seating
from tests.conftest import csrf_token
from tests.helpers import game_in_evening


def test_everyone_sits_out_in_turn():
    players = [1, 2, 3, 4, 5]
    played: dict[int, int] = {}
    last: dict[int, int] = {}
    out = []
    for game in range(1, 6):
        chosen, resting = seating.who_plays(players, played, last, 4)
        assert len(chosen) == 4 and len(resting) == 1
        out.append(resting[0])
        for pid in chosen:
            played[pid] = played.get(pid, 0) + 1
            last[pid] = game
    assert sorted(out) == players  # five games: each of the five sat out once
    assert out == [5, 4, 3, 2, 1]


def test_the_draw_seats_exactly_the_chosen_players():
    names = ["Anna", "Bert", "Carl", "Dora"]
    seen = {tuple(seating.draw_seats(names, random.Random(seed))) for seed in range(40)}
    assert all(sorted(s) == sorted(names) for s in seen)
    assert len(seen) > 5  # partners really change with the draw


def _evening(client, names):
    token = csrf_token(client, "/evenings/new")
    response = client.post("/evenings/new", data={"csrf_token": token, "date": "2026-11-20", "new_players": names})
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def _seats(page):
    return re.findall(r'name="players-\d" type="text" value="([^"]*)"', page)[:4]


def test_the_new_game_form_of_an_evening_offers_its_players_as_chips(client):
    evening = _evening(client, "Anna, Bert, Carl, Dora, Eve")
    page = client.get(f"/games/new/classic?evening={evening}").text
    assert page.count('class="chip"') == 5
    assert "Sitting out: Eve" in page
    assert _seats(page) == ["Anna", "Bert", "Carl", "Dora"]
    # after a game of the first four, Eve plays and Dora sits out
    game_in_evening(client, evening, names=["Anna", "Bert", "Carl", "Dora"])
    page = client.get(f"/games/new/classic?evening={evening}").text
    assert "Sitting out: Dora" in page
    assert _seats(page) == ["Anna", "Bert", "Carl", "Eve"]


def test_draw_seats_seats_the_ticked_players_at_random(client):
    evening = _evening(client, "Anna, Bert, Carl, Dora, Eve")
    ids = re.findall(r'name="play" value="(\d+)"', client.get(f"/games/new/classic?evening={evening}").text)
    ticked = ids[1:]  # Anna sits out
    query = "&".join(f"play={pid}" for pid in ticked)
    seatings = {
        tuple(_seats(client.get(f"/games/new/classic?evening={evening}&{query}&draw=1").text)) for _ in range(12)
    }
    assert all(sorted(s) == ["Bert", "Carl", "Dora", "Eve"] for s in seatings)
    assert len(seatings) > 1
    page = client.get(f"/games/new/classic?evening={evening}&{query}&draw=1").text
    assert "Sitting out: Anna" in page


def test_too_few_players_ticked_say_how_many_are_needed(client):
    evening = _evening(client, "Anna, Bert, Carl, Dora")
    ids = re.findall(r'name="play" value="(\d+)"', client.get(f"/games/new/classic?evening={evening}").text)
    page = client.get(f"/games/new/classic?evening={evening}&play={ids[0]}&draw=1").text
    assert "Pick 4 players for these rules." in page
    assert 'name="play" value="999"' not in client.get(f"/games/new/classic?evening={evening}&play=999").text


def test_play_again_ticks_the_players_it_seats(client):
    """ "Play again with the same players" in an evening of five: the seats are the game's four, and the
    chips say the same (those four ticked, the fifth sitting out), where they had ticked whoever was
    due to play and said one of the seated players sat out."""
    evening = _evening(client, "Anna, Bert, Carl, Dora, Eve")
    game, _ = game_in_evening(client, evening, names=["Anna", "Bert", "Carl", "Dora"])
    page = client.get(f"/games/new/classic?again={game}&evening={evening}").text
    assert _seats(page) == ["Anna", "Bert", "Carl", "Dora"]
    ticked = re.findall(
        r'<input type="checkbox" id="chip-\d+" name="play" value="\d+" checked>\s*<label[^>]*>([^<]+)<', page
    )
    assert sorted(ticked) == ["Anna", "Bert", "Carl", "Dora"], ticked
    assert "Sitting out: Eve" in page and "Sitting out: Dora" not in page
    # without "again" the chips still rotate who sits out (Dora, after a game of the first four)
    assert "Sitting out: Dora" in client.get(f"/games/new/classic?evening={evening}").text


def test_the_draw_speaks_of_partners_only_where_a_game_has_them(client):
    evening = _evening(client, "Anna, Bert, Carl, Dora, Eve")
    four = client.get(f"/games/new/classic?evening={evening}").text
    three = client.get(f"/games/new/classic-3p?evening={evening}").text
    assert "partners sit opposite" in four
    assert "partners sit opposite" not in three
    assert "The draw seats the ticked players at random. Over the evening" in three


def test_play_again_of_a_smaller_layout_ticks_only_its_seats(client):
    """Austrian rules in an evening of five: playing again a game of two ticks those two, not the names
    the form's first layout (four) would still hold in its other seats."""
    evening = _evening(client, "Anna, Bert, Carl, Dora, Eve")
    url = f"/games/new/austrian?evening={evening}"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": "0", "evening": str(evening), "layout": "2"}
    data |= {"players-0": "Anna", "players-1": "Bert"}
    response = client.post("/games/new/austrian", data=data)
    assert response.status_code == 302, response.text
    game = int(response.headers["Location"].rsplit("/", 1)[1])
    page = client.get(f"/games/new/austrian?again={game}&evening={evening}").text
    ticked = re.findall(r'name="play" value="\d+" checked>\s*<label[^>]*>([^<]+)<', page)
    assert sorted(ticked) == ["Anna", "Bert"], ticked
