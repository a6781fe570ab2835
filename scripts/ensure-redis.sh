#!/usr/bin/env bash
# Prints the redis-server executable for the tests that run several instances, installing Debian's
# redis-server when none is found (like ensure-browser.sh for Chromium). REDIS_SERVER_PATH overrides.
# Progress goes to stderr, the path alone to stdout. Installing does not start a server: each test
# starts its own on a free loopback port and stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
candidate="${REDIS_SERVER_PATH:-$(command -v redis-server || echo /usr/bin/redis-server)}"
if [ ! -x "$candidate" ]; then
  bash scripts/apt-install.sh redis-server
  candidate=$(command -v redis-server)
fi
echo "$candidate"
