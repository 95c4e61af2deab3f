"""The services for players, evenings, phones and the import, against the real server (waitress with
threads, real HTTP, each phone with its own cookies): two requests at once give one consistent
result, decided inside the write transaction."""

from __future__ import annotations

import copy
import json
import re
import secrets
import urllib.error
import urllib.request

import pytest

from scorekeeper.services import evenings as evening_service
from scorekeeper.storage import backup, records
from scorekeeper.storage import db as dbmod
from tests.conftest import make_app
from tests.helpers import new_game, saved_hand, served
from tests.test_concurrency import Phone, _at_once

pytestmark = pytest.mark.slow  # real-server races: left out of the quick loop, run by CI


@pytest.fixture
def server(tmp_path):
    """The app on waitress with 8 threads on a free port; yields (base URL, app)."""
    app = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "race.sqlite")})
    with served(app) as port:
        yield f"http://127.0.0.1:{port}", app


def _players(app) -> dict[str, int]:
    with app.app_context():
        return {p.name: p.id for p in records.list_players(dbmod.get_db())}


def _token(phone: Phone, path: str) -> str:
    return phone.form(path)["csrf_token"]


def test_two_players_renamed_to_one_name_at_once_one_is_renamed(server):
    base, app = server
    for trial in range(10):
        with app.app_context():
            db = dbmod.get_db()
            new_game(db, "classic", [f"A{trial}", f"B{trial}", f"C{trial}", f"D{trial}"])
        ids = _players(app)
        one, other = ids[f"A{trial}"], ids[f"B{trial}"]
        phones = [Phone(base), Phone(base)]
        tokens = [_token(phones[0], f"/players/{one}"), _token(phones[1], f"/players/{other}")]
        name = f"Zed{trial}"
        results = _at_once(
            [
                (lambda p=p, pid=pid, t=t: p.post(f"/players/{pid}/rename", {"csrf_token": t, "name": name}))
                for p, pid, t in zip(phones, (one, other), tokens)
            ]
        )
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [302, 422], (trial, statuses)
        refused = next(body for status, _, body in results if status == 422)
        assert f"There is already a player called {name}" in refused
        names = _players(app)
        assert name in names and sum(1 for n in names if n.lower() == name.lower()) == 1


def test_two_players_merged_into_each_other_at_once_one_merge_stands(server):
    base, app = server
    for trial in range(10):
        with app.app_context():
            db = dbmod.get_db()
            new_game(db, "classic", [f"E{trial}", f"F{trial}", f"G{trial}", f"H{trial}"])
            new_game(db, "classic", [f"I{trial}", f"J{trial}", f"K{trial}", f"L{trial}"])
        ids = _players(app)
        one, other = ids[f"E{trial}"], ids[f"I{trial}"]  # never at one table: they may be merged
        phones = [Phone(base), Phone(base)]
        tokens = [_token(phones[0], f"/players/{one}"), _token(phones[1], f"/players/{other}")]
        results = _at_once(
            [
                (
                    lambda p=p, keep=keep, gone=gone, t=t: p.post(
                        f"/players/{keep}/merge", {"csrf_token": t, "other": gone, "sure": "y"}
                    )
                )
                for p, keep, gone, t in zip(phones, (one, other), (other, one), tokens)
            ]
        )
        statuses = sorted(status for status, _, _ in results)
        assert statuses[0] == 302 and statuses[1] in (404, 422), (trial, statuses)
        names = _players(app)
        assert (f"E{trial}" in names) != (f"I{trial}" in names)  # one of the two is left, with both games
        kept = names.get(f"E{trial}") or names[f"I{trial}"]
        with app.app_context():
            db = dbmod.get_db()
            seats = db.execute("select count(*) from game_seats where player_id = ?", [kept]).fetchone()[0]
            games = db.execute("select games from player_totals where player_id = ?", [kept]).fetchone()[0]
        assert seats == 2 and games == 2


def test_two_edits_of_an_evening_at_once_leave_its_games_on_its_date(server):
    base, app = server
    with app.app_context():
        db = dbmod.get_db()
        evening_id = evening_service.create_evening(db, "2026-11-01", ["Anna", "Bert", "Carl", "Dora"]).id
        new_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], evening_id=evening_id)
    url = f"/evenings/{evening_id}/edit"
    anna = _players(app)["Anna"]
    for trial in range(10):
        phones = [Phone(base), Phone(base)]
        tokens = [_token(phone, url) for phone in phones]
        # days far from the game's own: a game started between midnight and the evening's end counts on
        # the day it was played when the evening's date is the evening it belongs to (core/clock.played_on),
        # which a date near today's could be
        dates = [f"2019-03-{trial + 1:02d}", f"2019-04-{trial + 1:02d}"]
        results = _at_once(
            [
                (lambda p=p, t=t, d=d: p.post(url, {"csrf_token": t, "date": d, "known": str(anna)}))
                for p, t, d in zip(phones, tokens, dates)
            ]
        )
        assert [status for status, _, _ in results] == [302, 302]
        with app.app_context():
            db = dbmod.get_db()
            date = db.execute("select date from evenings where id = ?", [evening_id]).fetchone()[0]
            days = {r[0] for r in db.execute("select day from game_results where evening_id = ?", [evening_id])}
            player_days = {r[0] for r in db.execute("select day from player_results")}
        assert date in dates and days == {date} and player_days == {date}, (trial, date, days)


def test_two_new_games_at_once_with_one_name_in_two_cases_make_one_player(server):
    """ "ülle" and "ÜLLE" are one name (Unicode case folding, which SQLite's NOCASE does not do for Ü):
    two phones starting games at once, each with one of them, find or add one player, decided inside
    the write's transaction."""
    base, app = server
    url = "/games/new/classic"
    for trial in range(10):
        phones = [Phone(base), Phone(base)]
        tokens = [_token(phone, url) for phone in phones]
        spelled = [f"ülle{trial}", f"ÜLLE{trial}"]
        forms = [
            {
                "csrf_token": t,
                "first_dealer": "0",
                "players-0": name,
                **{f"players-{i}": f"P{k}x{i}x{trial}" for i in (1, 2, 3)},
            }
            for k, (t, name) in enumerate(zip(tokens, spelled))
        ]
        results = _at_once([(lambda p=p, f=f: p.post(url, f)) for p, f in zip(phones, forms)])
        assert [status for status, _, _ in results] == [302, 302], trial
        same = [name for name in _players(app) if name.casefold() == spelled[0].casefold()]
        assert len(same) == 1, (trial, same)


def test_a_phone_named_twice_at_once_keeps_one_name(server):
    base, app = server
    with app.app_context():
        game_id = new_game(dbmod.get_db(), "classic", ["Anna", "Bert", "Carl", "Dora"])
    page = f"/games/{game_id}/changes"
    for trial in range(10):
        first = Phone(base)
        token = _token(first, page)
        second = Phone(base)
        for cookie in first.jar:  # the same phone: one session, sent twice
            second.jar.set_cookie(copy.copy(cookie))
        names = [f"Anna phone {trial}", f"Bert phone {trial}"]
        results = _at_once(
            [
                (lambda p=p, n=n: p.post("/phone/name", {"csrf_token": token, "name": n, "next": page}))
                for p, n in zip((first, second), names)
            ]
        )
        assert [status for status, _, _ in results] == [302, 302]
        said = [phone.get(page) for phone in (first, second)]
        named = [n for n, text in zip(names, said) if f"This phone is now called {n}" in text]
        assert len(named) == 1 and sum("This phone already has a name." in text for text in said) == 1, trial
        with app.app_context():
            rows = dbmod.get_db().execute("select name from phones where name like ?", [f"% {trial}"]).fetchall()
        assert rows == [(named[0],)]


def _multipart(fields: dict[str, str], filename: str, payload: bytes) -> tuple[bytes, str]:
    """A multipart/form-data body with these fields and one file, and its content type."""
    boundary = secrets.token_hex(16)
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        f"Content-Type: application/json\r\n\r\n".encode()
        + payload
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _import(phone: Phone, token: str, payload: bytes) -> tuple[int, str]:
    body, kind = _multipart({"csrf_token": token}, "archive.json", payload)
    request = urllib.request.Request(phone.base + "/import", data=body, headers={"Content-Type": kind})
    try:
        with phone.opener.open(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_two_imports_at_once_into_an_empty_archive_restore_it_once(server, tmp_path):
    base, app = server
    source = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "source.sqlite")})
    with source.app_context():
        db = dbmod.get_db()
        evening_id = evening_service.create_evening(db, "2026-11-01", ["Anna", "Bert", "Carl", "Dora"]).id
        for _ in range(3):
            game_id = new_game(db, "classic", ["Anna", "Bert", "Carl", "Dora"], evening_id=evening_id)
            saved_hand(db, game_id, [{"melded_points": 100}, {"melded_points": 80}], True)
        payload = json.dumps(backup.export(db)).encode()
    phones = [Phone(base), Phone(base)]
    tokens = [_token(phone, "/export") for phone in phones]
    results = _at_once([(lambda p=p, t=t: _import(p, t, payload)) for p, t in zip(phones, tokens)])
    statuses = sorted(status for status, _ in results)
    assert statuses == [302, 422], statuses
    refused = next(body for status, body in results if status == 422)
    assert re.search(r"The archive is not empty", refused)
    with app.app_context():
        db = dbmod.get_db()
        counts = [db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("games", "hands", "players")]
        imported = db.execute("select count(*) from changes where action = 'archive imported'").fetchone()[0]
    assert counts == [3, 3, 4] and imported == 1


def _house_fields(phone: Phone, path: str) -> dict[str, str]:
    """Every field of a table's own rule set's page, as the page fills it, with this phone's token."""
    page = phone.get(path)
    fields = dict(re.findall(r'name="(v_\w+)"[^>]*value="([^"]*)"', page))
    for name, options in re.findall(r'<select id="\w+" name="(v_\w+)">(.*?)</select>', page, re.S):
        fields[name] = re.search(r'value="([^"]*)" selected', options).group(1)
    fields["csrf_token"] = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', page).group(1)
    fields["name"] = re.search(r'id="name" name="name"[^>]*value="([^"]*)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page)
    if version:
        fields["version"] = version.group(1)
    return fields


def test_two_tables_rules_kept_under_one_name_at_once_one_is_kept(server):
    """docs/rules.md#house-values: the name is decided inside the write (and the unique index behind it)."""
    base, app = server
    for trial in range(8):
        phones = [Phone(base), Phone(base)]
        forms = [_house_fields(p, "/house-rules/new/classic") for p in phones]
        name = f"Thursday {trial}"
        results = _at_once(
            [
                (lambda p=p, f=f, k=k: p.post("/house-rules/new/classic", f | {"name": name, "v_card_high": k}))
                for p, f, k in zip(phones, forms, ("15", "20"))
            ]
        )
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [302, 422], (trial, statuses)
        assert "A rule set of that name exists." in next(body for status, _, body in results if status == 422)
        with app.app_context():
            kept = [h for h in records.all_house_rules(dbmod.get_db()) if h.name == name]
        assert len(kept) == 1


def test_one_tables_rules_changed_by_two_phones_at_once_one_change_stands(server):
    """Both based on version 0: one is saved, the other told someone changed them meanwhile."""
    base, app = server
    for trial in range(8):
        maker = Phone(base)
        made = maker.post(
            "/house-rules/new/classic", _house_fields(maker, "/house-rules/new/classic") | {"name": f"Friday {trial}"}
        )
        assert made[0] == 302
        with app.app_context():
            house_id = next(h.id for h in records.all_house_rules(dbmod.get_db()) if h.name == f"Friday {trial}")
        path = f"/house-rules/{house_id}"
        phones = [Phone(base), Phone(base)]
        forms = [_house_fields(p, path) for p in phones]
        results = _at_once(
            [
                (lambda p=p, f=f, k=k: p.post(path, f | {"v_canasta_natural": k}))
                for p, f, k in zip(phones, forms, ("600", "700"))
            ]
        )
        statuses = sorted(status for status, _, _ in results)
        assert statuses == [302, 422], (trial, statuses)
        assert "Someone changed these rules meanwhile" in next(body for status, _, body in results if status == 422)
        with app.app_context():
            kept = records.get_house_rules(dbmod.get_db(), house_id)
        assert kept.version == 1 and kept.changes["canasta_natural"] in (600, 700)
