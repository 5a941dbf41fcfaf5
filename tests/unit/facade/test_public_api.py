"""``from factledger import ...``: one place for the public names, typed for mypy, cheap to
import (nothing of the adapters is loaded until a name from them is asked for)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import factledger
import factledger.testing
import factledger.tools

ROOT = Path(__file__).resolve().parents[3]


def _run(program: str, cwd: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_every_public_name_resolves_to_its_one_definition() -> None:
    names = set(factledger.__all__)
    assert {"Harness", "AsyncHarness", "HarnessError", "HarnessErrorCode", "build_harness",
            "load_settings", "Observation", "ReleaseResult", "CheckResult", "EvidenceTool",
            "ControlView", "CanonicalView", "ProgressSnapshot", "RunSummary"} <= names  # fmt: skip
    source = (ROOT / "public" / "__init__.py").read_text(encoding="utf-8")
    typed: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    typed |= {alias.name for alias in statement.names}
    assert typed == names, "the names mypy sees and the names served must be the same"
    for name in names:
        value = getattr(factledger, name)
        assert getattr(value, "__name__", name) == name or name == "ToolFormat"
    assert factledger.Harness is factledger.AsyncHarness.embedded.__globals__["Harness"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="Hamess"):
        getattr(factledger, "Hamess")  # noqa: B009 - the typo is the point


def test_importing_factledger_or_a_layer_loads_no_adapter(tmp_path: Path) -> None:
    program = (
        "import sys\n"
        "import factledger, factledger.domain.codec\n"
        "loaded = lambda p: any(m.startswith(p) for m in sys.modules)\n"
        "before = (loaded('factledger.adapters'), loaded('factledger.application'))\n"
        "factledger.Harness\n"
        "middle = loaded('factledger.adapters'), loaded('fastapi'), loaded('sqlalchemy')\n"
        "factledger.build_harness\n"
        "print(before, middle, loaded('factledger.adapters'))\n"
    )
    assert _run(program, tmp_path) == "(False, False) (False, False, False) True"


def test_the_tool_and_testing_modules_name_the_whole_api() -> None:
    assert factledger.tools.EvidenceTool is factledger.EvidenceTool
    api = set(factledger.tools.__all__)
    assert {"EvidenceBackend", "StrictModel", "ToolProvider", "ToolSettings"} <= api
    assert {"BackendFailure", "ProjectedToolResult", "Source", "AnalysisKind"} <= api
    assert "EvidenceToolContract" in factledger.testing.__all__


def test_typed_callers_get_the_result_types_from_mypy(tmp_path: Path) -> None:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(
        "from factledger import AsyncHarness, Harness\n\n\n"
        "async def use(harness: Harness, facade: AsyncHarness) -> None:\n"
        "    observation = harness.observe('run', 'c1', 'lookup_knowledge', '{}')\n"
        "    reveal_type(observation.status)\n"
        "    result = harness.release('run', None)\n"
        "    reveal_type(result.outcome)\n"
        "    reveal_type(harness.run_summary('run').deadline)\n"
        "    reveal_type(await facade.canonical_view('run', 'c1'))\n"
        "    result.outcom\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", snippet.name],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    out = done.stdout
    assert 'Revealed type is "factledger.application.observation.ObservationStatus"' in out
    assert 'Revealed type is "factledger.domain.status.ReleaseOutcome"' in out
    assert 'Revealed type is "datetime.datetime"' in out
    assert 'Revealed type is "factledger.application.canonical_view.CanonicalView"' in out
    assert '"ReleaseResult" has no attribute "outcom"' in out
    assert out.count("error:") == 1, out
