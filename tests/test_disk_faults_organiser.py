"""The organiser's actions and the other changes that are not hands on a full or failing disk, against
the real production server (``python -m scorekeeper``, waitress, real HTTP) with ENOSPC and EIO injected
into its writes by libfiu: the draw, a round started and ended, the close and the reopening, a table's
own rule set kept, and an import each answer 503 with Retry-After and the disk's message (never 500:
SQLite rolls a failing transaction back itself, and a rollback of a savepoint inside it must not hide
the disk's error behind "no such savepoint"), store nothing, and succeed once the disk is well again."""

from __future__ import annotations

import html
import json
import re
import signal
import sqlite3
import tempfile
from pathlib import Path
from urllib.parse import urlencode

import pytest

from benchmarks import serving
from scorekeeper.services import tournaments as service
from scorekeeper.storage import db as dbmod
from scorekeeper.web import errors
from tests.test_disk_faults import EIO, ENOSPC, FIU_RUN, PWRITE, Phone, fiu_ctrl, need_libfiu

pytestmark = pytest.mark.slow  # fault tests: left out of the quick loop, run by CI (scripts/test.sh)

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
INPUT = re.compile(r"<input\b([^>]*)>", re.S)
SELECT = re.compile(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', re.S)
ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


def _fields(page: str) -> dict[str, str]:
    """The form's fields as a browser sends them: text and hidden inputs, ticked boxes and radios."""
    out = {}
    for attributes in INPUT.findall(page):
        found = dict(ATTRIBUTE.findall(attributes))
        kind = found.get("type", "text")
        if "name" not in found or kind in ("submit", "file"):
            continue
        if kind in ("checkbox", "radio") and " checked" not in attributes:
            continue
        out[found["name"]] = html.unescape(found.get("value", ""))
    for name, options in SELECT.findall(page):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options) or re.search(
            r'<option value="([^"]*)"', options
        )
        out[name] = html.unescape(chosen.group(1))
    return out


class Organiser(Phone):
    """The organiser's phone: its posts carry the page's form token."""

    def post(self, page_path: str, action: str, fields: dict[str, str] | None = None):
        page = self.request("GET", page_path).text
        token = CSRF.search(page).group(1)
        body = urlencode({**(fields if fields is not None else {}), "csrf_token": token}).encode()
        return self.request("POST", action, body)


@pytest.fixture
def club(servers):
    """A fresh archive with a tournament of eight players (not drawn yet) and the server on it under
    libfiu: (the organiser's phone, the tournament's id, the archive's path, fiu's control prefix, pid)."""
    need_libfiu()
    top = Path(tempfile.mkdtemp(prefix="organiser-faults-"))
    instance = top / "instance"
    instance.mkdir()
    path = instance / "scorekeeper.sqlite"
    db = dbmod.open_db(str(path))
    made = service.create(
        db,
        name="Club night",
        fmt="final",
        variant="classic",
        layout="4",
        entrants=[(f"Player{c}",) for c in "ABCDEFGH"],
        round_end="hands",
        round_hands=1,
    )
    db.close()
    port = serving.free_port()
    control = top / "fiu"
    command = [FIU_RUN, "-x", "-f", str(control), serving.PYTHON, "-m", "scorekeeper", "--host", "127.0.0.1"]
    server = serving.start(
        [*command, "--port", str(port)], port, {"SCOREKEEPER_INSTANCE": str(instance)}, top / "server.log"
    )
    servers.append(server)
    return Organiser(port, 0), made.id, path, control, server.pid


def _count(path: Path, sql: str) -> int:
    with sqlite3.connect(path) as connection:
        return connection.execute(sql).fetchone()[0]


@pytest.mark.parametrize("errno, reason", [(ENOSPC, "full"), (EIO, "io")])
def test_the_organisers_actions_on_a_failing_disk_answer_503_and_store_nothing(club, errno, reason):
    organiser, tid, path, control, pid = club
    page = f"/tournaments/{tid}"
    steps = [  # (the action, what it stores: a query whose answer grows once it is done)
        ("/draw", {}, "select count(*) from tournaments where seed is not null"),
        ("/rounds", {}, "select count(*) from tournament_rounds"),
        ("/rounds/1/end", {"sure": "y"}, "select count(*) from tournament_rounds where ended_at is not null"),
        ("/close", {"sure": "y"}, "select count(*) from tournaments where closed_at is not null"),
        ("/reopen", {"sure": "y"}, "select count(*) from tournament_log where action = 'reopened'"),
    ]
    for action, fields, stored in steps:
        before = _count(path, stored)
        fiu_ctrl(control, pid, f"enable name={PWRITE},failinfo={errno}")
        try:
            answer = organiser.post(page, page + action, fields)
        finally:
            fiu_ctrl(control, pid, f"disable name={PWRITE}")
        assert answer.status == 503, (action, answer.status, answer.text[:300])
        assert answer.headers["Retry-After"] == str(errors.RETRY_AFTER)
        assert answer.disk_reason() == reason, (action, answer.text[:300])
        assert _count(path, stored) == before, f"{action}: stored on a failing disk"
        again = organiser.post(page, page + action, fields)
        assert again.status == 302 and _count(path, stored) == before + 1, (action, again.status)


def test_a_rule_set_kept_and_an_import_on_a_full_disk_answer_503(club, servers):
    organiser, _tid, path, control, pid = club
    form = organiser.request("GET", "/house-rules/new/classic").text
    fields = {**_fields(form), "name": "Our Thursday rules"}
    fiu_ctrl(control, pid, f"enable name={PWRITE},failinfo={ENOSPC}")
    try:
        answer = organiser.post("/house-rules/new/classic", "/house-rules/new/classic", fields)
    finally:
        fiu_ctrl(control, pid, f"disable name={PWRITE}")
    # SQLite tells a failed write as a full disk or as an I/O error, depending on where it failed
    assert answer.status == 503 and answer.disk_reason() in ("full", "io"), (answer.status, answer.text[:300])
    assert _count(path, "select count(*) from house_rules") == 0
    assert organiser.post("/house-rules/new/classic", "/house-rules/new/classic", fields).status == 302
    assert _count(path, "select count(*) from house_rules") == 1
    # an import needs an empty archive: another server on one, under libfiu too
    export = organiser.request("GET", "/export.json").body
    assert json.loads(export)["tournaments"]
    top = Path(tempfile.mkdtemp(prefix="import-faults-"))
    (top / "instance").mkdir()
    port = serving.free_port()
    command = [FIU_RUN, "-x", "-f", str(top / "fiu"), serving.PYTHON, "-m", "scorekeeper", "--host", "127.0.0.1"]
    server = serving.start(
        [*command, "--port", str(port)], port, {"SCOREKEEPER_INSTANCE": str(top / "instance")}, top / "server.log"
    )
    servers.append(server)
    fresh = Organiser(port, 0)
    token = CSRF.search(fresh.request("GET", "/export").text).group(1)
    boundary = "----faults"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + export
        + f"\r\n--{boundary}--\r\n".encode()
    )
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    fiu_ctrl(top / "fiu", server.pid, f"enable name={PWRITE},failinfo={ENOSPC}")
    try:
        answer = fresh.request("POST", "/import", body, headers)
    finally:
        fiu_ctrl(top / "fiu", server.pid, f"disable name={PWRITE}")
    assert answer.status == 503 and answer.disk_reason() in ("full", "io"), (answer.status, answer.text[:300])
    imported = top / "instance" / "scorekeeper.sqlite"
    assert _count(imported, "select count(*) from tournaments") == 0
    assert fresh.request("POST", "/import", body, headers).status in (200, 302)
    assert _count(imported, "select count(*) from tournaments") == 1
    serving.stop(server, signal.SIGTERM)
