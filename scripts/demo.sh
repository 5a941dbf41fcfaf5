#!/usr/bin/env bash
# Installs factledger into .venv and runs the demo on embedded defaults (no server, no network).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_venv.sh .
exec .venv/bin/factledger demo "$@"
