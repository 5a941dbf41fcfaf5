"""Every transport reports the installed distribution's version: the CLI's ``--version``, the
HTTP API's OpenAPI document and the MCP server's implementation info."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path

import pytest

from factledger.adapters.bootstrap import build_harness
from factledger.adapters.cli.main import main
from factledger.adapters.demo.incident import demo_settings
from factledger.adapters.http import create_app
from factledger.adapters.mcp import McpGateway, build_server
from factledger.adapters.mcp.server import stdio_session_key
from factledger.application.harness import Harness

INSTALLED = version("factledger")


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    built = build_harness(demo_settings(tmp_path))
    yield built
    built.close()


def test_the_cli_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == INSTALLED


def test_the_http_api_and_the_mcp_server_report_the_installed_version(harness: Harness) -> None:
    assert create_app(harness).version == INSTALLED
    server = build_server(McpGateway(harness, id_prefix="mcp-test"), stdio_session_key)
    assert server.version == INSTALLED
