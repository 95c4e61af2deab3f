"""What ``PRAGMA synchronous = FULL`` costs against NORMAL: bare SQLite commits, and hand saves
through the production server's form.

    .venv/bin/python benchmarks/sync_cost.py                  # 2000 commits and 2000 saves a setting
    .venv/bin/python benchmarks/sync_cost.py --saves 500

The app opens every connection with FULL (scorekeeper/storage/db.py): a commit is on the disk before the
phone is told "saved". For NORMAL the same server is started through a wrapper that sets
``synchronous = NORMAL`` on each connection ``open_db`` returns. The settings are measured in
turns (FULL, NORMAL, FULL, NORMAL), each on a fresh instance, in the same folder and disk:

- bare commits: ``BEGIN IMMEDIATE``, one small insert, ``COMMIT`` in a WAL database;
- one phone: hands saved one after another through ``POST /games/<id>/hands/new`` (answered 302),
  the time of each save as the phone sees it;
- eight phones: saving back to back for a few seconds, hands a second.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serving  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.storage import db as dbmod  # noqa: E402

# the production server, each connection switched to NORMAL after open_db has set FULL
NORMAL_SERVER = """
import sys
from scorekeeper import db  # noqa: E402
from scorekeeper.__main__ import main  # noqa: E402

opened = db.open_db


def open_db(path, migrate=True):
    connection = opened(path, migrate)
    connection.execute("PRAGMA synchronous = NORMAL")
    return connection


db.open_db = open_db
main()
"""
SETTINGS = {"FULL": ["-m", "scorekeeper"], "NORMAL": ["-c", NORMAL_SERVER]}


def bare_commits(folder: Path, setting: str, count: int) -> list[float]:
    """Seconds of each of ``count`` one-row transactions in a WAL database."""
    connection = sqlite3.connect(folder / f"bare-{setting}.sqlite", isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute(f"PRAGMA synchronous = {setting}")
    connection.execute("create table if not exists t (id integer primary key, body text)")
    times = []
    for i in range(count):
        started = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("insert into t (body) values (?)", [f"hand {i}" * 10])
        connection.execute("COMMIT")
        times.append(time.perf_counter() - started)
    connection.close()
    return times


def start(setting: str, instance: Path, port: int, log: Path):
    command = [serving.PYTHON, *SETTINGS[setting], "--host", "127.0.0.1", "--port", str(port), "--threads", "8"]
    return serving.start(command, port, {"SCOREKEEPER_INSTANCE": str(instance)}, log)


async def one_phone(port: int, games: list[int], count: int) -> list[float]:
    """Seconds of each save, one phone saving ``count`` hands in turn over the games."""
    phone = serving.Connection(port)
    tokens = {game: await serving.open_hand_form(phone, game) for game in games}
    times = []
    for i in range(count):
        game = games[i % len(games)]
        body = serving.quiet_hand_form(tokens[game], serving.new_key())
        started = time.perf_counter()
        status, _, _ = await phone.request("POST", f"/games/{game}/hands/new", body, keep_cookies=False)
        times.append(time.perf_counter() - started)
        if status != 302:
            raise RuntimeError(f"a save was answered {status}")
    await phone.close()
    return times


async def eight_phones(port: int, games: list[int], seconds: float) -> int:
    """Hands saved by eight phones saving back to back for ``seconds``."""
    saved = 0

    async def phone(game: int) -> None:
        nonlocal saved
        connection = serving.Connection(port)
        token = await serving.open_hand_form(connection, game)
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            body = serving.quiet_hand_form(token, serving.new_key())
            status, _, _ = await connection.request("POST", f"/games/{game}/hands/new", body, keep_cookies=False)
            saved += status == 302
        await connection.close()

    await asyncio.gather(*(phone(games[i % len(games)]) for i in range(8)))
    return saved


def server_saves(folder: Path, setting: str, saves: int, seconds: float) -> tuple[list[float], float]:
    """(seconds of each of one phone's saves, hands a second with eight phones) on a fresh instance."""
    instance = Path(tempfile.mkdtemp(dir=folder))
    db = dbmod.open_db(str(instance / "scorekeeper.sqlite"))
    games = [
        game_service.create_game(db, "classic", [f"N{g}", f"E{g}", f"S{g}", f"W{g}"], 0, target=10**6).id
        for g in range(8)
    ]
    db.close()
    port = serving.free_port()
    server = start(setting, instance, port, folder / "server.log")
    try:
        times = asyncio.run(one_phone(port, games, saves))
        rate = asyncio.run(eight_phones(port, games, seconds)) / seconds
    finally:
        serving.stop(server)
    return times, rate


def ms(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * share))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000, help="bare commits a setting (default 2000)")
    parser.add_argument("--saves", type=int, default=2000, help="one phone's saves a setting (default 2000)")
    parser.add_argument("--seconds", type=float, default=5.0, help="eight phones' time a turn (default 5)")
    args = parser.parse_args()
    commits: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    saves: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    rates: dict[str, list[float]] = {"FULL": [], "NORMAL": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for _turn in range(2):
            for setting in ("FULL", "NORMAL"):
                commits[setting] += bare_commits(folder, setting, args.commits // 2)
                times, rate = server_saves(folder, setting, args.saves // 2, args.seconds / 2)
                saves[setting] += times
                rates[setting].append(rate)
    print(
        f"{'':8} {'commit p50 ms':>14} {'commit p99 ms':>14} {'save p50 ms':>12} {'save p99 ms':>12} {'8 phones/s':>11}"
    )
    for setting in ("FULL", "NORMAL"):
        print(
            f"{setting:8} {ms(commits[setting], 0.5):14.3f} {ms(commits[setting], 0.99):14.3f} "
            f"{ms(saves[setting], 0.5):12.2f} {ms(saves[setting], 0.99):12.2f} {statistics.mean(rates[setting]):11.1f}"
        )
    full, normal = statistics.median(saves["FULL"]), statistics.median(saves["NORMAL"])
    print(
        f"FULL costs {(full - normal) * 1000:.2f} ms a save as one phone sees it ({full / normal:.2f}x NORMAL), "
        f"{ms(commits['FULL'], 0.5) - ms(commits['NORMAL'], 0.5):.3f} ms a bare commit; "
        f"{len(commits['FULL'])} commits and {len(saves['FULL'])} saves a setting"
    )


if __name__ == "__main__":
    main()
