#!/usr/bin/env bash
# Makes sure Debian's headless Chromium (and its driver) is installed for the browser tests of
# the run console (tests/browser/). Idempotent: does nothing when /usr/bin/chromium exists;
# otherwise runs `apt-get update` once and installs the packages (needs root).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure_chromium: /usr/bin/chromium is missing; run as root:" \
    "apt-get update && apt-get install -y chromium chromium-driver" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver >/dev/null
test -x /usr/bin/chromium
