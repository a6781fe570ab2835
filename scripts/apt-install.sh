#!/usr/bin/env bash
# Installs Debian packages for the test scripts (ensure-browser.sh, ensure-redis.sh) when running as
# root with apt-get; otherwise says what to install and fails. Output goes to stderr.
set -euo pipefail
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's $* (apt-get)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "$@" >&2
else
  echo "Missing $*: install it (Debian: apt-get install $*) or set the path variable the script names." >&2
  exit 1
fi
