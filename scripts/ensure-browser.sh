#!/usr/bin/env bash
# Prints the Chromium executable for Playwright to use, installing Debian's chromium when no
# browser is found. Playwright's own browser is preferred where it is installed; otherwise
# CHROMIUM_PATH, then /usr/bin/chromium. Progress goes to stderr, the path alone to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
own=$(node -e 'try{const p=require("playwright-core").chromium.executablePath();if(require("fs").existsSync(p))console.log(p)}catch{}' 2>/dev/null || true)
if [ -n "$own" ]; then echo "$own"; exit 0; fi
candidate="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$candidate" ]; then bash scripts/apt-install.sh chromium fonts-dejavu-core; fi
echo "$candidate"
