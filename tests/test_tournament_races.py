"""A club night's hands at the end of a round, against the real server (waitress with threads, real HTTP,
each phone with its own cookies and form token), as tests/test_service_races.py does for the other
services (docs/tournaments.md, "When a round ends", "The director's grid"):

- two phones at one table saving the round's last hand at the same moment store one hand: the other is
  told that another phone saved the round's last hand, with its figures still on its form;
- the organiser entering a table's missing hand from its paper score card while the next round is
  started (another tab, another phone) either stores the hand in its round, which then counts it, or
  refuses it because the round is over for good: never a hand stored in a round already past and left
  out of its result;
- a table's Undo of the hand it finished after the clock racing that hand entered again stores one of
  them: never two hands after the clock."""

from __future__ import annotations

import html
import urllib.error

import pytest

from scorekeeper.services import tournament_state, tournaments
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, tournament_records
from tests.conftest import make_app
from tests.helpers import as_the_form_posts, served, side_fields
from tests.test_concurrency import Phone, _at_once

pytestmark = pytest.mark.slow  # real-server races: left out of the quick loop, run by CI

TRIALS = 6
PAIRS = [("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal")]


def _hand_fields(token: str, based_on: str, melded: tuple[int, int]) -> dict[str, str]:
    """A hand the stock ended: each side's melded points (above the opening minimum: docs/rules.md#classic ›
    Opening minimum)."""
    data = {"csrf_token": token, "based_on": based_on}
    data.update(side_fields(0, melded=melded[0]))
    data.update(side_fields(1, melded=melded[1]))
    return as_the_form_posts(data, {})


def _nights(tmp_path, round_end_after_hands: int):
    """An app with TRIALS Mitchell nights of four pairs at two tables, rounds of ``round_end_after_hands``
    hands, round 1 started: the app and the tournaments' ids."""
    app = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "race.sqlite")})
    made = []
    with app.app_context():
        db = dbmod.get_db()
        for n in range(TRIALS):
            entrants = [(f"{a}{n}", f"{b}{n}") for a, b in PAIRS]
            tid = tournaments.create(
                db,
                name=f"T{n}",
                fmt="mitchell",
                variant="classic",
                layout="4",
                entrants=entrants,
                round_end="hands",
                round_hands=round_end_after_hands,
            ).id
            tournaments.draw(db, tid)
            tournaments.start_round(db, tid)
            made.append(tid)
    return app, made


def _opened_from_the_grid(organiser: Phone, tid: int, game: int) -> None:
    """The organiser opens a table's game from the director's grid (its answer: a redirect to the game)."""
    try:
        organiser.get(f"/tournaments/{tid}/grid/games/{game}")
    except urllib.error.HTTPError as redirect:
        assert redirect.code == 302 and redirect.headers["Location"].endswith(f"/games/{game}")
    else:
        raise AssertionError("the grid's link to a game redirects to it")


def _round(app, tid: int, number: int):
    with app.app_context():
        db = dbmod.get_db()
        t = tournament_records.get(db, tid)
        return t, tournament_state.rounds(db, t)[number - 1]


def test_two_phones_saving_the_rounds_last_hand_at_once_store_one(tmp_path):
    """Rounds of one hand: both phones of table 1 opened hand 1 and save it at once, 350 : 130 and
    300 : 130. One is stored; the other answers 409 naming the hand another phone saved, its figures kept."""
    app, made = _nights(tmp_path, 1)
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in made:
            _t, first = _round(app, tid, 1)
            game = first.tables[0].game_id
            phones = [Phone(base), Phone(base)]
            forms = [p.form(f"/games/{game}/hands/new") for p in phones]
            assert [f["based_on"] for f in forms] == ["0", "0"]
            melded = [(350, 130), (300, 130)]
            results = _at_once(
                [
                    (lambda p=p, f=f, m=m: p.post(f"/games/{game}/hands/new", _hand_fields(f["csrf_token"], "0", m)))
                    for p, f, m in zip(phones, forms, melded)
                ]
            )
            statuses = sorted(status for status, _, _ in results)
            assert statuses == [302, 409], (tid, statuses)
            with app.app_context():
                hands = records.hands(dbmod.get_db(), game)
            assert len(hands) == 1, tid
            kept = next(i for i, (status, _, _) in enumerate(results) if status == 302)
            refused_body = html.unescape(results[1 - kept][2])
            assert "Meanwhile another phone saved hand 1, the last of the round at this table" in refused_body, tid
            assert f'value="{melded[1 - kept][0]}"' in refused_body, tid  # what that phone typed is still there
            assert hands[0].sides[0]["melded_points"] == melded[kept][0], tid


def test_the_organisers_score_card_racing_the_next_round_is_counted_in_its_round_or_refused(tmp_path):
    """Rounds of one hand; table 1 played its hand, table 2's phone entered nothing and the organiser has
    ended round 1. From the director's grid the organiser enters table 2's hand from its score card
    (150 : 130) while another tab starts round 2. Either the hand is stored before round 2 starts, and
    round 1's table 2 counts it (one hand, 150 : 130, over), or it is refused as the round is over for
    good, and table 2 stays without a hand. Round 2 starts either way."""
    app, made = _nights(tmp_path, 1)
    outcomes = []
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in made:
            _t, first = _round(app, tid, 1)
            played, silent = (table.game_id for table in first.tables)
            table_phone, organiser, other_tab = Phone(base), Phone(base), Phone(base)
            token = table_phone.form(f"/games/{played}/hands/new")["csrf_token"]
            assert table_phone.post(f"/games/{played}/hands/new", _hand_fields(token, "0", (150, 130)))[0] == 302
            token = organiser.form(f"/tournaments/{tid}")["csrf_token"]
            assert organiser.post(f"/tournaments/{tid}/rounds/1/end", {"csrf_token": token, "sure": "y"})[0] == 302
            _opened_from_the_grid(organiser, tid, silent)
            card = organiser.form(f"/games/{silent}/hands/new")
            start = other_tab.form(f"/tournaments/{tid}")["csrf_token"]
            fields = {**_hand_fields(card["csrf_token"], "0", (150, 130)), "by": "organiser"}
            hand, started = _at_once(
                [
                    lambda: organiser.post(f"/games/{silent}/hands/new", fields),
                    lambda: other_tab.post(f"/tournaments/{tid}/rounds", {"csrf_token": start, "sure": "y"}),
                ]
            )
            assert started[0] == 302, (tid, started[0])
            t, first_after = _round(app, tid, 1)
            assert len(_round(app, tid, 2)[1].tables) == 2, tid  # round 2 started
            table = first_after.tables[1]
            with app.app_context():
                stored = records.hands(dbmod.get_db(), silent)
            if hand[0] == 302:
                assert len(stored) == 1 and len(table.hands) == 1, tid
                assert list(table.totals) == [150, 130] and table.done, tid
                outcomes.append("stored")
            else:
                assert hand[0] == 409, (tid, hand[0])
                assert "The round is over at this table" in html.unescape(hand[2]), tid
                assert stored == [] and len(table.hands) == 0, tid
                outcomes.append("refused")
    print("organiser's card against the next round:", outcomes)


def test_undo_of_the_hand_after_the_clock_racing_its_entry_again_counts_one(tmp_path):
    """docs/tournaments.md, "When a round ends": time is up; table 1 saved its hand in progress, then
    deleted it. One phone enters that hand again while another taps Undo. The restore decides inside its
    own write whether it would be a second hand after the clock, as the save decides whether the round is
    over: whichever comes first is stored, the other refused; never two hands after the clock."""
    app, made = _nights(tmp_path, 1)
    late = "2000-01-01T00:00:00+00:00"  # the round started long ago: its 50 minutes are up
    with app.app_context():
        db = dbmod.get_db()
        with db.conn:
            db.execute("update tournaments set round_end = 'minutes', round_minutes = 50, round_hands = null")
            db.execute("update tournament_rounds set started_at = ?", [late])
    outcomes = set()
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid in made:
            _t, first = _round(app, tid, 1)
            game = first.tables[0].game_id
            entering, undoing = Phone(base), Phone(base)
            token = entering.form(f"/games/{game}/hands/new")["csrf_token"]
            assert entering.post(f"/games/{game}/hands/new", _hand_fields(token, "0", (150, 130)))[0] == 302
            with app.app_context():
                hand = records.hands(dbmod.get_db(), game)[0].id
            undo = undoing.form(f"/games/{game}")["csrf_token"]
            assert undoing.post(f"/games/{game}/hands/{hand}/delete", {"csrf_token": undo})[0] == 302
            again = entering.form(f"/games/{game}/hands/new")
            saved, restored = _at_once(
                [
                    lambda: entering.post(
                        f"/games/{game}/hands/new", _hand_fields(again["csrf_token"], again["based_on"], (300, 130))
                    ),
                    lambda: undoing.post(f"/games/{game}/hands/{hand}/restore", {"csrf_token": undo}),
                ]
            )
            assert restored[0] == 302, tid  # refused or not, Undo answers with the scoreboard and its message
            with app.app_context():
                stored = records.hands(dbmod.get_db(), game)
            assert len(stored) == 1, (tid, [h.id for h in stored])
            if saved[0] == 302:
                assert stored[0].id != hand and stored[0].sides[0]["melded_points"] == 300, tid
                outcomes.add("entered again, Undo refused")
            else:
                assert saved[0] == 409 and stored[0].id == hand, (tid, saved[0])
                outcomes.add("brought back, the entry refused")
    assert outcomes  # which came first is the server's to decide; each outcome counts one hand
