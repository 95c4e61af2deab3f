"""The CPU one hand save costs on the server's stack, against the floor of an honest save, in one process.

    .venv/bin/python benchmarks/save_cpu.py                   # 5 rounds of 300 saves, then 300 floor POSTs
    .venv/bin/python benchmarks/save_cpu.py --against ../old  # this checkout and another, side by side
    .venv/bin/python benchmarks/save_cpu.py --parts           # CPU per stage of a save and of the floor's POST
    .venv/bin/python benchmarks/save_cpu.py --profile save    # cProfile (CPU time) of 500 saves (or: floor)
    .venv/bin/python benchmarks/save_cpu.py --sql             # a save's SQL alone, replayed, against the floor's
    ... --split                                               # the head and the body arrive apart

No network and no threads: each request is the bytes the benchmarks' client sends (one phone's cookie,
the form's token, a fresh client key each time), fed to the server's own waitress parser as its
connection feeds it (for a save, ``server/head_checks.HeadFirstParser``: the plain-HTTP server's head
check, which runs on waitress's event loop when the body is still to come), then the environ waitress's
task gives the app, then the app, as ``python -m scorekeeper`` serves it, on a fresh instance with its
production configuration (``synchronous = FULL``, the page cache, the change log). The floor
(benchmarks/floor.py: the CSRF check, a session write, one row committed with WAL and
``synchronous = FULL``, a redirect) goes through waitress's own parser and task the same way, as its
server (``waitress.serve``) has no head check. Measured: ``time.process_time`` per request (the
process's CPU: the wait for the disk's fsync is left out, the kernel's work for it is not), rounds
taking turns so that the machine's other work hits all alike; the median round. With ``--against``,
each checkout runs in a process of its own, and the rounds take turns between them too.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402

HOST = "127.0.0.1:8000"
CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
SPLIT = {"on": False}  # --split: the head and the body arrive apart (else together, as on loopback)


def raw_request(method: str, path: str, cookie: str, body: bytes = b"") -> bytes:
    """A request's bytes as the benchmarks' client sends them (serving.Connection)."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: keep-alive"]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    if method == "POST":
        lines += [f"Content-Length: {len(body)}", "Content-Type: application/x-www-form-urlencoded"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class Channel:
    """What waitress's parser and task ask of a connection and its server (no socket)."""

    def __init__(self, app, adj, parser_class, task_class) -> None:
        self.server = type(
            "Server", (), {"adj": adj, "server_name": "127.0.0.1", "effective_port": 8000, "flask_app": app}
        )()
        self.addr = ("127.0.0.1", 50000)
        self.dropping = False
        self.adj, self.parser_class, self.task_class = adj, parser_class, task_class

    def check_client_disconnected(self) -> bool:
        return False

    def environ(self, data: bytes) -> dict:
        """The WSGI environ waitress gives the app for these bytes, read as its channel reads them:
        the parser (the server's own, with its head check) fed until the request is complete."""
        parser = self.parser_class(self.adj)
        chunks = [data] if not SPLIT["on"] else list(data.partition(b"\r\n\r\n"))
        chunks = [chunks[0] + chunks[1], chunks[2]] if SPLIT["on"] else chunks
        for chunk in chunks:
            while chunk and not parser.completed:
                taken = parser.received(chunk)
                chunk = chunk[taken:]
        assert parser.completed and parser.error is None, parser.error
        return self.task_class(self, parser).get_environment()


def call(app, env: dict) -> tuple[str, list, bytes]:
    """The app's answer, its body read whole (as waitress writes it out)."""
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = status, headers

    chunks = app(env, start_response)
    try:
        body = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return answer["status"], answer["headers"], body


def cookie_of(headers: list, cookie: str) -> str:
    """The cookie a phone sends after this answer."""
    for name, value in headers:
        if name.lower() == "set-cookie":
            return value.split(";", 1)[0]
    return cookie


class Save:
    """One phone saving quiet hands into its games through the production server's stack: waitress's
    parser with the plain-HTTP server's head check (server/head_checks.py), its task's environ, the app."""

    name = "save"

    def __init__(self, folder: Path) -> None:
        import functools

        from waitress.adjustments import Adjustments

        from scorekeeper import create_app
        from scorekeeper.server import head_checks
        from scorekeeper.services import games as service
        from scorekeeper.storage import db as dbmod
        from scorekeeper.web import limits

        instance = folder / "instance"
        instance.mkdir()
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance)
        self.app = create_app()  # the production configuration, as python -m scorekeeper builds it
        adj = Adjustments(**limits.waitress_options(self.app))
        self.channel = Channel(self.app, adj, None, head_checks.HeadFirstChannel.task_class)
        self.channel.parser_class = functools.partial(head_checks.HeadFirstParser, channel=self.channel)
        db = dbmod.open_db(self.app.config["DATABASE"])
        self.games = []
        for g in range(4):
            game = service.create_game(db, "classic", [f"P{g}{s}" for s in "abcd"], 0, target=10**6).id
            for _ in range(10):
                assert service.add_hand(db, game, serving.QUIET_SIDES, True).ok
            self.games.append(game)
        db.close()
        env = self.channel.environ(raw_request("GET", f"/games/{self.games[0]}/hands/new", ""))
        status, headers, page = call(self.app, env)
        assert status.startswith("200"), status
        self.cookie = cookie_of(headers, "")
        self.token = CSRF.search(page.decode()).group(1)
        self.i = 0

    def prepare(self) -> bytes:
        """The next save's bytes (the client's work, not timed)."""
        self.i += 1
        path = f"/games/{self.games[self.i % len(self.games)]}/hands/new"
        return raw_request("POST", path, self.cookie, serving.quiet_hand_form(self.token, uuid.uuid4().hex))

    def request(self, data: bytes) -> None:
        status, _, _ = call(self.app, self.channel.environ(data))
        assert status.startswith("302"), status


class Floor:
    """The floor of an honest save (benchmarks/floor.py), one phone, through waitress's own parser
    and task as its server (waitress.serve) reads a request."""

    name = "floor"

    def __init__(self, folder: Path) -> None:
        from waitress.adjustments import Adjustments
        from waitress.parser import HTTPRequestParser
        from waitress.task import WSGITask

        from benchmarks import floor

        database = str(folder / "floor.sqlite")
        with sqlite3.connect(database) as db:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute(
                "create table if not exists saves (id integer primary key, client_key text unique, body integer)"
            )
        floor.app.config["DATABASE"] = database
        self.app = floor.app
        self.channel = Channel(self.app, Adjustments(), HTTPRequestParser, WSGITask)
        status, headers, page = call(self.app, self.channel.environ(raw_request("GET", "/form", "")))
        assert status.startswith("200"), status
        self.cookie = cookie_of(headers, "")
        self.token = CSRF.search(page.decode()).group(1)

    def prepare(self) -> bytes:
        return raw_request("POST", "/", self.cookie, serving.quiet_hand_form(self.token, uuid.uuid4().hex))

    def request(self, data: bytes) -> None:
        status, _, _ = call(self.app, self.channel.environ(data))
        assert status.startswith("302"), status


def cpu_ms(kind, count: int) -> float:
    """CPU ms per request over ``count`` requests."""
    requests = [kind.prepare() for _ in range(count)]
    started = time.process_time()
    for data in requests:
        kind.request(data)
    return (time.process_time() - started) * 1000 / count


class Parts:
    """CPU per stage of a request, by wrapping the functions a stage runs: each stage's own time
    (what the stages within it took is theirs), the server's head check apart. Each wrapper adds a
    microsecond or two."""

    HEAD = "head check"

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.stack: list[list] = []  # [label, time spent in the stages within it]
        self.undo: list = []

    def timed(self, original, label: str):
        spent, stack = self.spent, self.stack

        def timed(*args, **kwargs):
            name = label if not stack or stack[0][0] != self.HEAD or label == self.HEAD else f"{self.HEAD}: {label}"
            stack.append([name, 0.0])
            started = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                elapsed = time.process_time() - started
                _, within = stack.pop()
                spent[name] = spent.get(name, 0.0) + elapsed - within
                if stack:
                    stack[-1][1] += elapsed

        return timed

    def wrap(self, owner, attribute: str, label: str) -> None:
        original = getattr(owner, attribute)
        setattr(owner, attribute, self.timed(original, label))
        self.undo.append((owner, attribute, original))

    def restore(self) -> None:
        for owner, attribute, original in reversed(self.undo):
            setattr(owner, attribute, original)


def parts(kind, count: int) -> dict[str, float]:
    """CPU ms per request of each stage of ``kind``'s requests (own time; "the rest": Flask's and
    waitress's calls around them, building the request, routing, the answer's headers)."""
    import flask
    from flask.ctx import RequestContext

    app = kind.app
    measure = Parts()
    interface = type(app.session_interface)
    measure.wrap(interface, "open_session", "session opened (cookie checked, decoded)")
    measure.wrap(interface, "save_session", "session saved (encoded, signed, cookie set)")
    measure.wrap(RequestContext, "push", "request context pushed (URL matched)")
    measure.wrap(RequestContext, "pop", "request context popped (teardown)")
    measure.wrap(flask.Flask, "process_response", "after_request functions")
    before = app.before_request_funcs.get(None, [])
    originals = list(before)
    for index, function in enumerate(originals):
        csrf = "csrf_protect" in getattr(function, "__qualname__", "")
        before[index] = measure.timed(function, "CSRF check (form read)" if csrf else f"check {function.__name__}")
    endpoint = "games.new_hand" if kind.name == "save" else "save"
    view = app.view_functions[endpoint]
    app.view_functions[endpoint] = measure.timed(view, "view, its own")
    if kind.name == "save":
        from scorekeeper.services import games as service
        from scorekeeper.storage import results
        from scorekeeper.web.games import hands

        measure.wrap(service, "add_hand", "view: the service (add_hand, its own: BEGIN, COMMIT, the file's checks)")
        stages = (
            (service, "_check", "service: the hand's checks and scores"),
            (service.checks, "stored_entry", "service: the entry as stored"),
            (service.records, "get_game", "service: the game read"),
            (service.records, "hand_by_key", "service: the client key looked up"),
            (service, "hand_guard", "service: the tournament's rule"),
            (service.games, "insert_hand", "service: the hand inserted, the game's version"),
            (results, "_write_results", "service: the results' rows"),
            (results, "_apply_change", "service: the totals"),
            (results.ratings, "results_written", "service: the ratings asked"),
            (service.changes, "log_change", "service: the change log"),
        )
        for owner, attribute, label in stages:
            if hasattr(owner, attribute):
                measure.wrap(owner, attribute, label)
        measure.wrap(hands, "load_game", "view: the game read (load_game)")
        measure.wrap(hands.hand_entry, "posted_hand", "view: the form read (posted_hand)")
        measure.wrap(hands, "_saved", "view: the answer (flash, redirect)")
        from scorekeeper.server import head_checks

        name = "check_head" if hasattr(head_checks, "check_head") else "refused_from_head"
        measure.wrap(head_checks, name, Parts.HEAD)
    requests = [kind.prepare() for _ in range(count)]
    started = time.process_time()
    try:
        for data in requests:
            kind.request(data)
    finally:
        total = time.process_time() - started
        measure.restore()
        app.view_functions[endpoint] = view
        before[:] = originals
    result = {label: spent * 1000 / count for label, spent in measure.spent.items()}
    result["the rest"] = total * 1000 / count - sum(result.values())
    result["total"] = total * 1000 / count
    return result


KEY = re.compile(r"[0-9a-f]{32}")  # a client key, as a save binds it
# what any save of a hand must store, whatever else it keeps: the key looked up (a form sent twice is
# saved once), the hand, the game's version (the condition two phones' saves are decided by), the
# change log (nothing entered is lost)
LEAST = ("select id from hands where", "insert into hands", "update games set", "insert into changes")


class Statement(NamedTuple):
    """One statement a save ran: its text and the values bound to it (``many``: executemany's rows)."""

    sql: str
    values: Any
    many: bool = False


class Recording:
    """A connection that notes every statement run through it, then runs it (the app's own connection
    behind it: its cached statements, its transaction)."""

    def __init__(self, conn: sqlite3.Connection, noted: list[Statement]) -> None:
        self._conn, self._noted = conn, noted

    def execute(self, sql: str, values: Any = ()) -> sqlite3.Cursor:
        self._noted.append(Statement(sql, values))
        return self._conn.execute(sql, values)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        rows = list(rows)
        self._noted.append(Statement(sql, rows, many=True))
        return self._conn.executemany(sql, rows)

    def __enter__(self):
        return self._conn.__enter__()

    def __exit__(self, *exc):
        return self._conn.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def statements_of_a_save(kind: Save) -> list[Statement]:
    """The statements one save ran on its connection, with the values it bound to them."""
    from scorekeeper.storage import db as dbmod

    (db,) = kind.app.extensions[dbmod.CONNECTIONS]
    noted: list[Statement] = []
    conn, db.conn = db.conn, Recording(db.conn, noted)
    try:
        kind.request(kind.prepare())
    finally:
        db.conn = conn
    return noted


def _with_key(values: Any, key: str) -> Any:
    """A statement's values with every client key replaced by ``key``."""
    if isinstance(values, (list, tuple)):
        return [_with_key(v, key) for v in values]
    if isinstance(values, dict):
        return {k: _with_key(v, key) for k, v in values.items()}
    return KEY.sub(key, values) if isinstance(values, str) else values


def sql_only(kind: Save, floor_database: str, rounds: int, count: int) -> None:
    """The CPU of a save's SQL alone, replayed on its own database as the save runs it (the same text,
    values bound, prepared once and cached; each time with a new client key, committed with its fsync),
    against the floor's insert, and against the statements any save must run (LEAST); then the checks
    and scoring of the same hand, the core's pure work. What a save adds to the floor here is work no
    faster Python around it can take away."""
    from scorekeeper.core import checks, rulesets, scoring

    traced = statements_of_a_save(kind)
    inside = [s for s in traced if s.sql not in ("BEGIN IMMEDIATE", "COMMIT")]
    least = [s for s in inside if s.sql.lstrip().startswith(LEAST)]
    save_db = sqlite3.connect(kind.app.config["DATABASE"], isolation_level=None)
    floor_db = sqlite3.connect(floor_database, isolation_level=None)
    for db in (save_db, floor_db):
        db.execute("PRAGMA synchronous = FULL")

    def replay(statements: list[Statement]):
        keyed = [bool(KEY.search(str(s.values))) for s in statements]  # the others' values stay as they were

        def run() -> None:
            key = uuid.uuid4().hex
            save_db.execute("BEGIN IMMEDIATE")
            for s, has_key in zip(statements, keyed):
                values = _with_key(s.values, key) if has_key else s.values
                (save_db.executemany if s.many else save_db.execute)(s.sql, values).fetchall()
            save_db.execute("COMMIT")

        return run

    def floor() -> None:
        floor_db.execute("BEGIN IMMEDIATE")
        floor_db.execute("insert into saves (client_key, body) values (?, ?)", (uuid.uuid4().hex, 40))
        floor_db.execute("COMMIT")

    rules = rulesets.get("classic")
    entry = [
        dict.fromkeys(("natural_canastas", "mixed_canastas", "red_threes", "penalties"), "0")
        | {k: str(v) for k, v in side.items()}
        for side in serving.QUIET_SIDES
    ]  # the form's quiet hand

    def core() -> None:
        sides, problems = checks.read_hand(rules, entry, True, None)  # the stock ran out
        assert not problems, problems
        scoring.score_hand(rules, sides, None)

    kinds = {
        f"the save's {len(inside)} statements": replay(inside),
        f"the {len(least)} any save must run": replay(least),
        "the floor's insert": floor,
        "the hand's checks and scoring": core,
    }
    times: dict[str, list[float]] = {name: [] for name in kinds}
    for _ in range(rounds):
        for name, run in kinds.items():
            started = time.process_time()
            for _ in range(count):
                run()
            times[name].append((time.process_time() - started) * 1000 / count)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"CPU ms, median of {rounds} rounds of {count} (each transaction committed with its fsync):")
    for name, value in medians.items():
        print(f"    {value:7.3f}  {name}")
    floor_ms = medians["the floor's insert"]
    names = list(medians)
    least_more = medians[names[1]] - floor_ms + medians[names[3]]
    print(
        f"any save's least over the floor (its {len(least)} statements, the checks and scoring): {least_more:.3f} ms; "
        f"a save at 0.9x the floor with one phone needs the floor's whole time per save (client and "
        f"network in it) at {9 * least_more:.2f} ms or more"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def serve_rounds(kinds: dict) -> None:
    """A worker of ``--against``: measure what each line of stdin asks ("save 100"), answer the ms."""
    for line in sys.stdin:
        name, count = line.split()
        print(f"{cpu_ms(kinds[name], int(count)):.6f}", flush=True)


def start_worker(tree: str) -> subprocess.Popen:
    """This script, with the score keeper of ``tree`` (a checkout), measuring on request."""
    command = [sys.executable, __file__, "--worker", tree] + (["--split"] if SPLIT["on"] else [])
    env = {**os.environ, "PYTHONPATH": tree}
    return subprocess.Popen(command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def ask(worker: subprocess.Popen, name: str, count: int) -> float:
    worker.stdin.write(f"{name} {count}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def compare(trees: dict[str, str], rounds: int, saves: int) -> None:
    """Each tree's save and floor in a process of its own, rounds taking turns between them all, so
    that the machine's other work hits every one alike; the median round of each."""
    workers = {label: start_worker(tree) for label, tree in trees.items()}
    results = {(label, name): [] for label in trees for name in ("save", "floor")}
    try:
        for _ in range(rounds):
            for name in ("save", "floor"):
                for label, worker in workers.items():
                    results[label, name].append(ask(worker, name, saves))
    finally:
        for worker in workers.values():
            worker.stdin.close()
            worker.wait()
    for label in trees:
        save, floor = (statistics.median(results[label, name]) for name in ("save", "floor"))
        low = min(results[label, "save"]), min(results[label, "floor"])
        print(
            f"{label:7} save {save:.3f} ms, floor {floor:.3f} ms of CPU per request (median of {rounds} rounds of "
            f"{saves}); save/floor {save / floor:.2f}x, the floor's over the save's {floor / save:.2f} "
            f"(fastest rounds: {low[0]:.3f}, {low[1]:.3f})"
        )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--saves", type=int, default=300, help="requests per round")
    parser.add_argument("--profile", choices=("save", "floor"), help="cProfile 500 requests of one kind instead")
    parser.add_argument("--sort", default="cumulative")
    parser.add_argument("--lines", type=int, default=60)
    parser.add_argument(
        "--against", metavar="TREE", help="a checkout of another commit (git worktree or git archive): both measured"
    )
    parser.add_argument("--parts", action="store_true", help="CPU per stage of a save and of the floor's request")
    parser.add_argument(
        "--split", action="store_true", help="the head and the body arrive apart (the head check runs before the body)"
    )
    parser.add_argument(
        "--sql",
        action="store_true",
        help="a save's SQL alone, replayed, against the floor's and the least any save runs",
    )
    parser.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    SPLIT["on"] = args.split
    if args.worker:  # the score keeper of that checkout, not of this script's
        sys.path.insert(0, args.worker)
        assert "scorekeeper" not in sys.modules
    if args.against:
        here = str(HERE.parent)
        compare({"other": args.against, "this": here}, args.rounds, args.saves)
        return
    with tempfile.TemporaryDirectory(prefix="save-cpu-") as folder:
        kinds = {"save": Save(Path(folder)), "floor": Floor(Path(folder))}
        for kind in kinds.values():
            cpu_ms(kind, 50)  # warm: connections opened, templates and code paths loaded
        if args.worker:
            serve_rounds(kinds)
            return
        if args.sql:
            sql_only(kinds["save"], str(Path(folder) / "floor.sqlite"), args.rounds, args.saves)
            return
        if args.parts:
            for name, kind in kinds.items():
                runs = [parts(kind, args.saves) for _ in range(args.rounds)]
                print(f"{name}: CPU ms per request by stage (median of {args.rounds} rounds of {args.saves})")
                for label in runs[0]:
                    print(f"    {statistics.median(run.get(label, 0.0) for run in runs):7.3f}  {label}")
            print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            return
        if args.profile:
            kind = kinds[args.profile]
            requests = [kind.prepare() for _ in range(500)]
            profile = cProfile.Profile(time.process_time)  # CPU, not the wait for the disk
            profile.enable()
            for data in requests:
                kind.request(data)
            profile.disable()
            pstats.Stats(profile).sort_stats(args.sort).print_stats(args.lines)
            return
        rounds = {name: [] for name in kinds}
        for _ in range(args.rounds):
            for name, kind in kinds.items():
                rounds[name].append(cpu_ms(kind, args.saves))
        save, floor = statistics.median(rounds["save"]), statistics.median(rounds["floor"])
        for name, values in rounds.items():
            print(
                f"{name:6} CPU ms per request: median {statistics.median(values):.3f}  rounds "
                + " ".join(f"{v:.3f}" for v in values)
            )
        print(f"save / floor CPU: {save / floor:.2f}x  (the floor's CPU over the save's: {floor / save:.2f})")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
