"""The store on a real SQLite file: games, hands as raw inputs, edit, soft delete and undo."""

import pytest

from scorekeeper import db as dbmod
from scorekeeper import store


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
    game_id = store.create_game(db, "classic-2p", ["Anna", "Bert"], first_dealer=1)
    game = store.get_game(db, game_id)
    assert (game.variant, game.players, game.first_dealer) == ("classic-2p", ["Anna", "Bert"], 1)
    assert store.get_game(db, game_id + 1) is None
    other = store.create_game(db, "classic", ["A", "B", "C", "D"])
    assert [g.id for g in store.list_games(db)] == [other, game_id]


def test_hands_keep_inputs_order_and_can_be_undeleted(db):
    game_id = store.create_game(db, "classic", ["A", "B", "C", "D"])
    entry = [{"melded_cards": {"jokers": 1}, "red_threes": 2}, {"melded_points": 50}]
    first = store.add_hand(db, game_id, entry)
    second = store.add_hand(db, game_id, [{}, {}])
    assert [h.id for h in store.hands(db, game_id)] == [first, second]
    assert store.hands(db, game_id)[0].sides == entry
    store.update_hand(db, game_id, first, [{"melded_points": 90}, {}])
    assert store.get_hand(db, game_id, first).sides[0] == {"melded_points": 90}
    store.delete_hand(db, game_id, first)
    assert [h.id for h in store.hands(db, game_id)] == [second]
    assert store.get_hand(db, game_id, first) is None
    assert store.get_hand(db, game_id, first, deleted=True) is not None
    store.restore_hand(db, game_id, first)
    assert [h.id for h in store.hands(db, game_id)] == [first, second]
    assert store.get_hand(db, game_id + 1, first) is None


def test_init_db_command(runner, app):
    result = runner.invoke(args=["init-db"])
    assert "Database ready" in result.output


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    from scorekeeper import create_app

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    first = create_app()
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.exists() and len(first.config["SECRET_KEY"]) == 64
    assert create_app().config["SECRET_KEY"] == first.config["SECRET_KEY"]
    assert first.config["DATABASE"] == str(tmp_path / "instance" / "scorekeeper.sqlite")
    assert not first.debug


def test_lan_addresses_leave_out_loopback():
    from scorekeeper.share import lan_addresses

    addresses = lan_addresses()
    assert all(not a.startswith("127.") and a.count(".") == 3 for a in addresses)
