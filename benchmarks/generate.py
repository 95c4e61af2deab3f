"""Fill an instance with five years of a weekly club: 300 evenings, 3000 games, 60000 hands, 40 players.

    .venv/bin/python benchmarks/generate.py instance-big/scorekeeper.sqlite [--evenings 300] [--seed 1]

Every hand is a valid classic entry (it passes the same checks as the forms), stored through the
same tables as the app, and every game's results are computed by the app's own code.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import checks, store, variants  # noqa: E402
from scorekeeper import db as dbmod

RULES = variants.configure(variants.get("classic"))


def random_side(rng: random.Random, out: bool) -> dict:
    """A plausible side entry for one hand."""
    natural = rng.randint(1, 2) if out else rng.randint(0, 1)
    mixed = rng.randint(0, 2)
    least = 35 * natural + 50 * mixed
    melded = least + 5 * rng.randint(0, 60) if (natural or mixed or rng.random() < 0.8) else 0
    return {
        "melded_points": melded,
        "hand_points": 0 if out else 5 * rng.randint(0, 30),
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": rng.choice([0, 0, 1, 1, 2]),
        "went_out": "normal" if out else None,
        "penalties": 0,
    }


def generate(
    path: str,
    evenings: int = 300,
    games_per_evening: int = 10,
    hands_per_game: int = 20,
    players: int = 40,
    seed: int = 1,
) -> dict[str, int]:
    """Write the archive; counts of what was written."""
    rng = random.Random(seed)
    db = dbmod.open_db(path)
    names = [f"Player {i:02d}" for i in range(1, players + 1)]
    start = date(2021, 11, 1)
    hand_count = 0
    with db.atomic():
        ids = [store.player_id(db, name) for name in names]
        for e in range(evenings):
            day = (start + timedelta(weeks=e)).isoformat()
            present = rng.sample(names, 8)
            evening_id = store.create_evening(db, day, present, place="Club")
            for _g in range(games_per_evening):
                seats = rng.sample(present, 4)
                game_id = store.create_game(db, "classic", seats, rng.randrange(4), evening_id=evening_id)
                rows = []
                for h in range(hands_per_game):
                    winner = rng.randrange(2)
                    sides = [random_side(rng, i == winner) for i in range(2)]
                    if sides[0]["red_threes"] + sides[1]["red_threes"] > 4:
                        sides[1]["red_threes"] = 0
                    assert not checks.read_hand(RULES, sides)[1]
                    stamp = f"{day}T20:{h:02d}:00+00:00"
                    rows.append(
                        {
                            "game_id": game_id,
                            "sides": json.dumps(sides),
                            "created_at": stamp,
                            "updated_at": stamp,
                            "deleted_at": None,
                            "stock_out": None,
                            "lone": None,
                        }
                    )
                db["hands"].insert_all(rows)
                hand_count += len(rows)
                store.refresh_results(db, game_id)
    db.close()
    return {"evenings": evenings, "games": evenings * games_per_evening, "hands": hand_count, "players": len(ids)}


def main() -> None:
    """Command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--evenings", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    Path(args.path).parent.mkdir(parents=True, exist_ok=True)
    if Path(args.path).exists():
        sys.exit(f"{args.path} exists: generate into a new file")
    started = time.perf_counter()
    counts = generate(args.path, evenings=args.evenings, seed=args.seed)
    print(f"{counts} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
