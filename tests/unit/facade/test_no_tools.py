"""A harness with no evidence tool says so: a stable code and a sentence saying what to set,
never a silent empty list of definitions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factledger import Harness, HarnessError, HarnessErrorCode
from factledger.adapters.mcp.gateway import McpGateway


def test_the_tool_definitions_of_a_harness_without_tools_are_an_error(bare: Harness) -> None:
    assert bare.tool_names == ()
    for fmt in ("openai", "mcp"):
        with pytest.raises(HarnessError) as raised:
            bare.tool_definitions(fmt=fmt)
        assert raised.value.code is HarnessErrorCode.NO_EVIDENCE_TOOLS
        assert "[knowledge] dir" in raised.value.message


def test_the_mcp_server_of_a_harness_without_tools_lists_its_own_two(bare: Harness) -> None:
    names = [tool["name"] for tool in McpGateway(bare).tool_definitions()]
    assert names == ["start_run", "release"]


def test_the_embedded_harness_in_an_empty_folder_says_it_has_no_tools(tmp_path: Path) -> None:
    program = (
        "from factledger import Harness, HarnessError\n"
        "with Harness.embedded() as harness:\n"
        "    try:\n"
        "        harness.tool_definitions()\n"
        "    except HarnessError as error:\n"
        "        print(error.code.value)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "NO_EVIDENCE_TOOLS"
