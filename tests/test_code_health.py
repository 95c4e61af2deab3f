"""No unused code (vulture, with the settings in pyproject.toml) and no module of the app over 500
lines (scripts/long_modules.py): the same checks .ci/run makes after ruff."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True)


def test_no_unused_code():
    found = _run("-m", "vulture")
    assert found.returncode == 0, found.stdout + found.stderr


def test_no_module_over_500_lines():
    found = _run("scripts/long_modules.py")
    assert found.returncode == 0, found.stdout + found.stderr
