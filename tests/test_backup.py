"""Backup and restore: export and import on the web, the backup and restore commands, a refused
file leaving the archive as it was, a restore keeping the statistics, a club-sized import, and CSV
exports that are safe to open in a spreadsheet.

Scores are worked by hand from docs/rules.md#classic (classic) and docs/rules.md#classic-2p (2 players).
"""

import csv
import html
import io
import json
import re
import sqlite3
import threading

import pytest

from scorekeeper.services import archive as archive_service
from scorekeeper.storage import disk, export_check, records, results, transaction
from scorekeeper.storage.db import get_db
from scorekeeper.web import archive
from tests.conftest import csrf_token, make_app
from tests.helpers import fill_archive, game_in_evening, new_evening, post_hand, side_fields, start_game, wipe

# --- export and import, backup and restore ----------------------------------------------------------------


def _without_time(data):
    """An export without its time, and without the log's "archive imported" entries, which an
    import adds after the log it brings back unchanged."""
    data = dict(data)
    data.pop("exported_at")
    data["changes"] = [c for c in data.get("changes", []) if c["action"] != "archive imported"]
    return data


def test_export_import_round_trip(client, tmp_path):
    fill_archive(client)
    exported = client.get("/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(exported.data)
    assert len(data["evenings"]) == 3 and len(data["games"]) == 3
    assert any(h["deleted_at"] for g in data["games"] for h in g["hands"])  # deleted hands kept too
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}).test_client()
    token = csrf_token(fresh, "/export")
    response = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(exported.data), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "Restored 3 games with 4 hands, 3 evenings and 4 players." in response.text
    assert _without_time(json.loads(fresh.get("/export.json").data)) == _without_time(data)
    for game in data["games"]:
        assert fresh.get(f"/api/games/{game['id']}").get_json() == client.get(f"/api/games/{game['id']}").get_json()
    client.get("/stats")  # shows the flash message still waiting from the last save
    assert fresh.get("/stats").text == client.get("/stats").text
    again = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(exported.data), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "not empty" in again.text


def test_import_refuses_bad_files(client, tmp_path):
    token = csrf_token(client, "/evenings/new")
    for payload, message in (
        (b"not json", "not a JSON export"),
        (b'{"format": "other"}', "not an export"),
        (b'{"format": "canasta-scorekeeper", "version": 9}', "version 9"),
        (
            b'{"format": "canasta-scorekeeper", "version": 1, "players": [{"id": 1}], "evenings": [], "games": []}',
            "damaged",
        ),
    ):
        response = client.post(
            "/import",
            data={"csrf_token": token, "file": (io.BytesIO(payload), "x.json")},
            content_type="multipart/form-data",
            follow_redirects=True,
        )
        assert message in response.text, message
    assert "Choose an export file" in client.post("/import", data={"csrf_token": token}, follow_redirects=True).text
    assert client.get("/export").status_code == 200


def test_backup_and_restore_commands(app, client, runner, tmp_path):
    fill_archive(client)
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert "Wrote 3 games, 3 evenings, 4 players" in result.output
    refused = runner.invoke(args=["restore", str(path)])
    assert refused.exit_code != 0 and "not empty" in refused.output
    replaced = runner.invoke(args=["restore", str(path), "--replace"])
    assert "Restored 3 games with 4 hands" in replaced.output
    again = tmp_path / "again.json"
    runner.invoke(args=["backup", str(again)])
    assert _without_time(json.loads(again.read_text())) == _without_time(json.loads(path.read_text()))


def _win(loser_hand=50):
    """Side 0 goes out: 100 + 4 natural 2000 + 2 mixed 600 + 4 red threes 800 + melded 500 = 4000;
    side 1: 100 − ``loser_hand`` (docs/rules.md#classic › Card values; all within the deck's 1180 card points,
    docs/rules.md#classic › Card values)."""
    return (
        side_fields(0, went_out="normal", natural=4, mixed=2, red=4, melded=500),
        side_fields(1, melded=100, hand=loser_hand),
    )


def _fill(client):
    """Two finished partnership games (so players and pairs have games, wins and margins) and one open."""
    for names in (["Anna", "Bert", "Carl", "Dora"], ["Anna", "Carl", "Bert", "Dora"], ["Anna", "Bert", "Carl", "Eve"]):
        game_id = start_game(client, names=names)
        post_hand(client, game_id, *_win())
        if names[3] != "Eve":
            post_hand(client, game_id, *_win())  # 8000 : 100, finished


def _stats(client):
    client.get("/stats")  # shows any flash message still waiting
    return client.get("/stats").text


def _archive(client):
    return _without_time(json.loads(client.get("/export.json").data))


def _backup(runner, path):
    result = runner.invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text())


# --- restore --replace checks the whole file before it erases anything ------------------------------


def test_restore_replace_with_a_bad_file_leaves_the_archive_unchanged(client, runner, tmp_path, monkeypatch):
    _fill(client)
    before, stats_before = _archive(client), _stats(client)
    good = _backup(runner, tmp_path / "good.json")
    duplicate_player = json.loads(json.dumps(good))
    duplicate_player["players"].append(dict(good["players"][0]))
    bad_files = {
        "wrong version": ({**good, "version": 9}, "version 9"),
        "wrong format": ({**good, "format": "something-else"}, "not an export"),
        "unknown rule set": ({**good, "games": [{**good["games"][0], "variant": "poker"}]}, "damaged"),
        "not a list": ({**good, "players": None}, "damaged"),
        "player twice": (duplicate_player, "players[5].id 1 is given twice"),
    }
    for name, (data, message) in bad_files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code != 0, name
        assert _archive(client) == before, name
        assert _stats(client) == stats_before, name
        assert message in result.output and "unchanged" in result.output, (name, result.output)
    # a file the checks let through that fails half way through the loading: rolled back
    monkeypatch.setattr(export_check, "_check", lambda data: None)
    result = runner.invoke(args=["restore", str(tmp_path / "player twice.json"), "--replace"])
    assert result.exit_code != 0 and "does not fit together" in result.output and "unchanged" in result.output
    assert _archive(client) == before and _stats(client) == stats_before
    not_json = tmp_path / "not.json"
    not_json.write_bytes(b"\xff\xfe not json")
    result = runner.invoke(args=["restore", str(not_json), "--replace"])
    assert result.exit_code != 0 and "is not JSON" in result.output
    assert _archive(client) == before


def test_web_import_that_fails_half_way_leaves_the_archive_empty(client, runner, tmp_path, monkeypatch):
    _fill(client)
    good = _backup(runner, tmp_path / "good.json")
    good["players"].append(dict(good["players"][0]))
    monkeypatch.setattr(export_check, "_check", lambda data: None)  # let it through the checks: it fails on insert
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}).test_client()
    token = csrf_token(fresh, "/export")
    response = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(json.dumps(good).encode()), "a.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and "does not fit together" in response.text
    assert _archive(fresh) == EMPTY


# --- a restore keeps the statistics as they were --------------------------------------------------


def test_backup_then_restore_replace_keeps_the_statistics(client, runner, tmp_path):
    _fill(client)
    stats_before, archive_before = _stats(client), _archive(client)
    assert re.search(r">Anna</a></td><td class=\"num\"[^>]*>2</td>", stats_before)  # two finished games for Anna
    path = tmp_path / "backup.json"
    _backup(runner, path)
    for _ in range(2):  # the same file twice: nothing adds up
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code == 0, result.output
        assert _stats(client) == stats_before
        assert _archive(client) == archive_before
    for pid in (p["id"] for p in archive_before["players"]):
        assert client.get(f"/players/{pid}").status_code == 200


def test_wipe_clears_the_kept_totals(app, client):
    _fill(client)
    with app.app_context():
        db = get_db()
        assert db.execute("select count(*) from player_totals").fetchone()[0] > 0
        wipe(db)
        for table in ("player_totals", "pair_totals", "player_results", "game_results", "games", "players"):
            assert db.execute(f"select count(*) from {table}").fetchone()[0] == 0, table


# --- the import takes a club-sized archive; every other request keeps the small limit -----------------


def _padded_export(client, size):
    """A real export, padded with whitespace (still the same JSON) to ``size`` bytes."""
    data = client.get("/export.json").data
    return data + b" " * (size - len(data))


def _post_import(client, body):
    token = csrf_token(client, "/evenings/new")  # the session's token (the backup page has a form only when empty)
    return client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(body), "archive.json")},
        content_type="multipart/form-data",
    )


def test_import_accepts_an_archive_larger_than_the_app_wide_limit(client, tmp_path):
    _fill(client)
    body = _padded_export(client, 12 * 1024 * 1024)
    assert len(body) > client.application.config["MAX_CONTENT_LENGTH"]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}).test_client()
    response = _post_import(fresh, body)
    assert response.status_code == 302, response.status_code
    assert _archive(fresh) == _archive(client)


def test_only_the_import_takes_a_large_body(client, monkeypatch):
    _fill(client)
    big = 9 * 1024 * 1024
    token = csrf_token(client, "/evenings/new")
    response = client.post(
        "/evenings/new",
        data={"csrf_token": token, "date": "2026-11-01", "junk": (io.BytesIO(b"x" * big), "junk.bin")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    monkeypatch.setattr(archive, "IMPORT_MAX_BYTES", 10 * 1024 * 1024)
    assert _post_import(client, _padded_export(client, 11 * 1024 * 1024)).status_code == 413  # the import's own limit


# --- CSV cells that a spreadsheet would run as a formula are neutralised -------------------------------


EVIL = ['=HYPERLINK("http://evil.example")', "+SUM(A1)", "-Carl", "@cmd"]


def _rows(text):
    return list(csv.reader(io.StringIO(text)))


def _unsafe(rows):
    """Text cells a spreadsheet would read as a formula (plain numbers are fine)."""
    return [
        cell
        for row in rows
        for cell in row
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"[+-]?\d+", cell)
    ]


def test_game_csv_neutralises_formulas_and_keeps_numbers(client):
    game_id = start_game(client, names=EVIL)
    post_hand(client, game_id, *_win(loser_hand=250))  # side 1: 100 − 250 = −150
    post_hand(client, game_id, *_win(loser_hand=250))  # 8000 : −300, finished
    rows = _rows(client.get(f"/games/{game_id}.csv").text)
    assert _unsafe(rows) == []
    assert rows[0][2] == "'" + EVIL[0] + " & -Carl hand"
    assert rows[1] == ["1", "'" + EVIL[0], "4000", "-150", "4000", "-150"]
    assert rows[2][3:] == ["-150", "8000", "-300"]
    assert rows[3] == ["result", "'" + EVIL[0] + " & -Carl won by 8300"]


def test_evening_csv_tells_a_won_game_a_draw_and_a_game_in_play_apart(client):
    """A draw and a game in play both ended in two empty cells, winner and margin (a review found it); the
    last column says which. A game to 500 whose table ends a tie drawn (docs/rules.md, "House rules") at
    500 : 500 is drawn."""
    evening_id = new_evening(client, ["Anna", "Bert", "Carl", "Dora"], when="2026-11-01")
    won, _ = game_in_evening(client, evening_id)
    for _ in range(2):
        post_hand(client, won, *_win(loser_hand=250))
    data = {"csrf_token": csrf_token(client, "/games/new/classic"), "first_dealer": "0", "evening": str(evening_id)}
    data |= {f"players-{i}": name for i, name in enumerate(["Anna", "Bert", "Carl", "Dora"])}
    data |= {"target": "500", "setting_tie_rule": "draw"}
    response = client.post("/games/new/classic", data=data)
    assert response.status_code == 302, response.text
    drawn = int(response.headers["Location"].rsplit("/", 1)[1])
    post_hand(client, drawn, side_fields(0, melded=500), side_fields(1, melded=500))
    assert client.get(f"/api/games/{drawn}").get_json()["finished"]
    playing, _ = game_in_evening(client, evening_id)
    post_hand(client, playing, side_fields(0, melded=150), side_fields(1, melded=130))
    rows = _rows(client.get(f"/evenings/{evening_id}.csv").text)
    assert rows[0][-3:] == ["winner", "margin", "result"]
    by_game = {int(row[0]): row[-3:] for row in rows[1:4]}
    assert by_game[drawn] == ["", "", "drawn"] and by_game[playing] == ["", "", "in play"]
    assert by_game[won][1:] == ["8300", "won"] and by_game[won][0]


def test_evening_csv_neutralises_formulas_and_keeps_numbers(client):
    evening_id = new_evening(client, EVIL, when="2026-11-01")
    game_id, _ = game_in_evening(client, evening_id, names=EVIL)
    post_hand(client, game_id, *_win(loser_hand=250))
    post_hand(client, game_id, *_win(loser_hand=250))
    rows = _rows(client.get(f"/evenings/{evening_id}.csv").text)
    assert _unsafe(rows) == []
    standings = {row[0]: row[1:] for row in rows[rows.index(["player", "games", "won", "balance"]) + 1 :]}
    assert standings["'" + EVIL[0]] == ["1", "1", "8300"]
    assert standings["'+SUM(A1)"] == ["1", "0", "-8300"]
    assert standings["'-Carl"] == ["1", "1", "8300"]
    assert standings["'@cmd"] == ["1", "0", "-8300"]


# --- the import checks every value it stores -----------------------------------------------------------


def _good(client, runner, tmp_path):
    """A real export: two finished games of two hands (8000 : 100 each), one open game of one hand and
    an evening."""
    _fill(client)
    new_evening(client, ["Anna", "Bert"], when="2026-11-01", place="Club")
    return _backup(runner, tmp_path / "good.json")


def _finished(data):
    """The first finished game of the export (two hands of 4000: the second ends it, docs/rules.md#classic › End of the
    game)."""
    return next(g for g in data["games"] if len(g["hands"]) == 2)


def _crafted(good, change):
    data = json.loads(json.dumps(good))
    change(data)
    return data


def _after_the_end(data):
    game = _finished(data)
    hand = dict(game["hands"][-1])
    hand["id"] = max(h["id"] for g in data["games"] for h in g["hands"]) + 1
    game["hands"].append(hand)


def _set(path, value):
    """Change the value at ``path`` (keys and indexes) of the export."""

    def change(data):
        *parents, last = path
        node = data
        for key in parents:
            node = node[key]
        node[last] = value

    return change


REFUSED = {
    "player id 0": (_set(["players", 0, "id"], 0), "players[0].id is not a positive whole number"),
    "player id -7": (_set(["players", 1, "id"], -7), "players[1].id is not a positive whole number"),
    "player id true": (_set(["players", 0, "id"], True), "players[0].id is not a whole number"),
    "player id twice": (_set(["players", 1, "id"], 1), "players[1].id 1 is given twice"),
    "evening id 0": (_set(["evenings", 0, "id"], 0), "evenings[0].id is not a positive whole number"),
    "game id 0": (_set(["games", 0, "id"], 0), "games[0].id is not a positive whole number"),
    "game id -7": (_set(["games", 1, "id"], -7), "games[1].id is not a positive whole number"),
    "game id twice": (_set(["games", 1, "id"], 1), "games[1].id 1 is given twice"),
    "hand id 0": (_set(["games", 0, "hands", 0, "id"], 0), "games[0].hands[0].id is not a positive whole number"),
    "hand id -7": (_set(["games", 0, "hands", 1, "id"], -7), "games[0].hands[1].id is not a positive whole number"),
    "hand id twice": (_set(["games", 1, "hands", 0, "id"], 1), "games[1].hands[0].id 1 is given twice"),
    "seat id 0": (_set(["games", 0, "seats", 0], 0), "games[0].seats is not a positive whole number"),
    "target 7": (_set(["games", 0, "target"], 7), "games[0].target is not a multiple of 5 from 500 to 100000"),
    "target 495": (_set(["games", 0, "target"], 495), "games[0].target is not a multiple of 5"),
    "target 100005": (_set(["games", 0, "target"], 100005), "games[0].target is not a multiple of 5"),
    "target 5003": (_set(["games", 0, "target"], 5003), "games[0].target is not a multiple of 5"),
    "target text": (_set(["games", 0, "target"], "5000"), "games[0].target is not a whole number"),
    "control character": (_set(["players", 0, "name"], "Anna\x1b[2J"), "players[0].name has a control character"),
    "line break in a name": (_set(["players", 0, "name"], "Anna\nB"), "players[0].name has a control character"),
    "1 MB name": (_set(["players", 0, "name"], "A" * 1024 * 1024), "players[0].name is longer than 40 characters"),
    "same name": (_set(["players", 1, "name"], "ANNA"), "players[1].name is the name of another player"),
    "long place": (_set(["evenings", 0, "place"], "x" * 81), "evenings[0].place is longer than 80 characters"),
    "note with NUL": (_set(["evenings", 0, "note"], "a\x00b"), "evenings[0].note has a control character"),
    "bad time": (_set(["games", 0, "created_at"], "yesterday"), "games[0].created_at is not a time"),
    "reopened text": (_set(["games", 0, "reopened"], "no"), "games[0].reopened is not true or false"),
    "hands after the end": (_after_the_end, "the game ended with hand 2, yet 1 more hand was recorded after it"),
}


def _import_page(tmp_path, data, name="fresh"):
    """Import ``data`` into a new, empty archive through the page: (response, archive afterwards)."""
    fresh = make_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / f"{name}.sqlite")}
    ).test_client()
    response = _post_import(fresh, json.dumps(data, ensure_ascii=False).encode())
    return response, _archive(fresh)


EMPTY = {
    "format": "canasta-scorekeeper",
    "version": export_check.VERSION,
    "players": [],
    "evenings": [],
    "house_rules": [],
    "games": [],
    "phones": [],
    "changes": [],
    "tournaments": [],
}


@pytest.mark.slow  # a sweep over every case: run by CI, left out of the quick loop
@pytest.mark.parametrize("name", list(REFUSED))
def test_import_refuses_each_value_the_app_would_never_write(client, runner, tmp_path, name):
    change, message = REFUSED[name]
    good = _good(client, runner, tmp_path)
    before = _archive(client)
    data = _crafted(good, change)
    response, after = _import_page(tmp_path, data)
    assert response.status_code == 422
    shown = html.unescape(response.text)
    assert "The export is damaged" in shown and message in shown
    assert after == EMPTY  # nothing written
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(args=["restore", str(path), "--replace"])
    assert result.exit_code != 0 and message in result.output and "unchanged" in result.output
    assert _archive(client) == before


def test_import_refuses_a_version_that_is_not_a_whole_number(client, runner, tmp_path):
    good = _good(client, runner, tmp_path)
    for version, shown in ((True, "version true"), ("1", 'version "1"'), (1.0, "version 1.0")):
        response, after = _import_page(tmp_path, {**good, "version": version}, name=f"v{shown[9:12]}")
        assert response.status_code == 422 and shown in html.unescape(response.text), version
        assert after == EMPTY
        path = tmp_path / "version.json"
        path.write_text(json.dumps({**good, "version": version}))
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code != 0 and shown in result.output, version


def test_import_takes_the_limits_themselves(client, runner, tmp_path):
    good = _good(client, runner, tmp_path)
    data = _crafted(good, _set(["players", 0, "name"], "A" * 40))
    renamed = data["players"][0]["id"]
    for game, target in zip(data["games"], (100000, None, 500)):  # the open game's one hand ends it at 500
        game["target"] = target
        # a player's seat shows the player's name (the file's seat names stand only for guests)
        game["seat_names"] = ["A" * 40 if pid == renamed else n for pid, n in zip(game["seats"], game["seat_names"])]
    data["evenings"][0].update(place="p" * 80, note="Line 1\n\tLine 2")
    response, after = _import_page(tmp_path, data)
    assert response.status_code == 302, html.unescape(response.text)
    assert after == _without_time(data)


def _reopened_with_hands_after_the_end(client):
    """A game the app itself leaves with a hand after the end: reopened, hand 1 corrected to end it."""
    game_id = start_game(client, target=3000)
    post_hand(client, game_id, side_fields(0, melded=120), side_fields(1, melded=60, hand=30))  # 120 : 30
    post_hand(client, game_id, *_win())  # 4120 : 80, finished
    token = csrf_token(client, "/evenings/new")
    assert client.post(f"/games/{game_id}/reopen", data={"csrf_token": token}).status_code == 302
    first = client.get(f"/api/games/{game_id}").get_json()["hands"][0]["id"]
    response = post_hand(client, game_id, *_win(), url=f"/games/{game_id}/hands/{first}/edit")
    assert response.status_code == 302, response.text
    hands = client.get(f"/api/games/{game_id}").get_json()["hands"]
    assert [h["after_end"] for h in hands] == [False, True]
    return game_id


def test_a_reopened_game_with_hands_after_the_end_still_imports(client, tmp_path):
    game_id = _reopened_with_hands_after_the_end(client)
    data = json.loads(client.get("/export.json").data)
    response, after = _import_page(tmp_path, data)
    assert response.status_code == 302, html.unescape(response.text)
    assert after == _without_time(data)
    assert [g["reopened"] for g in after["games"] if g["id"] == game_id] == [True]


def test_a_restore_reports_its_progress_game_by_game(app, client, runner, tmp_path):
    fill_archive(client)
    path = tmp_path / "backup.json"
    runner.invoke(args=["backup", str(path)])
    data = json.loads(path.read_text())
    seen = []
    with app.app_context():
        archive_service.restore_archive(
            get_db(), data, replace=True, progress=lambda done, total: seen.append((done, total))
        )
    assert seen == [(1, 3), (2, 3), (3, 3)]
    result = runner.invoke(args=["restore", str(path), "--replace"])
    assert result.exit_code == 0 and "Restoring games" in result.output


def test_the_restore_form_says_it_is_busy_while_it_works(client):
    page = client.get("/export").text
    assert 'class="restore-form"' in page and "Restoring… A big archive takes up to a minute" in page


# --- version 2: guests' seats and the change log travel with the archive -------------------------


def test_guests_and_the_change_log_survive_export_and_import(client, tmp_path):
    game_id = start_game(client, names=["Anna", "Bert", "", ""])
    post_hand(client, game_id, side_fields(0, melded=100, hand=0), side_fields(1, melded=80, hand=0))
    data = json.loads(client.get("/export.json").data)
    assert data["version"] == 5  # 3: the table's own rules, 4: tournaments, 5: client keys; version 2 still read
    game = data["games"][0]
    assert game["seats"][2:] == [None, None] and game["seat_names"] == ["Anna", "Bert", "Player 3", "Player 4"]
    assert [c["action"] for c in data["changes"]] == ["game created", "hand added"]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    response = _post_import(fresh.test_client(), json.dumps(data).encode())
    assert response.status_code == 302, response.text
    again = json.loads(fresh.test_client().get("/export.json").data)
    assert again["changes"][:2] == data["changes"]  # the log comes back unchanged ...
    assert again["changes"][2]["action"] == "archive imported"  # ... and the import is on record
    assert again["games"] == data["games"] and again["phones"] == data["phones"]
    with fresh.app_context():
        assert [p.name for p in records.list_players(get_db())] == ["Anna", "Bert"]


def test_a_version_1_export_still_imports_and_its_unnamed_seats_become_guests(client, tmp_path):
    players = [
        {"id": pid, "name": name, "created_at": "2025-01-01T20:00:00+00:00"}
        for pid, name in enumerate(["Anna", "Bert", "Player 3", "Spieler 4"], start=1)
    ]
    game = {
        "id": 1,
        "variant": "classic",
        "layout": "4",
        "target": None,
        "first_dealer": 0,
        "created_at": "2025-01-01T20:00:00+00:00",
        "updated_at": "2025-01-01T20:00:00+00:00",
        "evening_id": None,
        "match_id": None,
        "partie": None,
        "settings": {},
        "reopened": False,
        "seats": [1, 2, 3, 4],
        "hands": [
            {
                "id": 1,
                "sides": [{"melded_points": 100}, {"melded_points": 80}],
                "stock_out": True,
                "lone": None,
                "created_at": "2025-01-01T20:10:00+00:00",
                "updated_at": "2025-01-01T20:10:00+00:00",
                "deleted_at": None,
            }
        ],
    }
    old = {"format": "canasta-scorekeeper", "version": 1, "players": players, "evenings": [], "games": [game]}
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "v1.sqlite")})
    response = _post_import(fresh.test_client(), json.dumps(old).encode())
    assert response.status_code == 302, response.text
    with fresh.app_context():
        db = get_db()
        assert [p.name for p in records.list_players(db)] == ["Anna", "Bert"]
        assert records.get_game(db, 1).players == ["Anna", "Bert", "Player 3", "Spieler 4"]
        assert records.guests_of(db, 1) == [False, False, True, True]


# --- an import that meets a busy or full disk says so, and does not blame the file ---------------------


def _import_into_fresh(tmp_path, export):
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    client = fresh.test_client()
    token = csrf_token(client, "/export")
    response = client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(json.dumps(export).encode()), "a.json")},
        content_type="multipart/form-data",
    )
    return client, response


def test_an_import_on_a_full_disk_answers_503_disk_full(client, runner, tmp_path, monkeypatch):
    _fill(client)
    good = _backup(runner, tmp_path / "good.json")

    def full(db, game_id):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(results, "refresh_results", full)
    fresh, response = _import_into_fresh(tmp_path, good)
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert "disk is full" in response.text and "does not fit together" not in response.text
    assert _archive(fresh) == EMPTY


def test_an_import_while_another_is_writing_answers_503_busy(client, runner, tmp_path, monkeypatch):
    _fill(client)
    good = _backup(runner, tmp_path / "good.json")
    monkeypatch.setattr(disk, "WRITE_WAIT", 0.1)
    taken, done = threading.Event(), threading.Event()

    def hold():  # another import (another thread of the server) holds the write turn
        with transaction._WRITERS:
            taken.set()
            done.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    taken.wait(5)
    try:
        fresh, response = _import_into_fresh(tmp_path, good)
    finally:
        done.set()
        holder.join()
    assert response.status_code == 503 and "wait a moment and send it again" in response.text
    assert "does not fit together" not in response.text
    assert _archive(fresh) == EMPTY


# --- CSV opened in a spreadsheet that splits at ";" (German and Italian Excel) -----------------------------


SEMICOLON_EVIL = ["x;=1+1", 'y;"=2+2"', "z;@cmd", "w;-Carl"]


def _unsafe_split_at_semicolons(text):
    """Cells a spreadsheet splitting each line at ";" (quotes as CSV reads them) would read as a formula."""
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    return _unsafe(rows) + _unsafe([[cell.lstrip(' "') for cell in row] for row in rows])


def test_game_and_evening_csv_neutralise_formulas_behind_a_semicolon(client):
    evening_id = new_evening(client, SEMICOLON_EVIL, when="2026-11-01")
    game_id, _ = game_in_evening(client, evening_id, names=SEMICOLON_EVIL)
    post_hand(client, game_id, *_win(loser_hand=250))
    for url in (f"/games/{game_id}.csv", f"/evenings/{evening_id}.csv"):
        text = client.get(url).text
        assert "=1+1" in text and _unsafe_split_at_semicolons(text) == [], url
        assert _unsafe(_rows(text)) == []
        assert any(cell.startswith("x;'=1+1") for row in _rows(text) for cell in row)  # the name still reads


# --- version 5: each hand's client key travels with the archive -------------------------------------


def _queued(client, game_id, key, melded=100):
    """A hand as the phone's offline queue sends it (static/hand/send.js): the response."""
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    body = {"client_key": key, "sides": [{"melded_points": melded}, {"melded_points": 80}], "stock_out": True}
    return client.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": token})


def test_a_queued_hand_sent_again_after_the_archive_moved_is_stored_once(client, tmp_path):
    """A hand still in a phone's queue when the archive is exported and restored on another computer:
    sent again there, it is the hand stored before (200), not a second one."""
    game_id = start_game(client)
    assert _queued(client, game_id, "3f2b6c1e-queued-hand").status_code == 201
    post_hand(
        client, game_id, side_fields(0, melded=50, hand=0), side_fields(1, melded=60, hand=0)
    )  # sent without a key
    data = json.loads(client.get("/export.json").data)
    assert data["version"] == export_check.VERSION == 5
    hands = data["games"][0]["hands"]
    assert [h["client_key"] for h in hands] == ["3f2b6c1e-queued-hand", None]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "moved.sqlite")})
    there = fresh.test_client()
    assert _post_import(there, json.dumps(data).encode()).status_code == 302
    assert _without_time(json.loads(there.get("/export.json").data)) == _without_time(data)
    again = _queued(there, game_id, "3f2b6c1e-queued-hand")
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    assert len(there.get(f"/api/games/{game_id}").get_json()["hands"]) == 2
    assert _queued(there, game_id, "a-new-hand-key", melded=120).status_code == 201  # another key: a new hand


def test_an_export_from_before_client_keys_still_imports(client, tmp_path):
    game_id = start_game(client)
    assert _queued(client, game_id, "3f2b6c1e-queued-hand").status_code == 201
    data = json.loads(client.get("/export.json").data)
    older = json.loads(json.dumps(data))
    older["version"] = 4
    for game in older["games"]:
        for hand in game["hands"]:
            del hand["client_key"]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "v4.sqlite")})
    there = fresh.test_client()
    assert _post_import(there, json.dumps(older).encode()).status_code == 302
    again = json.loads(there.get("/export.json").data)
    assert again["version"] == 5 and [h["client_key"] for h in again["games"][0]["hands"]] == [None]
    assert _queued(there, game_id, "3f2b6c1e-queued-hand", melded=120).status_code == 201  # no key known: stored


def _key_twice(data):
    game = next(g for g in data["games"] if len(g["hands"]) == 2)
    game["hands"][0]["client_key"] = game["hands"][1]["client_key"] = "3f2b6c1e-queued-hand"


def _same_key_in_two_games(data):
    first, second = [g for g in data["games"] if g["hands"]][:2]
    first["hands"][0]["client_key"] = second["hands"][0]["client_key"] = "3f2b6c1e-queued-hand"


KEY = ["games", 0, "hands", 0, "client_key"]
CLIENT_KEYS = {
    "a key twice in a game": (_key_twice, "].client_key is another hand's of its game"),
    "a key that is no text": (_set(KEY, 12345678), "games[0].hands[0].client_key is not a text"),
    "a key of 65 characters": (_set(KEY, "k" * 65), "games[0].hands[0].client_key is longer than 64 characters"),
    "an empty key": (_set(KEY, ""), "games[0].hands[0].client_key is empty"),
}


def test_an_import_refuses_client_keys_the_app_would_never_write(client, runner, tmp_path):
    good = _good(client, runner, tmp_path)
    before = _archive(client)
    for number, (name, (change, message)) in enumerate(CLIENT_KEYS.items()):
        data = _crafted(good, change)
        response, after = _import_page(tmp_path, data, name=f"keys-{number}")
        shown = html.unescape(response.text)
        assert response.status_code == 422 and "The export is damaged" in shown and message in shown, (
            name,
            shown[-800:],
        )
        assert after == EMPTY, name
        path = tmp_path / f"keys-{number}.json"
        path.write_text(json.dumps(data))
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code != 0 and message in result.output and "unchanged" in result.output, name
        assert _archive(client) == before, name
    # one key in two games: each game's hands are its own (as the archive's unique index has them)
    response, after = _import_page(tmp_path, _crafted(good, _same_key_in_two_games), name="keys-two-games")
    assert response.status_code == 302, html.unescape(response.text)
