#!/usr/bin/env bash
# Prints the directory of PostgreSQL's server programs (initdb, postgres) for the store's tests and
# bench, installing Debian's postgresql when none is found (like ensure-redis.sh). POSTGRES_BIN_DIR
# overrides. Progress goes to stderr, the directory alone to stdout. The tests never use a system
# cluster: each test file runs initdb into a temporary directory and starts its own server on a free
# loopback port (testing/postgres.ts). Debian's package creates and may start a cluster of its
# own on port 5432 when installed: one the install started is stopped again.
set -euo pipefail
cd "$(dirname "$0")/.."
find_bin_dir() {
  if [ -n "${POSTGRES_BIN_DIR:-}" ]; then echo "$POSTGRES_BIN_DIR"; return; fi
  local found
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$found" ] && [ -x "$found/initdb" ]; then echo "$found"; return; fi
  if command -v initdb >/dev/null && command -v postgres >/dev/null; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
}
dir=$(find_bin_dir)
if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
  bash scripts/apt-install.sh postgresql
  if command -v pg_lsclusters >/dev/null; then
    pg_lsclusters --no-header 2>/dev/null | awk '$4 == "online" { print $1, $2 }' | while read -r version name; do
      pg_ctlcluster "$version" "$name" stop >&2 || true
    done
  fi
  dir=$(find_bin_dir)
fi
if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
  echo "PostgreSQL's initdb was not found after installing: set POSTGRES_BIN_DIR to the directory holding initdb and postgres." >&2
  exit 1
fi
echo "$dir"
