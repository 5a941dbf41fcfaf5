#!/usr/bin/env bash
# Installs factledger with its development tools into .venv and runs every check CI runs:
# ruff, mypy (strict), import-linter and the whole pytest suite (unit, integration, e2e).
# Integration tests need redis-server and MariaDB (running on 127.0.0.1 or installed as binaries)
# and PostgreSQL 15 on 127.0.0.1:5432 (started here when it is installed but not running); the
# console's browser tests need Debian's chromium and chromium-driver, the metrics tests their
# own Prometheus (both installed here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_venv.sh '.[dev]'
bash scripts/start_postgres.sh
bash scripts/ensure_chromium.sh
bash scripts/ensure_prometheus.sh
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mypy (strict)"
.venv/bin/python scripts/typecheck.py
echo "== import-linter"
.venv/bin/lint-imports
echo "== size limits (modules <= 400 lines, functions <= 60)"
.venv/bin/python scripts/code_figures.py --check
echo "== pytest"
.venv/bin/python -m pytest "$@"
echo "== wheel (fresh venv, demo)"
bash scripts/wheel_smoke.sh
