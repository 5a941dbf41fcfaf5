"""``factledger serve``: no token means loopback only; the command serves the demo for real."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from factledger.adapters.cli.contract import ExitCode
from factledger.adapters.cli.main import main
from factledger.adapters.config.sections import HttpSettings
from factledger.adapters.http import ApiOptions, ServeError, plan_server
from tests.support.processes import free_port, wait_until


@pytest.fixture(autouse=True)
def _no_http_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("FACTLEDGER_HTTP__"):
            monkeypatch.delenv(name)


@pytest.mark.parametrize("bind", ["0.0.0.0:8787", "[::]:8787", "10.1.2.3:80", "example.org:80"])
def test_without_a_token_any_address_but_loopback_is_refused(bind: str) -> None:
    with pytest.raises(ServeError, match="without a bearer token"):
        plan_server(HttpSettings(), bind, {})


@pytest.mark.parametrize("bind", ["127.0.0.1:8787", "127.0.0.9:1", "[::1]:8787", "localhost:0"])
def test_without_a_token_loopback_is_served(bind: str) -> None:
    plan = plan_server(HttpSettings(), bind, {})

    assert plan.token is None


def test_with_a_token_any_address_is_served() -> None:
    plan = plan_server(HttpSettings(token_env="FL_TOKEN"), "0.0.0.0:8787", {"FL_TOKEN": "t0ken"})

    assert (plan.host, plan.port, plan.token) == ("0.0.0.0", 8787, "t0ken")
    assert plan.authority == "0.0.0.0:8787"


@pytest.mark.parametrize("environ", [{}, {"FL_TOKEN": ""}, {"FL_TOKEN": "  "}])
def test_a_token_variable_that_is_unset_or_empty_stops_start_up(environ: dict[str, str]) -> None:
    with pytest.raises(ServeError, match="FL_TOKEN"):
        plan_server(HttpSettings(token_env="FL_TOKEN"), "127.0.0.1:8787", environ)


@pytest.mark.parametrize("bind", ["8787", "host:", ":8787", "host:99999", "[::1]8787"])
def test_a_bind_that_is_not_host_and_port_stops_start_up(bind: str) -> None:
    with pytest.raises(ServeError, match="HOST:PORT"):
        plan_server(HttpSettings(), bind, {})


def test_the_serve_command_refuses_to_bind_all_addresses_without_a_token(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--demo", "--bind", "0.0.0.0:8787"]) == 2

    error = capsys.readouterr().err
    assert "refusing to listen on '0.0.0.0' without a bearer token" in error
    assert not Path(".factledger").exists()


def test_the_serve_command_serves_the_demo_until_it_is_stopped(tmp_path: Path) -> None:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("FACTLEDGER_")}
    environ["FL_TEST_TOKEN"] = "a-token-for-this-test"
    environ["FACTLEDGER_HTTP__TOKEN_ENV"] = "FL_TEST_TOKEN"
    command = [sys.executable, "-m", "factledger.adapters.cli.main", "serve", "--demo"]
    process = subprocess.Popen(
        [*command, "--bind", f"127.0.0.1:{port}"],
        cwd=tmp_path,
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            assert process.poll() is None, "factledger serve exited"
            try:
                return httpx.get(f"{url}/openapi.json", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        wait_until(answers, 30, "factledger serve")
        headers = {"Authorization": "Bearer a-token-for-this-test"}
        body = {"service": "card-gateway", "start": "2026-03-14T09:00Z", "end": "2026-03-14T10:00Z"}
        started = httpx.post(f"{url}/runs", json=body, headers=headers)
        unauthenticated = httpx.get(f"{url}/runs/{started.json()['run_id']}")
        assert started.status_code == 201
        assert unauthenticated.status_code == 401
        assert (tmp_path / ".factledger" / "store.db").exists()
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=20)
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]


@pytest.mark.parametrize("token", ["", "   "])
def test_an_empty_token_is_refused_rather_than_letting_every_request_in(token: str) -> None:
    with pytest.raises(ValueError, match="empty bearer token"):
        ApiOptions(token=token)


@pytest.mark.parametrize("as_json", [False, True])
def test_serve_on_a_taken_port_reports_it_and_prints_no_url(
    tmp_path: Path, as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as occupant:
        occupant.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        occupant.bind(("127.0.0.1", 0))
        occupant.listen()
        port = occupant.getsockname()[1]
        config = tmp_path / "factledger.toml"
        config.write_text('[store]\nkind = "memory"\n')
        flags = ["--json"] if as_json else []
        code = main(["serve", "--config", str(config), "--bind", f"127.0.0.1:{port}", *flags])
    out, err = capsys.readouterr()
    assert code == ExitCode.ERROR
    assert "http://" not in out + err
    if as_json:
        assert json.loads(out)["error"]["code"] == "PORT_IN_USE"
    else:
        assert f"127.0.0.1:{port}" in err
        assert "in use" in err
