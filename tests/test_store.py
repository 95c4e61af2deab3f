"""The store on a real SQLite file: games, hands as raw inputs, edit, soft delete and undo; several
writers at once, nested writes, and two saves of one hand at the same instant."""

import threading

import pytest

from scorekeeper.storage import db as dbmod
from scorekeeper.storage import games as game_store
from scorekeeper.storage import reads, transaction


@pytest.fixture
def db(tmp_path):
    """A migrated database file."""
    database = dbmod.open_db(str(tmp_path / "s.sqlite"))
    yield database
    database.close()


def test_migrations_are_safe_to_reapply(tmp_path):
    path = str(tmp_path / "m.sqlite")
    dbmod.open_db(path).close()
    again = dbmod.open_db(path)
    assert {"games", "hands"} <= set(again.table_names())
    assert again.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_game_round_trip(db):
    game_id = game_store.create_game(db, "classic-2p", ["Anna", "Bert"], first_dealer=1)
    game = reads.get_game(db, game_id)
    assert (game.variant, game.players, game.first_dealer) == ("classic-2p", ["Anna", "Bert"], 1)
    assert reads.get_game(db, game_id + 1) is None
    other = game_store.create_game(db, "classic", ["A", "B", "C", "D"])
    assert [row["id"] for row in db["games"].rows_where(order_by="id desc")] == [other, game_id]


def test_hands_keep_inputs_order_and_can_be_undeleted(db):
    game_id = game_store.create_game(db, "classic", ["A", "B", "C", "D"])
    entry = [{"melded_cards": {"jokers": 1}, "red_threes": 2}, {"melded_points": 50}]
    first = game_store.add_hand(db, game_id, entry)
    second = game_store.add_hand(db, game_id, [{}, {}])
    assert [h.id for h in reads.hands(db, game_id)] == [first, second]
    assert reads.hands(db, game_id)[0].sides == entry
    game_store.update_hand(db, game_id, first, [{"melded_points": 90}, {}])
    assert reads.get_hand(db, game_id, first).sides[0] == {"melded_points": 90}
    game_store.delete_hand(db, game_id, first)
    assert [h.id for h in reads.hands(db, game_id)] == [second]
    assert reads.get_hand(db, game_id, first) is None
    assert reads.get_hand(db, game_id, first, deleted=True) is not None
    game_store.restore_hand(db, game_id, first)
    assert [h.id for h in reads.hands(db, game_id)] == [first, second]
    assert reads.get_hand(db, game_id + 1, first) is None


def test_init_db_command(runner, app):
    result = runner.invoke(args=["init-db"])
    assert "Database ready" in result.output


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    from tests.conftest import make_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    first = make_app()
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.exists() and len(first.config["SECRET_KEY"]) == 64
    assert make_app().config["SECRET_KEY"] == first.config["SECRET_KEY"]
    assert first.config["DATABASE"] == str(tmp_path / "instance" / "scorekeeper.sqlite")
    assert not first.debug


def test_lan_addresses_leave_out_loopback():
    from scorekeeper.network.addresses import lan_addresses

    addresses = lan_addresses()
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in addresses)


# --- several writers at once: nothing lost, nothing doubled --------------------------------------


def test_several_writers_at_once_never_see_a_locked_database(tmp_path):
    """Eight threads, each with its own connection, add 25 hands each to one game."""
    path = str(tmp_path / "w.sqlite")
    setup = dbmod.open_db(path)
    game_id = game_store.create_game(setup, "classic", ["A", "B", "C", "D"], 0)
    errors = []

    def writer(n):
        db = dbmod.open_db(path, migrate=False)
        try:
            for i in range(25):
                game_store.add_hand(
                    db, game_id, [{"melded_points": 50}, {"melded_points": 55}], True, client_key=f"{n}-{i}"
                )
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
    assert len(reads.hands(check, game_id)) == 200
    assert check.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert check.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert reads.game_version(check, game_id) == 200


def test_a_write_inside_a_write_is_a_savepoint(tmp_path):
    """A store write called inside another (an import, the club generator) joins the outer
    transaction: a refused inner part is undone alone, the outer one still commits or rolls back whole."""
    db = dbmod.open_db(str(tmp_path / "nested.sqlite"))
    with transaction.write(db):
        first = game_store.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
        try:
            with transaction.write(db):
                game_store.create_game(db, "classic", ["Eve", "Finn", "Gus", "Hal"], 0)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
    assert [g["id"] for g in db.query("select id from games")] == [first]
    try:
        with transaction.write(db):
            game_store.create_game(db, "classic", ["Ida", "Jon", "Kai", "Lea"], 0)
            raise RuntimeError("whole write refused")
    except RuntimeError:
        pass
    assert [g["id"] for g in db.query("select id from games")] == [first]
    assert not db.conn.in_transaction


def test_two_phones_saving_hand_1_at_the_same_instant_store_it_once(tmp_path):
    """The count of hands a save is based on is checked inside the write: of two saves of "hand 1"
    with their own keys, started together, one is stored and the other told it was overtaken."""
    path = str(tmp_path / "race.sqlite")
    db = dbmod.open_db(path)
    game_id = game_store.create_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
    barrier = threading.Barrier(2)
    outcomes = []

    def phone(key):
        conn = dbmod.open_db(path, migrate=False)
        barrier.wait()
        try:
            game_store.add_hand_once(
                conn, game_id, [{"melded_points": 100}, {"melded_points": 60}], True, client_key=key, expect_hands=0
            )
            outcomes.append("stored")
        except game_store.Overtaken as overtaken:
            outcomes.append(f"overtaken at {overtaken.count}")

    threads = [threading.Thread(target=phone, args=(key,)) for key in ("a" * 12, "b" * 12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["overtaken at 1", "stored"]
    assert len(reads.hands(db, game_id)) == 1


def test_a_server_with_a_thread_per_request_keeps_no_connection_of_an_ended_thread(app):
    # Flask's own server (and the browser tests') starts a thread per request: each opens its own
    # connection; once its thread has ended it is closed when the next one opens, so the process
    # never runs out of file descriptors (SQLite holds the file and its -wal open per connection)
    client = app.test_client()

    def request():
        assert client.get("/").status_code == 200

    for _ in range(30):
        thread = threading.Thread(target=request)
        thread.start()
        thread.join()
    held = app.extensions[dbmod.CONNECTIONS]
    assert 1 <= len(held) <= 2, len(held)
    assert all(db.conn is not None for db in held)
