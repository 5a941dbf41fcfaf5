#!/usr/bin/env bash
# Makes sure PostgreSQL answers on 127.0.0.1:5432 for the SQL integration tests: starts the
# installed cluster when it is not running, and fails, naming what to install, when it cannot.
set -euo pipefail
PORT=${FACTLEDGER_TEST_POSTGRES_PORT:-5432}
answers() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h 127.0.0.1 -p "$PORT"
  else
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null
  fi
}
if answers; then
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ ! -d /etc/postgresql ]; then
  echo "PostgreSQL is needed by the SQL integration tests and is not installed:" >&2
  echo "  apt-get install postgresql   (PostgreSQL 15, trust authentication on 127.0.0.1)" >&2
  exit 1
fi
echo "== starting PostgreSQL"
for version in $(ls /etc/postgresql); do
  pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null \
    || pg_ctlcluster "$version" main start || true
done
for _ in $(seq 1 50); do
  if answers; then
    exit 0
  fi
  sleep 0.2
done
echo "PostgreSQL did not start on 127.0.0.1:$PORT: see /var/log/postgresql/ (apt-get install postgresql)" >&2
exit 1
