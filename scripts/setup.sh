#!/usr/bin/env bash
# Create .venv with the app (and, with "test", the test tools, Debian's Chromium, WebKit and Firefox). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
extra=""
[ "${1:-}" = "test" ] && extra="[test]"
stamp=".venv/.installed${extra}"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extra}"
  touch "$stamp"
fi
if [ "${1:-}" = "test" ] && [ ! -f tests/browser/node_modules/axe-core/axe.min.js ]; then
  # axe-core, the accessibility checker the browser tests run in each page, from the npm registry.
  if command -v npm >/dev/null; then
    (cd tests/browser && npm install --no-save --no-audit --no-fund --silent axe-core@4.14.1 >/dev/null)
  else
    echo "npm is missing: the accessibility checks will be skipped (install Node.js)." >&2
  fi
fi
if [ "${1:-}" = "test" ] && ! command -v certutil >/dev/null; then
  # The HTTPS browser test trusts the app's own certificate authority in Chromium's NSS database
  # with certutil (Debian's libnss3-tools).
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnss3-tools >/dev/null
  else
    echo "certutil is missing: the HTTPS browser test will be skipped (sudo apt-get install libnss3-tools)." >&2
  fi
fi
if [ "${1:-}" = "test" ] && [ ! -x /usr/bin/chromium ]; then
  # Browser tests drive Debian's Chromium (Playwright cannot download its own browser here).
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is not installed: the browser tests will be skipped (sudo apt-get install chromium)." >&2
  fi
fi
if [ "${1:-}" = "test" ] && { [ ! -x /usr/bin/chromedriver ] || [ ! -x /usr/bin/WebKitWebDriver ] || [ ! -x /usr/bin/firefox-esr ] || ! command -v Xvfb >/dev/null; }; then
  # The flows in every engine (tests/engines): Chromium's, WebKit's and Firefox's WebDriver, and a
  # virtual display for WebKitGTK, which has no headless mode.
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-driver webkit2gtk-driver xvfb firefox-esr >/dev/null
  else
    echo "WebKit or Firefox is not installed: their tests will be skipped, and fail in CI (sudo apt-get install chromium-driver webkit2gtk-driver xvfb firefox-esr)." >&2
  fi
fi
if [ "${1:-}" = "test" ] && ! command -v fiu-run >/dev/null; then
  # tests/test_disk_faults.py injects ENOSPC and EIO into the server's writes with libfiu (Debian's fiu-utils).
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fiu-utils >/dev/null
  else
    echo "fiu-utils is not installed: the disk-fault tests will be skipped, and fail in CI (sudo apt-get install fiu-utils)." >&2
  fi
fi
