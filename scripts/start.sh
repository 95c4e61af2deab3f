#!/usr/bin/env bash
# Set up on first run, then serve the app to every phone on the local network.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m scorekeeper "$@"
