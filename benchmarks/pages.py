"""Time the home page, a game page, history and statistics on a big archive against the same
pages on a nearly empty one, in one run, and report the ratios.

    .venv/bin/python benchmarks/pages.py            # generates the big archive on first use
    .venv/bin/python benchmarks/pages.py --repeat 40

Big: 300 evenings, 3000 games played to the end (about 21 000 hands), 40 players (benchmarks/generate.py), kept in
benchmarks/data/ (git-ignored). Small: 1 evening, 1 game played to its end. Each page is requested
through the Flask app in this process (no network), alternating big and small, and the median of
the repeats is compared. Targets: game page and history within 1.5x, statistics within 3x.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.generate import club_archive, generate  # noqa: E402
from scorekeeper import create_app  # noqa: E402

TARGETS = {
    "home": None,
    "game": 1.5,
    "history": 1.5,
    "history, page 100": 1.5,
    "history, one player": 1.5,
    "statistics": 3.0,
    "player": 3.0,
}


def app_for(path: Path, cache: bool = True):
    """A test client on this database file (``cache``: pages kept until the archive changes)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE": str(path), "PAGE_CACHE": cache})
    return app.test_client()


def pages(client, game_id: int, player_id: int, deep: bool) -> dict[str, str]:
    """The pages to time."""
    return {
        "home": "/",
        "game": f"/games/{game_id}",
        "history": "/history",
        "history, page 100": "/history?page=100" if deep else "/history?page=1",
        "history, one player": f"/history?player={player_id}",
        "statistics": "/stats",
        "player": f"/players/{player_id}",
    }


def time_once(client, url: str) -> float:
    """Seconds for one request; the page must answer 200."""
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, (url, response.status_code)
    return elapsed


def main() -> None:
    """Run the comparison and print a table."""
    parser = argparse.ArgumentParser(description="page times, big archive against a nearly empty one")
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--evenings", type=int, default=300)
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="render every page anew (the first view after each change), not from the page cache",
    )
    args = parser.parse_args()
    data = HERE / "data"
    data.mkdir(exist_ok=True)
    big = club_archive(args.evenings)
    small = Path(tempfile.mkdtemp()) / "small.sqlite"
    generate(str(small), evenings=1, games_per_evening=1)
    clients = {"big": app_for(big, not args.no_cache), "small": app_for(small, not args.no_cache)}
    mid_game = 1500 if args.evenings >= 150 else 1
    urls = {
        "big": pages(clients["big"], mid_game, 1, deep=args.evenings >= 200),
        "small": pages(clients["small"], 1, 1, deep=False),
    }
    times: dict[str, dict[str, list[float]]] = {k: {name: [] for name in TARGETS} for k in clients}
    for name in TARGETS:  # warm up: caches, first connection, template compilation
        for kind in clients:
            time_once(clients[kind], urls[kind][name])
    for _ in range(args.repeat):
        for name in TARGETS:
            for kind in ("big", "small"):
                times[kind][name].append(time_once(clients[kind], urls[kind][name]))
    print(f"\n{'page':<22}{'small ms':>10}{'big ms':>10}{'ratio':>8}{'target':>8}  ok")
    failed = False
    for name, target in TARGETS.items():
        s = statistics.median(times["small"][name]) * 1000
        b = statistics.median(times["big"][name]) * 1000
        ratio = b / s
        ok = target is None or ratio <= target
        failed |= not ok
        print(
            f"{name:<22}{s:>10.2f}{b:>10.2f}{ratio:>8.2f}{(str(target) + 'x') if target else '-':>8} "
            f" {'yes' if ok else 'NO'}"
        )
    print(
        f"\nmedian of {args.repeat} requests each; big = {args.evenings} evenings"
        + ("; page cache off" if args.no_cache else "")
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
