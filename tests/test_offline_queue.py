"""Nothing lost, nothing doubled: a double tap or a resent form stores a hand once, two phones on
one hand are told of each other, and the offline queue's hands.json is stored once, in order, and
told of an expired token."""

import json
import re
import sqlite3
import threading
import uuid

from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields, start_game, totals


def _form(client, url):
    """The hidden fields of a hand form as the phone received them."""
    page = client.get(url).text
    hidden = dict(re.findall(r'<input type="hidden" name="(based_on|client_key)"[^>]*value="([^"]*)"', page))
    hidden["csrf_token"] = csrf_token(client, url)
    return hidden


def _hand(hidden, *sides, **extra):
    data = dict(hidden)
    for side in sides:
        data.update(side)
    data.update(extra)
    return data


WIN = (side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50, hand=30))
OTHER = (side_fields(0, melded=90, hand=10), side_fields(1, went_out="normal", mixed=1, melded=160))


# --- the hand form: double taps and two phones ---------------------------------------------------


def test_a_double_tap_stores_the_hand_once(client):
    game_id = start_game(client)
    url = f"/games/{game_id}/hands/new"
    hidden = _form(client, url)
    first = client.post(url, data=_hand(hidden, *WIN))
    second = client.post(url, data=_hand(hidden, *WIN))  # the same form sent again
    assert first.status_code == second.status_code == 302
    assert len(records.hands(dbmod.open_db(client.application.config["DATABASE"]), game_id)) == 1
    assert "stored once" in client.get(f"/games/{game_id}").text


def test_two_phones_entering_the_same_hand_the_second_is_asked(client, app):
    """Both phones open hand 1; the first saves; the second is told and keeps what it typed, and
    saving again (deliberately) stores it as hand 2."""
    game_id = start_game(client)
    url = f"/games/{game_id}/hands/new"
    phone_a, phone_b = _form(client, url), _form(client, url)
    assert phone_a["based_on"] == "0" and phone_a["client_key"] != phone_b["client_key"]
    assert client.post(url, data=_hand(phone_a, *WIN)).status_code == 302
    refused = client.post(url, data=_hand(phone_b, *OTHER))
    assert refused.status_code == 409
    assert "another phone saved hand 1" in refused.text
    assert 'name="sides-1-melded_points"' in refused.text and 'value="160"' in refused.text  # typed values kept
    assert len(records.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 1
    again = dict(phone_b, based_on=re.search(r'name="based_on" value="(\d+)"', refused.text).group(1))
    assert client.post(url, data=_hand(again, *OTHER)).status_code == 302
    assert len(records.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 2


def test_a_stale_correction_is_refused_not_overwriting(client, app):
    game_id = start_game(client)
    post_hand(client, game_id, *WIN)
    hand_id = records.hands(dbmod.open_db(app.config["DATABASE"]), game_id)[0].id
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    phone_a, phone_b = _form(client, url), _form(client, url)
    corrected = (side_fields(0, went_out="normal", natural=1, melded=250), side_fields(1, melded=50, hand=30))
    assert client.post(url, data=_hand(phone_a, *corrected)).status_code == 302
    after_a = totals(client.get(f"/games/{game_id}").text)
    refused = client.post(url, data=_hand(phone_b, *OTHER))
    assert refused.status_code == 409 and "another phone changed" in refused.text
    assert 'value="160"' in refused.text
    assert totals(client.get(f"/games/{game_id}").text) == after_a  # phone A's correction stands
    again = dict(phone_b, based_on=re.search(r'name="based_on" value="(\d+)"', refused.text).group(1))
    assert client.post(url, data=_hand(again, *OTHER)).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) != after_a


def test_a_hand_for_a_game_finished_meanwhile_keeps_the_typed_values(client):
    game_id = start_game(client, target=1000)
    url = f"/games/{game_id}/hands/new"
    late = _form(client, url)
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=2, melded=600), side_fields(1))
    response = client.post(url, data=_hand(late, *OTHER))
    assert response.status_code == 409 and "This game is over" in response.text and 'value="160"' in response.text


def test_a_correction_sent_twice_is_not_a_conflict(client, app):
    """A double tap on Save correction: the second copy finds its own figures stored and is
    answered as saved, not as another phone's change; a different figure still is refused."""
    game_id = start_game(client)
    post_hand(client, game_id, *WIN)
    hand_id = records.hands(dbmod.open_db(app.config["DATABASE"]), game_id)[0].id
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    phone = _form(client, url)
    corrected = (side_fields(0, went_out="normal", natural=1, melded=250), side_fields(1, melded=50, hand=30))
    assert client.post(url, data=_hand(phone, *corrected)).status_code == 302
    assert client.post(url, data=_hand(phone, *corrected)).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [850, 20]  # docs/rules.md#classic: 100 + 500 + 250
    assert client.post(url, data=_hand(phone, *OTHER)).status_code == 409


def test_a_hand_sent_twice_is_stored_once(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}/hands/new").text
    key = re.search(r'name="client_key" id="client_key" value="([0-9a-f]{32})"', page).group(1)
    fields = {**side_fields(0, melded=100), **side_fields(1, melded=60), "stock_out": "y", "client_key": key}
    for _ in range(2):  # a double tap, or the browser resending the form
        fields["csrf_token"] = csrf_token(client, f"/games/{game_id}/hands/new")
        response = client.post(f"/games/{game_id}/hands/new", data=fields, follow_redirects=True)
    assert "already saved" in response.text
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 1


def test_a_form_sent_again_with_other_figures_becomes_the_saved_hands_correction(client):
    """Back after Save, a figure changed, Save again (the same form, its key): the hand is not stored
    twice, and the change is not dropped under "already saved" either: the page becomes hand 1's
    correction with what was typed (409), and its Save corrects hand 1. docs/rules.md, "How a hand is
    scored": the stock ran out, melded cards only."""
    game_id = start_game(client)
    url = f"/games/{game_id}/hands/new"
    hidden = _form(client, url)
    assert (
        client.post(
            url, data=_hand(hidden, side_fields(0, melded=100), side_fields(1, melded=60), stock_out="y")
        ).status_code
        == 302
    )
    [hand] = client.get(f"/api/games/{game_id}").get_json()["hands"]
    again = client.post(url, data=_hand(hidden, side_fields(0, melded=150), side_fields(1, melded=60), stock_out="y"))
    assert again.status_code == 409
    assert "Hand 1 was saved from this form already, with other figures" in again.text
    assert f'action="/games/{game_id}/hands/{hand["id"]}/edit"' in again.text
    assert re.search(r'name="sides-0-melded_points"[^>]*value="150"', again.text)  # what was typed
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [100, 60]  # nothing stored
    based_on = re.search(r'name="based_on"[^>]*value="([^"]*)"', again.text).group(1)
    fixed = post_hand(
        client,
        game_id,
        side_fields(0, melded=150),
        side_fields(1, melded=60),
        url=f"/games/{game_id}/hands/{hand['id']}/edit",
        extra={"based_on": based_on},
    )
    assert fixed.status_code == 302
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [150, 60]


def test_a_hand_sent_again_as_it_was_saved_is_already_saved_though_corrected_since(client):
    """A queue's hand sent again after a lost answer, when another phone has corrected that hand
    meanwhile: it holds the figures it was saved with, so it is the same hand sent twice (200),
    not other figures; the correction stands."""
    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    url, headers = f"/games/{game_id}/hands.json", {"X-CSRFToken": token}
    body = {"client_key": uuid.uuid4().hex, "stock_out": True, "sides": [{"melded_points": 100}, {"melded_points": 60}]}
    first = client.post(url, json=body, headers=headers)
    assert first.status_code == 201
    hand_id = first.get_json()["id"]
    edit = f"/games/{game_id}/hands/{hand_id}/edit"
    assert (
        post_hand(client, game_id, side_fields(0, melded=120), side_fields(1, melded=60), url=edit).status_code == 302
    )
    again = client.post(url, json=body, headers=headers)
    assert again.status_code == 200 and again.get_json() == {"id": hand_id, "duplicate": True}
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [120, 60]
    other = client.post(url, json={**body, "sides": [{"melded_points": 105}, {"melded_points": 60}]}, headers=headers)
    assert other.status_code == 409
    [error] = other.get_json()["errors"]
    assert error["field"] == "client_key" and "Hand 1 was saved from this form already" in error["message"]
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [120, 60]


def test_a_hand_the_form_saved_and_the_queue_sends_again_is_stored_once(client):
    """The form's answer lost on the way (the pad waits so long, then queues the hand with the same
    key), the queue sends it as JSON: the same figures in another shape (the JSON leaves out what is
    empty), so the same hand, stored once (200)."""
    game_id = start_game(client)
    url = f"/games/{game_id}/hands/new"
    hidden = _form(client, url)
    assert client.post(url, data=_hand(hidden, *WIN)).status_code == 302
    body = {
        "client_key": hidden["client_key"],
        "stock_out": False,
        "sides": [
            {"went_out": "normal", "natural_canastas": 1, "melded_points": 200},
            {"melded_points": 50, "hand_points": 30},
        ],
    }
    again = client.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": hidden["csrf_token"]})
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 1


def test_a_key_sent_again_for_a_hand_older_than_the_change_log_or_deleted_since(client, app):
    """A hand saved before the change log kept each hand's first figures is compared as it is now; a
    hand deleted since it was saved answers as a double send (nothing to name, nothing stored twice)."""
    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    url, headers = f"/games/{game_id}/hands.json", {"X-CSRFToken": token}
    sides = [{"melded_points": 100}, {"melded_points": 60}]
    with sqlite3.connect(app.config["DATABASE"]) as db:  # as such an archive holds it: no "hand added"
        db.execute(
            "insert into hands (game_id, sides, created_at, updated_at, stock_out, client_key) "
            "values (?, ?, '2026-01-01T20:00:00+00:00', '2026-01-01T20:00:00+00:00', 1, 'legacy-key-0001')",
            [game_id, json.dumps(sides)],
        )
    body = {"client_key": "legacy-key-0001", "stock_out": True, "sides": sides}
    assert client.post(url, json=body, headers=headers).status_code == 200
    other = client.post(url, json={**body, "sides": [{"melded_points": 105}, {"melded_points": 60}]}, headers=headers)
    assert other.status_code == 409 and other.get_json()["errors"][0]["field"] == "client_key"
    [hand] = client.get(f"/api/games/{game_id}").get_json()["hands"]
    token = csrf_token(client, f"/games/{game_id}")
    assert client.post(f"/games/{game_id}/hands/{hand['id']}/delete", data={"csrf_token": token}).status_code == 302
    gone = client.post(url, json={**body, "sides": [{"melded_points": 105}, {"melded_points": 60}]}, headers=headers)
    assert gone.status_code == 200 and gone.get_json()["duplicate"] is True
    assert client.get(f"/api/games/{game_id}").get_json()["hands"] == []


# --- the offline queue: hands.json ------------------------------------------------------------------


def test_queued_hand_json_is_stored_once_and_checked(client):
    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    url = f"/games/{game_id}/hands.json"
    body = {"client_key": "k" * 20, "stock_out": True, "sides": [{"melded_points": 100}, {"melded_points": 60}]}
    assert client.post(url, json=body).status_code == 400  # no CSRF token: refused like a form
    headers = {"X-CSRFToken": token}
    first = client.post(url, json=body, headers=headers)
    again = client.post(url, json=body, headers=headers)
    assert first.status_code == 201 and again.status_code == 200
    assert first.get_json()["id"] == again.get_json()["id"] and again.get_json()["duplicate"] is True
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [100, 60]
    bad = client.post(url, json={**body, "client_key": "x" * 20, "sides": [{"melded_points": 12}, {}]}, headers=headers)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "melded_points"
    assert client.post(url, json={**body, "client_key": "short"}, headers=headers).status_code == 422
    assert client.post(url, data="[]", content_type="application/json", headers=headers).status_code == 400
    assert client.post("/games/999/hands.json", json=body, headers=headers).status_code == 404


def test_queued_hand_json_sent_concurrently_is_stored_once(app, client):
    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    body = {
        "client_key": uuid.uuid4().hex,
        "sides": [
            {"melded_points": 200, "natural_canastas": 1, "went_out": "normal"},
            {"melded_points": 50, "hand_points": 30},
        ],
    }
    statuses = []

    def send():
        own = app.test_client()
        with client.session_transaction() as session:
            cookie = dict(session)
        with own.session_transaction() as session:
            session.update(cookie)
        statuses.append(own.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": token}).status_code)

    threads = [threading.Thread(target=send) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] * 5 + [201]
    assert len(records.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 1


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
