"""The other side's confirmation against the real server (waitress with threads, real HTTP, each phone with
its own cookies and form token), as tests/test_service_races.py does for the other services: two taps on
"Confirmed" at once confirm the hand once (the other is told it was confirmed already, no error); a
confirmation racing a correction either confirms the hand before the correction (which is then on record) or
is refused because the hand changed (the correction being the entering side's draft): never a confirmation of
figures nobody saw; the organiser's "confirm all" racing a table's confirmation confirms each hand once."""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.services import games, tournament_state, tournaments
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records, tournament_records
from tests.conftest import make_app
from tests.helpers import as_the_form_posts, served, side_fields
from tests.test_concurrency import Phone, _at_once

pytestmark = pytest.mark.slow  # real-server races: left out of the quick loop, run by CI

EIGHT = "ABCDEFGH"
TRIALS = 8


@pytest.fixture
def nights(tmp_path):
    """An app with TRIALS tournaments that ask the other side to confirm each hand, round 1 started and a
    hand saved at each of their two tables: the app and, per tournament, (its id, [(game, hand) per table])."""
    app = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "race.sqlite")})
    made = []
    with app.app_context():
        db = dbmod.get_db()
        for n in range(TRIALS):
            entrants = [(f"{c}{n}",) for c in EIGHT]
            tid = tournaments.create(
                db, name=f"T{n}", fmt="final", variant="classic", layout="4", entrants=entrants, confirm_hands=True
            ).id
            tournaments.draw(db, tid)
            tournaments.start_round(db, tid)
            t = tournament_records.get(db, tid)
            tables = []
            for table in tournament_state.rounds(db, t)[0].tables:
                saved = games.add_hand(db, table.game_id, [{"melded_points": 150}, {"melded_points": 130}], True)
                tables.append((table.game_id, saved.id))
            made.append((tid, tables))
    return app, made


def _said(page: str) -> list[str]:
    found = re.findall(r'<div class="flash" role="status">(.*?)</div>', page, re.S)
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", " ", m).split())) for m in found]


def _hand(app, game, hand_id):
    with app.app_context():
        db = dbmod.get_db()
        return records.get_hand(db, game, hand_id), [(c.action, c.after) for c in records.changes(db, game)]


def test_two_taps_on_confirmed_at_once_confirm_the_hand_once(nights):
    app, made = nights
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid, [(game, hand_id), _other] in made:
            phones = [Phone(base), Phone(base)]
            tokens = [p.form(f"/games/{game}")["csrf_token"] for p in phones]
            results = _at_once(
                [
                    (
                        lambda p=p, t=t, side=side: p.post(
                            f"/games/{game}/hands/{hand_id}/confirm", {"csrf_token": t, "version": "0", "side": side}
                        )
                    )
                    for p, t, side in zip(phones, tokens, ("0", "1"))
                ]
            )
            assert [status for status, _, _ in results] == [302, 302], tid  # neither is an error
            hand, log = _hand(app, game, hand_id)
            assert [a for a, _ in log].count("hand confirmed") == 1, tid
            said = [m for p in phones for m in _said(p.get(f"/games/{game}"))]
            [confirmed] = [after for action, after in log if action == "hand confirmed"]
            assert hand.confirmed_by in ("side 1", "side 2") and confirmed["by"] == hand.confirmed_by, tid
            who = confirmed["names"]
            assert said.count(f"Hand 1 confirmed by {who}.") == 1, (tid, said)
            assert said.count(f"Hand 1 was confirmed already, by {who}.") == 1, (tid, said)


def test_a_confirmation_racing_a_correction_never_confirms_figures_nobody_saw(nights):
    app, made = nights
    outcomes = set()
    correction = as_the_form_posts({**side_fields(0, melded=200), **side_fields(1, melded=110)}, {})
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid, [(game, hand_id), _other] in made:
            entering, other_side = Phone(base), Phone(base)
            edit = entering.form(f"/games/{game}/hands/{hand_id}/edit")  # based on version 0
            token = other_side.form(f"/games/{game}")["csrf_token"]  # the box shows version 0
            results = _at_once(
                [
                    lambda: entering.post(f"/games/{game}/hands/{hand_id}/edit", {**edit, **correction}),
                    lambda: other_side.post(
                        f"/games/{game}/hands/{hand_id}/confirm", {"csrf_token": token, "version": "0", "side": "1"}
                    ),
                ]
            )
            assert [status for status, _, _ in results] == [302, 302], tid
            hand, log = _hand(app, game, hand_id)
            actions = [a for a, _ in log]
            told = _said(other_side.get(f"/games/{game}"))
            assert hand.version == 1 and hand.sides[0]["melded_points"] == 200, tid  # the correction is stored
            if hand.confirmed_at is not None:  # confirmed first, at the figures shown: the correction is on record
                assert actions[-2:] == ["hand confirmed", "hand corrected"], (tid, actions)
                assert log[-2][1]["version"] == 0 and hand.confirmed_by == "side 2", tid
                outcomes.add("confirmed, then corrected on record")
            else:  # corrected first, as the entering side's draft: the confirmation of version 0 is refused
                assert actions[-1] == "hand entered again" and "hand confirmed" not in actions, (tid, actions)
                assert "Hand 1 changed meanwhile: check it again, then confirm it." in told, (tid, told)
                outcomes.add("entered again, confirmation refused")
    assert outcomes  # which came first is the server's to decide; each outcome is consistent


def test_the_organisers_confirm_all_racing_a_tables_confirmation_confirms_each_hand_once(nights):
    app, made = nights
    with served(app) as port:
        base = f"http://127.0.0.1:{port}"
        for tid, [(game, hand_id), (other_game, other_hand)] in made:
            organiser, table = Phone(base), Phone(base)
            page = organiser.get(f"/tournaments/{tid}")
            shown = re.findall(r'name="hand" value="(\d+:\d+)"', page)
            assert len(shown) == 2, tid
            token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
            table_token = table.form(f"/games/{game}")["csrf_token"]
            results = _at_once(
                [
                    lambda: organiser.post(
                        f"/tournaments/{tid}/confirm-all", [("csrf_token", token)] + [("hand", h) for h in shown]
                    ),
                    lambda: table.post(
                        f"/games/{game}/hands/{hand_id}/confirm",
                        {"csrf_token": table_token, "version": "0", "side": "0"},
                    ),
                ]
            )
            assert [status for status, _, _ in results] == [302, 302], tid
            first, log = _hand(app, game, hand_id)
            second, other_log = _hand(app, other_game, other_hand)
            assert [a for a, _ in log].count("hand confirmed") == 1 and first.confirmed_by in ("organiser", "side 1")
            assert second.confirmed_by == "organiser" and [a for a, _ in other_log].count("hand confirmed") == 1
            told = _said(organiser.get(f"/tournaments/{tid}"))
            if first.confirmed_by == "organiser":  # the organiser's came first: both hands
                assert "2 hands confirmed by the organiser." in told, (tid, told)
            else:  # the table's came first: the organiser's confirms the other, and skips this one
                assert "1 hand confirmed by the organiser." in told, (tid, told)
