"""Tournaments travel with the archive: the JSON export carries each tournament with its rounds, its
tables' games and the organiser's log; an import into an empty instance brings them back with the
same ids and values (the standings too); a file whose tournaments do not fit is refused with the
reason; an older export, without tournaments, still imports."""

import html
import io
import json

from scorekeeper.core import club_night
from scorekeeper.services import games, tournament_state, tournaments
from scorekeeper.services.verdicts import SAVED
from scorekeeper.storage import tournament_records
from scorekeeper.storage.db import get_db
from tests.conftest import csrf_token, make_app
from tests.helpers import wipe

EIGHT = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hans"]
PHONE = "the-organisers-phone"  # a phone token: the log keeps the phone's id


def _club_night(app):
    """A tournament built through the service: 8 players at two tables with a final (classic, four
    players in partnerships), drawn with seed 7, round 1 started and a hand at table 1; its id."""
    with app.app_context():
        db = get_db()
        made = tournaments.create(
            db,
            name="Club night",
            fmt="final",
            variant="classic",
            layout="4",
            entrants=[(n,) for n in EIGHT],
            phone=PHONE,
        )
        assert made.status == SAVED, made
        assert tournaments.draw(db, made.id, phone=PHONE, seed=7).status == SAVED
        assert tournaments.start_round(db, made.id, phone=PHONE).status == SAVED
        t = tournament_records.get(db, made.id)
        table = tournament_state.rounds(db, t)[0].tables[0]
        hand = games.add_hand(db, table.game_id, [{"melded_points": 100}, {"melded_points": 80}], True, phone=PHONE)
        assert hand.status == SAVED, hand
        return made.id


def _standings(app, tournament_id):
    """The tournament as the pages read it: itself, its rounds as they stand, its ranking."""
    with app.app_context():
        db = get_db()
        t = tournament_records.get(db, tournament_id)
        rounds = tournament_state.rounds(db, t)
        return t, rounds, club_night.ranking(t, rounds)


def _without_time(data):
    """An export without its time and the log's "archive imported" entries (an import adds one)."""
    data = dict(data)
    data.pop("exported_at")
    data["changes"] = [c for c in data["changes"] if c["action"] != "archive imported"]
    return data


def _fresh(tmp_path, name="fresh"):
    """A new app on an empty archive."""
    return make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / f"{name}.sqlite")})


def _import(app, data):
    """Import ``data`` through the page: the response."""
    client = app.test_client()
    return client.post(
        "/import",
        data={
            "csrf_token": csrf_token(client, "/export"),
            "file": (io.BytesIO(json.dumps(data, ensure_ascii=False).encode()), "archive.json"),
        },
        content_type="multipart/form-data",
    )


def _export(app):
    return json.loads(app.test_client().get("/export.json").data)


def test_a_tournament_survives_export_and_import(app, client, tmp_path):
    tournament_id = _club_night(app)
    before = _standings(app, tournament_id)
    data = json.loads(client.get("/export.json").data)
    assert data["version"] == 5
    [exported] = data["tournaments"]
    assert exported["id"] == tournament_id and exported["format"] == "final" and exported["seed"] == 7
    assert exported["entrants"] == [[n] for n in EIGHT] and exported["settings"] == {}
    assert exported["season_points"] == list(club_night.DEFAULT_SEASON_POINTS)
    assert [r["round"] for r in exported["rounds"]] == [1] and exported["rounds"][0]["ended_at"] is None
    assert [(t["round"], t["table_no"]) for t in exported["tables"]] == [(1, 1), (1, 2)]
    assert {t["game_id"] for t in exported["tables"]} <= {g["id"] for g in data["games"]}
    assert all(len(t["units"]) == 2 for t in exported["tables"])
    assert [e["action"] for e in exported["log"]] == ["created", "draw", "round started"]
    phone_ids = {p["id"] for p in data["phones"]}
    assert {e["phone_id"] for e in exported["log"]} <= phone_ids and exported["log"][0]["phone_id"] is not None
    assert exported["log"][1]["detail"] == {"order": club_night.draw(8, 7)}

    fresh = _fresh(tmp_path)
    response = _import(fresh, data)
    assert response.status_code == 302, html.unescape(response.text)
    assert _without_time(_export(fresh)) == _without_time(data)
    assert _standings(fresh, tournament_id) == before
    places = before[2]
    assert len(places) == 8 and [p.place for p in places] == sorted(p.place for p in places)


def test_who_has_come_and_a_replaced_no_show_survive_export_and_import(app, client, tmp_path):
    """The check-in (who has come, null until saved) and the "replaced" action travel with the export:
    a tournament checked in and drawn with a seat given to a late player, and one checked in with a
    reserve not drawn yet (its list then holds more than its format seats)."""
    with app.app_context():
        db = get_db()
        drawn = tournaments.create(
            db, name="Friday", fmt="final", variant="classic", layout="4", entrants=[(n,) for n in EIGHT], phone=PHONE
        ).id
        came = tournaments.check_in(db, drawn, 0, present=range(7), walk_ins=[("Ida",)], phone=PHONE)
        assert came.status == SAVED
        assert tournaments.draw(db, drawn, phone=PHONE, seed=7).status == SAVED  # Hans left out
        t = tournament_records.get(db, drawn)
        assert tournaments.replace(db, drawn, t.version, 2, 0, "Jana", phone=PHONE).status == SAVED
        waiting = tournaments.create(
            db, name="Saturday", fmt="final", variant="classic", layout="4", entrants=[(n,) for n in EIGHT]
        ).id  # Gust and Hans not come yet, two walk-ins: 10 on the list, 8 checked in
        came = tournaments.check_in(db, waiting, 0, present=range(6), walk_ins=[("Karl",), ("Lena",)])
        assert came.status == SAVED
    before = [_standings(app, drawn), _standings(app, waiting)]
    data = json.loads(client.get("/export.json").data)
    first, second = data["tournaments"]
    assert first["checked_in"] == [[n] for n in EIGHT[:2]] + [["Jana"]] + [[n] for n in EIGHT[3:7]] + [["Ida"]]
    assert first["entrants"] == first["checked_in"] and first["entrant_ids"][2] == [None]
    assert [e["action"] for e in first["log"]] == ["created", "changed", "draw", "replaced"]
    assert first["log"][2]["detail"] == {"order": club_night.draw(8, 7), "left_out": ["Hans"]}
    assert first["log"][3]["detail"] == {"gone": "Carl", "name": "Jana", "slot": 0, "unit": 2}
    assert len(second["entrants"]) == 10 and len(second["checked_in"]) == 8 and second["seed"] is None

    fresh = _fresh(tmp_path)
    response = _import(fresh, data)
    assert response.status_code == 302, html.unescape(response.text)
    assert _without_time(_export(fresh)) == _without_time(data)
    assert [_standings(fresh, drawn), _standings(fresh, waiting)] == before
    older = json.loads(json.dumps(data))  # an export from before the check-in: no such key
    for t in older["tournaments"]:
        t.pop("checked_in")
    older["tournaments"] = older["tournaments"][:1]
    response = _import(_fresh(tmp_path, "older"), older)
    assert response.status_code == 302, html.unescape(response.text)


def test_a_restore_over_an_archive_with_tournaments_replaces_them(app, client, runner, tmp_path):
    tournament_id = _club_night(app)
    with app.app_context():
        assert tournaments.end_round(get_db(), tournament_id, 1, phone=PHONE).status == SAVED
        assert tournaments.close(get_db(), tournament_id, phone=PHONE).status == SAVED
        assert tournaments.reopen(get_db(), tournament_id, phone=PHONE).status == SAVED
    before, standings = _export(app), _standings(app, tournament_id)
    [exported] = before["tournaments"]
    assert exported["rounds"][0]["ended_at"] is not None
    assert [e["action"] for e in exported["log"]][-3:] == ["round ended", "closed", "reopened"]
    assert exported["closed_at"] is None and exported["places"] is None  # reopened: nothing kept as final
    path = tmp_path / "backup.json"
    assert runner.invoke(args=["backup", str(path)]).exit_code == 0
    result = runner.invoke(args=["restore", str(path), "--replace"])  # the tournament's rows erased first
    assert result.exit_code == 0, result.output
    assert _without_time(_export(app)) == _without_time(before)
    assert _standings(app, tournament_id) == standings
    with app.app_context():
        db = get_db()
        wipe(db)
        for table in ("tournaments", "tournament_rounds", "tournament_games", "tournament_log"):
            assert db.execute(f"select count(*) from {table}").fetchone()[0] == 0, table


def _doctored(data, change):
    data = json.loads(json.dumps(data))
    change(data["tournaments"][0])
    return data


def _missing_game(t):
    t["tables"][0]["game_id"] = 9999


def _unknown_format(t):
    t["format"] = "swiss"


def _unknown_round_end(t):
    t["round_end"] = "midnight"


def _unknown_evening(t):
    t["evening_id"] = 9999


def _table_twice(t):
    t["tables"][1]["game_id"] = t["tables"][0]["game_id"]


def _unknown_phone(t):
    t["log"][0]["phone_id"] = 9999


def _order_twice(t):
    t["draw_order"][1] = t["draw_order"][0]


def _unknown_player(t):
    t["entrant_ids"][0][0] = 9999


def _places_before_the_close(t):
    t["places"] = [[1, 0, 2, 100, 1, 1, 0]]


def _checked_in_a_stranger(t):
    t["checked_in"] = [["Anna"], ["Nobody"]]


DOCTORED = {
    "a table's game missing": (_missing_game, "tournaments[0].tables[0].game_id 9999 is not a game of the export"),
    "an unknown format": (_unknown_format, "tournaments[0].format is not one of final, mitchell, rotation"),
    "an unknown round end": (_unknown_round_end, "tournaments[0].round_end is not one of target, hands, minutes"),
    "an unknown evening": (_unknown_evening, "tournaments[0].evening_id is not an evening"),
    "a game at two tables": (_table_twice, "is another table's game"),
    "an unknown phone": (_unknown_phone, "tournaments[0].log[0].phone_id is not a phone"),
    "an entrant drawn twice": (_order_twice, "tournaments[0].draw_order is not an order of its entrants"),
    "a player not in the export": (
        _unknown_player,
        "tournaments[0].entrant_ids name a player who is not in the export",
    ),
    "places before the close": (_places_before_the_close, "tournaments[0].places are kept before the close"),
    "a stranger checked in": (_checked_in_a_stranger, "tournaments[0].checked_in are not entrants of the tournament"),
}


def test_an_export_whose_tournaments_do_not_fit_is_refused_with_the_reason(app, client, runner, tmp_path):
    _club_night(app)
    data = json.loads(client.get("/export.json").data)
    for number, (name, (change, message)) in enumerate(DOCTORED.items()):
        fresh = _fresh(tmp_path, f"doctored-{number}")
        response = _import(fresh, _doctored(data, change))
        shown = html.unescape(response.text)
        assert response.status_code == 422, name
        assert "The export is damaged" in shown and message in shown, (name, shown[-2000:])
        assert _export(fresh)["tournaments"] == [] and _export(fresh)["games"] == [], name  # nothing imported
    # the command refuses it too, and leaves the archive as it was
    path = tmp_path / "doctored.json"
    path.write_text(json.dumps(_doctored(data, _missing_game)))
    result = runner.invoke(args=["restore", str(path), "--replace"])
    assert result.exit_code != 0 and DOCTORED["a table's game missing"][1] in result.output
    assert _without_time(_export(app)) == _without_time(data)


def test_an_export_without_tournaments_still_imports(app, client, tmp_path):
    _club_night(app)
    data = json.loads(client.get("/export.json").data)
    for version in (3, 4):  # a version 3 file knows no tournaments
        older = {k: v for k, v in data.items() if k != "tournaments"}
        older["version"] = version
        fresh = _fresh(tmp_path, f"v{version}")
        response = _import(fresh, older)
        assert response.status_code == 302, html.unescape(response.text)
        again = _export(fresh)
        assert again["tournaments"] == []
        assert again["games"] == data["games"] and again["evenings"] == data["evenings"]
