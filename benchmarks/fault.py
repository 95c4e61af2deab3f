"""Fault test: kill the production server in the middle of saving hands, and check nothing is lost or doubled.

    .venv/bin/python benchmarks/fault.py                       # 8 clients, 4 kills, about 30 s
    .venv/bin/python benchmarks/fault.py --clients 20 --kills 10
    .venv/bin/python benchmarks/fault.py --import-kill         # kill an import of a big export instead

Several clients (each a keep-alive connection with its own session, like a phone) save hands back
to back against ``python -m scorekeeper`` (waitress): half through the hand form, half through the
JSON endpoint the phones' offline queue uses, each hand with its own client key. At a random moment
the server is killed with SIGKILL (no chance to tidy up), then started again on the same files.
A client treats each answer as the phone's queue does (static/app.js): a hand with no answer, or
answered 503 or another 5xx, stays queued and goes again with the same key; 400/404/409/422 (or a
form sent back) is a refusal for good, which the player is shown. At the end:

- every hand the server acknowledged (302 to the sheet, or 201/200 from the JSON endpoint) is stored;
- no hand was refused for good, and none is still waiting: each of these is a lost hand (the
  player would have to enter it again), so a server that refuses every hand fails, however
  carefully it stores the few it takes;
- no client key is stored twice, and the number of hands is exactly the number of distinct keys
  the server acknowledged; no answer was a 5xx other than 503;
- ``PRAGMA integrity_check`` says ok, and each game's stored results match a fresh computation.

``--import-kill``: a club's export (``--evenings`` of 10 games of 20 hands) is imported into an
empty instance, through the backup page (``POST /import`` to the production server) and with
``flask restore`` in turns, and the server or the command is killed with SIGKILL at a random
moment of it. After each kill the archive must be untouched (empty) or hold the whole export, never
part of it, with ``integrity_check`` ok; an untouched instance takes the next try.

``--server-module``: serve with ``python -m MODULE`` instead of ``scorekeeper`` (the test suite
proves with it that a server refusing every hand fails the run).

Exit code 0 when all holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from datetime import date, timedelta
from pathlib import Path

from sqlite_utils import Database

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402
from scorekeeper.core import checks, rulesets  # noqa: E402
from scorekeeper.services import evenings as evening_service  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.storage import backup, export_check, results, transaction  # noqa: E402
from scorekeeper.storage import db as dbmod  # noqa: E402

ACKED, RETRY, REFUSED = "acknowledged", "retry", "refused"
RETRY_PAUSE = 0.05  # seconds before a queued hand goes again (the phone waits Retry-After: 5 s)


def start_server(module: str, instance: Path, port: int, log: Path) -> subprocess.Popen:
    """The production server (``python -m scorekeeper``: waitress, 8 threads) on this instance."""
    command = [serving.PYTHON, "-m", module, "--host", "127.0.0.1", "--port", str(port), "--threads", "8"]
    try:
        return serving.start(command, port, {"SCOREKEEPER_INSTANCE": str(instance)}, log)
    except RuntimeError as error:  # say why (the log goes with the temporary folder)
        raise RuntimeError(f"{error}:\n{log.read_text(errors='replace')[-3000:]}") from None


class Client:
    """A phone saving hands: remembers which were acknowledged, refused, or are still waiting."""

    def __init__(self, port: int, game_id: int, use_json: bool) -> None:
        self.conn = serving.Connection(port)
        self.game_id, self.use_json = game_id, use_json
        self.token: str | None = None
        self.acked: list[str] = []
        self.refused: list[tuple[str, int]] = []  # (key, status): refused for good
        self.pending: str | None = None  # sent, not acknowledged: send again with the same key
        self.resent = 0
        self.unavailable = 0  # 503 answers (the hand stays queued)
        self.server_errors: Counter[int] = Counter()  # other 5xx answers: retried, and a bug

    async def save(self, key: str) -> str:
        """Send one hand: ACKED, RETRY (no answer, 503, 5xx) or REFUSED."""
        if self.token is None:
            self.token = await serving.open_hand_form(self.conn, self.game_id)
        if self.use_json:
            body = json.dumps({"client_key": key, "sides": serving.QUIET_SIDES, "stock_out": True}).encode()
            status, _, _ = await self.conn.request(
                "POST", f"/games/{self.game_id}/hands.json", body, "application/json", {"X-CSRFToken": self.token}
            )
            ok = status in (200, 201)
        else:
            status, headers, _ = await self.conn.request(
                "POST", f"/games/{self.game_id}/hands/new", serving.quiet_hand_form(self.token, key), keep_cookies=False
            )
            ok = status == 302 and headers.get("location", "").split("#")[0].endswith(f"/games/{self.game_id}")
        if ok:
            return ACKED
        if status == 503:
            self.unavailable += 1
            return RETRY
        if status >= 500:
            self.server_errors[status] += 1
            return RETRY
        self.refused.append((key, status))
        return REFUSED

    async def step(self) -> None:
        """Send the waiting hand, or a new one."""
        if self.pending:
            self.resent += 1
        key = self.pending = self.pending or serving.new_key()
        try:
            outcome = await self.save(key)
        except (OSError, asyncio.IncompleteReadError, ValueError, RuntimeError):
            await self.conn.close()
            await asyncio.sleep(RETRY_PAUSE)  # the server is down: try again soon, same key
            return
        if outcome == ACKED:
            self.acked.append(key)
        if outcome != RETRY:
            self.pending = None
        else:
            await asyncio.sleep(RETRY_PAUSE)

    async def run(self, until: float) -> None:
        """Save hands until the time is up; survive the server going away."""
        while time.monotonic() < until:
            await self.step()

    async def finish(self) -> None:
        """Send the waiting hand until it is answered for good (the server is up now)."""
        for _ in range(50):
            if not self.pending:
                break
            await self.step()
        await self.conn.close()


async def drive(clients: list[Client], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(c.run(until) for c in clients))


def saving_run(args: argparse.Namespace) -> int:
    """Phones saving hands while the server is killed again and again."""
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        path = instance / "scorekeeper.sqlite"
        db = dbmod.open_db(str(path))
        games = [
            game_service.create_game(db, "classic", [f"N{g}", f"E{g}", f"S{g}", f"W{g}"], 0, target=10**6).id
            for g in range(max(1, args.clients // 2))
        ]
        db.close()
        port = serving.free_port()
        log = Path(tmp) / "server.log"
        clients = [Client(port, games[i % len(games)], use_json=i % 2 == 1) for i in range(args.clients)]
        server = start_server(args.server_module, instance, port, log)
        killed = 0

        async def session() -> None:
            nonlocal server, killed
            for round_ in range(args.kills + 1):
                driving = asyncio.ensure_future(drive(clients, args.seconds))
                if round_ < args.kills:
                    await asyncio.sleep(args.seconds * rng.uniform(0.3, 0.9))
                    server.send_signal(signal.SIGKILL)  # mid-flight: some hands are being written right now
                    server.wait()
                    killed += 1
                    await asyncio.sleep(0.2)
                    server = start_server(args.server_module, instance, port, log)
                await driving
            await asyncio.gather(*(c.finish() for c in clients))

        try:
            asyncio.run(session())
        finally:
            serving.stop(server)

        db = dbmod.open_db(str(path))
        integrity = db.execute("pragma integrity_check").fetchone()[0]
        stored = {
            row[0]: row[1]
            for row in db.execute(
                "select client_key, count(*) from hands where client_key is not null group by client_key"
            )
        }
        total = db.execute("select count(*) from hands").fetchone()[0]
        stale_results = []
        for game_id in games:
            before = db.execute("select * from game_results where game_id = ?", [game_id]).fetchone()
            results.refresh_results(db, game_id)
            after = db.execute("select * from game_results where game_id = ?", [game_id]).fetchone()
            if before != after:
                stale_results.append(game_id)
        db.close()

    acked = [key for c in clients for key in c.acked]
    refused = [key for c in clients for key, _ in c.refused]
    refused_statuses = Counter(status for c in clients for _, status in c.refused)
    waiting = [c.pending for c in clients if c.pending]
    missing = [key for key in acked if key not in stored]  # acknowledged, then lost: the worst
    lost = missing + [key for key in refused + waiting if key not in stored]
    doubled = {key: n for key, n in stored.items() if n > 1}
    unacked_stored = set(stored) - set(acked)
    server_errors = sum((c.server_errors for c in clients), Counter())

    failures = []
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    if missing:
        failures.append(f"{len(missing)} acknowledged hands are missing, e.g. {missing[:3]}")
    if refused:
        failures.append(
            f"{len(refused)} hands refused by the server ({dict(refused_statuses)}), "
            f"{len([k for k in refused if k not in stored])} of them never stored"
        )
    if waiting:
        failures.append(f"{len(waiting)} hands still waiting for an answer after the phones' retries")
    if doubled:
        failures.append(f"{len(doubled)} hands stored twice")
    if total != len(set(acked)) + len(unacked_stored):
        failures.append(f"{total} hands stored for {len(set(acked))} acknowledged keys")
    if unacked_stored:
        failures.append(
            f"{len(unacked_stored)} hands stored that no client saw acknowledged (all were resent, so this should be 0)"
        )
    if server_errors:
        failures.append(f"server errors answered: {dict(server_errors)}")
    if stale_results:
        failures.append(f"stored results out of date for games {stale_results}")
    print(
        f"clients {args.clients} ({sum(c.use_json for c in clients)} via the JSON queue), "
        f"server killed {killed} times with SIGKILL"
    )
    print(
        f"hands acknowledged {len(acked)} (distinct keys {len(set(acked))}), stored {total}, refused {len(refused)}, "
        f"lost {len(lost)}, doubled {len(doubled)}"
    )
    print(
        f"resent after no answer or 503 {sum(c.resent for c in clients)}, 503 answers "
        f"{sum(c.unavailable for c in clients)}, other 5xx {sum(server_errors.values())}, "
        f"integrity_check {integrity}, stale results {len(stale_results)}"
    )
    print("PASS" if not failures else "FAIL:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


# --- killed in the middle of an import -----------------------------------------------------------


CLASSIC = rulesets.configure(rulesets.get("classic"))


def club_hand(rng: random.Random) -> list[dict]:
    """A classic hand as a table enters it: one side goes out with its canastas, the other melds
    or not and keeps cards in hand (dealt again until it passes the app's checks)."""
    while True:
        winner = rng.randrange(2)
        sides = []
        for i in range(2):
            out = i == winner
            natural, mixed = (rng.randint(1, 2), rng.randint(0, 2)) if out else (rng.randint(0, 1), rng.randint(0, 1))
            melds = out or natural or mixed or rng.random() < 0.8
            sides.append(
                {
                    "melded_points": 35 * natural + 50 * mixed + 5 * rng.randint(0, 60) if melds else 0,
                    "hand_points": 0 if out else 5 * rng.randint(0, 30),
                    "natural_canastas": natural,
                    "mixed_canastas": mixed,
                    "red_threes": rng.choice([0, 0, 1, 1, 2]),
                    "went_out": "normal" if out else None,
                    "penalties": 0,
                }
            )
        if not checks.read_hand(CLASSIC, sides)[1]:
            return sides


def club_export(evenings: int, seed: int) -> dict:
    """A club's export as the backup page writes it: 40 members, ``evenings`` of 10 games of 20
    hands (a target no game reaches in 20 hands, so every hand belongs), stored through the app's
    own functions and exported by them, so it is in the app's current format."""
    rng = random.Random(seed)
    names = [f"Member {i:02d}" for i in range(1, 41)]
    with tempfile.TemporaryDirectory() as tmp:
        db = dbmod.open_db(str(Path(tmp) / "club.sqlite"))
        with transaction.write(db):  # one transaction: each change inside it is a savepoint
            for e in range(evenings):
                day = (date(2021, 11, 1) + timedelta(weeks=e)).isoformat()
                present = rng.sample(names, 8)
                evening_id = evening_service.create_evening(db, day, present, place="Club").id
                for _ in range(10):
                    seats = rng.sample(present, 4)
                    game_id = game_service.create_game(
                        db, "classic", seats, rng.randrange(4), target=100000, evening_id=evening_id
                    ).id
                    for _ in range(20):
                        verdict = game_service.add_hand(db, game_id, club_hand(rng))
                        assert verdict.ok, verdict
        data = backup.export(db)
        db.close()
    return data


def _post_import(port: int, export: bytes, answers: list) -> None:
    """POST the export to /import as the backup page's form does (its token first); the status
    (or the error, when the server is killed) goes into ``answers``."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        connection.request("GET", "/export")
        page = connection.getresponse()
        body, cookie = page.read(), page.headers.get("Set-Cookie", "").split(";", 1)[0]
        token = serving.CSRF.search(body).group(1).decode()
        boundary = uuid.uuid4().hex
        form = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        form += export + f"\r\n--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie}
        connection.request("POST", "/import", form, headers)
        answers.append(connection.getresponse().status)
        connection.close()
    except (OSError, http.client.HTTPException) as error:
        answers.append(type(error).__name__)


def import_once(way: str, instance: Path, export: Path, log: Path, kill: tuple[str, float] | None) -> dict:
    """Import the export into the instance, through the server (``http``) or ``flask restore``
    (``cli``), and kill it with SIGKILL: ``("time", s)`` s after it began, ``("wal", s)`` s after the
    import began writing to the WAL (the transaction is open: pages of it are spilled, or it is
    committing); None lets it finish."""
    database = instance / "scorekeeper.sqlite"
    wal = Path(f"{database}-wal")
    answers: list = []
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    started = time.monotonic()
    if way == "http":
        port = serving.free_port()  # a new one each time: another program may have taken the last
        process = start_server("scorekeeper", instance, port, log)
        started = time.monotonic()
        sender = threading.Thread(target=_post_import, args=(port, export.read_bytes(), answers))
        sender.start()
    else:
        command = [serving.PYTHON, "-m", "flask", "--app", "scorekeeper", "restore", str(export)]
        with open(log, "ab") as out:
            process = subprocess.Popen(command, cwd=serving.ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def over() -> bool:  # the command ended, or the server answered
        return process.poll() is not None or bool(answers)

    wal_bytes = 0
    if kill is None:
        if way == "http":
            sender.join()
        process.wait() if way == "cli" else serving.stop(process)
    else:
        mode, seconds = kill
        if mode == "wal":  # wait until the import writes, then a little more
            while not over() and not (wal.exists() and wal.stat().st_size > 0):
                time.sleep(0.002)
        deadline = time.monotonic() + seconds
        while not over() and time.monotonic() < deadline:
            time.sleep(0.002)
        wal_bytes = wal.stat().st_size if wal.exists() else 0  # what the import wrote by the kill
        process.send_signal(signal.SIGKILL)
        process.wait()
        if way == "http":
            sender.join()
    answer = answers[0] if answers else process.returncode
    # killed before it answered (the server) or ended (the command): the import may have been cut
    killed = not isinstance(answer, int) if way == "http" else answer == -signal.SIGKILL
    return {"took": time.monotonic() - started, "killed": killed, "answer": answer, "wal_bytes": wal_bytes}


TABLES = ("players", "evenings", "evening_players", "games", "game_seats", "hands")


def archive_state(database: Path, data: dict) -> tuple[str, str]:
    """("untouched" | "imported" | "half: what differs", integrity_check) of the archive after an import."""
    if not database.exists():
        return "untouched", "ok"
    # recovers what the WAL holds, like the next start of the app; closed, it empties the WAL
    db = Database(str(database))
    try:
        integrity = db.execute("pragma integrity_check").fetchone()[0]
        present = {name for (name,) in db.execute("select name from sqlite_master where type = 'table'")}
        counts = {t: db.execute(f"select count(*) from {t}").fetchone()[0] if t in present else 0 for t in TABLES}
        if not any(counts.values()):
            return "untouched", integrity
        copy = backup.export(db)
        for key in ("players", "evenings", "games"):  # the archive (an import may add to a log of changes)
            if copy[key] != data[key]:
                return f"half: {len(copy[key])} {key} of {len(data[key])}, or not as exported ({counts})", integrity
        for (game_id,) in db.execute("select id from games").fetchall():  # the kept figures are whole too
            before = db.execute("select * from game_results where game_id = ?", [game_id]).fetchall()
            results.refresh_results(db, game_id)
            if db.execute("select * from game_results where game_id = ?", [game_id]).fetchall() != before:
                return f"half: the kept results of game {game_id} are not its hands'", integrity
        return "imported", integrity
    finally:
        db.close()


def import_kill_run(args: argparse.Namespace) -> int:
    """Kill the server, or ``flask restore``, in the middle of importing a big export."""
    rng = random.Random(args.seed)
    data = club_export(args.evenings, args.seed or 1)
    export_check.validate(data)  # the export itself is sound: what goes wrong is the kill's doing
    hands = sum(len(g["hands"]) for g in data["games"])
    outcomes: Counter[str] = Counter()
    rounds = []
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        export = tmp / "export.json"
        export.write_text(json.dumps(data, indent=1))
        log = tmp / "server.log"
        numbers = iter(range(10**6))

        def fresh() -> Path:
            """An empty instance, migrated as the app leaves it (its WAL empty, so what the WAL holds
            at a kill is the import's)."""
            instance = tmp / f"instance-{next(numbers)}"
            instance.mkdir()
            dbmod.open_db(str(instance / "scorekeeper.sqlite")).close()
            return instance

        # how long a whole import takes each way, to kill it within that time
        whole = {}
        for way in ("http", "cli"):
            instance = fresh()
            whole[way] = import_once(way, instance, export, log, None)
            state, integrity = archive_state(instance / "scorekeeper.sqlite", data)
            if state != "imported" or integrity != "ok":
                failures.append(f"an import not killed ({way}) left the archive {state}, integrity_check {integrity}")
        instance = fresh()
        for round_ in range(args.kills):
            # in turns: through the server and the command; at a moment of the whole import's time,
            # and within half a second of the import starting to write (the transaction open)
            way = ("http", "cli")[round_ % 2]
            if (round_ // 2) % 2:
                kill = ("wal", rng.uniform(0, 0.5))
            else:
                kill = ("time", whole[way]["took"] * rng.uniform(0.2, 1.1))
            done = import_once(way, instance, export, log, kill)
            state, integrity = archive_state(instance / "scorekeeper.sqlite", data)
            outcomes[state.split(":")[0]] += 1
            rounds.append((way, done, state))
            if state.startswith("half") or integrity != "ok":
                failures.append(f"round {round_ + 1} ({way}): the archive is {state}, integrity_check {integrity}")
            if state != "untouched":  # imported: the next try needs an empty archive
                instance = fresh()
        # an archive left untouched by a kill takes the whole import afterwards
        last = import_once("cli", instance, export, log, None)
        state, integrity = archive_state(instance / "scorekeeper.sqlite", data)
        if state != "imported" or integrity != "ok":
            failures.append(f"the import after the kills left the archive {state}, integrity_check {integrity}")

    killed = [r for r in rounds if r[1]["killed"]]
    mid_write = [r for r in killed if r[1]["wal_bytes"] > 0 and r[2] == "untouched"]
    print(
        f"export: {len(data['players'])} players, {len(data['evenings'])} evenings, {len(data['games'])} games, "
        f"{hands} hands ({export_size(data) / 1e6:.1f} MB); a whole import takes {whole['http']['took']:.1f} s "
        f"through POST /import, {whole['cli']['took']:.1f} s with flask restore"
    )
    by_server = sum(1 for r in killed if r[0] == "http")
    print(
        f"imports killed with SIGKILL {len(killed)} of {len(rounds)} "
        f"({by_server} server, {len(killed) - by_server} flask restore); "
        f"{len(mid_write)} of them after the import had begun writing (its pages in the WAL, not committed)"
    )
    print(
        f"archive afterwards: untouched {outcomes['untouched']}, fully imported {outcomes['imported']}, "
        f"half {outcomes['half']}; the import after the kills: {last['answer']!r}, {last['took']:.1f} s"
    )
    print("PASS" if not failures else "FAIL:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


def export_size(data: dict) -> int:
    return len(json.dumps(data, indent=1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--kills", type=int, default=None, help="kills (default 4; 6 with --import-kill)")
    parser.add_argument("--seconds", type=float, default=5.0, help="saving time between two kills (default 5)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--server-module", default="scorekeeper", help="serve with python -m MODULE")
    parser.add_argument("--import-kill", action="store_true", help="kill in the middle of importing an export")
    parser.add_argument("--evenings", type=int, default=30, help="with --import-kill: the export's size (default 30)")
    args = parser.parse_args()
    if args.import_kill:
        args.kills = 6 if args.kills is None else args.kills
        return import_kill_run(args)
    args.kills = 4 if args.kills is None else args.kills
    return saving_run(args)


if __name__ == "__main__":
    sys.exit(main())
