#!/usr/bin/env bash
# Installs factledger with its development tools into .venv and runs every check CI runs:
# ruff, mypy (strict), import-linter and the whole pytest suite (unit, integration, e2e).
# Integration tests need redis-server and MariaDB (running on 127.0.0.1 or installed as binaries)
# and PostgreSQL 15 on 127.0.0.1:5432 (started here when it is installed but not running); the
# console's browser tests need Debian's chromium and chromium-driver, the metrics tests their
# own Prometheus (both installed here when missing).
# pytest runs in FACTLEDGER_TEST_WORKERS processes (pytest-xdist; default 4: most tests wait
# on servers and subprocesses rather than the CPU). Arguments are passed on to pytest;
# FACTLEDGER_TEST_WORKERS=0 runs it in one process.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
phase_start=$started
phase() {
  local now
  now=$(date +%s)
  if [ -n "${current:-}" ]; then
    echo "   ($current: $((now - phase_start)) s)"
  fi
  current=$1
  phase_start=$now
  echo "== $1"
}
phase "install (.venv, PostgreSQL, chromium, prometheus)"
bash scripts/install_venv.sh '.[dev]'
bash scripts/start_postgres.sh
bash scripts/ensure_chromium.sh
bash scripts/ensure_prometheus.sh
phase "ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
phase "mypy (strict)"
.venv/bin/python scripts/typecheck.py
phase "import-linter"
.venv/bin/lint-imports
phase "size limits (modules <= 400 lines, functions <= 60)"
.venv/bin/python scripts/code_figures.py --check
phase "pytest"
.venv/bin/python -m pytest -n "${FACTLEDGER_TEST_WORKERS:-4}" "$@"
phase "wheel (fresh venv, demo)"
bash scripts/wheel_smoke.sh
phase "done"
echo "== every check passed in $(($(date +%s) - started)) s"
