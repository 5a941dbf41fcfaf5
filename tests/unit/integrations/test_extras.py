"""The integrations are extras: importing factledger loads no framework, a missing one names
its extra, and the development install (CI) has all three."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from factledger.adapters.integrations.run_binding import require

ROOT = Path(__file__).resolve().parents[3]
FRAMEWORKS = ("agents", "pydantic_ai", "langgraph", "langchain_core")


def test_importing_factledger_and_its_integrations_package_loads_no_framework() -> None:
    code = (
        "import sys, factledger, factledger.integrations, factledger.adapters.integrations; "
        f"print(sorted(set(sys.modules) & {set(FRAMEWORKS)!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"


def test_a_framework_that_is_not_installed_names_the_extra_to_install() -> None:
    with pytest.raises(ImportError, match=r"pip install 'factledger\[langgraph\]'"):
        require("factledger_no_such_framework", "langgraph")


def test_each_integration_is_an_extra_and_the_dev_install_has_them_all() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra in ("openai-agents", "pydantic-ai", "langgraph"):
        assert set(extras[extra]) <= set(extras["dev"]), extra
