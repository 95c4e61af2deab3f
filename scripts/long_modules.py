"""The app's modules over 500 lines (run by .ci/run and tests/test_code_health.py): a module that
long wants splitting along a seam, not lines squeezed. Prints each with its length; exits with 1 if
there is any."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 500


def long_modules(root: Path = ROOT) -> list[tuple[str, int]]:
    """Each module of ``scorekeeper/`` over MOST_LINES lines, with its number of lines."""
    found = []
    for path in sorted((root / "scorekeeper").rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MOST_LINES:
            found.append((str(path.relative_to(root)), lines))
    return found


def main() -> int:
    """Print the long modules; 1 if there is any."""
    found = long_modules()
    for path, lines in found:
        print(f"{path}: {lines} lines (at most {MOST_LINES})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
