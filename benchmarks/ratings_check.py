"""Ratings kept on the way equal a rebuild, on the club archive (300 evenings, 3000 games).

    .venv/bin/python benchmarks/ratings_check.py [--evenings 300] [--changes 10]

Copies the club archive of benchmarks/generate.py (generated once into benchmarks/data/), then:

1. keeps the ratings as the app does when games finish: every game's results written again in
   game order, an evening per transaction, each rated incrementally from its players' ratings;
2. deletes and restores ``--changes`` games picked at random (each recomputes from that game on);
3. rebuilds the whole history (``flask ratings --rebuild`` does the same) and compares every kept
   figure (each player's rating, each game's change, each game's outcome), to the last bit.

Prints the times; exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.generate import club_archive  # noqa: E402
from scorekeeper.services import games as game_service  # noqa: E402
from scorekeeper.storage import db as dbmod  # noqa: E402
from scorekeeper.storage import ratings, results, transaction  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, default=300)
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    source = club_archive(args.evenings)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "club.sqlite"
        shutil.copyfile(source, path)
        started = time.perf_counter()
        db = dbmod.open_db(str(path))  # an archive of before the ratings: migrated, rated once
        print(f"opened and migrated in {time.perf_counter() - started:.2f} s")
        games = [r[0] for r in db.execute("select id from games order by id")]
        evenings = [r[0] for r in db.execute("select distinct evening_id from games order by id")]

        # 1. kept as games finish: the results of each game written again, in game order
        with transaction.write(db):
            for table in ("ratings", "rated_games", "rating_changes"):
                db.execute(f"delete from {table}")
        started = time.perf_counter()
        for evening in evenings:
            with transaction.write(db):
                for (game_id,) in db.execute("select id from games where evening_id = ? order by id", [evening]):
                    results.refresh_results(db, game_id)
        kept = time.perf_counter() - started
        rated = len(ratings.snapshot(db)["games"])
        print(
            f"{len(games)} games, {rated} rated as they finish: {kept:.2f} s "
            f"({1000 * kept / len(games):.2f} ms a game, its results and ratings written)"
        )

        # 2. deleted and restored: each recomputes from that game on
        rng = random.Random(args.seed)
        started = time.perf_counter()
        for game_id in rng.sample(games, args.changes):
            game_service.delete_game(db, game_id)  # through the service: the one write path
            game_service.restore_game(db, game_id)
        changed = time.perf_counter() - started
        print(f"{args.changes} games deleted and restored: {1000 * changed / (2 * args.changes):.0f} ms a change")

        # 3. the whole history again
        incremental = ratings.snapshot(db)
        started = time.perf_counter()
        with transaction.write(db):
            count = ratings.rebuild(db)
        rebuilt = time.perf_counter() - started
        again = ratings.snapshot(db)
        print(f"rebuild: {count} games rated again in {rebuilt:.2f} s")
        db.close()
    same = incremental == again
    print(
        f"{len(again['ratings'])} ratings, {len(again['changes'])} changes, {len(again['games'])} outcomes: "
        + ("the same as kept on the way" if same else "DIFFERENT from those kept on the way")
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
