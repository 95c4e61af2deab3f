"""Empty seats are guests of their game, not people of the archive: they never appear in players,
statistics, partnerships or evenings, never merge across games, and older archives are migrated."""

from __future__ import annotations

import json

from sqlite_utils import Database

from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, totals
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields


def _start(client, names, **extra):
    url = "/games/new/classic"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": "0", **extra}
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    response = client.post(url, data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def _win(client, game_id):
    """A hand that ends the game (the target is 500: Anna's side scores 900)."""
    response = post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=300, hand=0),
        side_fields(1, melded=100, hand=30),
    )
    assert response.status_code == 302, response.text


def test_empty_seats_are_guests_of_their_game_only(app, client):
    first = _start(client, ["Anna", "Bert", "", ""], target="500")
    second = _start(client, ["Carl", "", "Dora", ""])
    _win(client, first)
    with app.app_context():
        db = dbmod.get_db()
        assert [p.name for p in records.list_players(db)] == ["Anna", "Bert", "Carl", "Dora"]
        assert records.get_game(db, first).players == ["Anna", "Bert", "Player 3", "Player 4"]
        assert records.get_game(db, second).players == ["Carl", "Player 2", "Dora", "Player 4"]
        assert records.guests_of(db, first) == [False, False, True, True]
        names = [row.name for row in totals.players(db)]
        assert "Player 3" not in names and "Player 4" not in names
        # Anna's and Bert's partners were guests: no partnership; Carl and Dora sat opposite
        assert [(p.names, p.games) for p in totals.partnership_table(db)] == [(("Carl", "Dora"), 1)]
        anna = next(row for row in totals.players(db) if row.name == "Anna")
        assert (anna.games, anna.won) == (1, 1)
    page = client.get("/stats").text
    assert "Player 3" not in page and "Player 4" not in page
    assert "Player 3" in client.get(f"/games/{first}").text  # the sheet still names the seat


def test_an_evening_lists_only_its_people(app, client):
    token = csrf_token(client, "/evenings/new")
    response = client.post(
        "/evenings/new", data={"csrf_token": token, "date": "2026-11-20", "new_players": "Anna, Bert"}
    )
    evening = int(response.headers["Location"].rstrip("/").split("/")[-1])
    _start(client, ["Anna", "Bert", "", ""], evening=str(evening))
    with app.app_context():
        assert [p.name for p in records.get_evening(dbmod.get_db(), evening).players] == ["Anna", "Bert"]


def test_play_again_keeps_a_guest_a_guest(app, client):
    game_id = _start(client, ["Anna", "Bert", "", "Dora"])
    page = client.get(f"/games/new/classic?again={game_id}").text
    assert 'name="players-2" type="text" value=""' in page or 'value="" ' in page.split('name="players-2"')[1][:200]
    assert 'value="Dora"' in page


def _old_archive(path) -> None:
    """An archive written before guests existed: empty seats were players called "Player N"."""
    db = Database(path)
    dbmod.migrations.apply(db, stop_before="m012_guests")
    now = "2026-01-01T20:00:00+00:00"
    for pid, name in enumerate(["Anna", "Bert", "Player 3", "Player 4", "Spieler 2"], start=1):
        db["players"].insert({"id": pid, "name": name, "created_at": now})
    db["evenings"].insert({"id": 1, "date": "2026-01-01", "place": "", "note": "", "created_at": now})
    for pid in (1, 2, 3, 4):
        db["evening_players"].insert({"evening_id": 1, "player_id": pid, "position": pid})
    seatings = {1: [1, 2, 3, 4], 2: [1, 5, 2, 3]}
    for game_id, seats in seatings.items():
        names = [db["players"].get(pid)["name"] for pid in seats]
        db["games"].insert(
            {
                "id": game_id,
                "variant": "classic",
                "players": json.dumps(names),
                "first_dealer": 0,
                "created_at": now,
                "updated_at": now,
                "settings": "{}",
                "evening_id": 1,
                "target": 500,
            }
        )
        for seat, pid in enumerate(seats):
            db["game_seats"].insert({"game_id": game_id, "seat": seat, "player_id": pid})
        win = [{"melded_points": 300, "natural_canastas": 1, "went_out": "normal"}, {"melded_points": 100}]
        db["hands"].insert(
            {"game_id": game_id, "sides": json.dumps(win), "created_at": now, "updated_at": now, "stock_out": 0}
        )
    db.close()


def test_an_older_archive_turns_its_never_named_players_into_guests(tmp_path):
    path = str(tmp_path / "old.sqlite")
    _old_archive(path)
    db = dbmod.open_db(path)  # migrates, then keeps every game's figures again
    assert [p.name for p in records.list_players(db)] == ["Anna", "Bert"]
    assert records.get_game(db, 1).players == ["Anna", "Bert", "Player 3", "Player 4"]  # the sheet keeps them
    assert records.guests_of(db, 1) == [False, False, True, True]
    assert records.guests_of(db, 2) == [False, True, False, True]
    kept = {row.name: (row.games, row.won) for row in totals.players(db)}
    # game 1: Anna (seat 0) won with guest Player 3; game 2: Anna (seat 0) and Bert (seat 2) won together
    assert kept == {"Anna": (2, 2), "Bert": (2, 1)}
    assert [(p.names, p.games, p.won) for p in totals.partnership_table(db)] == [(("Anna", "Bert"), 1, 1)]
    assert [p.name for p in records.get_evening(db, 1).players] == ["Anna", "Bert"]
    assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
