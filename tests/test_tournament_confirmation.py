"""The other side confirms each hand (issue 26, item 8; docs/tournaments.md): a tournament's choice, off by
default. With it on, a hand saved at a table is "not confirmed yet" on its sheet, on the big screen and in the
director's grid until a side taps "Confirmed by …" on the table's phone (every side has its button: the app
cannot know which side typed the hand) or the organiser confirms it; before that a correction replaces the
entering side's draft (the change log says "entered again", not "corrected"), after it a correction is on
record. The organiser's page lists the hands still waiting, a round's end and start say how many, the close
waits for them. The form posts the version it showed: a hand changed since is refused, "check it again"."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from scorekeeper.core import sheet
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, tournament_records
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, quick_hash, side_fields
from tests.test_tournaments import act, create, small_hand, started, table_game


def other_hand():
    """Side 0 scores 200, side 1 110: the stock ran out (melded points only, above any opening minimum)."""
    return side_fields(0, melded=200), side_fields(1, melded=110)


def on(client, **fields) -> int:
    """A tournament that asks the other side to confirm each hand, round 1 started; its id."""
    return started(client, confirm_hands="y", **fields)


def hand_row(app, game_id, number=1):
    """A game's hand (1 for its first) as stored: its id, version and who confirmed it when."""
    with app.app_context():
        db = dbmod.get_db()
        hand = records.hands(db, game_id)[number - 1]
        return hand


def side_names(app, game_id) -> list[str]:
    with app.app_context():
        game = records.get_game(dbmod.get_db(), game_id)
        return sheet.side_names(game, sheet.rules_for(game))


def actions(app, game_id) -> list[str]:
    with app.app_context():
        return [c.action for c in records.changes(dbmod.get_db(), game_id)]


def confirm(client, game_id, hand, side, version=None):
    """A side taps "Confirmed by …" on the sheet (the form posts the version it showed)."""
    data = {
        "csrf_token": csrf_token(client, f"/games/{game_id}"),
        "version": str(hand.version if version is None else version),
        "side": str(side),
    }
    return client.post(f"/games/{game_id}/hands/{hand.id}/confirm", data=data)


def said(page: str) -> list[str]:
    """The messages at the top of a page, as read (tags left out)."""
    found = re.findall(r'<div class="flash" role="status">(.*?)</div>', page, re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", " ", m).split())) for m in found]


def flashed(client, url) -> list[str]:
    return said(client.get(url).text)


def box(page: str) -> str:
    """The confirmation box(es) at the top of the sheet ("" when there is none)."""
    found = re.findall(r'<section class="confirm-hand".*?</section>', page, re.S)
    return html.unescape("".join(found))


# --- the choice --------------------------------------------------------------------------------------


def test_the_choice_is_off_by_default_and_kept_by_the_form(client, app):
    form = client.get("/tournaments/new").text
    assert 'name="confirm_hands"' in form and 'name="confirm_hands" value="y" checked' not in form
    tid = int(create(client, confirm_hands="y").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert tournament_records.get(dbmod.get_db(), tid).confirm_hands is True
    edit = client.get(f"/tournaments/{tid}/edit").text
    assert 'name="confirm_hands" value="y" checked' in edit
    data = {
        "csrf_token": csrf_token(client, f"/tournaments/{tid}/edit"),
        "version": "0",
        "name": "Club night",
        "format": "final",
        "rules": "classic",
        "round_end": "target",
        "entrants": edit.split('id="entrants"')[1].split(">", 1)[1].split("</textarea>")[0],
        "season_points": "10, 8, 6, 5, 4, 3, 2, 1",
    }
    assert client.post(f"/tournaments/{tid}/edit", data=data).status_code == 302  # the box left unticked
    with app.app_context():
        assert tournament_records.get(dbmod.get_db(), tid).confirm_hands is False
    other = int(create(client, name="Second night").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert tournament_records.get(dbmod.get_db(), other).confirm_hands is False


def test_with_the_choice_off_nothing_changes(client, app):
    tid = started(client)
    game = table_game(client, tid, 1)
    assert post_hand(client, game, *small_hand()).status_code == 302
    page = client.get(f"/games/{game}").text
    assert 'class="confirm-hand"' not in page and "not confirmed yet" not in page and "Confirmed by" not in page
    hand = hand_row(app, game)
    assert hand.confirmed_at is None
    assert post_hand(client, game, *other_hand(), url=f"/games/{game}/hands/{hand.id}/edit").status_code == 302
    assert actions(app, game)[-1] == "hand corrected"  # an ordinary correction, as before
    assert "corrected 1×" in client.get(f"/games/{game}").text
    assert "not confirmed" not in client.get(f"/tournaments/{tid}/standings").text
    assert "not confirmed" not in client.get(f"/tournaments/{tid}/grid").text
    answer = client.get(f"/api/tournaments/{tid}").get_json()
    assert answer["confirm_hands"] is False and answer["played"][0]["tables"][0]["unconfirmed"] == []
    # a confirmation posted anyway (a page kept from elsewhere) is refused with the reason, and stores nothing
    assert confirm(client, game, hand_row(app, game), 1).status_code == 302
    assert "This tournament does not ask the other side to confirm its hands." in flashed(client, f"/games/{game}")
    assert hand_row(app, game).confirmed_at is None
    assert act(client, tid, "/rounds/1/end").status_code == 302
    assert "hands are not confirmed" not in client.get(f"/tournaments/{tid}").text
    act(client, tid, "/close")
    assert "The tournament is closed" in client.get(f"/tournaments/{tid}").text


# --- at the table ------------------------------------------------------------------------------------


def test_a_saved_hand_waits_for_a_side_to_confirm_it(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    names = side_names(app, game)
    assert post_hand(client, game, *small_hand()).status_code == 302
    page = client.get(f"/games/{game}").text
    shown = box(page)
    assert "Hand 1: the other side checks it" in shown and "+150" in shown and "+130" in shown
    assert all(f"Confirmed by {name}" in shown for name in names)  # every side's button
    assert shown.count('name="side"') == 2 and 'name="version" value="0"' in shown
    assert page.index('class="confirm-hand"') < page.index('class="totals')  # at the top, above the totals
    assert "not confirmed yet" in page
    assert "not confirmed: hand 1" in client.get(f"/tournaments/{tid}/standings").text
    assert "not confirmed: hand 1" in client.get(f"/tournaments/{tid}/grid").text
    assert client.get(f"/api/tournaments/{tid}").get_json()["played"][0]["tables"][0]["unconfirmed"] == [1]
    assert client.get(f"/api/games/{game}").get_json()["hands"][0]["confirmed_by"] is None

    assert confirm(client, game, hand_row(app, game), 1).status_code == 302
    assert f"Hand 1 confirmed by {names[1]}." in flashed(client, f"/games/{game}")
    hand = hand_row(app, game)
    assert hand.confirmed_by == "side 2" and hand.confirmed_at is not None and hand.version == 0
    page = client.get(f"/games/{game}").text
    assert 'class="confirm-hand"' not in page and "not confirmed yet" not in page
    assert f"confirmed by {names[1]}" in html.unescape(page)  # in the hand's line
    assert "not confirmed" not in client.get(f"/tournaments/{tid}/standings").text
    assert "not confirmed" not in client.get(f"/tournaments/{tid}/grid").text
    assert client.get(f"/api/tournaments/{tid}").get_json()["played"][0]["tables"][0]["unconfirmed"] == []
    assert client.get(f"/api/games/{game}").get_json()["hands"][0]["confirmed_by"] == "side 2"
    assert actions(app, game)[-2:] == ["hand added", "hand confirmed"]
    with app.app_context():
        logged = records.changes(dbmod.get_db(), game)[-1]
    assert logged.after == {"by": "side 2", "names": names[1], "version": 0} and logged.hand_id == hand.id
    assert f"confirmed by {names[1]}" in html.unescape(client.get(f"/games/{game}/changes").text)


def test_a_second_tap_is_told_the_hand_was_confirmed_already(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    names = side_names(app, game)
    post_hand(client, game, *small_hand())
    first = hand_row(app, game)
    assert confirm(client, game, first, 0).status_code == 302
    client.get(f"/games/{game}")  # the first tap's message shown
    assert confirm(client, game, first, 1).status_code == 302  # the other side, from a page shown before
    assert f"Hand 1 was confirmed already, by {names[0]}." in flashed(client, f"/games/{game}")
    assert hand_row(app, game).confirmed_by == "side 1"
    assert actions(app, game).count("hand confirmed") == 1


def test_a_correction_before_the_confirmation_is_not_on_record_and_after_it_is(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    shown = hand_row(app, game)  # the figures the other side is looking at
    edit = client.get(f"/games/{game}/hands/{shown.id}/edit").text
    assert "Not confirmed yet: saving replaces the figures entered (no correction on record)" in edit
    url = f"/games/{game}/hands/{shown.id}/edit"
    assert post_hand(client, game, *other_hand(), url=url).status_code == 302  # the entering side's mistake
    page = client.get(f"/games/{game}").text
    assert said(page)[0].startswith("Hand entered again; the other side confirms it next. Hand 1:")
    assert 'class="corrected' not in page and "not confirmed yet" in page and "+200" in box(page)
    assert actions(app, game) == ["game created", "hand added", "hand entered again"]
    history = client.get(f"/games/{game}/hands/{shown.id}/history").text
    assert "entered again before it was confirmed" in history and "Version 2" in history  # nothing is lost

    # the confirmation of the figures shown before is refused: they changed meanwhile
    assert confirm(client, game, shown, 1).status_code == 302
    assert "Hand 1 changed meanwhile: check it again, then confirm it." in flashed(client, f"/games/{game}")
    assert hand_row(app, game).confirmed_at is None
    now = hand_row(app, game)
    assert now.version == 1 and confirm(client, game, now, 1).status_code == 302
    assert hand_row(app, game).confirmed_by == "side 2"

    edit = html.unescape(client.get(url).text)
    assert "a correction now is on record in the game's changes" in edit
    assert post_hand(client, game, *small_hand(), url=url).status_code == 302
    assert actions(app, game)[-1] == "hand corrected"
    page = client.get(f"/games/{game}").text
    assert "corrected 1×" in page and "not confirmed yet" not in page  # confirmed still, the correction on record
    assert hand_row(app, game).confirmed_by == "side 2"


def test_a_correction_of_one_hand_leaves_the_others_as_they_are(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    post_hand(client, game, *other_hand())
    first, second = hand_row(app, game, 1), hand_row(app, game, 2)
    confirm(client, game, first, 0)
    page = client.get(f"/games/{game}").text
    assert 'id="confirm-2"' in page and 'id="confirm-1"' not in page
    assert "not confirmed: hand 2" in client.get(f"/tournaments/{tid}/grid").text
    post_hand(client, game, *small_hand(), url=f"/games/{game}/hands/{second.id}/edit")
    assert hand_row(app, game, 1).confirmed_by == "side 1" and hand_row(app, game, 2).confirmed_at is None


def test_a_hand_the_organiser_enters_from_the_grid_is_confirmed_by_the_organiser(client, app):
    tid = on(client)
    game = table_game(client, tid, 2)
    assert client.get(f"/tournaments/{tid}/grid/games/{game}").status_code == 302  # the phone opens it from the grid
    assert post_hand(client, game, *small_hand(), extra={"by": "organiser"}).status_code == 302
    hand = hand_row(app, game)
    assert hand.confirmed_by == "organiser" and hand.confirmed_at is not None
    assert 'class="confirm-hand"' not in client.get(f"/games/{game}").text
    assert "confirmed by the organiser" in client.get(f"/games/{game}").text
    assert actions(app, game)[-2:] == ["hand added", "hand confirmed"]


def test_forged_confirmations_are_refused(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    hand = hand_row(app, game)
    token = csrf_token(client, f"/games/{game}")
    url = f"/games/{game}/hands/{hand.id}/confirm"
    assert client.post(url, data={"csrf_token": token, "version": "0", "side": "2"}).status_code == 404  # no side 3
    assert client.post(url, data={"csrf_token": token, "side": "0"}).status_code == 400  # no version
    assert client.post(url, data={"csrf_token": token, "version": "x", "side": "0"}).status_code == 400
    assert (
        client.post(
            f"/games/{game}/hands/99999/confirm", data={"csrf_token": token, "version": "0", "side": "0"}
        ).status_code
        == 404
    )
    assert hand_row(app, game).confirmed_at is None


def test_a_locked_phone_and_a_post_without_its_form_token_confirm_nothing(tmp_path):
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "locked.sqlite"),
            "PASSWORD_HASH": quick_hash("karo sieben"),
        }
    )
    owner = app.test_client()
    token = csrf_token(owner, "/login")
    assert owner.post("/login", data={"csrf_token": token, "password": "karo sieben"}).status_code == 302
    tid = on(owner)
    game = table_game(owner, tid, 1)
    post_hand(owner, game, *small_hand())
    hand = hand_row(app, game)
    stranger = app.test_client()
    stranger_token = csrf_token(stranger, "/login")
    data = {"csrf_token": stranger_token, "version": "0", "side": "0"}
    response = stranger.post(f"/games/{game}/hands/{hand.id}/confirm", data=data)
    assert response.status_code == 401 and "Enter the password first" in response.text
    organiser = {"csrf_token": stranger_token, "version": "0"}
    response = stranger.post(f"/tournaments/{tid}/games/{game}/hands/{hand.id}/confirm", data=organiser)
    assert response.status_code == 401
    response = stranger.post(
        f"/tournaments/{tid}/confirm-all", data={"csrf_token": stranger_token, "hand": f"{hand.id}:0"}
    )
    assert response.status_code == 401
    # the owner's phone without the form's token
    assert owner.post(f"/games/{game}/hands/{hand.id}/confirm", data={"version": "0", "side": "0"}).status_code == 400
    response = owner.post(f"/tournaments/{tid}/confirm-all", data={"hand": f"{hand.id}:0"})
    assert response.status_code == 400
    assert hand_row(app, game).confirmed_at is None and "hand confirmed" not in actions(app, game)


# --- the organiser -----------------------------------------------------------------------------------


def test_the_round_end_and_the_close_list_the_hands_waiting_and_the_organiser_confirms_them(client, app):
    tid = on(client)
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, one, *small_hand())
    post_hand(client, two, *other_hand())
    confirm(client, one, hand_row(app, one), 0)
    post_hand(client, one, *other_hand())  # table 1's second hand waits; table 2's first too
    response = act(client, tid, "/rounds/1/end")
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).text
    told = said(page)
    assert "Round 1 is over at every table." in told
    assert "2 hands are not confirmed yet: see the list on this page." in told
    listed = html.unescape(re.search(r'<section class="t-unconfirmed.*?</section>', page, re.S).group(0))
    assert "2 hands not confirmed yet" in listed
    assert "Round 1, table 1, hand 2" in listed and "Round 1, table 2, hand 1" in listed
    assert f'href="/games/{one}#hand-2"' in listed and f'href="/games/{two}#hand-1"' in listed
    assert "+200" in listed and "+110" in listed and "Confirm all 2 as the organiser" in listed

    # the close waits for them
    response = act(client, tid, "/close")
    assert "Hands not confirmed yet: 2. Confirm them (listed on this page), then close the tournament." in flashed(
        client, f"/tournaments/{tid}"
    )
    with app.app_context():
        assert tournament_records.get(dbmod.get_db(), tid).closed_at is None

    # the organiser confirms one, then the rest
    waiting = hand_row(app, two)
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "version": str(waiting.version)}
    response = client.post(f"/tournaments/{tid}/games/{two}/hands/{waiting.id}/confirm", data=data)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/tournaments/{tid}#unconfirmed")
    page = client.get(f"/tournaments/{tid}").text
    assert "Round 1, table 2: hand 1 confirmed by the organiser." in said(page)
    assert hand_row(app, two).confirmed_by == "organiser"
    assert "1 hand not confirmed yet" in page and "Confirm all" not in page
    last = hand_row(app, one, 2)
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "hand": f"{last.id}:{last.version}"}
    assert client.post(f"/tournaments/{tid}/confirm-all", data=data).status_code == 302
    page = client.get(f"/tournaments/{tid}").text
    assert "1 hand confirmed by the organiser." in said(page)
    assert 'class="t-unconfirmed' not in page
    with app.app_context():
        logged = records.changes(dbmod.get_db(), one)[-1]
    assert logged.action == "hand confirmed" and logged.after["by"] == "organiser"
    assert "confirmed by the organiser" in client.get(f"/games/{one}/changes").text
    act(client, tid, "/close")
    with app.app_context():
        assert tournament_records.get(dbmod.get_db(), tid).closed_at is not None


def test_starting_the_next_round_says_how_many_wait_and_they_can_still_be_confirmed(client, app):
    tid = on(client)  # tables with a final: round 2 is the final table
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, one, *small_hand())
    post_hand(client, two, *other_hand())
    act(client, tid, "/rounds/1/end")
    client.get(f"/tournaments/{tid}")
    response = act(client, tid, "/rounds")
    told = flashed(client, response.headers["Location"])
    assert "Round 2 has started." in told and "2 hands are not confirmed yet: see the list on this page." in told
    # the first round's results stand now; confirming one changes no figure, so it is still taken
    assert confirm(client, one, hand_row(app, one), 1).status_code == 302
    assert hand_row(app, one).confirmed_by == "side 2"
    assert "1 hand not confirmed yet" in client.get(f"/tournaments/{tid}").text


def test_confirm_all_confirms_nothing_when_a_hand_listed_changed_meanwhile(client, app):
    tid = on(client)
    one, two = table_game(client, tid, 1), table_game(client, tid, 2)
    post_hand(client, one, *small_hand())
    post_hand(client, two, *small_hand())
    page = client.get(f"/tournaments/{tid}").text
    shown = re.findall(r'name="hand" value="(\d+:\d+)"', page)
    assert len(shown) == 2
    changed = hand_row(app, two)
    post_hand(client, two, *other_hand(), url=f"/games/{two}/hands/{changed.id}/edit")  # table 2 corrects it
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "hand": shown}
    assert client.post(f"/tournaments/{tid}/confirm-all", data=data).status_code == 302
    told = flashed(client, f"/tournaments/{tid}")
    assert "Changed meanwhile: round 1, table 2, hand 1. Check them again, then confirm; nothing was confirmed." in told
    assert hand_row(app, one).confirmed_at is None and hand_row(app, two).confirmed_at is None
    # a hand saved after the page was shown is not confirmed with the others: the organiser has not seen it
    shown = re.findall(r'name="hand" value="(\d+:\d+)"', client.get(f"/tournaments/{tid}").text)
    post_hand(client, one, *other_hand())
    data = {"csrf_token": csrf_token(client, f"/tournaments/{tid}"), "hand": shown}
    client.post(f"/tournaments/{tid}/confirm-all", data=data)
    assert "2 hands confirmed by the organiser." in flashed(client, f"/tournaments/{tid}")
    assert hand_row(app, one, 1).confirmed_by == "organiser" and hand_row(app, two).confirmed_by == "organiser"
    assert hand_row(app, one, 2).confirmed_at is None
    assert "1 hand not confirmed yet" in client.get(f"/tournaments/{tid}").text


def test_the_organisers_confirmation_of_another_tournaments_hand_is_a_404(client, app):
    first = on(client)
    second = on(client, name="Second night")
    game = table_game(client, first, 1)
    post_hand(client, game, *small_hand())
    hand = hand_row(app, game)
    data = {"csrf_token": csrf_token(client, f"/tournaments/{second}"), "version": "0"}
    assert client.post(f"/tournaments/{second}/games/{game}/hands/{hand.id}/confirm", data=data).status_code == 404
    assert hand_row(app, game).confirmed_at is None


# --- the archive -------------------------------------------------------------------------------------


def _import(app, data):
    client = app.test_client()
    return client.post(
        "/import",
        data={
            "csrf_token": csrf_token(client, "/export"),
            "file": (io.BytesIO(json.dumps(data).encode()), "archive.json"),
        },
        content_type="multipart/form-data",
    )


def test_the_choice_and_the_confirmations_travel_with_the_export(client, app, tmp_path):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    post_hand(client, game, *other_hand())
    confirm(client, game, hand_row(app, game), 0)
    data = json.loads(client.get("/export.json").data)
    [t] = data["tournaments"]
    assert t["confirm_hands"] is True
    [exported] = [g for g in data["games"] if g["id"] == game]
    assert [h["confirmed_by"] for h in exported["hands"]] == ["side 1", None]
    assert exported["hands"][0]["confirmed_at"] and exported["hands"][1]["confirmed_at"] is None

    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    assert _import(fresh, data).status_code == 302
    again = json.loads(fresh.test_client().get("/export.json").data)
    assert again["tournaments"] == data["tournaments"] and again["games"] == data["games"]
    with fresh.app_context():
        t = tournament_records.get(dbmod.get_db(), tid)
        assert [u.number for u in tournament_records.unconfirmed(dbmod.get_db(), t)] == [2]

    # an export from before the choice: off, every hand as it was
    older = json.loads(json.dumps(data))
    del older["tournaments"][0]["confirm_hands"]
    for g in older["games"]:
        for h in g["hands"]:
            del h["confirmed_at"], h["confirmed_by"]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "older.sqlite")})
    assert _import(fresh, older).status_code == 302
    with fresh.app_context():
        assert tournament_records.get(dbmod.get_db(), tid).confirm_hands is False


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t, h: t.update(confirm_hands="yes"), "tournaments[0].confirm_hands is not true or false"),
        (lambda t, h: h.update(confirmed_by="side 3"), "confirmed_by is not a side of its game or the organiser"),
        (lambda t, h: h.update(confirmed_by="Anna"), "confirmed_by is not a side of its game or the organiser"),
        (lambda t, h: h.update(confirmed_at=None), "confirmed_at and confirmed_by are not given together"),
        (lambda t, h: h.update(confirmed_at="yesterday"), "confirmed_at is not a time"),
    ],
)
def test_an_export_with_confirmations_that_do_not_fit_is_refused(client, app, tmp_path, change, message):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    confirm(client, game, hand_row(app, game), 0)
    data = json.loads(client.get("/export.json").data)
    [exported] = [g for g in data["games"] if g["id"] == game]
    change(data["tournaments"][0], exported["hands"][0])
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "doctored.sqlite")})
    response = _import(fresh, data)
    assert response.status_code == 422 and message in html.unescape(response.text)


def test_the_box_speaks_the_readers_language(client, app):
    tid = on(client)
    game = table_game(client, tid, 1)
    post_hand(client, game, *small_hand())
    for language, words in (("de", "Bestätigt von"), ("it", "Confermata da"), ("et", "Kinnitanud")):
        client.get(f"/prefs?lang={language}&next=/")
        shown = box(client.get(f"/games/{game}").text)
        assert words in shown and "Confirmed by" not in shown, language
