"""The standings page's refresh delay with 12 tables saving hands: from a table's saved hand (the
phone has its answer) to the moment the big screen shows it, in Chromium at 1920 x 1080.

    .venv/bin/python benchmarks/standings_refresh.py               # 60 s of saving, under 2 minutes
    .venv/bin/python benchmarks/standings_refresh.py --seconds 30

The score keeper on its production server (``python -m scorekeeper``: waitress, 8 threads) on a fresh
instance. An organiser creates a tournament of pairs moving between tables through its pages (24
pairs, 12 tables, target 100 000 so that no table's round ends while the run lasts), draws the seats
and starts round 1. Twelve table clients (asyncio, each a keep-alive connection with its own cookies,
like a phone) each save a hand every 2 to 4 s (uniformly at random) for ``--seconds``, as a phone
does with the hand form: open the form (its CSRF token, client key and hand count), wait, post it to
``/games/<id>/hands/new`` (answered 302), follow the redirect to the score sheet. Each hand is a
legal one: the stock ran out, side 0 melded 150 and side 1 130 (above every opening minimum of the
classic rules). A save that gets no answer in 10 s, or 503, is sent again with the same client key,
as a phone's queue does; a save refused (another answer), or unanswered after five tries, is a
failure.

Two pages in headless Chromium, 1920 x 1080, watch the standings of the same tournament:

- **the app**: the standings page as served, its script (``static/standings.js``) asking for the
  archive's version every second and fetching the page and putting its content in place when it
  changed;
- **reload every second** (the baseline): the same page with its script kept out, reloading itself
  one second after each load, as a plain page with a refresh would.

In each page a MutationObserver notes when each table's hand count changes, and the first animation
frame after it (the moment it is shown), on the browser's clock (``performance.timeOrigin +
performance.now()``, checked against Python's ``time.time()`` on the same machine at the start and
the end). A save's delay is from its answer reaching the table client to the first frame showing
that table's count at the save's number or beyond. A save never shown by the app's page (within
10 s after the last save) is a failure; so is a table whose stored hands are not exactly the saves
acknowledged (read from ``/api/games/<id>`` at the end), and a table not wholly on the screen. How
many of the ranking's lines are wholly on the screen is reported (not a failure).

Then the server's own work, which each refresh waits for: ``GET /tournaments/<id>/standings``
against its version endpoint, one keep-alive client, alternating, on the quiet server after the run
and on a second server over a copy of the archive with the page cache off (``PAGE_CACHE = False``).
The standings are not in the page cache (``scorekeeper/web/pagecache.py`` keeps only the score
sheets, ``/games/`` and ``/view/``, and the view does not call ``cached_page``): every request
renders them, so the two figures should agree. During the run the app's page also keeps the
browser's own timings of its version and page fetches (Resource Timing).

Reported: median, 90th percentile and maximum delay for the app and the baseline, the saves and the
failures, and the render times. Exit code 1 when the app's median delay is over 2 s or anything
failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import serving  # noqa: E402
from tests.browser.live import ARGS, CHROMIUM  # noqa: E402

TARGET_MS = 2000
TABLES = 12
PAIRS = 2 * TABLES
ANSWER_TIMEOUT = 10.0  # seconds a save waits for its answer before it is sent again
TRIES = 5
SETTLE = 10.0  # seconds the pages have after the last save to show it
RENDER_REQUESTS = 100  # per page and server for the render times

# In both pages: each table's hand count as it changes, when (the mutation) and when shown (the next
# animation frame), on the browser's clock; kept in sessionStorage so that it survives a reload.
WATCH = """
(() => {
  const KEY = "bench-standings";
  const now = () => performance.timeOrigin + performance.now();
  performance.setResourceTimingBufferSize(100000);
  const seen = JSON.parse(sessionStorage.getItem(KEY + "-seen") || "{}");
  function look() {
    const changed = [];
    for (const li of document.querySelectorAll("main.standings li.s-table:not(.bye)")) {
      const no = li.querySelector(".s-no"), state = li.querySelector(".s-state");
      if (!no || !state) continue;
      const m = /\\d+/.exec(state.textContent);
      if (!m) continue;
      const table = no.textContent.trim(), count = Number(m[0]);
      if (seen[table] !== count) { seen[table] = count; changed.push([Number(table), count]); }
    }
    if (!changed.length) return;
    const at = now();
    requestAnimationFrame(() => {
      const shown = now();
      const kept = JSON.parse(sessionStorage.getItem(KEY) || "[]");
      for (const [table, count] of changed) kept.push([table, count, at, shown]);
      sessionStorage.setItem(KEY, JSON.stringify(kept));
      sessionStorage.setItem(KEY + "-seen", JSON.stringify(seen));
    });
  }
  new MutationObserver(look).observe(document, {childList: true, subtree: true, characterData: true});
  window.__benchRecords = () => JSON.parse(sessionStorage.getItem(KEY) || "[]");
})();
"""
# The baseline: the page without its script, loaded again a second after each load.
RELOAD = """
sessionStorage.setItem("bench-loads", String(Number(sessionStorage.getItem("bench-loads") || 0) + 1));
window.addEventListener("load", () => setTimeout(() => location.reload(), 1000));
"""

# How many of the tables and of the ranking's lines lie wholly inside the screen: [in view, in all] each.
IN_VIEW = """
(() => {
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight; };
  const count = (selector) => { const all = Array.from(document.querySelectorAll(selector));
    return [all.filter(inside).length, all.length]; };
  return {tables: count("main.standings li.s-table"), ranking: count("main.standings .s-ranking li")};
})()
"""

FIELD = r'name="{}"[^>]*value="([^"]*)"'


def hand_form(page: bytes, game_id: int) -> dict[str, str]:
    """The hidden fields of an opened hand form (CSRF token, client key, the hands it is based on)."""
    found = {}
    for name in ("csrf_token", "client_key", "based_on"):
        match = re.search(FIELD.format(name).encode(), page)
        if not match:
            raise RuntimeError(f"hand form of game {game_id}: no {name}")
        found[name] = match.group(1).decode()
    return found


def hand_body(hidden: dict[str, str]) -> bytes:
    """The hand as the form posts it: the stock ran out, side 0 melded 150, side 1 130."""
    fields = {**hidden, "out": "stock", "how": "normal", "mode": "points"}
    for side, melded in ((0, 150), (1, 130)):
        for name in ("natural_canastas", "mixed_canastas", "red_threes", "penalties"):
            fields[f"sides-{side}-{name}"] = "0"
        fields[f"sides-{side}-melded_points"] = str(melded)
        fields[f"sides-{side}-hand_points"] = ""
    return urlencode(fields).encode()


async def organise(port: int) -> tuple[int, dict[int, int]]:
    """Create the tournament through its pages, draw, start round 1; (its id, game of each table)."""
    conn = serving.Connection(port)
    status, _, page = await conn.request("GET", "/tournaments/new")
    token = serving.CSRF.search(page).group(1).decode()
    entrants = "\n".join(f"Player {2 * i + 1} & Player {2 * i + 2}" for i in range(PAIRS))
    fields = {
        "csrf_token": token,
        "name": "Club night",
        "format": "mitchell",
        "rules": "classic",
        "round_end": "target",
        "target": "100000",
        "entrants": entrants,
        "season_points": "10, 8, 6, 5, 4, 3, 2, 1",
    }
    status, headers, page = await conn.request("POST", "/tournaments/new", urlencode(fields).encode())
    if status != 302:
        raise RuntimeError(f"new tournament: {status} {page[:300]!r}")
    tid = int(headers["location"].rsplit("/", 1)[1])
    for step in ("draw", "rounds"):
        _, _, page = await conn.request("GET", f"/tournaments/{tid}")
        token = serving.CSRF.search(page).group(1).decode()
        status, _, _ = await conn.request(
            "POST", f"/tournaments/{tid}/{step}", urlencode({"csrf_token": token}).encode()
        )
        if status != 302:
            raise RuntimeError(f"tournament {step}: {status}")
    games = {}
    for table in range(1, TABLES + 1):
        status, headers, _ = await conn.request("GET", f"/tournaments/{tid}/tables/{table}")
        if status != 302:
            raise RuntimeError(f"table {table}: {status}")
        games[table] = int(headers["location"].rsplit("/", 1)[1])
    await conn.close()
    return tid, games


class Table:
    """One table's phone: saves and their answers."""

    def __init__(self, number: int, game_id: int) -> None:
        self.number, self.game_id = number, game_id
        self.saves: list[tuple[int, float]] = []  # (the hand's number, when its answer came: time.time())
        self.failures: list[str] = []
        self.resent = 0


async def play(port: int, table: Table, stop_at: float, rng: random.Random) -> None:
    """Save a hand every 2–4 s until ``stop_at``, as a phone with the hand form does."""
    conn = serving.Connection(port)
    path = f"/games/{table.game_id}/hands/new"
    await asyncio.sleep(rng.uniform(0, 2))  # the tables did not all sit down at the same second
    while time.time() < stop_at:
        try:
            status, _, page = await asyncio.wait_for(conn.request("GET", path), ANSWER_TIMEOUT)
            if status != 200:
                raise RuntimeError(f"hand form: {status}")
            hidden = hand_form(page, table.game_id)
        except (OSError, asyncio.TimeoutError, RuntimeError, asyncio.IncompleteReadError) as trouble:
            table.failures.append(f"table {table.number}: opening the form: {trouble!r}")
            await conn.close()
            await asyncio.sleep(1)
            continue
        await asyncio.sleep(rng.uniform(2, 4))  # the hand is played and typed in
        if time.time() >= stop_at:
            break
        body, number, answer = hand_body(hidden), int(hidden["based_on"]) + 1, None
        for attempt in range(TRIES):
            try:
                status, headers, _ = await asyncio.wait_for(conn.request("POST", path, body), ANSWER_TIMEOUT)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
                status = None  # no answer: the same hand again, the same client key
                await conn.close()
            answered = time.time()
            if status == 302:
                answer = answered
                break
            if status not in (None, 503):
                table.failures.append(f"table {table.number}: hand {number} refused with {status}")
                break
            table.resent += 1
            await asyncio.sleep(0.5 if status is None else 2)
        else:
            table.failures.append(f"table {table.number}: hand {number} unanswered after {TRIES} tries")
        if answer is None:
            continue
        table.saves.append((number, answer))
        try:  # the score sheet, with "Hand saved."
            await asyncio.wait_for(conn.request("GET", headers["location"]), ANSWER_TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError):
            await conn.close()
    await conn.close()


def run_tables(port: int, tables: list[Table], seconds: float, seed: int) -> threading.Thread:
    """The table clients on their own event loop in a thread."""
    stop_at = time.time() + seconds

    async def all_tables():
        ends = await asyncio.gather(
            *(play(port, t, stop_at, random.Random(seed + t.number)) for t in tables), return_exceptions=True
        )
        for table, end in zip(tables, ends):
            if isinstance(end, BaseException):
                table.failures.append(f"table {table.number}: stopped by {end!r}")

    thread = threading.Thread(target=lambda: asyncio.run(all_tables()), daemon=True)
    thread.start()
    return thread


async def stored_hands(port: int, games: dict[int, int]) -> dict[int, int]:
    """Each table's hands as the archive has them."""
    conn = serving.Connection(port)
    out = {}
    for table, game_id in games.items():
        status, _, body = await conn.request("GET", f"/api/games/{game_id}")
        out[table] = len(json.loads(body)["hands"]) if status == 200 else -1
    await conn.close()
    return out


def clock_offset(page) -> float:
    """The browser's clock minus Python's, in ms (the closest of several readings)."""
    best = None
    for _ in range(15):
        before = time.time() * 1000
        browser_now = page.evaluate("performance.timeOrigin + performance.now()")
        after = time.time() * 1000
        if best is None or after - before < best[0]:
            best = (after - before, browser_now - (before + after) / 2)
    return best[1]


def delays(tables: list[Table], records: list, offset: float) -> tuple[list[float], list[str]]:
    """Each save's delay (ms) to the first frame showing its table's count at its number or beyond;
    the saves never shown."""
    shown: dict[int, list[tuple[int, float]]] = {}
    for table, count, _at, frame in records:
        shown.setdefault(int(table), []).append((int(count), frame - offset))
    out, missing = [], []
    for t in tables:
        for number, answered in t.saves:
            first = next((frame for count, frame in shown.get(t.number, []) if count >= number), None)
            if first is None:
                missing.append(f"table {t.number}: hand {number} never shown")
            else:
                out.append(first - answered * 1000)
    return out, missing


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] if ordered else float("nan")


async def render_times(port: int, tid: int, count: int) -> dict[str, list[float]]:
    """``GET`` the standings and their version in turns on one keep-alive connection; ms each."""
    conn = serving.Connection(port)
    times: dict[str, list[float]] = {"standings": [], "version": []}
    paths = {"standings": f"/tournaments/{tid}/standings", "version": f"/tournaments/{tid}/standings/version"}
    for i in range(count + 5):
        for name, path in paths.items():
            started = time.perf_counter()
            status, _, _ = await conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            elapsed = (time.perf_counter() - started) * 1000
            if status != 200:
                raise RuntimeError(f"{path}: {status}")
            if i >= 5:  # after a few to warm up
                times[name].append(elapsed)
    await conn.close()
    return times


def browser_fetches(page, tid: int) -> dict[str, list[float]]:
    """The app page's own fetches during the run (Resource Timing): version and page, ms each."""
    entries = page.evaluate(
        "performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'fetch')"
        ".map((e) => [e.name, e.responseEnd - e.startTime])"
    )
    out: dict[str, list[float]] = {"standings": [], "version": []}
    for name, ms in entries:
        out["version" if name.endswith("/standings/version") else "standings"].append(ms)
    return out


def figures(values: list[float]) -> str:
    if not values:
        return "–"
    return f"median {statistics.median(values):.1f}, p90 {percentile(values, 90):.1f}, max {max(values):.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds the tables save hands (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="the tables' random waits")
    parser.add_argument("--screenshot", help="save the app's standings page at the end as this PNG file")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        instance = Path(tmp) / "instance"
        instance.mkdir()
        port = serving.free_port()
        server = serving.start_scorekeeper(instance, port, 8, log=Path(tmp) / "app.log")
        base = f"http://127.0.0.1:{port}"
        try:
            tid, games = asyncio.run(organise(port))
            tables = [Table(n, g) for n, g in games.items()]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                pages = {}
                for name in ("app", "reload"):
                    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
                    context.add_init_script(WATCH)
                    if name == "reload":
                        context.route("**/static/standings.js", lambda route: route.abort())
                        context.add_init_script(RELOAD)
                    page = context.new_page()
                    page.goto(f"{base}/tournaments/{tid}/standings")
                    page.wait_for_selector("li.s-table")
                    pages[name] = page
                visible = pages["app"].evaluate("document.visibilityState")
                offset_start = clock_offset(pages["app"])
                began = time.time()
                thread = run_tables(port, tables, args.seconds, args.seed)
                while thread.is_alive():
                    pages["app"].wait_for_timeout(500)
                last_save = max((at for t in tables for _n, at in t.saves), default=time.time())
                # until every save is shown in both pages, or SETTLE seconds after the last save
                expected = {t.number: max((n for n, _ in t.saves), default=0) for t in tables}
                while time.time() < last_save + SETTLE:
                    pages["app"].wait_for_timeout(250)
                    done = True
                    for page in pages.values():
                        latest = {}
                        for table, count, _a, _f in page.evaluate("window.__benchRecords()"):
                            latest[int(table)] = max(latest.get(int(table), 0), int(count))
                        done &= all(latest.get(n, 0) >= c for n, c in expected.items())
                    if done:
                        break
                offset_end = clock_offset(pages["app"])
                offset = (offset_start + offset_end) / 2
                results = {}
                for name, page in pages.items():
                    results[name] = delays(tables, page.evaluate("window.__benchRecords()"), offset)
                fetches = browser_fetches(pages["app"], tid)
                in_view = pages["app"].evaluate(IN_VIEW)
                if args.screenshot:
                    pages["app"].screenshot(path=args.screenshot)
                reloads = int(pages["reload"].evaluate("sessionStorage.getItem('bench-loads')"))
                browser.close()
            elapsed = time.time() - began
            stored = asyncio.run(stored_hands(port, games))
            cached = asyncio.run(render_times(port, tid, RENDER_REQUESTS))
        finally:
            serving.stop(server)
        uncached_instance = Path(tmp) / "instance-uncached"
        shutil.copytree(instance, uncached_instance)
        (uncached_instance / "config.py").write_text("PAGE_CACHE = False\n")
        port2 = serving.free_port()
        server2 = serving.start_scorekeeper(uncached_instance, port2, 8, log=Path(tmp) / "app2.log")
        try:
            uncached = asyncio.run(render_times(port2, tid, RENDER_REQUESTS))
        finally:
            serving.stop(server2)

    failures = [f for t in tables for f in t.failures]
    app_delays, never_shown = results["app"]
    failures += never_shown
    for t in tables:
        if stored[t.number] != len(t.saves):
            failures.append(f"table {t.number}: {len(t.saves)} saves acknowledged, {stored[t.number]} hands stored")
    if in_view["tables"][0] != in_view["tables"][1]:
        failures.append(f"only {in_view['tables'][0]} of the {in_view['tables'][1]} tables are wholly on the screen")
    saves = sum(len(t.saves) for t in tables)
    resent = sum(t.resent for t in tables)
    reload_delays, reload_missing = results["reload"]

    print(
        f"Standings refresh, {TABLES} tables ({PAIRS} pairs) saving a hand every 2-4 s for {args.seconds:.0f} s "
        f"(run {elapsed:.0f} s), Chromium 1920 x 1080, waitress 8 threads"
    )
    print(f"page visible: {visible}; browser clock - Python clock: {offset_start:+.1f} ms, {offset_end:+.1f} ms")
    print(
        f"wholly on the 1920 x 1080 screen: {in_view['tables'][0]} of {in_view['tables'][1]} tables, "
        f"{in_view['ranking'][0]} of {in_view['ranking'][1]} lines of the ranking"
    )
    print(f"saves acknowledged: {saves} ({saves / args.seconds:.1f}/s), resent after no answer or 503: {resent}")
    print()
    print(f"{'page':<28} {'saves':>6} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'min ms':>8} {'not shown':>10}")
    for label, values, missing in (
        ("the app (version poll, 1 s)", app_delays, never_shown),
        ("reload every second", reload_delays, reload_missing),
    ):
        print(
            f"{label:<28} {len(values):>6} {statistics.median(values) if values else float('nan'):>10.0f} "
            f"{percentile(values, 90):>8.0f} {max(values, default=float('nan')):>8.0f} "
            f"{min(values, default=float('nan')):>8.0f} {len(missing):>10}"
        )
    print(f"(the baseline page loaded {reloads} times)")
    print()
    print("The server's work, one client, ms (the standings are rendered on every request: not in the page cache)")
    print(f"{'request':<34} {'page cache on':>32} {'page cache off':>32}")
    for name, path in (("standings", "GET /tournaments/<id>/standings"), ("version", "GET .../standings/version")):
        print(f"{path:<34} {figures(cached[name]):>32} {figures(uncached[name]):>32}")
    print(
        f"During the run, as the app's page fetched them: version {figures(fetches['version'])} "
        f"({len(fetches['version'])}), page {figures(fetches['standings'])} ({len(fetches['standings'])})"
    )
    print()
    median = statistics.median(app_delays) if app_delays else float("inf")
    if failures or median > TARGET_MS:
        for failure in failures[:20]:
            print("  " + failure)
        print(f"FAIL: {len(failures)} failures; median delay {median:.0f} ms (target: at most {TARGET_MS} ms)")
        return 1
    print(f"Target met: median delay {median:.0f} ms (at most {TARGET_MS} ms), {saves} saves, no failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
