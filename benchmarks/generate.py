"""Fill an instance with five years of a weekly club: 300 evenings, 3000 games, 40 players, each game
played until a side reaches 5000 (about 6 to 12 hands).

    .venv/bin/python benchmarks/generate.py instance-big/scorekeeper.sqlite [--evenings 300] [--seed 1]

Every hand is a valid classic entry (it passes the same checks as the forms and draws no
plausibility warning), no game goes on after its end, hands are stored through the same tables as
the app, and every game's results are computed by the app's own code.
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

from scorekeeper.core import checks, rulesets, scoring
from scorekeeper.services import evenings as evening_service
from scorekeeper.services import games as game_service
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import players as player_store
from scorekeeper.storage import results

RULES = rulesets.configure(rulesets.get("classic"))


def random_side(rng: random.Random, out: bool, total: int) -> dict:
    """A plausible side entry for one hand of a side standing at ``total``: it melds at least its
    opening minimum or nothing at all, and the side that goes out has its canasta."""
    natural = rng.choice([0, 1, 1]) if out else rng.choice([0, 0, 0, 1])
    mixed = rng.choice([0, 1, 1]) if out else rng.choice([0, 0, 1])
    if out and not natural + mixed:
        mixed = 1
    melds = natural or mixed or rng.random() < 0.75
    least = max(35 * natural + 50 * mixed, scoring.opening_minimum(RULES, total) if melds else 0)
    melded = least + 5 * rng.randint(0, 40) if melds else 0
    return {
        "melded_points": melded,
        "hand_points": 0 if out else 5 * rng.randint(0, 30),
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": rng.choice([0, 0, 1, 1, 2]),
        "went_out": "normal" if out else None,
        "penalties": 0,
    }


def random_game(rng: random.Random) -> list[list[dict]]:
    """A classic game played until a side reaches 5000, hand by hand: every hand passes the app's
    checks and draws no plausibility warning, and nothing is recorded after the hand that ends it."""
    totals = [0, 0]
    hands: list[list[dict]] = []
    while True:
        winner = rng.randrange(2)
        sides = [random_side(rng, i == winner, totals[i]) for i in range(2)]
        if sides[0]["red_threes"] + sides[1]["red_threes"] > 4:
            sides[1]["red_threes"] = 0
        read, problems = checks.read_hand(RULES, sides)
        minimums = [scoring.opening_minimum(RULES, t) for t in totals]
        if problems or checks.plausibility_warnings(RULES, read, minimums):
            continue  # a hand a table would not have: deal again
        scores = scoring.score_hand(RULES, read)
        totals = [t + s.score for t, s in zip(totals, scores)]
        hands.append(sides)
        if scoring.game_result(RULES, totals).finished:
            return hands


def generate(
    path: str,
    evenings: int = 300,
    games_per_evening: int = 10,
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
        ids = [player_store.player_id(db, name) for name in names]
        for e in range(evenings):
            day = (start + timedelta(weeks=e)).isoformat()
            present = rng.sample(names, 8)
            evening_id = evening_service.create_evening(db, day, present, place="Club").id
            for _g in range(games_per_evening):
                seats = rng.sample(present, 4)
                game_id = game_service.create_game(db, "classic", seats, rng.randrange(4), evening_id=evening_id).id
                rows = []
                for h, sides in enumerate(random_game(rng)):
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
                results.refresh_results(db, game_id)
    db.close()
    return {"evenings": evenings, "games": evenings * games_per_evening, "hands": hand_count, "players": len(ids)}


def club_archive(evenings: int = 300) -> Path:
    """The club archive the benchmarks measure, generated once into benchmarks/data/ (the file name
    carries the generator's version, so an archive of an older generator is never measured)."""
    data = Path(__file__).resolve().parent / "data"
    data.mkdir(exist_ok=True)
    big = data / f"club-{GENERATOR_VERSION}-{evenings}.sqlite"
    if not big.exists():
        print(f"generating the club archive ({evenings} evenings) once …", flush=True)
        started = time.perf_counter()
        partial = big.with_suffix(".partial")  # renamed when complete: a failed run leaves no half archive
        for leftover in data.glob(partial.name + "*"):
            leftover.unlink()
        print(generate(str(partial), evenings=evenings), f"{time.perf_counter() - started:.1f} s", flush=True)
        partial.rename(big)
    return big


GENERATOR_VERSION = 2  # 2: games end when a side reaches the target


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
