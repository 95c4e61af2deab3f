"""Fault test: kill the production server in the middle of saving hands, and check nothing is lost or doubled.

    .venv/bin/python benchmarks/fault.py                       # 8 clients, 4 kills, about 30 s
    .venv/bin/python benchmarks/fault.py --clients 20 --kills 10

Several clients (each a keep-alive connection with its own session, like a phone) save hands back
to back against ``python -m scorekeeper`` (waitress): half through the hand form, half through the
JSON endpoint the phones' offline queue uses, each hand with its own client key. At a random moment
the server is killed with SIGKILL (no chance to tidy up), then started again on the same files.
A client whose hand got no answer sends the same hand again with the same key once the server is
back, as the phone's queue does. At the end:

- every hand the server acknowledged (302 to the sheet, or 201/200 from the JSON endpoint) is stored;
- no client key is stored twice, and the number of hands is exactly the number of distinct keys
  the server acknowledged;
- ``PRAGMA integrity_check`` says ok, and each game's stored results match a fresh computation.

Exit code 0 when all holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402
from scorekeeper import db as dbmod  # noqa: E402
from scorekeeper import store  # noqa: E402


class Client:
    """A phone saving hands: remembers which were acknowledged and which are still unanswered."""

    def __init__(self, port: int, game_id: int, use_json: bool) -> None:
        self.conn = serving.Connection(port)
        self.game_id, self.use_json = game_id, use_json
        self.token: str | None = None
        self.acked: list[str] = []
        self.pending: str | None = None  # sent, no answer: send again with the same key
        self.resent = 0
        self.refused = 0

    async def save(self, key: str) -> bool:
        """Send one hand; True when the server acknowledged it."""
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
                "POST", f"/games/{self.game_id}/hands/new", serving.quiet_hand_form(self.token, key)
            )
            ok = status == 302 and headers.get("location", "").split("#")[0].endswith(f"/games/{self.game_id}")
        if not ok:
            self.refused += 1
        return ok

    async def run(self, until: float) -> None:
        """Save hands until the time is up; survive the server going away."""
        while time.monotonic() < until:
            key = self.pending or serving.new_key()
            if self.pending:
                self.resent += 1
            self.pending = key
            try:
                if await self.save(key):
                    self.acked.append(key)
                    self.pending = None
            except (OSError, asyncio.IncompleteReadError, ValueError, RuntimeError):
                await self.conn.close()
                await asyncio.sleep(0.05)  # the server is down: try again soon, same key

    async def finish(self) -> None:
        """Send the unanswered hand once more (the server is up now)."""
        for _ in range(50):
            if not self.pending:
                break
            try:
                self.resent += 1
                if await self.save(self.pending):
                    self.acked.append(self.pending)
                    self.pending = None
            except (OSError, asyncio.IncompleteReadError, ValueError, RuntimeError):
                await self.conn.close()
                await asyncio.sleep(0.1)
        await self.conn.close()


async def drive(clients: list[Client], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(c.run(until) for c in clients))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0, help="saving time between two kills (default 5)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        path = instance / "scorekeeper.sqlite"
        db = dbmod.open_db(str(path))
        games = [
            store.create_game(db, "classic", [f"N{g}", f"E{g}", f"S{g}", f"W{g}"], 0, target=10**6)
            for g in range(max(1, args.clients // 2))
        ]
        db.close()
        port = serving.free_port()
        log = Path(tmp) / "server.log"
        clients = [
            serving_client
            for serving_client in (
                Client(port, games[i % len(games)], use_json=i % 2 == 1) for i in range(args.clients)
            )
        ]
        server = serving.start_scorekeeper(instance, port, log=log)
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
                    server = serving.start_scorekeeper(instance, port, log=log)
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
        acked = [key for c in clients for key in c.acked]
        missing = [key for key in acked if key not in stored]
        doubled = {key: n for key, n in stored.items() if n > 1}
        unacked_stored = set(stored) - set(acked)
        stale_results = []
        for game_id in games:
            before = db.execute("select * from game_results where game_id = ?", [game_id]).fetchone()
            store.refresh_results(db, game_id)
            after = db.execute("select * from game_results where game_id = ?", [game_id]).fetchone()
            if before != after:
                stale_results.append(game_id)
        db.close()

    failures = []
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    if missing:
        failures.append(f"{len(missing)} acknowledged hands are missing, e.g. {missing[:3]}")
    if doubled:
        failures.append(f"{len(doubled)} hands stored twice")
    if total != len(set(acked)) + len(unacked_stored):
        failures.append(f"{total} hands stored for {len(set(acked))} acknowledged keys")
    if unacked_stored:
        failures.append(
            f"{len(unacked_stored)} hands stored that no client saw acknowledged (all were resent, so this should be 0)"
        )
    if stale_results:
        failures.append(f"stored results out of date for games {stale_results}")
    print(
        f"clients {args.clients} ({sum(c.use_json for c in clients)} via the JSON queue), server killed {killed} times with SIGKILL"
    )
    print(
        f"hands acknowledged {len(acked)} (distinct keys {len(set(acked))}), stored {total}, resent after no answer "
        f"{sum(c.resent for c in clients)}, refused answers {sum(c.refused for c in clients)}"
    )
    print(
        f"missing {len(missing)}, doubled {len(doubled)}, integrity_check {integrity}, stale results {len(stale_results)}"
    )
    print("PASS" if not failures else "FAIL:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
