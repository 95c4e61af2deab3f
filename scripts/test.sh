#!/usr/bin/env bash
# Set up on first run (test tools and Chromium included), then run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
