#!/usr/bin/env bash
# Set up on first run (test tools and the browsers included), then run the whole test suite on
# both cores (a test file stays on one worker: its server and browser are made once).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist loadfile "$@"
