"""Every change on record: an append-only log written in the same transaction as the change,
a corrected hand's versions on the sheet, going back to one, a game's Changes page, the JSON."""

from __future__ import annotations

import html
import re
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from scorekeeper.services import games as service
from scorekeeper.storage import changes as change_log
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, served, side_fields, start_game


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _hand(client, game_id, melded):
    response = post_hand(client, game_id, side_fields(0, melded=melded, hand=0), side_fields(1, melded=80, hand=0))
    assert response.status_code == 302, response.text


def _correct(client, game_id, hand_id, melded):
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    response = post_hand(
        client, game_id, side_fields(0, melded=melded, hand=0), side_fields(1, melded=80, hand=0), url=url
    )
    assert response.status_code == 302, response.text


def _log(client, game_id):
    return client.get(f"/api/games/{game_id}/changes").get_json()


def test_each_change_is_logged_with_its_phone_and_the_entry_before_and_after(app, client):
    game_id = start_game(client)
    _hand(client, game_id, 100)
    hand_id = _log(client, game_id)[-1]["hand"]
    _correct(client, game_id, hand_id, 150)
    token = csrf_token(client, f"/games/{game_id}")
    client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": token})
    client.post(f"/games/{game_id}/hands/{hand_id}/restore", data={"csrf_token": token})
    log = _log(client, game_id)
    assert [c["action"] for c in log] == [
        "game created",
        "hand added",
        "hand corrected",
        "hand deleted",
        "hand restored",
    ]
    assert len({c["phone"] for c in log}) == 1 and log[0]["phone"].startswith("phone ")
    corrected = log[2]
    assert corrected["before"]["sides"][0]["melded_points"] == 100
    assert corrected["after"]["sides"][0]["melded_points"] == 150
    assert log[3]["after"] is None and log[4]["before"] is None


def test_a_phone_names_itself_once(client):
    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/changes")
    client.post("/phone/name", data={"csrf_token": token, "name": "Anna's phone", "next": f"/games/{game_id}/changes"})
    client.post("/phone/name", data={"csrf_token": token, "name": "Someone else"})
    assert _log(client, game_id)[0]["phone"] == "Anna's phone"
    assert "This phone is called Anna&#39;s phone." in client.get(f"/games/{game_id}/changes").text


def test_a_corrected_hand_shows_its_versions_and_goes_back_to_one(app, client):
    game_id = start_game(client)
    _hand(client, game_id, 100)
    hand_id = _log(client, game_id)[-1]["hand"]
    _correct(client, game_id, hand_id, 150)
    _correct(client, game_id, hand_id, 200)
    sheet = client.get(f"/games/{game_id}").text
    assert "corrected 2×" in sheet
    page = client.get(f"/games/{game_id}/hands/{hand_id}/history").text
    assert page.count('<li class="version') == 3
    # docs/rules.md#classic › Going out: melded 100 and 80 with nothing in hand, nobody went out: +100 : +80; then +150,
    # +200
    assert re.findall(r'<td class="num">([+−-]?\d+)</td>\s*<td class="num">([+−-]?\d+|–)</td>', page)[:2] == [
        ("+200", "+50"),
        ("+80", "0"),
    ]
    first = _log(client, game_id)[1]  # "hand added": version 1
    change_id = next(c for c in records.changes(_db(app), game_id, hand_id) if c.action == "hand added").id
    token = csrf_token(client, f"/games/{game_id}/hands/{hand_id}/history")
    response = client.post(f"/games/{game_id}/hands/{hand_id}/history/{change_id}", data={"csrf_token": token})
    assert response.status_code == 302
    assert first["after"]["sides"][0]["melded_points"] == 100
    with app.app_context():
        hand = records.get_hand(dbmod.get_db(), game_id, hand_id)
    assert hand.sides[0]["melded_points"] == 100
    assert [c["action"] for c in _log(client, game_id)].count("hand corrected") == 3
    assert "corrected 3×" in client.get(f"/games/{game_id}").text


def _db(app):
    with app.app_context():
        return dbmod.get_db()


def test_the_log_is_append_only(app):
    with app.app_context():
        db = dbmod.get_db()
        outcome = service.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], phone="p1")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("update changes set action = 'hand added'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("delete from changes")
        assert [c.action for c in records.changes(db, outcome.id)] == ["game created"]


def test_a_change_and_its_record_stand_or_fall_together(app, monkeypatch):
    with app.app_context():
        db = dbmod.get_db()
        game_id = service.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"]).id

        def broken(*args, **kwargs):
            raise RuntimeError("the log could not be written")

        monkeypatch.setattr(change_log, "log_change", broken)
        sides = [{"melded_points": 100}, {"melded_points": 80}]
        with pytest.raises(RuntimeError):
            service.add_hand(db, game_id, sides, True)
        assert records.hands(db, game_id) == []  # the hand was rolled back with its missing record


def test_the_changes_page_lists_the_whole_log(client):
    game_id = start_game(client)
    _hand(client, game_id, 100)
    page = client.get(f"/games/{game_id}/changes").text
    assert "hand added" in page and "game created" in page and "Hand 1" in page


def test_only_the_current_version_is_shown_on_the_sheet(client):
    """Going back to version 1 makes version 3 equal to it: only version 3 is on the sheet."""
    game_id = start_game(client)
    _hand(client, game_id, 100)
    hand_id = _log(client, game_id)[-1]["hand"]
    _correct(client, game_id, hand_id, 150)
    _correct(client, game_id, hand_id, 100)  # by hand back to the figures of version 1
    page = client.get(f"/games/{game_id}/hands/{hand_id}/history").text
    headings = re.findall(r"<h2>(.*?)</h2>", page)
    assert headings[:3] == ["Version 3 · shown on the sheet", "Version 2", "Version 1"]
    assert page.count("shown on the sheet") == 1 and page.count('class="version current"') == 1


def _figures_of(page: str) -> str:
    found = re.search(r'<dl class="figures">(.*?)</dl>', page, re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_a_versions_figures_read_as_the_hand_form_labels_them_in_the_readers_language(client):
    """A version's figures use the hand form's words and order ("Went out: Concealed", "Points melded"),
    card counts by their groups, in the reader's language: never the stored keys ("hand points",
    "went out: concealed") in English on a German page."""
    game_id = start_game(client)
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="concealed", natural=1, mixed=1, red=1, melded=150, hand=0),
        side_fields(1, melded_cards={"jokers": 1, "twos_aces": 2, "high": 4}, hand=25),
    )
    hand_id = _log(client, game_id)[-1]["hand"]
    url = f"/games/{game_id}/hands/{hand_id}/history"
    said = _figures_of(client.get(url).text)
    assert said.startswith("Anna & Carl Went out: Concealed · Natural canastas: 1 · Mixed canastas: 1 · Red threes: 1")
    assert "Points melded: 150" in said and "Points in hand: 25" in said
    assert "Melded cards: Jokers 1, 2s and aces 2, K to 8 4" in said, said
    assert "_" not in said and "hand points" not in said
    client.get("/prefs?lang=de&next=/")
    german = _figures_of(client.get(url).text)
    assert "Ausmachen: Verdeckt" in german and "Punkte ausgelegt: 150" in german, german
    assert "Went out" not in german and "Points" not in german


def test_the_phone_name_example_uses_the_same_word_as_the_list(client):
    game_id = start_game(client)
    client.get("/prefs?lang=de&next=/")
    page = client.get(f"/games/{game_id}/changes").text
    listed = re.search(r"· (Handy \d+)\s*</li>", page)
    assert listed, page
    # the example is this phone's own number, as the list calls it (it had said „Handy 3“ to every phone)
    assert f"„{listed.group(1)}“" in page and "phone " not in page
    stranger = client.application.test_client()  # a phone that changed nothing yet has no number
    page = stranger.get(f"/games/{game_id}/changes").text
    assert "otherwise it shows by its number." in page and "“phone " not in page


def test_a_new_phone_naming_itself_twice_at_once_makes_one_row_and_one_answer(tmp_path):
    """A double tap on "Name this phone" from a phone that has changed nothing yet: both requests
    reach the real server at once with the same cookie; one phone row, one "now called"."""
    app = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "phones.sqlite")})
    serializer = app.session_interface.get_signing_serializer(app)
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        answers = []
        for attempt in range(4):  # each round a new phone
            with urllib.request.urlopen(base + "/evenings/new", timeout=30) as response:
                cookie = response.headers["Set-Cookie"].split(";")[0]
                token = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', response.read().decode()).group(1)
            barrier = threading.Barrier(2)
            flashed = [None, None]

            def send(i, name):
                data = urllib.parse.urlencode({"csrf_token": token, "name": name, "next": "/"}).encode()
                request = urllib.request.Request(base + "/phone/name", data=data, headers={"Cookie": cookie})
                opener = urllib.request.build_opener(_NoRedirect)
                barrier.wait()
                try:
                    opener.open(request, timeout=30)
                except urllib.error.HTTPError as error:  # the 302, not followed
                    value = error.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
                    flashed[i] = [text for _, text in serializer.loads(value).get("_flashes", [])]

            threads = [threading.Thread(target=send, args=(i, f"Phone {attempt}{i}")) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            answers.append(flashed)
    rows = sqlite3.connect(tmp_path / "phones.sqlite").execute("select name from phones").fetchall()
    assert len(rows) == 4 and all(name for (name,) in rows)
    for flashed in answers:
        said = sorted(" ".join(f) for f in flashed)
        assert said[0] == "This phone already has a name." and said[1].startswith("This phone is now called"), said
