#!/usr/bin/env bash
# Prints the redis-server executable for the tests that run several instances, installing Debian's
# redis-server when none is found (like ensure-browser.sh for Chromium). REDIS_SERVER_PATH overrides.
# Progress goes to stderr, the path alone to stdout. Installing does not start a server: each test
# starts its own on a free loopback port and stops it.
set -euo pipefail
candidate="${REDIS_SERVER_PATH:-$(command -v redis-server || echo /usr/bin/redis-server)}"
if [ ! -x "$candidate" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "No redis-server found: installing Debian's redis-server (apt-get)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends redis-server >&2
    candidate=$(command -v redis-server)
  else
    echo "No redis-server found at $candidate. Install redis-server or set REDIS_SERVER_PATH." >&2
    exit 1
  fi
fi
echo "$candidate"
