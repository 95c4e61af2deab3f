"""Nothing lost, nothing doubled: double taps, two phones on one hand, several writers at once."""

import re
import threading
import uuid

from scorekeeper import db as dbmod
from scorekeeper import store
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


def test_a_double_tap_stores_the_hand_once(client):
    game_id = start_game(client)
    url = f"/games/{game_id}/hands/new"
    hidden = _form(client, url)
    first = client.post(url, data=_hand(hidden, *WIN))
    second = client.post(url, data=_hand(hidden, *WIN))  # the same form sent again
    assert first.status_code == second.status_code == 302
    assert len(store.hands(dbmod.open_db(client.application.config["DATABASE"]), game_id)) == 1
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
    assert len(store.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 1
    again = dict(phone_b, based_on=re.search(r'name="based_on" value="(\d+)"', refused.text).group(1))
    assert client.post(url, data=_hand(again, *OTHER)).status_code == 302
    assert len(store.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 2


def test_a_stale_correction_is_refused_not_overwriting(client, app):
    game_id = start_game(client)
    post_hand(client, game_id, *WIN)
    hand_id = store.hands(dbmod.open_db(app.config["DATABASE"]), game_id)[0].id
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
    assert len(store.hands(dbmod.open_db(app.config["DATABASE"]), game_id)) == 1


def test_several_writers_at_once_never_see_a_locked_database(tmp_path):
    """Eight threads, each with its own connection, add 25 hands each to one game."""
    path = str(tmp_path / "w.sqlite")
    setup = dbmod.open_db(path)
    game_id = store.create_game(setup, "classic", ["A", "B", "C", "D"], 0)
    errors = []

    def writer(n):
        db = dbmod.open_db(path, migrate=False)
        try:
            for i in range(25):
                store.add_hand(db, game_id, [{"melded_points": 50}, {"melded_points": 55}], True, client_key=f"{n}-{i}")
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(repr(error))
        finally:
            db.close()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    check = dbmod.open_db(path)
    assert len(store.hands(check, game_id)) == 200
    assert check.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert check.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert store.game_version(check, game_id) == 200


def test_a_write_inside_a_write_is_a_savepoint(tmp_path):
    """A store write called inside another (an import, the club generator) joins the outer
    transaction: a refused inner part is undone alone, the outer one still commits or rolls back whole."""
    db = dbmod.open_db(str(tmp_path / "nested.sqlite"))
    with store.write(db):
        first = store.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
        try:
            with store.write(db):
                store.create_game(db, "classic", ["Eve", "Finn", "Gus", "Hal"], 0)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
    assert [g["id"] for g in db.query("select id from games")] == [first]
    try:
        with store.write(db):
            store.create_game(db, "classic", ["Ida", "Jon", "Kai", "Lea"], 0)
            raise RuntimeError("whole write refused")
    except RuntimeError:
        pass
    assert [g["id"] for g in db.query("select id from games")] == [first]
    assert not db.conn.in_transaction


def test_a_correction_sent_twice_is_not_a_conflict(client, app):
    """A double tap on Save correction: the second copy finds its own figures stored and is
    answered as saved, not as another phone's change; a different figure still is refused."""
    game_id = start_game(client)
    post_hand(client, game_id, *WIN)
    hand_id = store.hands(dbmod.open_db(app.config["DATABASE"]), game_id)[0].id
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    phone = _form(client, url)
    corrected = (side_fields(0, went_out="normal", natural=1, melded=250), side_fields(1, melded=50, hand=30))
    assert client.post(url, data=_hand(phone, *corrected)).status_code == 302
    assert client.post(url, data=_hand(phone, *corrected)).status_code == 302
    assert totals(client.get(f"/games/{game_id}").text) == [850, 20]  # §2.5: 100 + 500 + 250
    assert client.post(url, data=_hand(phone, *OTHER)).status_code == 409


def test_two_phones_saving_hand_1_at_the_same_instant_store_it_once(tmp_path):
    """The count of hands a save is based on is checked inside the write: of two saves of "hand 1"
    with their own keys, started together, one is stored and the other told it was overtaken."""
    path = str(tmp_path / "race.sqlite")
    db = dbmod.open_db(path)
    game_id = store.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
    barrier = threading.Barrier(2)
    outcomes = []

    def phone(key):
        conn = dbmod.open_db(path, migrate=False)
        barrier.wait()
        try:
            store.add_hand_once(
                conn, game_id, [{"melded_points": 100}, {"melded_points": 60}], True, client_key=key, expect_hands=0
            )
            outcomes.append("stored")
        except store.Overtaken as overtaken:
            outcomes.append(f"overtaken at {overtaken.count}")

    threads = [threading.Thread(target=phone, args=(key,)) for key in ("a" * 12, "b" * 12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["overtaken at 1", "stored"]
    assert len(store.hands(db, game_id)) == 1
