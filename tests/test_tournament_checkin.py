"""Who plays a club night (docs/tournaments.md): before the draw the organiser ticks who has come and
adds the walk-ins, and the draw seats only them (the others leave the list, on record); between the
draw and round 1 a no-show's seat goes to another player, who keeps it as drawn. Through the pages
(Flask's test client): what the page shows, what is stored, each refusal beside its field with what
was typed still there and nothing stored; and two phones at once against the real server."""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper.core import club_night
from scorekeeper.services import tournaments as service
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.conftest import make_app
from tests.helpers import csrf_token, quick_hash, start_game
from tests.test_tournaments import _rooms_on_a_server, act, create, state

TWELVE = ["Anna", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jan", "Kai", "Lea"]
PAIRS = ["Anna & Ben", "Cid & Dee", "Eve & Fay", "Gus & Hal", "Ida & Jan"]
CHANGED = "Another phone changed this tournament meanwhile: check it and save again."


def made(client, entrants, fmt="final") -> int:
    """A tournament created through its form: its id."""
    response = create(client, format=fmt, entrants="\n".join(entrants))
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def _version(client, tid) -> str:
    return re.search(r'name="version" value="(\d+)"', client.get(f"/tournaments/{tid}").text).group(1)


def _post(client, tid, action, version, **fields):
    """An organiser's form on the tournament's page, with the page's token (and version unless given)."""
    version = _version(client, tid) if version is None else version
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "version": version, **fields}
    return client.post(f"/tournaments/{tid}/{action}", data=data)


def check_in(client, tid, present, walk_ins="", version=None, **more):
    """The organiser's "Save who has come": ``present`` the places ticked in the list."""
    return _post(client, tid, "checkin", version, present=[str(i) for i in present], walk_ins=walk_ins, **more)


def replace(client, tid, unit, name, slot=0, version=None, **more):
    """The organiser's "Replace" on entrant ``unit`` (its player ``slot``): who takes the seat."""
    return _post(client, tid, "replace", version, unit=str(unit), slot=str(slot), name=name, **more)


def drawn_with(client, monkeypatch, tid, seed):
    """The draw button, the lot's seed fixed (as a test of the draw's outcome needs)."""
    monkeypatch.setattr(service.secrets, "randbelow", lambda _limit: seed)
    response = act(client, tid, "/draw")
    assert response.status_code == 302
    return response


def kept(app, tid):
    """What the archive holds of a tournament: its row's entrants, check-in, players, draw, version; its log."""
    with app.app_context():
        db = dbmod.get_db()
        row = db.execute(
            "select entrants, checked_in, entrant_ids, draw_order, version from tournaments where id = ?", [tid]
        ).fetchone()
        log = db.execute("select action, detail from tournament_log where tournament_id = ? order by id", [tid])
        return tuple(row), log.fetchall()


def error(page, field) -> str | None:
    found = re.search(rf'<p class="error" id="{field}-error">(.*?)</p>', page, re.S)
    return html.unescape(" ".join(found.group(1).split())) if found else None


def flashes(page) -> list[str]:
    return [html.unescape(" ".join(m.split())) for m in re.findall(r'class="flash"[^>]*>\s*<span>(.*?)</', page, re.S)]


def log_lines(page) -> list[str]:
    block = re.search(r'<ul class="changes t-log">(.*?)</ul>', page, re.S).group(1)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", " ", li).split()[2:])) for li in block.split("</li>")[:-1]]


def ticked(page) -> list[int]:
    return [int(v) for v in re.findall(r'name="present" value="(\d+)" checked', page)]


def seats(page) -> list[tuple[str, str]]:
    """The draw as the page lists it: (seat or draw number, name)."""
    return [(b, html.unescape(n.strip())) for b, n in re.findall(r'class="t-seat"><b>([\d.]+)</b>([^<]*)<', page)]


# --- before the draw: who has come --------------------------------------------------------------------


def test_the_page_before_the_draw_lists_the_entrants_with_a_tick_box_each(client):
    tid = made(client, TWELVE)
    page = client.get(f"/tournaments/{tid}").text
    boxes = re.findall(r'<input type="checkbox" name="present" value="(\d+)"> <span>([^<]+)</span>', page)
    assert boxes == [(str(i), name) for i, name in enumerate(TWELVE)]  # none ticked before a check-in
    assert "Who has come?" in page and 'name="walk_ins"' in page and "Save who has come" in page
    assert "One player a line" not in page and "Players not on the list who have come" in page
    assert "have come: the draw seats only them" not in page  # nothing saved: the draw seats everyone
    pairs = made(client, PAIRS, fmt="mitchell")
    page = html.unescape(client.get(f"/tournaments/{pairs}").text)
    assert re.findall(r'name="present" value="\d+"> <span>([^<]+)</span>', page) == PAIRS
    assert "one pair a line (“Anna & Ben”)" in page


def test_who_has_come_and_the_walk_ins_are_kept_and_can_be_saved_again(client, app):
    tid = made(client, TWELVE)
    response = check_in(client, tid, [0, 1, 2, 4, 5, 7], "Max\n  Moe  Ring ")
    assert response.status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert flashes(page) == ["Saved: 8 checked in. The draw seats only them."]
    assert "8 of 14 have come: the draw seats only them." in page
    assert ticked(page) == [0, 1, 2, 4, 5, 7, 12, 13]  # the walk-ins are on the list, ticked
    row, log = kept(app, tid)
    assert json.loads(row[0]) == [[n] for n in TWELVE + ["Max", "Moe Ring"]]
    assert json.loads(row[1]) == [[n] for n in ("Anna", "Ben", "Cid", "Eve", "Fay", "Hal", "Max", "Moe Ring")]
    assert log[-1] == ("changed", json.dumps({"checked_in": 8, "walk_ins": ["Max", "Moe Ring"]}, sort_keys=True))
    assert log_lines(page)[0] == "Check-in: 8 have come · walk-ins: Max, Moe Ring"
    # late arrivals ticked too, saved again; a walk-in who went home unticked
    again = [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
    assert check_in(client, tid, again).status_code == 302
    row, _log = kept(app, tid)
    assert len(json.loads(row[0])) == 14 and json.loads(row[1]) == [[(TWELVE + ["Max"])[i]] for i in again]
    assert ticked(client.get(f"/tournaments/{tid}").text) == again


def test_the_draw_seats_exactly_those_checked_in(client, app, monkeypatch):
    tid = made(client, TWELVE)
    assert check_in(client, tid, [0, 1, 2, 4, 5, 7, 9], "Max").status_code == 302
    drawn_with(client, monkeypatch, tid, 7)
    # checked in, in the list's order: Anna Ben Cid Eve Fay Hal Jan Max; the lot over 8 with seed 7
    assert club_night.draw(8, 7) == [6, 7, 2, 4, 0, 3, 1, 5]
    expected = [
        ("1.1", "Jan"),
        ("1.2", "Max"),
        ("1.3", "Cid"),
        ("1.4", "Fay"),
        ("2.1", "Anna"),
        ("2.2", "Eve"),
        ("2.3", "Ben"),
        ("2.4", "Hal"),
    ]
    page = client.get(f"/tournaments/{tid}").text
    assert seats(page) == expected
    assert log_lines(page)[0] == "Seats drawn by lot; left out (not checked in): Dee, Gus, Ida, Kai, Lea"
    t, _rounds = state(app, tid)
    assert [e[0] for e in t.entrants] == ["Anna", "Ben", "Cid", "Eve", "Fay", "Hal", "Jan", "Max"]
    assert t.order == club_night.draw(8, 7) and t.seed == 7 and "2 tables" in page
    act(client, tid, "/rounds")
    t, rounds = state(app, tid)
    with app.app_context():
        db = dbmod.get_db()
        tables = [records.get_game(db, table.game_id).players for table in rounds[0].tables]
        evening = sorted(p.name for p in records.get_evening(db, t.evening_id).players)
    assert tables == [["Jan", "Max", "Cid", "Fay"], ["Anna", "Eve", "Ben", "Hal"]]
    assert evening == sorted(["Anna", "Ben", "Cid", "Eve", "Fay", "Hal", "Jan", "Max"])


def test_without_a_check_in_the_draw_seats_everyone_as_before(client, app, monkeypatch):
    tid = made(client, TWELVE[:8])
    drawn_with(client, monkeypatch, tid, 7)
    t, _rounds = state(app, tid)
    assert [e[0] for e in t.entrants] == TWELVE[:8] and t.order == club_night.draw(8, 7)
    row, log = kept(app, tid)
    assert row[1] is None and log[-1] == ("draw", json.dumps({"order": club_night.draw(8, 7)}))
    assert log_lines(client.get(f"/tournaments/{tid}").text)[0] == "Seats drawn by lot"


def test_pairs_check_in_with_a_pair_walking_in(client, app, monkeypatch):
    tid = made(client, PAIRS, fmt="mitchell")
    assert check_in(client, tid, [0, 2, 3], "Kai & Lea").status_code == 302
    drawn_with(client, monkeypatch, tid, 7)
    # checked in: Anna & Ben, Eve & Fay, Gus & Hal, Kai & Lea; the lot over 4 with seed 7
    assert club_night.draw(4, 7) == [3, 1, 0, 2]
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert seats(page) == [("1", "Kai & Lea"), ("2", "Eve & Fay"), ("3", "Anna & Ben"), ("4", "Gus & Hal")]
    assert log_lines(page)[0] == "Seats drawn by lot; left out (not checked in): Cid & Dee, Ida & Jan"
    t, _rounds = state(app, tid)
    assert t.entrants == (("Anna", "Ben"), ("Eve", "Fay"), ("Gus", "Hal"), ("Kai", "Lea")) and t.rounds == 2


FINAL_REFUSALS = {
    "nobody ticked": ([], "", "present", "Tick who has come, or add the walk-ins."),
    "7 players": (
        range(6),
        "Max",
        "present",
        "7 players: tables seat four to six. Add one more or leave one out.",
    ),
    "3 players": (range(3), "", "present", "Enter at least four players, one a line."),
    # one who is on the list: its tick (a club night's review read "add an initial" for the same player)
    "a walk-in on the list, in capitals": (range(7), "ANNA", "walk_ins", "Anna is on the list already: tick the name"),
    "a look-alike of a name on the list": (range(7), "Аnna", "walk_ins", "Anna is on the list already: tick the name"),
    "a walk-in twice": (range(6), "Max\nmax", "walk_ins", "max is on the list twice; add an initial."),
    "a name too long": (range(7), "M" * 41, "walk_ins", "Each name: at most 40 characters, all of them visible"),
    "an invisible character": (range(7), "Max\u200b", "walk_ins", "Each name: at most 40 characters, all of them"),
    "a control character": (range(7), "Max\x01", "walk_ins", "Remove the control characters."),
    "a pair in a players' format": (range(7), "Max & Moe", "walk_ins", "One player a line here"),
    "far too much": (range(7), "Max Mustermann\n" * 30, "walk_ins", "At most 400 characters."),
}


@pytest.mark.parametrize("case", FINAL_REFUSALS)
def test_a_check_in_refused_says_why_beside_its_field_keeps_what_was_typed_and_stores_nothing(client, app, case):
    present, walk_ins, field, message = FINAL_REFUSALS[case]
    tid = made(client, TWELVE)
    before = kept(app, tid)
    response = check_in(client, tid, present, walk_ins)
    assert response.status_code == 422
    assert message in error(response.text, field), error(response.text, field)
    # the page opens at the field refused (the browser focuses it and brings it into view), not at its top
    assert len(re.findall(r"\bautofocus\b", response.text)) == 1
    focused = re.search(r"<(input|textarea)[^>]*\bautofocus\b[^>]*>", response.text).group(0)
    assert (f'name="{field}"' in focused) and (field != "present" or 'value="0"' in focused), focused
    assert ticked(response.text) == list(present)
    assert f">{html.escape(walk_ins, quote=False)}</textarea>" in response.text
    assert kept(app, tid) == before


def test_pairs_refused_say_why_beside_their_field(client, app):
    tid = made(client, PAIRS, fmt="mitchell")
    before = kept(app, tid)
    response = check_in(client, tid, [0, 1], "Kai")
    assert response.status_code == 422
    assert error(response.text, "walk_ins") == 'Each line is a pair: two names with "&" between them.'
    response = check_in(client, tid, [3], "")
    assert error(response.text, "present") == "Enter at least two pairs, one pair a line."
    assert ticked(response.text) == [3]
    response = check_in(client, tid, [2, 3], "ben & ANNA")  # the pair on the list, in another order and case
    assert error(response.text, "walk_ins") == "Anna & Ben are on the list already: tick them above."
    response = check_in(client, tid, [2, 3], "Anna & Max")  # one of them with another partner
    assert error(response.text, "walk_ins") == "Anna is on the list twice; add an initial."
    assert kept(app, tid) == before


def test_a_check_in_on_a_list_changed_meanwhile_is_refused(client, app):
    tid = made(client, TWELVE)
    stale = _version(client, tid)
    assert check_in(client, tid, range(8)).status_code == 302  # another phone saved first
    before = kept(app, tid)
    response = check_in(client, tid, range(4), "Max", version=stale)
    assert response.status_code == 422 and error(response.text, "present") == CHANGED
    assert ticked(response.text) == [0, 1, 2, 3] and ">Max</textarea>" in response.text
    assert f'name="version" value="{int(stale) + 1}"' in response.text  # saved again, it goes through
    assert kept(app, tid) == before


def test_a_walk_in_who_looks_like_a_player_kept_is_asked_about(client, app):
    start_game(client, names=["Nora", "Yann", "Xia", "Wim"])  # kept in the archive
    tid = made(client, TWELVE)
    response = check_in(client, tid, range(7), "Nоra")  # a Cyrillic о
    assert response.status_code == 422 and error(response.text, "walk_ins") == "Did you mean Nora?"
    assert 'name="someone_new"' in response.text and kept(app, tid)[0][1] is None
    assert check_in(client, tid, range(7), "Nоra", someone_new="y").status_code == 302
    assert json.loads(kept(app, tid)[0][1])[-1] == ["Nоra"]


def test_after_the_draw_who_has_come_can_no_longer_change(client, app):
    tid = made(client, TWELVE[:8])
    version = _version(client, tid)
    assert flashes(client.get(act(client, tid, "/draw").headers["Location"]).text) == ["The seats are drawn."]
    before = kept(app, tid)
    response = check_in(client, tid, range(4), "", version=version)
    assert response.status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert flashes(page) == ["The seats are drawn already: who has come can no longer change."]
    assert kept(app, tid) == before and "Save who has come" not in page


def test_a_check_in_the_list_no_longer_seats_refuses_the_draw_with_the_reason(client, app):
    tid = made(client, TWELVE)
    assert check_in(client, tid, range(8)).status_code == 302
    # the list changed: Hal (checked in) is taken off it, Max put on; 7 are checked in now
    token = csrf_token(client, f"/tournaments/{tid}/edit")
    fields = {"csrf_token": token, "version": _version(client, tid), "name": "Club night", "format": "final"}
    fields.update(rules="classic", round_end="target", season_points="10, 8")
    fields["entrants"] = "\n".join(TWELVE[:7] + TWELVE[8:] + ["Max"])
    assert client.post(f"/tournaments/{tid}/edit", data=fields).status_code == 302
    assert json.loads(kept(app, tid)[0][1]) == [[n] for n in TWELVE[:7]]
    before = kept(app, tid)
    act(client, tid, "/draw")
    page = client.get(f"/tournaments/{tid}").text
    assert flashes(page) == ["7 players: tables seat four to six. Add one more or leave one out."]
    assert kept(app, tid) == before and "7 of 12 have come" in page
    # another format: the entrants are others, so is who has come; the draw seats everyone again
    fields.update(version=_version(client, tid), format="rotation")
    assert client.post(f"/tournaments/{tid}/edit", data=fields).status_code == 302
    assert kept(app, tid)[0][1] is None and act(client, tid, "/draw").status_code == 302
    assert len(state(app, tid)[0].entrants) == 12


# --- between the draw and round 1: a no-show's seat ----------------------------------------------------


def test_a_no_shows_seat_goes_to_another_player_who_keeps_it_as_drawn(client, app, monkeypatch):
    start_game(client, names=["Zoe", "Yann", "Xia", "Wim"])  # Zoe is a player of the archive
    with app.app_context():
        zoe = records.player_named(dbmod.get_db(), "Zoe").id
    tid = made(client, TWELVE[:8])
    drawn_with(client, monkeypatch, tid, 7)
    page = client.get(f"/tournaments/{tid}").text
    assert seats(page)[:4] == [("1.1", "Gus"), ("1.2", "Hal"), ("1.3", "Cid"), ("1.4", "Eve")]
    assert page.count("Give the seat") == 8 and '<span class="visually-hidden"> Cid</span>' in page
    response = replace(client, tid, TWELVE.index("Cid"), "zoe")  # typed as it comes: the archive's Zoe
    assert response.status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert flashes(page) == ["Zoe takes the seat of Cid."]
    assert seats(page)[:4] == [("1.1", "Gus"), ("1.2", "Hal"), ("1.3", "Zoe"), ("1.4", "Eve")]
    assert log_lines(page)[0] == "Zoe took the seat of Cid"
    t, _rounds = state(app, tid)
    assert t.entrant_ids[2] == (zoe,) and t.entrants[2] == ("Zoe",) and t.order == club_night.draw(8, 7)
    _row, log = kept(app, tid)
    assert log[-1] == ("replaced", json.dumps({"gone": "Cid", "name": "Zoe", "slot": 0, "unit": 2}, sort_keys=True))
    act(client, tid, "/rounds")
    t, rounds = state(app, tid)
    with app.app_context():
        db = dbmod.get_db()
        assert records.get_game(db, rounds[0].tables[0].game_id).players == ["Gus", "Hal", "Zoe", "Eve"]
        evening = {p.name for p in records.get_evening(db, t.evening_id).players}
    assert "Zoe" in evening and "Cid" not in evening
    page = client.get(f"/tournaments/{tid}").text
    assert "Give the seat" not in page and "1.3</b> Zoe" in page  # from round 1 on: the draw as it is


def test_a_pairs_player_is_replaced_and_the_pair_keeps_its_seat(client, app, monkeypatch):
    tid = made(client, PAIRS[:4], fmt="mitchell")
    drawn_with(client, monkeypatch, tid, 7)  # draw numbers 1 … 4: Gus & Hal, Cid & Dee, Anna & Ben, Eve & Fay
    page = client.get(f"/tournaments/{tid}").text
    assert 'type="radio" name="slot" value="1"' in page and "Who has not come?" in page
    assert replace(client, tid, 1, "Max", slot=1).status_code == 302
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert seats(page) == [("1", "Gus & Hal"), ("2", "Cid & Max"), ("3", "Anna & Ben"), ("4", "Eve & Fay")]
    t, _rounds = state(app, tid)
    assert t.entrants[1] == ("Cid", "Max") and t.entrant_ids[1] == (None, None)  # both new: players at round 1
    act(client, tid, "/rounds")
    t, rounds = state(app, tid)
    with app.app_context():
        game = records.get_game(dbmod.get_db(), rounds[0].tables[1].game_id)
    assert game.players == ["Cid", "Eve", "Max", "Fay"]  # North–South at table 2 as drawn, against Eve & Fay


REPLACE_REFUSALS = {
    "no name": ("", "Give a name."),
    "a name too long": ("Z" * 41, "At most 40 characters."),
    "an invisible character": ("Zoe\u200b", "Remove the invisible characters"),
    "a control character": ("Zoe\x01", "Remove the control characters."),
    "a pair": ("Zoe & Max", "One player takes the seat: a name without “&”, “+” or “/”."),
    "a player seated": ("ben", "Ben has a seat in this tournament already."),
    "the no-show himself": ("CID", "Cid has a seat in this tournament already."),
    "a look-alike of a player seated": ("Bеn", "Ben has a seat in this tournament already."),  # a Cyrillic е
}


@pytest.mark.parametrize("case", REPLACE_REFUSALS)
def test_a_replacement_refused_says_why_beside_its_field_and_stores_nothing(client, app, case):
    name, message = REPLACE_REFUSALS[case]
    tid = made(client, TWELVE[:8])
    act(client, tid, "/draw")
    before = kept(app, tid)
    response = replace(client, tid, 2, name)
    assert response.status_code == 422
    assert message in error(response.text, "replace-2")
    typed = re.search(r'id="replace-2" name="name"[^>]*value="([^"]*)"', response.text).group(1)
    assert html.unescape(typed) == name
    focused = re.findall(r"<input[^>]*\bautofocus\b[^>]*>", response.text)  # the page opens at the field refused
    assert len(focused) == 1 and 'id="replace-2"' in focused[0], focused
    assert re.search(
        r'<details class="t-replace-one" open>\s*<summary>Replace<span class="visually-hidden"> Cid<', response.text
    )
    assert kept(app, tid) == before


def test_a_replacement_after_round_1_or_on_a_tournament_changed_meanwhile_is_refused(client, app):
    tid = made(client, TWELVE[:8])
    act(client, tid, "/draw")
    stale = _version(client, tid)
    assert replace(client, tid, 0, "Max").status_code == 302  # another phone first
    before = kept(app, tid)
    response = replace(client, tid, 1, "Moe", version=stale)
    assert response.status_code == 422 and error(response.text, "replace-1") == CHANGED
    assert 'value="Moe"' in response.text and kept(app, tid) == before
    act(client, tid, "/rounds")
    before = kept(app, tid)
    response = replace(client, tid, 1, "Moe", version=str(before[0][4]))
    assert response.status_code == 422
    assert error(response.text, "replace-1") == "Round 1 has started: a seat can no longer be given to another player."
    assert 'value="Moe"' in response.text and kept(app, tid) == before
    assert replace(client, tid, 8, "Moe", version=str(before[0][4])).status_code == 404  # no such seat


def test_before_the_draw_there_is_no_seat_to_give(client, app):
    tid = made(client, TWELVE[:8])
    before = kept(app, tid)
    assert replace(client, tid, 0, "Moe", version="0").status_code == 302
    assert flashes(client.get(f"/tournaments/{tid}").text) == ["Draw the seats first."]
    assert kept(app, tid) == before


# --- who may ------------------------------------------------------------------------------------------


def test_a_locked_phone_or_a_form_without_its_token_changes_nothing(tmp_path):
    app = make_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "l.sqlite"), "PASSWORD_HASH": quick_hash("rd")}
    )
    owner = app.test_client()
    owner.post("/login", data={"csrf_token": csrf_token(owner, "/login"), "password": "rd", "next": "/"})
    tid, drawn = made(owner, TWELVE), made(owner, TWELVE[:8])
    act(owner, drawn, "/draw")
    before = [kept(app, tid), kept(app, drawn)]
    stranger = app.test_client()
    token = csrf_token(stranger, "/login")
    for path, fields in ((f"{tid}/checkin", {"present": ["0", "1", "2", "3"]}), (f"{drawn}/replace", {"name": "Max"})):
        data = {"csrf_token": token, "version": "1", "unit": "0", "slot": "0", **fields}
        locked = stranger.post(f"/tournaments/{path}", data=data)
        assert locked.status_code == 401 and "Enter the password first" in locked.text, path
        data.pop("csrf_token")
        forged = owner.post(f"/tournaments/{path}", data=data)  # a form from elsewhere: no token
        assert forged.status_code == 400 and "did not come from this app" in forged.text, path
    assert [kept(app, tid), kept(app, drawn)] == before


def test_the_check_in_and_the_replacement_speak_the_readers_language(client):
    tid = made(client, TWELVE[:8])
    client.get(f"/prefs?lang=de&next=/tournaments/{tid}")
    page = client.get(f"/tournaments/{tid}").text
    assert "Wer ist gekommen?" in page and "Anwesende speichern" in page and "Save who has come" not in page
    response = check_in(client, tid, [])
    assert error(response.text, "present") == "Bitte ankreuzen, wer gekommen ist, oder die Nachmeldungen eintragen."
    act(client, tid, "/draw")
    response = replace(client, tid, 0, "Ben")
    assert error(response.text, "replace-0") == "Ben hat schon einen Platz in diesem Turnier."
    assert "Platz vergeben" in response.text and "Ersetzen" in response.text


# --- two phones at once, against the real server ------------------------------------------------------


@pytest.mark.slow
def test_two_replacements_of_one_seat_at_once_one_stands_the_other_is_told(tmp_path):
    from tests.helpers import served
    from tests.test_concurrency import Phone, _at_once

    app, ids = _rooms_on_a_server(tmp_path, 8, "final", lambda n: [(f"{x}{n}",) for x in TWELVE[:8]], ("draw",))
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in ids:
            phones = [Phone(base), Phone(base)]
            forms = [p.form(f"/tournaments/{tid}") for p in phones]
            version = re.search(r'name="version" value="(\d+)"', phones[0].get(f"/tournaments/{tid}")).group(1)
            names = [f"Max{tid}", f"Moe{tid}"]
            results = _at_once(
                [
                    lambda p=p, f=f, n=n: p.post(
                        f"/tournaments/{tid}/replace",
                        {"csrf_token": f["csrf_token"], "version": version, "unit": "3", "slot": "0", "name": n},
                    )
                    for p, f, n in zip(phones, forms, names)
                ]
            )
            statuses = [status for status, _, _ in results]
            assert sorted(statuses) == [302, 422], (tid, statuses)
            told = results[statuses.index(422)][2]
            assert CHANGED in html.unescape(told)
            winner = names[statuses.index(302)]
            t, _rounds = state(app, tid)
            assert t.entrants[3] == (winner,) and f"</b> {winner}</span>" in told  # the page told shows it
            assert f'value="{names[statuses.index(422)]}"' in told  # and keeps what was typed
            _row, log = kept(app, tid)
            assert [action for action, _ in log].count("replaced") == 1


@pytest.mark.slow
def test_a_check_in_saved_as_the_draw_is_tapped_never_seats_someone_not_checked_in(tmp_path):
    from tests.helpers import served
    from tests.test_concurrency import Phone, _at_once

    app, ids = _rooms_on_a_server(tmp_path, 10, "final", lambda n: [(f"{x}{n}",) for x in TWELVE])
    outcomes = set()
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for n, tid in enumerate(ids):
            desk, door = Phone(base), Phone(base)
            page = door.get(f"/tournaments/{tid}")
            token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
            version = re.search(r'name="version" value="(\d+)"', page).group(1)
            draw = {"csrf_token": desk.form(f"/tournaments/{tid}")["csrf_token"]}
            came = [("csrf_token", token), ("version", version)] + [("present", str(i)) for i in range(8)]
            results = _at_once(
                [
                    lambda: desk.post(f"/tournaments/{tid}/draw", draw),
                    lambda: door.post(f"/tournaments/{tid}/checkin", came),  # "present" several times
                ]
            )
            assert [status for status, _, _ in results] == [302, 302]
            t, _rounds = state(app, tid)
            row, log = kept(app, tid)
            actions = [action for action, _ in log]
            if actions == ["created", "changed", "draw"]:  # the check-in first: the draw seats the 8
                assert [e[0] for e in t.entrants] == [f"{x}{n}" for x in TWELVE[:8]] and len(t.order) == 8
                outcomes.add("checked in, then drawn")
            else:  # the draw first: everyone seated, the check-in refused
                assert actions == ["created", "draw"] and row[1] is None and len(t.entrants) == 12
                told = door.get(f"/tournaments/{tid}")
                assert "The seats are drawn already: who has come can no longer change." in told
                outcomes.add("drawn, check-in refused")
    print(f"\noutcomes seen: {sorted(outcomes)}")
