"""Backup and restore: export and import on the web, the backup and restore commands, a refused
file leaving the archive as it was, a restore keeping the statistics, a club-sized import, and CSV
exports that are safe to open in a spreadsheet.

Scores are worked by hand from shared/rules/scoring-spec.md §2.5 (classic) and §4 (2 players).
"""

import csv
import io
import json
import re

from scorekeeper import archive, backup, create_app
from scorekeeper.db import get_db
from tests.conftest import csrf_token
from tests.helpers import fill_archive, game_in_evening, new_evening, post_hand, side_fields, start_game

# --- export and import, backup and restore ----------------------------------------------------------------


def _without_time(data):
    data = dict(data)
    data.pop("exported_at")
    return data


def test_export_import_round_trip(client, tmp_path):
    fill_archive(client)
    exported = client.get("/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(exported.data)
    assert len(data["evenings"]) == 3 and len(data["games"]) == 3
    assert any(h["deleted_at"] for g in data["games"] for h in g["hands"])  # deleted hands kept too
    fresh = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}
    ).test_client()
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
    side 1: 100 − ``loser_hand`` (§2.5; all within the deck's 1180 card points, §1.1)."""
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


def test_restore_replace_with_a_bad_file_leaves_the_archive_unchanged(client, runner, tmp_path):
    _fill(client)
    before, stats_before = _archive(client), _stats(client)
    good = _backup(runner, tmp_path / "good.json")
    duplicate_player = json.loads(json.dumps(good))
    duplicate_player["players"].append(dict(good["players"][0]))  # passes the checks, fails on insert
    bad_files = {
        "wrong version": ({**good, "version": 9}, "version 9"),
        "wrong format": ({**good, "format": "something-else"}, "not an export"),
        "unknown rule set": ({**good, "games": [{**good["games"][0], "variant": "poker"}]}, "damaged"),
        "not a list": ({**good, "players": None}, "damaged"),
        "does not fit": (duplicate_player, "does not fit together"),
    }
    for name, (data, message) in bad_files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code != 0, name
        assert _archive(client) == before, name
        assert _stats(client) == stats_before, name
        assert message in result.output and "unchanged" in result.output, (name, result.output)
    not_json = tmp_path / "not.json"
    not_json.write_bytes(b"\xff\xfe not json")
    result = runner.invoke(args=["restore", str(not_json), "--replace"])
    assert result.exit_code != 0 and "is not JSON" in result.output
    assert _archive(client) == before


def test_web_import_that_fails_half_way_leaves_the_archive_empty(client, runner, tmp_path):
    _fill(client)
    good = _backup(runner, tmp_path / "good.json")
    good["players"].append(dict(good["players"][0]))
    fresh = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}
    ).test_client()
    token = csrf_token(fresh, "/export")
    response = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(json.dumps(good).encode()), "a.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422 and "does not fit together" in response.text
    assert _archive(fresh) == {
        "format": "canasta-scorekeeper",
        "version": 1,
        "players": [],
        "evenings": [],
        "games": [],
    }


# --- a restore keeps the statistics as they were --------------------------------------------------


def test_backup_then_restore_replace_keeps_the_statistics(client, runner, tmp_path):
    _fill(client)
    stats_before, archive_before = _stats(client), _archive(client)
    assert re.search(r">Anna</a></td><td class=\"num\">3</td>", stats_before)  # three games for Anna
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
        backup.wipe(db)
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
    fresh = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}
    ).test_client()
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
