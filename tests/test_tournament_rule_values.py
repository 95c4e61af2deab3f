"""A tournament that plays a table's own rule set plays its values as they are when round 1 starts
(docs/tournaments.md, "Running a club night"), and its page lists them: a rule set changed between the
tournament's creation and its first round is not played with its old values."""

from __future__ import annotations

import html

from scorekeeper.services import house_rules
from scorekeeper.storage import db as dbmod
from tests.test_tournaments import act, create, state, table_game


def test_the_values_in_force_are_taken_when_round_1_starts_and_listed(client, app):
    with app.app_context():
        own = house_rules.create(dbmod.get_db(), "Thursday rules", "classic", None, {"target": 3000}, None)
    response = create(client, rules=f"house-{own.id}")
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert "Its values (taken again when round 1 starts" in page and "3000" in page
    with app.app_context():  # changed before the draw: 2,000
        changed = house_rules.change(dbmod.get_db(), own.id, 0, "Thursday rules", {"target": 2000}, None)
        assert changed.status == "saved", changed.problems
    act(client, tid, "/draw")
    act(client, tid, "/rounds")
    t, _rounds = state(app, tid)
    assert t.settings == {"target": 2000}
    game = client.get(f"/api/games/{table_game(client, tid, 1)}").get_json()
    assert game["target"] == 2000
    page = html.unescape(client.get(f"/tournaments/{tid}").text)
    assert "Its values, as they were when round 1 started:" in page and "2000" in page
    with app.app_context():  # changed after round 1 started: the tournament keeps what it plays
        assert house_rules.change(dbmod.get_db(), own.id, 1, "Thursday rules", {"target": 2500}, None).status == "saved"
    assert state(app, tid)[0].settings == {"target": 2000}
