"""Speed under load, measured against a baseline in the same run, on the production server.

    .venv/bin/python benchmarks/load.py                 # about 2 minutes
    .venv/bin/python benchmarks/load.py --seconds 3     # quicker, noisier

Starts the score keeper with its production command (``python -m scorekeeper``: waitress, 8
threads) on a fresh instance, and beside it a minimal Flask hello-world app served the same way
(benchmarks/hello.py). For 1, 10 and 50 concurrent clients (each a keep-alive connection with its
own cookies, like a phone) it measures, for the same number of seconds each:

- the scoreboard page of a 15-hand game (GET /games/<id>) against hello-world GET /;
- saving a hand through the hand form (POST /games/<id>/hands/new, CSRF token and a fresh
  client key each time; answered 302) against hello-world's POST / (reads a form, redirects).

It reports throughput (requests per second), p50 and p99 latency, and each as a ratio to the
baseline; then the scoreboard's page weight as a phone's browser loads it (headless Chromium when
installed: every request, bytes on the wire, all first-party). The client runs on the same
machine (asyncio, one process), so absolute figures depend on it; the ratios are the point.

Targets (issue 6): scoreboard throughput at least half the baseline's, p99 under 10x the
baseline's p99 at 50 clients, scoreboard page under 30 KB in total. The exit code is 1 when a
target is missed. Results are also written to benchmarks/results/load.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402
from scorekeeper import db as dbmod  # noqa: E402
from scorekeeper import store  # noqa: E402

LEVELS = (1, 10, 50)
GAMES_PER_CLIENT = 4  # hands posted in a run spread over these, so no game grows without end

# A game as evenings go: 15 hands, both sides opening and going out in turn, still under way.
TYPICAL = [
    [
        {"melded_points": 185, "natural_canastas": 1, "red_threes": 1, "went_out": "normal"},
        {"melded_points": 120, "hand_points": 45},
    ],
    [{"melded_points": 90, "hand_points": 30}, {"melded_points": 230, "mixed_canastas": 1, "went_out": "normal"}],
    [
        {"melded_points": 70, "hand_points": 115, "red_threes": 1},
        {"melded_points": 160, "mixed_canastas": 1, "went_out": "concealed"},
    ],
]


def prepare(instance: Path, clients: int) -> tuple[int, list[int]]:
    """A fresh instance with the game to look at and the games to post hands to."""
    db = dbmod.open_db(str(instance / "scorekeeper.sqlite"))
    shown = store.create_game(db, "classic", ["Anna", "Bert", "Carla", "Dieter"], 0)
    for i in range(15):
        store.add_hand(db, shown, TYPICAL[i % len(TYPICAL)])
    posted = []
    for c in range(clients * GAMES_PER_CLIENT):
        game_id = store.create_game(db, "classic", [f"P{c}a", f"P{c}b", f"P{c}c", f"P{c}d"], 0, target=10**6)
        for _ in range(10):
            store.add_hand(db, game_id, serving.QUIET_SIDES, True)
        posted.append(game_id)
    db.close()
    return shown, posted


async def run_level(port: int, clients: int, seconds: float, make_request) -> dict:
    """``clients`` connections sending requests back to back for ``seconds``; latencies in ms."""
    latencies: list[float] = []
    errors = 0
    connections = [serving.Connection(port) for _ in range(clients)]
    states = [await make_request.setup(conn, n) for n, conn in enumerate(connections)]
    stop_at = time.perf_counter() + seconds

    async def client(conn, state):
        nonlocal errors
        while time.perf_counter() < stop_at:
            method, path, body, expected = make_request.next(state)
            started = time.perf_counter()
            status, _, _ = await conn.request(method, path, body)
            latencies.append((time.perf_counter() - started) * 1000)
            if status != expected:
                errors += 1

    began = time.perf_counter()
    await asyncio.gather(*(client(c, s) for c, s in zip(connections, states)))
    elapsed = time.perf_counter() - began
    for conn in connections:
        await conn.close()
    latencies.sort()
    return {
        "clients": clients,
        "requests": len(latencies),
        "errors": errors,
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
    }


class Get:
    """GET one path."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def setup(self, conn, n):
        return None

    def next(self, state):
        return "GET", self.path, b"", 200


class HelloPost:
    """The baseline's form POST."""

    async def setup(self, conn, n):
        return None

    def next(self, state):
        return "POST", "/", serving.quiet_hand_form("token", serving.new_key()), 302


class HandPost:
    """Save a hand through the hand form, rotating over this client's games."""

    def __init__(self, games: list[int]) -> None:
        self.games = games

    async def setup(self, conn, n):
        mine = self.games[n * GAMES_PER_CLIENT : (n + 1) * GAMES_PER_CLIENT]
        token = await serving.open_hand_form(conn, mine[0])
        return {"games": mine, "token": token, "i": 0}

    def next(self, state):
        state["i"] += 1
        game_id = state["games"][state["i"] % len(state["games"])]
        return "POST", f"/games/{game_id}/hands/new", serving.quiet_hand_form(state["token"], serving.new_key()), 302


def page_weight(port: int, game_id: int) -> dict:
    """The scoreboard as a phone loads it: requests and bytes on the wire (headless Chromium)."""
    url = f"http://127.0.0.1:{port}/games/{game_id}"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"error": "Playwright is not installed (scripts/setup.sh test installs it)"}
    if not Path("/usr/bin/chromium").exists():
        return {"error": "Chromium is not installed (apt-get install chromium)"}
    records = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        page = browser.new_page(viewport={"width": 390, "height": 844}, service_workers="block")
        page.on("requestfinished", lambda request: records.append(request))
        page.goto(url, wait_until="networkidle")
        page.wait_for_timeout(500)
        rows = []
        for request in records:
            sizes = request.sizes()
            rows.append(
                {
                    "url": request.url,
                    "bytes": sizes["responseBodySize"] + sizes["responseHeadersSize"],
                    "body": sizes["responseBodySize"],
                }
            )
        browser.close()
    first_party = all(urlsplit(r["url"]).netloc == f"127.0.0.1:{port}" for r in rows)
    return {"requests": len(rows), "bytes": sum(r["bytes"] for r in rows), "first_party": first_party, "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per measurement (default 6)")
    parser.add_argument("--threads", type=int, default=8, help="server threads, both servers (default 8)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        shown, posted = prepare(instance, max(LEVELS))
        app_port, hello_port = serving.free_port(), serving.free_port()
        app = serving.start_scorekeeper(instance, app_port, args.threads, log=Path(tmp) / "app.log")
        hello = serving.start(
            [serving.PYTHON, str(HERE / "hello.py"), "--port", str(hello_port), "--threads", str(args.threads)],
            hello_port,
        )
        try:
            results = {"seconds": args.seconds, "threads": args.threads, "levels": []}
            for clients in LEVELS:
                row = {"clients": clients}
                for name, port, maker in (
                    ("hello_get", hello_port, Get("/")),
                    ("scoreboard", app_port, Get(f"/games/{shown}")),
                    ("hello_post", hello_port, HelloPost()),
                    ("hand_post", app_port, HandPost(posted)),
                ):
                    row[name] = asyncio.run(run_level(port, clients, args.seconds, maker))
                    print(
                        f"{clients:>3} clients  {name:<11} {row[name]['rps']:8.0f} req/s  p50 {row[name]['p50']:7.2f} ms"
                        f"  p99 {row[name]['p99']:7.2f} ms  errors {row[name]['errors']}",
                        flush=True,
                    )
                results["levels"].append(row)
            results["page"] = page_weight(app_port, shown)
        finally:
            serving.stop(app)
            serving.stop(hello)

    print()
    print(
        "| clients | page | req/s | p50 ms | p99 ms | baseline req/s | baseline p99 ms | throughput ratio | p99 ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failures = []
    for row in results["levels"]:
        for name, base in (("scoreboard", "hello_get"), ("hand_post", "hello_post")):
            mine, ref = row[name], row[base]
            ratio, p99_ratio = mine["rps"] / ref["rps"], mine["p99"] / ref["p99"]
            mine.update(throughput_ratio=ratio, p99_ratio=p99_ratio)
            print(
                f"| {row['clients']} | {name} | {mine['rps']:.0f} | {mine['p50']:.2f} | {mine['p99']:.2f} | {ref['rps']:.0f} | "
                f"{ref['p99']:.2f} | {ratio:.2f} | {p99_ratio:.1f} |"
            )
            if mine["errors"]:
                failures.append(f"{name} at {row['clients']} clients: {mine['errors']} unexpected answers")
        board = row["scoreboard"]
        if board["throughput_ratio"] < 0.5:
            failures.append(
                f"scoreboard throughput at {row['clients']} clients is {board['throughput_ratio']:.2f} of the baseline (target ≥ 0.5)"
            )
        if row["clients"] == 50 and board["p99_ratio"] >= 10:
            failures.append(f"scoreboard p99 at 50 clients is {board['p99_ratio']:.1f}x the baseline's (target < 10x)")
    page = results["page"]
    if "error" in page:
        print(f"\nPage weight not measured: {page['error']}")
    else:
        print(
            f"\nScoreboard page weight: {page['bytes']} bytes ({page['bytes'] / 1024:.1f} KB) in {page['requests']} requests, "
            f"{'all first-party' if page['first_party'] else 'NOT all first-party'}"
        )
        for r in page["rows"]:
            print(f"    {r['bytes']:>7}  {urlsplit(r['url']).path}")
        if page["bytes"] >= 30 * 1024:
            failures.append(f"scoreboard page weighs {page['bytes'] / 1024:.1f} KB (target < 30 KB)")
        if not page["first_party"]:
            failures.append("the scoreboard loads something from another site")
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "load.json").write_text(json.dumps(results, indent=1))
    print("\n" + ("All targets met." if not failures else "Targets missed:\n  " + "\n  ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
