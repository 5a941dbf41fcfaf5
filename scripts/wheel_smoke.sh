#!/usr/bin/env bash
# Builds the wheel, installs it into a fresh virtual environment outside the checkout and runs
# the demo there: proves the package (code and bundled data) works without the source tree.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/factledger-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT
.venv/bin/python -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/dist" . 2>/dev/null
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$work"/dist/factledger-*.whl 2> >(grep -v "is ignored" >&2)
cd "$work"
"$work/venv/bin/factledger" demo --json > demo.json
"$work/venv/bin/python" - <<'PY'
import json
result = json.load(open("demo.json"))
outcomes = {name: value["release"]["outcome"] for name, value in result.items()}
assert outcomes == {"honest": "SUCCESS", "hallucinating": "FALLBACK", "looping": "FALLBACK"}, outcomes
print("wheel demo:", outcomes)
PY
"$work/venv/bin/factledger" runs verify --all > /dev/null
# The public names import from the root package of the installed wheel.
"$work/venv/bin/python" -c "
from factledger import AsyncHarness, Harness, HarnessErrorCode, ReleaseResult, build_harness
import factledger.tools
assert factledger.tools.EvidenceTool.__module__.startswith('factledger.application')
print('wheel root package: ok')
"
echo "wheel smoke test passed"
