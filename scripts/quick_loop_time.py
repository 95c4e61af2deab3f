"""Time the quick test loop (the README's command) three times and print the median wall time.

Usage: ``.venv/bin/python scripts/quick_loop_time.py [runs]``. Each run's wall time, CPU time (of
pytest and its workers), test count and the load average before it are printed, then the median;
the README's figure for the quick loop comes from this script.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2", "-m", "not slow and not browser"]


def children_cpu() -> float:
    """User and system CPU seconds of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once() -> tuple[float, float, str]:
    """One run of the quick loop: its wall seconds, CPU seconds and pytest's last line; exits if it fails."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else ""
    if done.returncode != 0:
        sys.stdout.write(done.stdout[-5000:] + done.stderr[-2000:])
        sys.exit(f"the quick loop failed (exit {done.returncode}): {summary}")
    return wall, children_cpu() - cpu, summary


def main() -> None:
    """Run the quick loop ``runs`` times (3 unless given) and print each run and the median."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print("$ " + " ".join(COMMAND[2:]), flush=True)
    walls = []
    for n in range(1, runs + 1):
        load = os.getloadavg()[0]
        wall, cpu, summary = run_once()
        walls.append(wall)
        tests = re.search(r"(\d+) passed", summary)
        count = tests.group(1) if tests else "?"
        print(f"run {n}: {wall:.1f} s wall, {cpu:.1f} s CPU, {count} tests passed, load before {load:.2f}", flush=True)
    print(f"median of {runs}: {statistics.median(walls):.1f} s wall on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
