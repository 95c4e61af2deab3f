"""Times are shown as the clock in the room reads them (docs/architecture.md, "Rules the code keeps"):
the archive keeps every moment in UTC and the pages show it in the server's own time zone, so a
change saved at 06:45 UTC on a server at UTC+5 reads 11:45 on the change log and on a tournament's
record."""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta

import pytest

from scorekeeper.storage import db as dbmod
from scorekeeper.web.i18n import local_time
from tests.helpers import post_hand, side_fields, start_game
from tests.test_tournaments import create


@pytest.fixture
def karachi():
    """The server's clock at UTC+5 all year (no summer time), for the test's length."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Karachi"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_a_stored_moment_reads_in_the_servers_zone(karachi):
    assert local_time("2026-11-28T06:45:12+00:00") == "2026-11-28 11:45"
    assert local_time("2026-11-28T21:30:00+00:00", "%Y-%m-%d") == "2026-11-29"  # after midnight there
    assert local_time("2026-11-28T06:45:12") == "2026-11-28 11:45"  # no zone: read as UTC
    assert local_time("not a time") == "not a time" and local_time(None) == ""


def test_the_change_log_and_the_organisers_record_show_the_servers_time(client, app, karachi):
    game = start_game(client)
    assert post_hand(client, game, side_fields(0, melded=150), side_fields(1, melded=130)).status_code == 302
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():  # the record is append-only: the moments as stored, in UTC
        db = dbmod.get_db()
        changed = db.execute("select at from changes where game_id = ? order by id desc", [game]).fetchone()[0]
        acted = db.execute("select at from tournament_log where tournament_id = ?", [tid]).fetchone()[0]
    at_plus_five = lambda stored: (datetime.fromisoformat(stored) + timedelta(hours=5)).strftime("%Y-%m-%d %H:%M")  # noqa: E731
    changes = client.get(f"/games/{game}/changes").text
    assert at_plus_five(changed) in changes
    assert datetime.fromisoformat(changed).strftime("%Y-%m-%d %H:%M") not in changes  # not the UTC reading
    assert at_plus_five(acted) in client.get(f"/tournaments/{tid}").text
