"""A team's own evidence tool: registered directly or from its settings section, refused
under a name that could pass for another tool's, and held to the same protocol and guards."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factledger import ObservationStatus, Settings, SettingsError, build_harness, load_settings
from factledger.adapters import tool_plugins
from factledger.adapters.config.sections import StoreSettings
from factledger.tools import ToolRegistrationError, ToolRegistrationFailure
from tests.unit.facade.tools import EchoProvider, EchoTool

MEMORY = {"store": {"kind": "memory"}}
START, END = datetime(2026, 3, 14, 9, tzinfo=UTC), datetime(2026, 3, 14, 10, tzinfo=UTC)


def _arguments(text: str, previous: str | None = None) -> str:
    evaluation = None if previous is None else {"tool_call_id": previous, "evaluation": "GAINED"}
    return json.dumps({"previous_observation": evaluation, "input": {"text": text}})


def test_a_provider_builds_its_tool_from_its_settings_section() -> None:
    settings = Settings.model_validate({**MEMORY, "tools": {"echo": {"delay_seconds": 0}}})
    with build_harness(settings, tools=[EchoProvider()]) as harness:
        assert harness.tool_names == ("echo_evidence",)


def test_a_tool_section_is_read_from_the_environment_too(tmp_path: Path) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text('[store]\nkind = "memory"\n[tools.echo]\ndelay_seconds = 0\n')
    settings = load_settings(config, environ={"FACTLEDGER_TOOLS__ECHO__ENABLED": "false"})
    assert settings.tools == {"echo": {"delay_seconds": 0, "enabled": False}}
    with build_harness(settings, tools=[EchoProvider()]) as harness:
        assert harness.tool_names == ()  # the provider says the section configures no tool


def test_a_bad_value_in_a_tool_section_stops_start_up_naming_the_key() -> None:
    settings = Settings.model_validate({**MEMORY, "tools": {"echo": {"delay_seconds": -1}}})
    with pytest.raises(SettingsError, match=r"tools\.echo\.delay_seconds"):
        build_harness(settings, tools=[EchoProvider()])
    unknown = Settings.model_validate({**MEMORY, "tools": {"echo": {"colour": "red"}}})
    with pytest.raises(SettingsError, match=r"tools\.echo\.colour"):
        build_harness(unknown, tools=[EchoProvider()])


def test_a_section_no_provider_reads_stops_start_up_naming_it() -> None:
    settings = Settings.model_validate({**MEMORY, "tools": {"metrics": {"url": "x"}}})
    with pytest.raises(SettingsError, match=r"tools\.metrics"):
        build_harness(settings, tools=[EchoProvider()])


def test_without_its_section_a_provider_registers_nothing() -> None:
    with build_harness(Settings.model_validate(MEMORY), tools=[EchoProvider()]) as harness:
        assert harness.tool_names == ()


def test_installed_providers_are_used_when_no_tools_are_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Entry:
        name = "echo"

        def load(self) -> type[EchoProvider]:
            return EchoProvider

    monkeypatch.setattr(tool_plugins, "entry_points", lambda group: [Entry()])
    settings = Settings.model_validate({**MEMORY, "tools": {"echo": {}}})
    with build_harness(settings) as harness:
        assert harness.tool_names == ("echo_evidence",)


@pytest.mark.parametrize(
    ("name", "failure"),
    [
        ("query_log", ToolRegistrationFailure.CONFUSABLE_NAME),
        ("Query_Logs", ToolRegistrationFailure.CONFUSABLE_NAME),
        ("lookup_knowIedge", ToolRegistrationFailure.CONFUSABLE_NAME),
        ("echo evidence", ToolRegistrationFailure.INVALID_NAME),
        ("", ToolRegistrationFailure.INVALID_NAME),
        ("x" * 65, ToolRegistrationFailure.INVALID_NAME),
    ],
)
def test_a_name_that_is_malformed_or_could_pass_for_another_tool_is_refused(
    name: str, failure: ToolRegistrationFailure
) -> None:
    with pytest.raises(ToolRegistrationError) as raised:
        build_harness(Settings.model_validate(MEMORY), tools=[EchoTool(name=name)])
    assert raised.value.failure is failure


def test_two_tools_of_one_name_are_refused() -> None:
    with pytest.raises(ToolRegistrationError) as raised:
        build_harness(Settings.model_validate(MEMORY), tools=[EchoTool(), EchoTool()])
    assert raised.value.failure is ToolRegistrationFailure.DUPLICATE_NAME


def test_a_built_in_name_may_be_taken_by_a_tool_that_replaces_it() -> None:
    settings = Settings(store=StoreSettings(kind="memory"))
    with build_harness(settings, tools=[EchoTool(name="lookup_knowledge")]) as harness:
        assert harness.tool_names == ("lookup_knowledge",)


def test_an_own_tool_is_held_to_the_progress_protocol_and_the_guards() -> None:
    with build_harness(Settings.model_validate(MEMORY), tools=[EchoTool()]) as harness:
        run_id = harness.start_run(question="q", service="s", start=START, end=END)
        first = harness.observe(run_id, "c1", "echo_evidence", _arguments("pool exhausted"))
        assert first.is_ready
        skipped = harness.observe(run_id, "c2", "echo_evidence", _arguments("other"))
        assert skipped.status is ObservationStatus.REFUSED
        assert skipped.error_code == "PROTOCOL_VIOLATION"
        assert skipped.repair is not None
        assert skipped.repair.expected_tool_call_id == "c1"
        draft = {
            "conclusion": "echoed pool exhausted",
            "analyses": [
                {"kind": "SUPPORTING_EVIDENCE", "claim": "echoed pool exhausted",
                 "tool_call_ids": ["c1", "c9"]},
            ],
        }  # fmt: skip
        fallback = harness.release(run_id, json.dumps(draft)).fallback
        assert fallback is not None
        assert {(i.code, i.tool_call_id) for i in fallback.validation_issues} >= {
            ("UNKNOWN_TOOL_CALL", "c9")
        }
