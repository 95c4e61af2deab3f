"""The fault test in small: the production server killed with SIGKILL while phones save hands
(benchmarks/fault.py has the full run and what it checks)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # left out of the quick loop: -m "not slow and not browser"

ROOT = Path(__file__).resolve().parent.parent


def test_a_killed_server_loses_and_doubles_no_hand():
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "fault.py"),
            "--clients",
            "4",
            "--kills",
            "2",
            "--seconds",
            "2",
            "--seed",
            "7",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS" in run.stdout and "killed 2 times" in run.stdout
    acknowledged = int(run.stdout.split("hands acknowledged ")[1].split()[0])
    assert acknowledged > 20  # hands were really being saved around the kills
