"""Speed under load, measured against a baseline in the same run, on the production server.

    .venv/bin/python benchmarks/load.py                 # about 2 minutes
    .venv/bin/python benchmarks/load.py --seconds 3     # quicker, noisier

Starts the score keeper with its production command (``python -m scorekeeper``: waitress, 8
threads) on a fresh instance, and beside it a minimal Flask hello-world app served the same way
(benchmarks/hello.py). For 1, 10 and 50 concurrent clients (each a keep-alive connection with its
own cookies and asking for compressed answers, like a phone; a client of a page has opened it once
before the timed seconds, as a phone at the table has) it measures, for the same number of seconds each:

- the scoreboard page of a 15-hand game (GET /games/<id>) against hello-world GET /;
- saving a hand through the hand form (POST /games/<id>/hands/new, CSRF token and a fresh
  client key each time; answered 302) against hello-world's POST / (reads a form, redirects), and
  against the floor of an honest save on this stack (benchmarks/floor.py: a minimal Flask form POST
  with the CSRF check, a session write and one row committed with WAL and synchronous=FULL).

It reports throughput (requests per second), p50 and p99 latency, and each as a ratio to the
baseline; what 50 new phones opening the score sheet at the same moment wait (each its first
request: a new session and form token), beside the same for hello-world; then the scoreboard's
page weight as a phone's browser loads it (headless Chromium when installed: every request, bytes
on the wire, all first-party). The client runs on the same
machine (asyncio, one process), so absolute figures depend on it; the ratios are the point.

The scoreboard is measured twice: as served (rendered once per change of the archive, then from
the page cache) and on a second server on a copy of the archive with the page cache off
(``PAGE_CACHE = False``: every view renders the sheet anew, the app's whole work).

Then how a save's cost grows (one phone, saves taking turns so that noise hits all kinds alike):
saves at hands 1–5, 26–30 and 36–40 of a game, and saves into a new game on the 5-year club
archive of benchmarks/generate.py (850 weekly evenings, about 60 000 hands) against the same on an empty
archive.

Targets: scoreboard throughput at least half the baseline's at every level and at least the
baseline's at 50 clients, its p99 under 2x the baseline's p99 at 50 clients, scoreboard page
under 30 KB in total; hand save throughput at least 0.2x hello-world's form POST and at least 0.9x
the floor of an honest save with one phone, its p99 under 10x hello-world's at 50 phones, a save
late in a game and a save on the club archive at most 1.2x an early one on an empty archive.
Every request refused or left unanswered, baselines included, is a failure. The exit code is 1
when a target is missed. Results are also written to benchmarks/results/load.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402
from scorekeeper.core import checks, rulesets, scoring  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.storage import db as dbmod  # noqa: E402

LEVELS = (1, 10, 50)
GAMES_PER_CLIENT = 4  # hands posted in a run spread over these, so no game grows without end
# What every phone's browser sends with each request, the baselines' clients too: the score sheet comes
# compressed (6 KB) as phones get it and as the page weight below is measured, not its 55 KB of HTML.
BROWSER = {"Accept-Encoding": "gzip, deflate"}

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


def _saved(verdict) -> int:
    """A hand the set-up saves through the service (the one write path): stored, or the run stops."""
    assert verdict.ok, verdict
    return verdict.id


def prepare_finished(instance: Path) -> int:
    """A game of the same 15 hands whose target is the winner's total after the 15th: it ends with that
    hand (a finished game takes no more hands). Its scoreboard is the page the weight target was set on
    (no next hand's form to fetch ahead)."""
    rules = rulesets.configure(rulesets.get("classic"))
    hands = [checks.read_hand(rules, TYPICAL[i % len(TYPICAL)])[0] for i in range(15)]
    before, after = scoring.play(rules, hands[:14]).totals, scoring.play(rules, hands).totals
    assert max(after) > max(before) and list(after).count(max(after)) == 1, (before, after)
    db = dbmod.open_db(str(instance / "scorekeeper.sqlite"))
    game = game_service.create_game(db, "classic", ["Anna", "Bert", "Carla", "Dieter"], 0, target=max(after)).id
    for i in range(15):
        _saved(game_service.add_hand(db, game, TYPICAL[i % len(TYPICAL)]))
    db.close()
    return game


def prepare(instance: Path, clients: int) -> tuple[int, list[int]]:
    """A fresh instance with the game to look at and the games to post hands to."""
    db = dbmod.open_db(str(instance / "scorekeeper.sqlite"))
    # a game still in play after 15 hands (the target above them: a finished game takes no more hands)
    shown = game_service.create_game(db, "classic", ["Anna", "Bert", "Carla", "Dieter"], 0, target=10**5).id
    for i in range(15):
        _saved(game_service.add_hand(db, shown, TYPICAL[i % len(TYPICAL)]))
    posted = []
    for c in range(clients * GAMES_PER_CLIENT):
        game_id = game_service.create_game(db, "classic", [f"P{c}a", f"P{c}b", f"P{c}c", f"P{c}d"], 0, target=10**6).id
        for _ in range(10):
            _saved(game_service.add_hand(db, game_id, serving.QUIET_SIDES, True))
        posted.append(game_id)
    db.close()
    return shown, posted


async def run_level(port: int, clients: int, seconds: float, make_request) -> dict:
    """``clients`` connections sending requests back to back for ``seconds``; latencies in ms."""
    latencies: list[float] = []
    errors = 0
    connections = [serving.Connection(port, BROWSER) for _ in range(clients)]
    states = [await make_request.setup(conn, n) for n, conn in enumerate(connections)]
    stop_at = time.perf_counter() + seconds

    async def client(conn, state):
        nonlocal errors
        while time.perf_counter() < stop_at:
            method, path, body, expected = make_request.next(state)
            started = time.perf_counter()
            # a save's "Hand saved." cookie is read by the next page a phone opens; kept here without that
            # page, the messages would pile up in the cookie
            try:
                status, _, _ = await conn.request(method, path, body, keep_cookies=method != "POST")
            except (OSError, asyncio.IncompleteReadError):  # unanswered: a failure too, then a new connection
                status = None
                await conn.close()
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
    """GET one path, on a connection that has opened it once before the timed seconds (as a phone that
    has the page open and looks again; the baseline the same way). What a first look costs is measured
    apart (``first_looks``)."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def setup(self, conn, n):
        status, _, _ = await conn.request("GET", self.path)
        if status != 200:
            raise RuntimeError(f"GET {self.path}: {status}")
        return None

    def next(self, state):
        return "GET", self.path, b"", 200


async def first_looks(port: int, path: str, clients: int) -> dict:
    """``clients`` new phones opening ``path`` at the same moment, each its first request (a new
    session and form token: the app's whole work for a phone it has not seen); latencies in ms."""
    connections = [serving.Connection(port, BROWSER) for _ in range(clients)]

    async def look(conn) -> tuple[float, int | None]:
        started = time.perf_counter()
        try:
            status, _, _ = await conn.request("GET", path)
        except (OSError, asyncio.IncompleteReadError):
            status = None
        return (time.perf_counter() - started) * 1000, status

    answers = await asyncio.gather(*(look(c) for c in connections))
    for conn in connections:
        await conn.close()
    latencies = sorted(ms for ms, _ in answers)
    return {
        "clients": clients,
        "errors": sum(1 for _, status in answers if status != 200),
        "p50": statistics.median(latencies),
        "max": latencies[-1],
    }


class HelloPost:
    """The baseline's form POST."""

    async def setup(self, conn, n):
        return None

    def next(self, state):
        return "POST", "/", serving.quiet_hand_form("token", serving.new_key()), 302


class FloorPost:
    """The floor of an honest save (benchmarks/floor.py): its form's token, then saves with it."""

    async def setup(self, conn, n):
        status, headers, page = await conn.request("GET", "/form")
        match = serving.CSRF.search(serving.body_of(headers, page))
        if status != 200 or not match:
            raise RuntimeError(f"the floor's form: {status}")
        return match.group(1).decode()

    def next(self, state):
        return "POST", "/", serving.quiet_hand_form(state, serving.new_key()), 302


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


# --- how a save's cost grows with the game and with the archive ---------------------------------

GROWTH_GAMES = 30  # games of each kind; five saves in each


def prepare_growth(path: Path, hands_before: tuple[int, ...]) -> dict[int, list[int]]:
    """Games with these many hands already played (a target no game reaches), GROWTH_GAMES of each."""
    db = dbmod.open_db(str(path))
    games: dict[int, list[int]] = {}
    for before in hands_before:
        for g in range(GROWTH_GAMES):
            game_id = game_service.create_game(db, "classic", [f"G{before}-{g}{s}" for s in "abcd"], 0, target=10**6).id
            for _ in range(before):
                _saved(game_service.add_hand(db, game_id, serving.QUIET_SIDES, True))
            games.setdefault(before, []).append(game_id)
    db.close()
    return games


async def timed_saves(port: int, plan: list[tuple[str, int]]) -> dict[str, list[float]]:
    """One phone saving hands one after another, in the order of ``plan`` ((label, game id), ...);
    each save's time in ms, by label. Every save opens with the cookies of its form, as a phone's does."""
    conn = serving.Connection(port)
    token = await serving.open_hand_form(conn, plan[0][1])
    times: dict[str, list[float]] = {}
    for label, game_id in plan:
        body = serving.quiet_hand_form(token, serving.new_key())
        started = time.perf_counter()
        status, _, _ = await conn.request("POST", f"/games/{game_id}/hands/new", body, keep_cookies=False)
        elapsed = (time.perf_counter() - started) * 1000
        if status != 302:
            raise RuntimeError(f"save into game {game_id}: {status}")
        times.setdefault(label, []).append(elapsed)
    await conn.close()
    return times


def interleave(kinds: dict[str, list[int]], per_game: int = 5) -> list[tuple[str, int]]:
    """Saves taking turns between the kinds, ``per_game`` into each game, so noise hits all alike."""
    plan = []
    for g in range(GROWTH_GAMES):
        for _ in range(per_game):
            for label, started in kinds.items():
                plan.append((label, started[g]))
    return plan


async def timed_pairs(ports: dict[str, int], games: dict[str, list[int]]) -> dict[str, list[float]]:
    """Saves alternating between two servers (same kind of game, different archives)."""
    conns = {label: serving.Connection(port) for label, port in ports.items()}
    tokens = {label: await serving.open_hand_form(conns[label], games[label][0]) for label in ports}
    times: dict[str, list[float]] = {label: [] for label in ports}
    for g in range(GROWTH_GAMES):
        for _ in range(5):
            for label, conn in conns.items():
                body = serving.quiet_hand_form(tokens[label], serving.new_key())
                started = time.perf_counter()
                status, _, _ = await conn.request(
                    "POST", f"/games/{games[label][g]}/hands/new", body, keep_cookies=False
                )
                times[label].append((time.perf_counter() - started) * 1000)
                if status != 302:
                    raise RuntimeError(f"save on the {label} archive: {status}")
    for conn in conns.values():
        await conn.close()
    return times


CLUB_EVENINGS = 850  # a weekly club's 16 years, about 60 000 hands: the archive a save is measured on


def big_archive() -> Path:
    """A big club archive (benchmarks/generate.py, generated once: about a minute)."""
    from benchmarks.generate import club_archive  # noqa: PLC0415  (only this measurement needs it)

    return club_archive(CLUB_EVENINGS)


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
        finished = prepare_finished(instance)
        # the same archive on a server with the page cache off: every view renders the sheet anew
        uncached = Path(tmp) / "instance-uncached"
        shutil.copytree(instance, uncached)
        (uncached / "config.py").write_text("PAGE_CACHE = False\n")
        app_port, hello_port, uncached_port = serving.free_port(), serving.free_port(), serving.free_port()
        app = serving.start_scorekeeper(instance, app_port, args.threads, log=Path(tmp) / "app.log")
        app_uncached = serving.start_scorekeeper(uncached, uncached_port, args.threads, log=Path(tmp) / "app2.log")
        hello = serving.start(
            [serving.PYTHON, str(HERE / "hello.py"), "--port", str(hello_port), "--threads", str(args.threads)],
            hello_port,
        )
        floor_port = serving.free_port()
        floor = serving.start(
            [serving.PYTHON, str(HERE / "floor.py"), "--port", str(floor_port), "--threads", str(args.threads)]
            + ["--database", str(Path(tmp) / "floor.sqlite")],
            floor_port,
        )
        try:
            results = {"seconds": args.seconds, "threads": args.threads, "levels": []}
            for clients in LEVELS:
                row = {"clients": clients}
                for name, port, maker in (
                    ("hello_get", hello_port, Get("/")),
                    ("scoreboard", app_port, Get(f"/games/{shown}")),
                    ("scoreboard_uncached", uncached_port, Get(f"/games/{shown}")),
                    ("hello_post", hello_port, HelloPost()),
                    ("floor_post", floor_port, FloorPost()),
                    ("hand_post", app_port, HandPost(posted)),
                ):
                    row[name] = asyncio.run(run_level(port, clients, args.seconds, maker))
                    print(
                        f"{clients:>3} clients  {name:<19} {row[name]['rps']:7.0f} "
                        f"req/s  p50 {row[name]['p50']:7.2f} ms"
                        f"  p99 {row[name]['p99']:7.2f} ms  errors {row[name]['errors']}",
                        flush=True,
                    )
                results["levels"].append(row)
            results["first_looks"] = {
                name: asyncio.run(first_looks(port, path, max(LEVELS)))
                for name, port, path in (("hello_get", hello_port, "/"), ("scoreboard", app_port, f"/games/{shown}"))
            }
            results["page"] = page_weight(app_port, finished)  # the page the target was set on
            results["page_in_play"] = page_weight(app_port, shown)  # and the next hand's form fetched ahead
        finally:
            serving.stop(app)
            serving.stop(app_uncached)
            serving.stop(hello)
            serving.stop(floor)
        results["growth"] = measure_growth(Path(tmp), args.threads)

    print()
    print(
        "| clients | page | req/s | p50 ms | p99 ms | baseline req/s | baseline p99 ms | throughput ratio | p99 ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failures = []
    for row in results["levels"]:
        for name, base in (
            ("scoreboard", "hello_get"),
            ("scoreboard_uncached", "hello_get"),
            ("hand_post", "hello_post"),
            ("hand_post", "floor_post"),
        ):
            mine, ref = row[name], row[base]
            ratio, p99_ratio = mine["rps"] / ref["rps"], mine["p99"] / ref["p99"]
            if base == "floor_post":
                mine.update(floor_ratio=ratio, floor_p99_ratio=p99_ratio)
            else:
                mine.update(throughput_ratio=ratio, p99_ratio=p99_ratio)
            label = "hand save vs floor" if base == "floor_post" else name
            print(
                f"| {row['clients']} | {label} | {mine['rps']:.0f} | "
                f"{mine['p50']:.2f} | {mine['p99']:.2f} | {ref['rps']:.0f} | "
                f"{ref['p99']:.2f} | {ratio:.2f} | {p99_ratio:.1f} |"
            )
            if mine["errors"] and base != "floor_post":
                failures.append(f"{name} at {row['clients']} clients: {mine['errors']} unexpected answers")
        for base in ("hello_get", "hello_post", "floor_post"):
            if row[base]["errors"]:
                failures.append(
                    f"baseline {base} at {row['clients']} clients: {row[base]['errors']} unexpected answers"
                )
        board = row["scoreboard"]
        if board["throughput_ratio"] < 0.5:
            failures.append(
                f"scoreboard throughput at {row['clients']} clients is "
                f"{board['throughput_ratio']:.2f} of the baseline (target ≥ 0.5)"
            )
        save = row["hand_post"]
        if row["clients"] == 1 and save["throughput_ratio"] < 0.2:
            failures.append(
                f"hand save throughput with one phone is {save['throughput_ratio']:.2f} of the baseline (target ≥ 0.2)"
            )
        if row["clients"] == 50 and save["p99_ratio"] >= 10:
            failures.append(f"hand save p99 at 50 phones is {save['p99_ratio']:.1f}x the baseline's (target < 10x)")
        if row["clients"] == 50 and board["p99_ratio"] >= 2:
            failures.append(f"scoreboard p99 at 50 clients is {board['p99_ratio']:.1f}x the baseline's (target < 2x)")
        if row["clients"] == 50 and board["throughput_ratio"] < 1:
            failures.append(
                f"scoreboard throughput at 50 clients is {board['throughput_ratio']:.2f} of the baseline (target ≥ 1)"
            )
        if row["clients"] == 1 and save["floor_ratio"] < 0.9:
            failures.append(
                f"hand save with one phone is {save['floor_ratio']:.2f}x as fast as the floor of an honest save "
                "(target ≥ 0.9x)"
            )
    looks = results["first_looks"]
    print(f"\n{max(LEVELS)} new phones opening the page at once (each its first request; not in the table above):")
    for name, look in looks.items():
        print(f"    {name:<12} p50 {look['p50']:7.2f} ms  slowest {look['max']:7.2f} ms  errors {look['errors']}")
        if look["errors"]:
            failures.append(f"first looks at {name}: {look['errors']} unexpected answers")
    page = results["page"]
    if "error" in page:
        print(f"\nPage weight not measured: {page['error']}")
    else:
        print(
            f"\nScoreboard page weight: {page['bytes']} bytes "
            f"({page['bytes'] / 1024:.1f} KB) in {page['requests']} requests, "
            f"{'all first-party' if page['first_party'] else 'NOT all first-party'}"
        )
        for r in page["rows"]:
            print(f"    {r['bytes']:>7}  {urlsplit(r['url']).path}")
        in_play = results.get("page_in_play") or {}
        if "bytes" in in_play:
            print(
                f"A game in play (its next hand's form fetched ahead, for the pad and for offline): "
                f"{in_play['bytes']} bytes ({in_play['bytes'] / 1024:.1f} KB) in {in_play['requests']} requests"
            )
        if page["bytes"] >= 30 * 1024:
            failures.append(f"scoreboard page weighs {page['bytes'] / 1024:.1f} KB (target < 30 KB)")
        if not page["first_party"]:
            failures.append("the scoreboard loads something from another site")
    growth = results["growth"]
    print("\nA save's cost as the game and the archive grow (one phone, saves taking turns; median ms):")
    for label, ms in growth["medians"].items():
        print(f"    {label:<34} {ms:6.2f} ms")
    for name, (ratio, target) in growth["ratios"].items():
        print(f"    {name:<34} {ratio:6.2f}x  (target ≤ {target}x)")
        if ratio > target:
            failures.append(f"{name} is {ratio:.2f}x (target ≤ {target}x)")
    out = HERE / "results"
    out.mkdir(exist_ok=True)
    (out / "load.json").write_text(json.dumps(results, indent=1))
    print("\n" + ("All targets met." if not failures else "Targets missed:\n  " + "\n  ".join(failures)))
    return 1 if failures else 0


def measure_growth(tmp: Path, threads: int) -> dict:
    """Saves at hands 1–5, 26–30 and 36–40 of a game on one server, and saves into a new game on the
    5-year club archive against the same on an empty archive, each kind taking turns with the others."""
    small_dir, big_dir = tmp / "growth-small", tmp / "growth-big"
    small_dir.mkdir()
    big_dir.mkdir()
    games = prepare_growth(small_dir / "scorekeeper.sqlite", (0, 25, 35))
    shutil.copy(big_archive(), big_dir / "scorekeeper.sqlite")
    big_games = prepare_growth(big_dir / "scorekeeper.sqlite", (0,))[0]
    small_port, big_port = serving.free_port(), serving.free_port()
    small = serving.start_scorekeeper(small_dir, small_port, threads, log=tmp / "growth-small.log")
    big = serving.start_scorekeeper(big_dir, big_port, threads, log=tmp / "growth-big.log")
    try:
        by_hand = asyncio.run(
            timed_saves(
                small_port, interleave({"hands 1–5": games[0], "hands 26–30": games[25], "hands 36–40": games[35]})
            )
        )
        fresh = prepare_more(small_dir / "scorekeeper.sqlite")
        by_archive = asyncio.run(
            timed_pairs({"empty": small_port, "club": big_port}, {"empty": fresh, "club": big_games})
        )
    finally:
        serving.stop(small)
        serving.stop(big)
    medians = {
        **{f"save at {k}": statistics.median(v) for k, v in by_hand.items()},
        "save, empty archive": statistics.median(by_archive["empty"]),
        "save, 60 000-hand club archive": statistics.median(by_archive["club"]),
    }
    early = medians["save at hands 1–5"]
    return {
        "medians": medians,
        "ratios": {
            "hands 26–30 against 1–5": (medians["save at hands 26–30"] / early, 1.2),
            "hands 36–40 against 1–5": (medians["save at hands 36–40"] / early, 1.2),
            "club archive against empty": (
                medians["save, 60 000-hand club archive"] / medians["save, empty archive"],
                1.2,
            ),
        },
    }


def prepare_more(path: Path) -> list[int]:
    """New games on an instance whose server is running (another writer: the store waits its turn)."""
    return prepare_growth(path, (0,))[0]


if __name__ == "__main__":
    sys.exit(main())
