"""An import refuses what the forms would refuse (issue 27): a tournament's round clock and number of
hands beyond the form's limits, its season points, a time no computer's clock shows, one person listed
twice (any case, Unicode forms, look-alikes), and any integer beyond its field's range (ids, versions,
seeds, counts, points); each refusal names the field and leaves the archive as it was. No figure
stored in the archive, however it got there, makes a tournament's page answer 500."""

import html
import io
import json
import re
import time
import unicodedata

import pytest

from scorekeeper.core import club_night, rulesets
from scorekeeper.services import games, tournament_state, tournaments
from scorekeeper.services.verdicts import SAVED
from scorekeeper.storage import tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web.tournament_forms import TournamentForm
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, side_fields
from tests.test_house_rules import form_of, keep

EIGHT = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini", "Gust", "Hans"]
PHONE = "the-organisers-phone"


def _club_night(app, round_end="minutes", **fields):
    """8 players at two tables with a final, a round of 50 minutes (or ``round_end``), drawn with seed 7,
    round 1 started and a hand saved at table 1: its id."""
    fields.setdefault("round_minutes", 50)
    with app.app_context():
        db = get_db()
        made = tournaments.create(
            db,
            name="Club night",
            fmt="final",
            variant="classic",
            layout="4",
            entrants=[(n,) for n in EIGHT],
            round_end=round_end,
            phone=PHONE,
            **fields,
        )
        assert made.status == SAVED, made
        assert tournaments.draw(db, made.id, phone=PHONE, seed=7).status == SAVED
        assert tournaments.start_round(db, made.id, phone=PHONE).status == SAVED
        t = tournament_records.get(db, made.id)
        table = tournament_state.rounds(db, t)[0].tables[0]
        hand = games.add_hand(db, table.game_id, [{"melded_points": 100}, {"melded_points": 80}], True, phone=PHONE)
        assert hand.status == SAVED, hand
        return made.id


def _fresh(tmp_path, name="fresh"):
    return make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / f"{name}.sqlite")})


def _import(app, data):
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


def _without_time(data):
    data = dict(data)
    data.pop("exported_at")
    data["changes"] = [c for c in data["changes"] if c["action"] != "archive imported"]
    return data


def _doctored(data, change):
    data = json.loads(json.dumps(data))
    change(data)
    return data


def _refused(app, client, runner, tmp_path, cases, data):
    """Each case refused through the page (422, the message, nothing imported) and by the restore
    command over this archive (the message, the archive as it was). One empty archive takes every
    import through the page: each refused one leaves it as empty as it was, which is checked."""
    before = _without_time(_export(app))
    fresh = _fresh(tmp_path, "doctored")
    empty = _export(fresh)
    empty.pop("exported_at")
    for number, (name, (change, message)) in enumerate(cases.items()):
        doctored = _doctored(data, change)
        response = _import(fresh, doctored)
        shown = html.unescape(response.text)
        assert response.status_code == 422, (name, shown[-1500:])
        assert "The export is damaged" in shown and message in shown, (name, shown[-1500:])
        left = _export(fresh)
        left.pop("exported_at")
        assert left == empty, name  # nothing imported
        path = tmp_path / f"doctored-{number}.json"
        path.write_text(json.dumps(doctored, ensure_ascii=False))
        result = runner.invoke(args=["restore", str(path), "--replace"])
        assert result.exit_code != 0 and message in result.output and "unchanged" in result.output, (
            name,
            result.output,
        )
        assert _without_time(_export(app)) == before, name


def _tournament(change):
    def doctor(data):
        change(data["tournaments"][0])

    return doctor


def _set_tournament(key, value):
    def change(t):
        t[key] = value

    return _tournament(change)


# --- 1. the round's clock -------------------------------------------------------------------------------


def _started(moment):
    def change(t):
        t["rounds"][0]["started_at"] = moment

    return _tournament(change)


MINUTES = "tournaments[0].round_minutes is not a whole number from 15 to 300"
HANDS = "tournaments[0].round_hands is not a whole number from 1 to 50"
STARTED = "tournaments[0].rounds[0].started_at is not a time from 1970 to 2999"
CLOCKS = {
    "2**63-1 minutes": (_set_tournament("round_minutes", 2**63 - 1), MINUTES),
    "14 minutes": (_set_tournament("round_minutes", 14), MINUTES),
    "301 minutes": (_set_tournament("round_minutes", 301), MINUTES),
    "0 hands": (_set_tournament("round_hands", 0), HANDS),
    "51 hands": (_set_tournament("round_hands", 51), HANDS),
    "2**63-1 hands": (_set_tournament("round_hands", 2**63 - 1), HANDS),
    "started at the end of time": (_started("9999-12-31T23:59:59+00:00"), STARTED),
    "started in year 1": (_started("0001-01-01T00:00:00+00:00"), STARTED),
    "no round end of minutes": (_set_tournament("round_minutes", None), "tournaments[0].round_minutes is missing"),
}


def test_an_import_refuses_a_round_clock_the_form_would_refuse(app, client, runner, tmp_path):
    _club_night(app)
    data = _export(app)
    _refused(app, client, runner, tmp_path, CLOCKS, data)
    # the limits themselves import, and the pages show them
    for number, (key, value) in enumerate((("round_minutes", 15), ("round_minutes", 300))):
        fresh = _fresh(tmp_path, f"limit-{number}")
        response = _import(fresh, _doctored(data, _set_tournament(key, value)))
        assert response.status_code == 302, html.unescape(response.text)
        assert fresh.test_client().get("/tournaments/1/standings").status_code == 200


def test_an_import_refuses_a_round_of_hands_the_form_would_refuse_and_takes_its_limits(app, tmp_path):
    _club_night(app, round_end="hands", round_hands=3)
    data = _export(app)
    for number, (value, status) in enumerate(((1, 302), (50, 302), (0, 422), (51, 422), (None, 422))):
        response = _import(_fresh(tmp_path, f"hands-{number}"), _doctored(data, _set_tournament("round_hands", value)))
        assert response.status_code == status, (value, html.unescape(response.text)[-800:])


def test_the_form_and_the_import_read_the_same_limits(app):
    """The form's validators take their ranges from the core's constants, which the import checks too."""
    with app.test_request_context():
        form = TournamentForm(meta={"csrf": False})
    ranges = {
        name: next((v.min, v.max) for v in getattr(form, name).validators if hasattr(v, "min"))
        for name in ("round_minutes", "round_hands", "target")
    }
    assert ranges == {
        "round_minutes": club_night.ROUND_MINUTES,
        "round_hands": club_night.ROUND_HANDS,
        "target": rulesets.TARGET_RANGE,
    }
    assert (club_night.ROUND_MINUTES, club_night.ROUND_HANDS) == ((15, 300), (1, 50))


@pytest.mark.parametrize(
    "language,fields,message",
    [
        ("en", {"round_end": "minutes", "round_minutes": "301"}, "Between 15 and 300."),
        ("de", {"round_end": "minutes", "round_minutes": "14"}, "Zwischen 15 und 300."),
        ("it", {"round_end": "hands", "round_hands": "51"}, "Tra 1 e 50."),
        ("et", {"target": "100005"}, "Vahemikus 500 kuni 100000."),
        ("en", {"season_points": "10000, 8"}, "Whole numbers with commas between them, best place first."),
        ("en", {"entrants": "\n".join(["Zo\u00eb", "Zoe\u0308", *EIGHT[2:]])}, "is on the list twice; add an initial."),
    ],
)
def test_the_form_refuses_what_the_import_refuses_in_the_reader_s_language(client, language, fields, message):
    client.get(f"/prefs?lang={language}&next=/")
    data = {
        "csrf_token": csrf_token(client, "/tournaments/new"),
        "name": "Club night",
        "format": "final",
        "rules": "classic",
        "round_end": "target",
        "entrants": "\n".join(EIGHT),
        "season_points": "10, 8, 6",
        **fields,
    }
    response = client.post("/tournaments/new", data=data)
    assert response.status_code == 422 and message in html.unescape(response.text)
    assert client.get("/api/tournaments").get_json() == []  # nothing kept


def _pages(client, tid, game_id):
    """Every page and answer of the tournament and its table (and a hand saved there): status codes."""
    urls = [
        f"/tournaments/{tid}",
        f"/tournaments/{tid}/standings",
        f"/tournaments/{tid}/standings/version",
        f"/tournaments/{tid}/tables/1",
        f"/tournaments/{tid}/grid",
        f"/api/tournaments/{tid}",
        "/api/tournaments",
        f"/games/{game_id}",
        f"/api/games/{game_id}",
        f"/tournaments/{tid}/score-cards",
        "/tournaments",
    ]
    found = {url: client.get(url).status_code for url in urls}
    hand = post_hand(client, game_id, side_fields(0, melded=50, hand=0), side_fields(1, melded=60, hand=0))
    found["a hand saved"] = hand.status_code
    return found


@pytest.mark.parametrize("zone", ["Europe/Berlin", "America/New_York"])
@pytest.mark.parametrize(
    "column,value",
    [
        ("round_minutes", 2**63 - 1),
        ("round_minutes", -(2**63)),
        ("started_at", "9999-12-31T23:59:59+00:00"),
        ("started_at", "9999-12-31T20:00:00+00:00"),
        ("started_at", "0001-01-01T00:00:00+00:00"),
        ("round_hands", 2**63 - 1),
    ],
)
def test_no_figure_stored_in_the_archive_makes_a_tournament_page_answer_500(
    app, client, monkeypatch, zone, column, value
):
    """A value written straight into the archive (as an older import let through): the pages still
    answer; a clock whose end no calendar holds counts as a round without a time limit."""
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        tid = _club_night(app)
        with app.app_context():
            db = get_db()
            table = tournament_state.rounds(db, tournament_records.get(db, tid))[0].tables[0]
            if column == "started_at":
                db.execute("update tournament_rounds set started_at = ? where tournament_id = ?", [value, tid])
            elif column == "round_hands":
                db.execute("update tournaments set round_end = 'hands', round_hands = ? where id = ?", [value, tid])
            else:
                db.execute("update tournaments set round_minutes = ? where id = ?", [value, tid])
            db.conn.commit()
        found = _pages(client, tid, table.game_id)
        assert all(status < 500 for status in found.values()), found
        assert found["a hand saved"] == 302
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def test_a_clock_whose_end_no_calendar_holds_has_no_end():
    from datetime import datetime, timezone

    start = datetime(2026, 11, 6, 19, 30, tzinfo=timezone.utc)
    assert club_night.Clock(start, 50).ends == datetime(2026, 11, 6, 20, 20, tzinfo=timezone.utc)
    assert club_night.clock_of(start, 2**63 - 1) is None
    assert club_night.clock_of(datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone.utc), 50) is None
    assert (
        club_night.clock_of(datetime(9999, 12, 31, 20, 0, tzinfo=timezone.utc), 50) is None
    )  # no room for a time zone
    assert club_night.clock_of(start, 50) == club_night.Clock(start, 50)
    assert club_night.stop_moment("minutes", 2**63 - 1, start, False, ()) is None


# --- the season points: as the form takes them ---------------------------------------------------------


SEASON_POINTS = {
    "a place beyond four digits": (
        _set_tournament("season_points", [10000, 8]),
        "tournaments[0].season_points are not 1 to 64 whole numbers from 0 to 9999",
    ),
    "2**63-1 points": (
        _set_tournament("season_points", [2**63 - 1]),
        "tournaments[0].season_points are not 1 to 64 whole numbers from 0 to 9999",
    ),
    "65 places": (
        _set_tournament("season_points", [0] * 65),
        "tournaments[0].season_points are not 1 to 64 whole numbers from 0 to 9999",
    ),
    "no place": (_set_tournament("season_points", []), "tournaments[0].season_points are not 1 to 64 whole numbers"),
    "a place below 0": (_set_tournament("season_points", [10, -1]), "tournaments[0].season_points are not 1 to 64"),
    "more for a later place": (
        _set_tournament("season_points", [8, 10]),
        "tournaments[0].season_points give a place more than the place before it",
    ),
}


def test_an_import_refuses_season_points_the_form_would_refuse(app, client, runner, tmp_path):
    _club_night(app)
    data = _export(app)
    _refused(app, client, runner, tmp_path, SEASON_POINTS, data)
    response = _import(_fresh(tmp_path, "limits"), _doctored(data, _set_tournament("season_points", [9999] * 64)))
    assert response.status_code == 302, html.unescape(response.text)


# --- 2. one person listed twice ------------------------------------------------------------------------


def _entrant(index, name):
    def change(t):
        t["entrants"][index] = [name]

    return _tournament(change)


def _both(first, second):
    def change(t):
        t["entrants"][0], t["entrants"][1] = [first], [second]

    return _tournament(change)


def _one_player_twice(t):
    t["entrant_ids"][1] = t["entrant_ids"][0]


def _an_entrant_at_two_tables(t):
    t["tables"][1]["units"][0][0] = t["tables"][0]["units"][0][0]


NFC, NFD = unicodedata.normalize("NFC", "Zoë"), unicodedata.normalize("NFD", "Zoë")
TWICE = {
    "Anna and ANNA": (_entrant(1, "ANNA"), "tournaments[0].entrants: ANNA is on the list twice; add an initial."),
    "Zoë in NFC and NFD": (_both(NFC, NFD), f"tournaments[0].entrants: {NFD} is on the list twice"),
    "a Cyrillic look-alike": (_entrant(1, "\u0410nna"), "tournaments[0].entrants: \u0410nna is on the list twice"),
    "an invisible character": (
        _entrant(1, "Bert\u200b"),
        "tournaments[0].entrants: Each name: at most 40 characters, all of them visible",
    ),
    "a pair where players are listed": (
        _entrant(1, "Bert & Ida"),
        "tournaments[0].entrants: One player a line here",
    ),
    "a name not as the archive keeps it (NFD)": (
        _entrant(1, NFD),
        "tournaments[0].entrants[1] is not written as the archive keeps a name",
    ),
    "two spaces in a name": (
        _entrant(1, "Bert  Berg"),
        "tournaments[0].entrants[1] is not written as the archive keeps a name",
    ),
    "one player for two entrants": (
        _tournament(_one_player_twice),
        "tournaments[0].entrant_ids name one player for two entrants",
    ),
    "an entrant at two tables": (
        _tournament(_an_entrant_at_two_tables),
        "tournaments[0].tables[1].units seat an entrant already seated in round 1",
    ),
}


def test_an_import_refuses_a_tournament_that_lists_one_person_twice(app, client, runner, tmp_path):
    _club_night(app)
    data = _export(app)
    _refused(app, client, runner, tmp_path, TWICE, data)


def test_an_import_refuses_one_person_twice_before_the_draw(app, client, runner, tmp_path):
    """Before the draw (a check-in saved or not): the same rules, the check-in's list too."""
    with app.app_context():
        made = tournaments.create(
            get_db(),
            name="Friday",
            fmt="mitchell",
            variant="classic",
            layout="4",
            entrants=[("Anna", "Bert"), ("Carl", "Dora"), ("Emil", "Fini"), ("Gust", "Hans")],
        )
        assert made.status == SAVED
    data = _export(app)

    def checked_in(t):
        t["entrants"][3] = ["Gust", "BERT"]
        t["checked_in"] = t["entrants"]

    cases = {
        "a pair's player in another pair": (
            _tournament(lambda t: t["entrants"].__setitem__(3, ["Gust", "BERT"])),
            "tournaments[0].entrants: BERT is on the list twice",
        ),
        "checked in twice": (_tournament(checked_in), "tournaments[0].entrants: BERT is on the list twice"),
    }
    _refused(app, client, runner, tmp_path, cases, data)
    response = _import(_fresh(tmp_path, "sound"), data)
    assert response.status_code == 302, html.unescape(response.text)


# --- 6. every integer within its field's range -----------------------------------------------------------


def _house_rules(client):
    """ "Thursday rules" kept through its page (going out 300): its id."""
    assert keep(client, going_out_bonus=300).status_code == 302
    return client.get("/api/variants").get_json()["house_rules"][0]["id"]


def _change_house_rules(client, house_id, bonus):
    """Change its going-out bonus through its page, with the version the page shows: the response."""
    url = f"/house-rules/{house_id}"
    fields = form_of(client, url)
    version = re.search(r'name="version" value="([^"]*)"', client.get(url).text).group(1)
    fields.update(name="Thursday rules", version=version, v_going_out_bonus=str(bonus))
    return client.post(url, data=fields)


def _closed_with(figure):
    def change(t):
        t["closed_at"] = t["updated_at"]
        t["places"] = [[1, 0, 2, figure, 1, 1, 0]]

    return _tournament(change)


def _set(path, value):
    def change(data):
        *parents, last = path
        node = data
        for key in parents:
            node = node[key]
        node[last] = value

    return change


def _hand_added_with(number):
    def change(data):
        entry = next(c for c in data["changes"] if c["action"] == "hand added")
        entry["after"]["sides"][0]["melded_points"] = number

    return change


BIG = 2**63 - 1
VERSION = "version is not a whole number from 0 to 2147483648"
SEED = "tournaments[0].seed is not a whole number from 0 to 2147483647"
ID = "id is not a positive whole number up to 2147483647"
RANGES = {
    "a version of 2**63-1": (_set(["house_rules", 0, "version"], BIG), f"house_rules[0].{VERSION}"),
    "a version of 2**31+1": (_set(["house_rules", 0, "version"], 2**31 + 1), f"house_rules[0].{VERSION}"),
    "a version below 0": (_set(["house_rules", 0, "version"], -1), f"house_rules[0].{VERSION}"),
    "a tournament's version": (_set(["tournaments", 0, "version"], BIG), f"tournaments[0].{VERSION}"),
    "a seed of 2**63-1": (_set(["tournaments", 0, "seed"], BIG), SEED),
    "a seed below 0": (_set(["tournaments", 0, "seed"], -7), SEED),
    "a player's id": (_set(["players", 0, "id"], BIG), f"players[0].{ID}"),
    "a hand's id": (_set(["games", 0, "hands", 0, "id"], 2**31), f"games[0].hands[0].{ID}"),
    "a house rule set's id": (_set(["house_rules", 0, "id"], BIG), f"house_rules[0].{ID}"),
    "a change's id": (_set(["changes", 0, "id"], BIG), f"changes[0].{ID}"),
    "a phone's id": (_set(["phones", 0, "id"], BIG), f"phones[0].{ID}"),
    "an organiser's action's id": (_set(["tournaments", 0, "log", 0, "id"], BIG), f"tournaments[0].log[0].{ID}"),
    "a first dealer": (_set(["games", 0, "first_dealer"], BIG), "games[0].first_dealer is not a whole number from"),
    "a table number of 2**31-1": (
        _set(["tournaments", 0, "tables", 0, "table_no"], 2**31 - 1),
        "tournaments[0].tables[0].table_no is not a table of its tournament (1 to 2)",
    ),
    "a round of 2**63-1": (
        _set(["tournaments", 0, "rounds", 0, "round"], BIG),
        "tournaments[0].rounds[0].round is not a positive whole number up to",
    ),
    "an entrant of 2**63-1": (
        _set(["tournaments", 0, "tables", 0, "units", 0, 0], BIG),
        "tournaments[0].tables[0].units is not a whole number from",
    ),
    "a place's points": (_closed_with(BIG), "tournaments[0].places is not a whole number from"),
    "a number in the change log": (_hand_added_with(BIG), "].after holds a number beyond"),
    "a number in the organiser's log": (
        _set(["tournaments", 0, "log", 1, "detail", "order", 0], BIG),
        "tournaments[0].log[1].detail holds a number beyond",
    ),
    "a table's own rules for a table of five": (
        _set(["tournaments", 0, "table_rules"], {"5": {"variant": "austrian", "layout": "5", "house_rules_id": BIG}}),
        "tournaments[0].table_rules.5.house_rules_id is not a positive whole number up to",
    ),
}


def test_an_import_refuses_an_integer_beyond_its_field_s_range(app, client, runner, tmp_path):
    _house_rules(client)
    _club_night(app)
    data = _export(app)
    assert data["tournaments"][0]["log"][1]["action"] == "draw"
    _refused(app, client, runner, tmp_path, RANGES, data)


def test_a_house_rule_set_imported_at_the_top_of_its_versions_still_takes_changes(app, client, tmp_path):
    """Version 2**31, the most an import takes: each change after it is kept (no "someone changed these
    rules meanwhile"), the version a whole number still."""
    house_id = _house_rules(client)
    data = _doctored(_export(app), _set(["house_rules", 0, "version"], 2**31))
    fresh = _fresh(tmp_path)
    assert _import(fresh, data).status_code == 302
    there = fresh.test_client()
    for bonus, version in ((250, 2**31 + 1), (200, 2**31 + 2)):
        response = _change_house_rules(there, house_id, bonus)
        assert response.status_code == 302, html.unescape(response.text)[-1500:]
        [kept] = there.get("/api/variants").get_json()["house_rules"]
        assert kept["version"] == version and kept["changes"]["going_out_bonus"] == bonus
