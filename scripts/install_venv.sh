#!/usr/bin/env bash
# Creates .venv when missing and installs factledger into it, editable, with the given pip
# requirement (`.` for the library alone, `.[dev]` with the development tools).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "${1:-.}"
