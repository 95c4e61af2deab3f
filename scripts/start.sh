#!/usr/bin/env bash
# Set up on first run, then serve the app to every phone on the local network.
# --https also serves it over HTTPS (installable, loads with no connection) with this installation's
# own certificate authority, made once in instance/tls/; phones trust it once from /trust.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m scorekeeper "$@"
