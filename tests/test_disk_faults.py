"""A busy, read-only, full or failing disk, against the real production server (``python -m
scorekeeper``: waitress, real HTTP) with real faults: another program holding the write lock, the
files made read-only, and ENOSPC and EIO injected into the server's own writes with libfiu.

Every save is answered quickly with 503 and Retry-After (never 500, never after a long wait), the
archive can still be read, and every hand a phone's queue sends again is stored exactly once, with
nothing half-written."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import pytest

from benchmarks import serving
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import results
from scorekeeper.web import errors
from tests.helpers import new_game

pytestmark = pytest.mark.slow  # fault tests: left out of the quick loop, run by CI (scripts/test.sh)

# A hand both sides end with as many points in hand as melded (0 : 0), the stock ran out: a game
# takes any number of them. Its figures are distinctive, to find them again in a form sent back.
FIGURES = [{"melded_points": 135, "hand_points": 135}, {"melded_points": 85, "hand_points": 85}]
CSRF = re.compile(rb'name="csrf_token"[^>]*value="([^"]+)"')
NOBODY = 65534


def first_sentence(reason: str) -> str:
    """The first sentence of what a phone is told for this kind of disk trouble (English)."""
    return errors.DISK_MESSAGES[reason].split(". ")[0]


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def disk_reason(self) -> str | None:
        """Which disk trouble the answer tells of (busy, read-only, full, io), or None."""
        for reason in errors.DISK_MESSAGES:
            if first_sentence(reason) in self.text:
                return reason
        return None


def hand_form(token: str, key: str, sides: list[dict[str, int]] = FIGURES) -> bytes:
    """The hand form as a phone posts it."""
    fields = {"csrf_token": token, "client_key": key, "stock_out": "y", "confirm": "y"}
    for i, side in enumerate(sides):
        prefix = f"sides-{i}-"
        fields.update(
            {prefix + name: "0" for name in ("natural_canastas", "mixed_canastas", "red_threes", "penalties")}
        )
        fields.update({prefix + "went_out": "no", prefix + "melded_mode": "points", prefix + "hand_mode": "points"})
        fields.update(
            {prefix + "melded_points": str(side["melded_points"]), prefix + "hand_points": str(side["hand_points"])}
        )
    return urlencode(fields).encode()


def new_key() -> str:
    return uuid.uuid4().hex


class Phone:
    """One phone: its own session (cookies) and form token, a new HTTP connection per request."""

    def __init__(self, port: int, game_id: int) -> None:
        self.port, self.game_id = port, game_id
        self.cookies: dict[str, str] = {}
        self.token = ""

    def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, keep_cookies=True
    ) -> Answer:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if method == "POST":
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body or None, headers=sent)
            response = connection.getresponse()
            answer = Answer(response.status, response.headers, response.read())
        finally:
            connection.close()
        # a save's "Hand saved." message would pile up in the session cookie: not kept
        if keep_cookies:
            for cookie in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return answer

    def open_form(self) -> None:
        """Open the game's hand form (as before entering a hand): the session's token."""
        answer = self.request("GET", f"/games/{self.game_id}/hands/new")
        match = CSRF.search(answer.body)
        assert answer.status == 200 and match, answer.status
        self.token = match.group(1).decode()

    def save_form(self, key: str) -> Answer:
        return self.request("POST", f"/games/{self.game_id}/hands/new", hand_form(self.token, key), keep_cookies=False)

    def save_json(self, key: str) -> Answer:
        """What the phone's offline queue posts (static/app.js flush)."""
        body = json.dumps({"client_key": key, "sides": FIGURES, "stock_out": True}).encode()
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.token}
        return self.request("POST", f"/games/{self.game_id}/hands.json", body, headers, keep_cookies=False)

    def acknowledged(self, answer: Answer) -> bool:
        """Stored (or stored before): 201/200 from the queue's endpoint, 302 to the sheet from the form."""
        if answer.status in (200, 201):
            return True
        location = answer.headers.get("Location", "").split("#")[0]
        return answer.status == 302 and location.endswith(f"/games/{self.game_id}")


def assert_disk_answer(answer: Answer, reason: str, as_json: bool) -> None:
    """503 with Retry-After and the message for this disk trouble (the JSON shape for the queue)."""
    assert answer.status == 503, (answer.status, answer.text[:300])
    assert answer.headers["Retry-After"] == str(errors.RETRY_AFTER)
    if as_json:
        assert answer.headers["Content-Type"].startswith("application/json")
        refusal = json.loads(answer.body)
        assert [(e["field"], e["message"]) for e in refusal["errors"]] == [("database", errors.DISK_MESSAGES[reason])]
    else:
        assert answer.disk_reason() == reason, answer.text[:300]


@dataclass
class Archive:
    top: Path
    instance: Path
    path: Path
    games: list[int]

    def set_writable(self, writable: bool) -> None:
        """The database files, then the instance folder, read-only (or writable again)."""
        for path in self.instance.iterdir():
            path.chmod(0o600 if writable else 0o400)
        self.instance.chmod(0o700 if writable else 0o500)

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with contextlib.closing(sqlite3.connect(self.path)) as connection:
            return connection.execute(sql, params).fetchall()


@pytest.fixture
def archive():
    """A fresh instance with three games, in a folder an unprivileged server can reach."""
    top = Path(tempfile.mkdtemp(prefix="disk-faults-"))
    top.chmod(0o755)
    instance = top / "instance"
    instance.mkdir()
    path = instance / "scorekeeper.sqlite"
    db = dbmod.open_db(str(path))
    games = [new_game(db, "classic", [f"N{g}", f"E{g}", f"S{g}", f"W{g}"], 0, target=10**6) for g in range(3)]
    db.close()
    yield Archive(top, instance, path, games)
    for folder in [top, *(p for p in top.rglob("*") if p.is_dir())]:
        folder.chmod(0o700)
    shutil.rmtree(top, ignore_errors=True)


def start_server(archive: Archive, port: int, prefix: list[str] = (), threads: int = 8) -> subprocess.Popen:
    """``python -m scorekeeper`` on the archive's instance (``prefix``: run through this command)."""
    command = [*prefix, serving.PYTHON, "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(port)]
    return serving.start(
        [*command, "--threads", str(threads)],
        port,
        {"SCOREKEEPER_INSTANCE": str(archive.instance)},
        archive.top / "server.log",
    )


# --- another program holds the write lock ------------------------------------------------------


def test_a_held_write_lock_is_answered_503_at_once_and_the_hand_is_stored_once_after(archive, servers):
    port = serving.free_port()
    servers.append(start_server(archive, port))
    game = archive.games[0]
    phones = [Phone(port, game) for _ in range(9)]
    for phone in phones:
        phone.open_form()
    form_key, queue_key = new_key(), new_key()

    lock = sqlite3.connect(archive.path, isolation_level=None)  # another program: a backup, a second server
    lock.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        page = phones[0].save_form(form_key)
        took = time.monotonic() - started
        assert_disk_answer(page, "busy", as_json=False)
        assert took < 3.5, f"the form waited {took:.1f} s"  # disk.WRITE_WAIT (2 s), not 10 s
        assert 'value="135"' in page.text and 'value="85"' in page.text  # the typed figures come back

        assert_disk_answer(phones[1].save_json(queue_key), "busy", as_json=True)

        def save_at_once(i: int) -> tuple[Answer, float, bool]:
            started = time.monotonic()
            as_json = i % 2 == 1
            answer = (phones[1 + i].save_json if as_json else phones[1 + i].save_form)(new_key())
            return answer, time.monotonic() - started, as_json

        with ThreadPoolExecutor(8) as pool:
            at_once = list(pool.map(save_at_once, range(8)))
        for answer, _, as_json in at_once:
            assert_disk_answer(answer, "busy", as_json)
        slowest = max(took for _, took, _ in at_once)
        print(f"busy: the form answered in {took:.2f} s, the slowest of 8 saves at once in {slowest:.2f} s")
        assert slowest < 5.5, f"one of 8 saves at once waited {slowest:.1f} s"  # none waits 8 x 10 s

        # reading is never held up by a writer (WAL)
        assert phones[0].request("GET", f"/games/{game}").status == 200
        assert phones[0].request("GET", f"/games/{game}/hands/new").status == 200
        assert phones[0].request("GET", "/").status == 200
        assert archive.query("select count(*) from hands") == [(0,)]
    finally:
        lock.execute("ROLLBACK")
        lock.close()

    # the lock is gone: the same hands sent again (the phone's Send again, its queue) are stored once
    assert phones[0].acknowledged(phones[0].save_form(form_key))
    again = phones[0].save_form(form_key)
    assert phones[0].acknowledged(again)
    assert phones[1].save_json(queue_key).status == 201
    assert phones[1].save_json(queue_key).status == 200
    stored = dict(archive.query("select client_key, count(*) from hands group by client_key"))
    assert stored == {form_key: 1, queue_key: 1}
    assert archive.query("select hands from game_results where game_id = ?", (game,)) == [(2,)]


# --- read-only files ----------------------------------------------------------------------------


@contextlib.contextmanager
def reachable_by_nobody(*paths: Path):
    """Let nobody walk down to these paths (o+x on each folder above them that lacks it, as a fresh
    clone in a private temporary folder has), and take it back afterwards."""
    opened: list[tuple[Path, int]] = []
    for path in paths:
        for folder in reversed(Path(path).resolve().parents):
            mode = folder.stat().st_mode & 0o7777
            if not mode & 0o001 and folder not in [f for f, _ in opened]:
                opened.append((folder, mode))
                folder.chmod(mode | 0o001)
    try:
        yield
    finally:
        for folder, mode in reversed(opened):
            folder.chmod(mode)


def unprivileged() -> list[str]:
    """The command that runs the server as nobody (skipped where nobody cannot run this Python)."""
    prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    try:
        probe = subprocess.run(
            [*prefix, serving.PYTHON, "-c", "import scorekeeper"], cwd=serving.ROOT, capture_output=True, timeout=60
        )
    except OSError as error:
        pytest.skip(f"cannot run a program as nobody: {error}")
    if probe.returncode:
        pytest.skip(f"nobody cannot run {serving.PYTHON}: {probe.stderr.decode(errors='replace')[-300:]}")
    return prefix


def test_b_read_only_files_are_answered_503_read_only_never_500_and_still_read(archive, servers, request):
    prefix: list[str] = []
    if os.geteuid() == 0:
        # root writes whatever the permission bits say: the server runs as nobody, owning its files
        reach = reachable_by_nobody(Path(serving.PYTHON), serving.ROOT / "scorekeeper", archive.instance)
        reach.__enter__()
        request.addfinalizer(lambda: reach.__exit__(None, None, None))
        prefix = unprivileged()
        for path in [archive.instance, *archive.instance.iterdir()]:
            os.chown(path, NOBODY, NOBODY)
    port = serving.free_port()
    server = start_server(archive, port, prefix, threads=4)
    servers.append(server)
    game = archive.games[0]
    phone = Phone(port, game)
    phone.open_form()
    assert phone.acknowledged(phone.save_form(new_key()))  # writable to begin with

    # made read-only while the server runs: a connection opened before may still write through its
    # open file, so a save is either stored or answered 503 read-only, never 500
    archive.set_writable(False)
    phones = [Phone(port, game) for _ in range(4)]
    for other in phones:
        other.open_form()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda i: phones[i % 4].save_json(new_key()), range(8)))
    for answer in answers:
        assert answer.status in (201, 503), (answer.status, answer.text[:300])
        if answer.status == 503:
            assert_disk_answer(answer, "read-only", as_json=True)
    assert phone.request("GET", f"/games/{game}").status == 200

    # started again on the read-only files (after a reboot with the disk read-only)
    serving.stop(server)
    assert Path(f"{archive.path}-wal").exists() and Path(f"{archive.path}-shm").exists()
    server = start_server(archive, port, prefix, threads=4)
    servers.append(server)
    form_key, queue_key = new_key(), new_key()
    page = phone.save_form(form_key)
    assert_disk_answer(page, "read-only", as_json=False)
    assert 'value="135"' in page.text and 'value="85"' in page.text
    assert_disk_answer(phone.save_json(queue_key), "read-only", as_json=True)
    for path in (f"/games/{game}", "/", f"/games/{game}/hands/new", "/export.json"):
        assert phone.request("GET", path).status == 200, path

    # writable again: the phone sends the same hands again and they are stored at once (no
    # restart needed), once each
    archive.set_writable(True)
    assert phone.acknowledged(phone.save_form(form_key))
    assert phone.acknowledged(phone.save_form(form_key))
    assert phone.save_json(queue_key).status == 201
    assert phone.save_json(queue_key).status == 200
    serving.stop(server)
    counts = dict(archive.query("select client_key, count(*) from hands group by client_key"))
    assert counts[form_key] == counts[queue_key] == 1
    assert archive.query("pragma integrity_check") == [("ok",)]


# --- a full or failing disk, injected with libfiu ------------------------------------------------

FIU_RUN, FIU_CTRL = shutil.which("fiu-run"), shutil.which("fiu-ctrl")
PWRITE, FDATASYNC = "posix/io/rw/pwrite", "posix/io/sync/fdatasync"  # what SQLite writes and syncs with
ENOSPC, EIO = 28, 5


def need_libfiu() -> None:
    """Skip without libfiu, but never in CI: there scripts/setup.sh installs it."""
    if FIU_RUN and FIU_CTRL:
        return
    message = "libfiu is missing (apt-get install fiu-utils; scripts/setup.sh test installs it as root)"
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        pytest.fail(message)
    pytest.skip(message)


class QueuePhone(threading.Thread):
    """A phone saving hands back to back, each with its own key. A hand answered 503 (or not at all)
    stays queued and goes again with the same key, as static/app.js does; anything else is refused."""

    def __init__(self, port: int, game_id: int, use_json: bool, clock: dict) -> None:
        super().__init__(daemon=True)
        self.phone = Phone(port, game_id)
        self.use_json, self.clock = use_json, clock
        self.acked: list[str] = []
        self.pending: str | None = None
        self.not_stored: list[tuple[str, int, str | None, str | None]] = []  # (phase, status, reason, Retry-After)
        self.running = True

    def step(self) -> None:
        key = self.pending = self.pending or new_key()
        phase = self.clock["phase"]
        try:
            if not self.phone.token:
                self.phone.open_form()
            answer = self.phone.save_json(key) if self.use_json else self.phone.save_form(key)
        except (OSError, http.client.HTTPException, AssertionError):
            time.sleep(0.05)  # the server is down: the hand stays queued
            return
        if self.phone.acknowledged(answer):
            self.acked.append(key)
            self.pending = None
            return
        self.not_stored.append((phase, answer.status, answer.disk_reason(), answer.headers.get("Retry-After")))
        if answer.status != 503:
            self.pending = None  # refused for good (the player is shown why): a lost hand
        time.sleep(0.05)  # Retry-After, shortened

    def run(self) -> None:
        while self.running:
            self.step()

    def finish(self) -> None:
        for _ in range(100):
            if self.pending is None:
                return
            self.step()


def fiu_ctrl(prefix: Path, pid: int, command: str) -> None:
    subprocess.run([FIU_CTRL, "-f", str(prefix), "-c", command, str(pid)], check=True, timeout=10)


def test_c_a_full_or_failing_disk_loses_doubles_and_half_writes_no_hand(archive, servers):
    need_libfiu()
    port = serving.free_port()
    control = archive.top / "fiu"  # fiu-run's control pipes: fiu-<pid>.in / .out
    under_fiu = [FIU_RUN, "-x", "-f", str(control)]
    server = start_server(archive, port, under_fiu)
    servers.append(server)
    clock = {"phase": "normal"}
    phones = [QueuePhone(port, archive.games[i % 3], use_json=i % 2 == 1, clock=clock) for i in range(6)]
    for phone in phones:
        phone.start()

    def told(name: str, reason: str) -> int:
        return sum(
            1 for phone in phones for answer in list(phone.not_stored) if answer[0] == name and answer[2] == reason
        )

    def phase(name: str, command: str | None = None, until: str | None = None) -> None:
        """Half a second of this phase, and with ``until`` on until phones were told of it (a
        loaded machine may take longer to answer)."""
        if command:
            fiu_ctrl(control, server.pid, command)
        clock["phase"] = name
        time.sleep(0.5)
        deadline = time.monotonic() + 20
        while until and told(name, until) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)

    try:
        phase("normal")
        phase("full", f"enable name={PWRITE},failinfo={ENOSPC}", until="full")
        phase("normal", f"disable name={PWRITE}")
        phase("io", f"enable name={PWRITE},failinfo={EIO}", until="io")
        phase("normal", f"disable name={PWRITE}")
        # some writes of a transaction fail and others do not: nothing may be half-written
        phase("io-some", f"enable_random name={PWRITE},probability=0.3,failinfo={EIO}", until="io")
        phase("normal", f"disable name={PWRITE}")
        # the sync fails (the frames are written, not known to be on the disk), then a power cut
        phase("io-sync", f"enable name={FDATASYNC},failinfo={EIO}", until="io")
        server.send_signal(signal.SIGKILL)
        server.wait()
        clock["phase"] = "down"
        server = start_server(archive, port)
        servers.append(server)
        phase("normal")
        time.sleep(0.5)
    finally:
        for phone in phones:
            phone.running = False
        for phone in phones:
            phone.join(30)
    for phone in phones:
        phone.finish()
    serving.stop(server)

    answers = [answer for phone in phones for answer in phone.not_stored]
    # during the faults: 503 with Retry-After and the disk's message, never 500 or a refusal
    assert all(status == 503 for _, status, _, _ in answers), Counter(status for _, status, _, _ in answers)
    assert all(after == str(errors.RETRY_AFTER) for *_, after in answers)
    reasons = Counter((phase, reason) for phase, _, reason, _ in answers)
    print(f"acknowledged {sum(len(p.acked) for p in phones)}, answered 503 (phase, reason): {dict(reasons)}")
    assert {reason for _, reason in reasons} <= {"full", "io", "busy"}, reasons
    assert reasons[("full", "full")] and reasons[("io", "io")] and reasons[("io-sync", "io")], reasons
    assert reasons[("io-some", "io")], reasons
    assert all(phone.pending is None for phone in phones), "a hand stayed queued"

    acked = [key for phone in phones for key in phone.acked]
    assert len(acked) > 50, "too few hands were saved around the faults"
    stored = Counter(key for (key,) in archive.query("select client_key from hands"))
    assert not [key for key, count in stored.items() if count > 1], "a hand was stored twice"
    assert set(acked) == set(stored), "an acknowledged hand is missing, or one is stored that was never acknowledged"
    assert len(acked) == len(set(acked))
    # nothing half-written: every hand reads back whole, every game's kept figures count its hands
    for sides, scores in archive.query("select sides, scores from hands"):
        figures = [{k: side[k] for k in ("melded_points", "hand_points")} for side in json.loads(sides)]
        assert figures == FIGURES and json.loads(scores) == [0, 0]
    for game in archive.games:
        counted = archive.query("select count(*) from hands where game_id = ? and deleted_at is null", (game,))
        kept = archive.query("select hands from game_results where game_id = ?", (game,))
        assert counted == kept, (game, counted, kept)
    db = dbmod.open_db(str(archive.path))
    try:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
        for game in archive.games:
            before = db.execute("select * from game_results where game_id = ?", [game]).fetchall()
            results.refresh_results(db, game)
            assert db.execute("select * from game_results where game_id = ?", [game]).fetchall() == before
    finally:
        db.close()


# --- the database deleted or replaced under the running server ----------------------------------


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_d_a_database_deleted_or_replaced_under_the_server_acknowledges_no_save(archive, servers, how):
    """``rm`` of the database with its -wal and -shm, or another archive moved over it, while the
    server runs: every save is answered 503 (the form with what was typed, the queue's JSON so the
    phone keeps the hand), one line on the console says why, and no save is ever acknowledged into
    a file that is gone at the next start."""
    port = serving.free_port()
    server = start_server(archive, port, threads=1)  # one thread: the form is read on its kept connection
    servers.append(server)
    game = archive.games[0]
    phone = Phone(port, game)
    phone.open_form()
    assert phone.save_json(new_key()).status == 201  # stored, in the file that was opened

    if how == "deleted":
        for suffix in ("", "-wal", "-shm"):
            Path(f"{archive.path}{suffix}").unlink()
    else:
        other = archive.top / "other.sqlite"
        db = dbmod.open_db(str(other))
        new_game(db, "classic", ["A", "B", "C", "D"], 0)
        db.close()
        os.replace(other, archive.path)

    keys = [new_key() for _ in range(8)]
    for i, key in enumerate(keys):
        if i % 2:
            assert_disk_answer(phone.save_json(key), "replaced", as_json=True)
        else:
            page = phone.save_form(key)
            assert_disk_answer(page, "replaced", as_json=False)
            assert 'value="135"' in page.text and 'value="85"' in page.text  # the typed figures come back
    serving.stop(server)  # SIGTERM
    log = (archive.top / "server.log").read_text()
    said = "deleted" if how == "deleted" else "replaced by another file"
    assert log.count(f"was {said} while the score keeper was running") == 1, log

    # started again on what is at the path now: none of the refused hands is there
    if how == "replaced":
        assert archive.query("pragma integrity_check") == [("ok",)]  # the old -wal was not applied to it
        assert archive.query("select count(*) from games") == [(1,)]
    port = serving.free_port()
    servers.append(start_server(archive, port))
    assert Phone(port, game).request("GET", "/").status == 200  # (a new, empty archive once it was deleted)
    assert archive.query("select count(*) from hands") == [(0,)]
