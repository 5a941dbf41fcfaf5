#!/usr/bin/env bash
# Makes sure Debian's `prometheus` and `promtool` are installed for the metrics integration
# tests, which start their own server on a free loopback port. Idempotent: installs only what
# is missing, and never leaves the packaged service running (it would hold port 9090).
set -euo pipefail
if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure_prometheus: prometheus/promtool missing; run as root or: apt-get install -y prometheus" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get -o DPkg::Lock::Timeout=600 update -q
# policy-rc.d 101 keeps the package's service from being started by the install.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
  created_policy=1
fi
apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends prometheus
if [ "$created_policy" -eq 1 ]; then
  rm -f "$policy"
fi
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl disable --now prometheus >/dev/null 2>&1 || true
fi
if command -v service >/dev/null 2>&1; then
  service prometheus stop >/dev/null 2>&1 || true
fi
command -v prometheus >/dev/null && command -v promtool >/dev/null
