"""The store on a real SQLite file: games, hands as raw inputs, edit, soft delete and undo; several
writers at once, nested writes, and two saves of one hand at the same instant. Every write goes
through the services, the one write path: storage writes only inside the transaction a service opened."""

import threading
from pathlib import Path

import pytest

from scorekeeper.services import games as game_service
from scorekeeper.services.verdicts import OVERTAKEN, SAVED
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import games as game_store
from scorekeeper.storage import records, transaction
from tests.helpers import new_game, saved_hand

STORAGE = Path(__file__).parent.parent / "scorekeeper" / "storage"


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
    game_id = new_game(db, "classic-2p", ["Anna", "Bert"], first_dealer=1)
    game = records.get_game(db, game_id)
    assert (game.variant, game.players, game.first_dealer) == ("classic-2p", ["Anna", "Bert"], 1)
    assert records.get_game(db, game_id + 1) is None
    other = new_game(db, "classic", ["A", "B", "C", "D"])
    assert [row["id"] for row in db["games"].rows_where(order_by="id desc")] == [other, game_id]


def test_hands_keep_inputs_order_and_can_be_undeleted(db):
    game_id = new_game(db, "classic", ["A", "B", "C", "D"])
    entry = [{"melded_cards": {"jokers": 1}, "red_threes": 2}, {"melded_points": 50}]
    first = saved_hand(db, game_id, entry, True)
    second = saved_hand(db, game_id, [{}, {}], True)
    assert [h.id for h in records.hands(db, game_id)] == [first, second]
    assert records.hands(db, game_id)[0].sides == entry
    assert game_service.correct_hand(db, game_id, first, [{"melded_points": 90}, {}], True).status == SAVED
    assert records.get_hand(db, game_id, first).sides[0] == {"melded_points": 90}
    assert game_service.delete_hand(db, game_id, first).status == SAVED
    assert [h.id for h in records.hands(db, game_id)] == [second]
    assert records.get_hand(db, game_id, first) is None
    assert records.get_hand(db, game_id, first, deleted=True) is not None
    assert game_service.restore_hand(db, game_id, first).status == SAVED
    assert [h.id for h in records.hands(db, game_id)] == [first, second]
    assert records.get_hand(db, game_id + 1, first) is None


def test_storage_writes_only_inside_a_services_transaction(db):
    """One write path: a storage writer called outside a transaction is refused (nothing written), and no
    storage module opens a transaction of its own but the archive's opening (migrations, kept results)."""
    with pytest.raises(RuntimeError, match="outside a transaction"):
        game_store.create_game(db, "classic", ["A", "B", "C", "D"])
    assert db["games"].count == 0
    opening = [
        p.name for p in STORAGE.glob("*.py") if "transaction.write(" in p.read_text() or "with write(" in p.read_text()
    ]
    assert opening == ["db.py"]
    assert not hasattr(game_store, "add_hand") and not hasattr(game_store, "Overtaken")


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
    """Eight threads, each with its own connection, add 25 hands each to one game (small ones: 200 hands stay
    below the target)."""
    path = str(tmp_path / "w.sqlite")
    setup = dbmod.open_db(path)
    game_id = new_game(setup, "classic", ["A", "B", "C", "D"], 0)
    errors = []

    def writer(n):
        db = dbmod.open_db(path, migrate=False)
        try:
            for i in range(25):
                saved_hand(db, game_id, [{"melded_points": 5}, {"melded_points": 10}], True, client_key=f"{n}-{i}")
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
    assert len(records.hands(check, game_id)) == 200
    assert check.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert check.execute("pragma integrity_check").fetchone()[0] == "ok"
    assert records.game_version(check, game_id) == 200


def test_a_write_inside_a_write_is_a_savepoint(tmp_path):
    """A service called inside another write (an import, the club generator) joins the outer
    transaction: a refused inner part is undone alone, the outer one still commits or rolls back whole."""
    db = dbmod.open_db(str(tmp_path / "nested.sqlite"))
    with transaction.write(db):
        first = new_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
        try:
            with transaction.write(db):
                new_game(db, "classic", ["Eve", "Finn", "Gus", "Hal"], 0)
                raise RuntimeError("refused")
        except RuntimeError:
            pass
    assert [g["id"] for g in db.query("select id from games")] == [first]
    try:
        with transaction.write(db):
            new_game(db, "classic", ["Ida", "Jon", "Kai", "Lea"], 0)
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
    game_id = new_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], 0)
    barrier = threading.Barrier(2)
    outcomes = []

    def phone(key):
        conn = dbmod.open_db(path, migrate=False)
        barrier.wait()
        sides = [{"melded_points": 100}, {"melded_points": 60}]
        verdict = game_service.add_hand(conn, game_id, sides, True, client_key=key, based_on=0)
        outcomes.append("stored" if verdict.status == SAVED else f"overtaken at {verdict.now}")
        assert verdict.status in (SAVED, OVERTAKEN)

    threads = [threading.Thread(target=phone, args=(key,)) for key in ("a" * 12, "b" * 12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["overtaken at 1", "stored"]
    assert len(records.hands(db, game_id)) == 1


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
