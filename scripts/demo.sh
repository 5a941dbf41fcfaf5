#!/usr/bin/env bash
# Installs factledger into .venv and runs the demo on embedded defaults (no server, no network).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
exec .venv/bin/factledger demo "$@"
