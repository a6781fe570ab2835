#!/usr/bin/env bash
# End-to-end tests in Chromium: finds or installs a browser, builds the app (unless SKIP_BUILD=1:
# scripts/test.sh builds once before its steps that use the build), runs Playwright (which starts the
# sandbox and the built dashboard on loopback and stops them afterwards).
set -euo pipefail
cd "$(dirname "$0")/.."
browser=$(bash scripts/ensure-browser.sh)
own=$(node -e 'try{const p=require("playwright-core").chromium.executablePath();if(require("fs").existsSync(p))console.log(p)}catch{}' 2>/dev/null || true)
if [ "$browser" != "$own" ]; then export CHROMIUM_PATH="$browser"; fi
if [ "${SKIP_BUILD:-}" != "1" ]; then npx next build; fi
npx playwright test "$@"
