#!/usr/bin/env bash
# Prints the Chromium executable for Playwright to use, installing Debian's chromium when no
# browser is found. Playwright's own browser is preferred where it is installed; otherwise
# CHROMIUM_PATH, then /usr/bin/chromium. Progress goes to stderr, the path alone to stdout.
set -euo pipefail
own=$(node -e 'try{const p=require("playwright-core").chromium.executablePath();if(require("fs").existsSync(p))console.log(p)}catch{}' 2>/dev/null || true)
if [ -n "$own" ]; then echo "$own"; exit 0; fi
candidate="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$candidate" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "No Chromium found: installing Debian's chromium (apt-get)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq chromium fonts-dejavu-core >&2
  else
    echo "No Chromium found at $candidate. Install chromium or set CHROMIUM_PATH." >&2
    exit 1
  fi
fi
echo "$candidate"
