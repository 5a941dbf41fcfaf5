"""``factledger runs list`` and ``runs show`` on a SQLite store written by another runtime."""

from __future__ import annotations

import json
from pathlib import Path

from tests.unit.cli.conftest import Cli, Recorded, record_run, write_config


def test_list_shows_the_recorded_run_with_its_state_and_event_count(
    recorded: Recorded, cli: Cli
) -> None:
    code, out, _ = cli("runs", "list", "--config", str(recorded.config))
    assert code == 0
    header, row = out.splitlines()
    assert header.split()[:4] == ["RUN", "STARTED", "(UTC)", "STATE"]
    assert row.split()[0] == recorded.run_id
    assert "CANCELLED" in row.split()
    assert "11" in row.split()


def test_list_as_json_gives_one_object_per_run_newest_first(tmp_path: Path, cli: Cli) -> None:
    database = tmp_path / "store.db"
    first = record_run(database, calls=1)
    second = record_run(database, calls=2)
    code, out, _ = cli("runs", "list", "--json", "--config", str(write_config(tmp_path, database)))
    assert code == 0
    runs = [json.loads(line) for line in out.splitlines()]
    assert [run["run_id"] for run in runs] == [second, first]
    assert [run["events"] for run in runs] == [1 + 3 * 2 + 1, 1 + 3 + 1]
    assert {run["state"] for run in runs} == {"CANCELLED"}
    assert all(len(run["head"]["hash"]) == 64 for run in runs)


def test_list_honours_the_limit(tmp_path: Path, cli: Cli) -> None:
    database = tmp_path / "store.db"
    for _ in range(3):
        record_run(database, calls=0)
    config = str(write_config(tmp_path, database))
    code, out, _ = cli("runs", "list", "--json", "--limit", "2", "--config", config)
    assert code == 0
    assert len(out.splitlines()) == 2


def test_an_empty_store_lists_no_runs_and_succeeds(tmp_path: Path, cli: Cli) -> None:
    config = write_config(tmp_path, tmp_path / "fresh" / "store.db")
    assert cli("runs", "list", "--config", str(config)) == (0, "no runs recorded\n", "")


def test_show_prints_a_timeline_with_types_and_shortened_digests(
    recorded: Recorded, cli: Cli
) -> None:
    code, out, _ = cli("runs", "show", recorded.run_id, "--config", str(recorded.config))
    assert code == 0
    assert f"run {recorded.run_id}" in out
    assert "state    CANCELLED" in out
    assert "chain    intact" in out
    kinds = [line.split()[3] for line in out.splitlines() if line[:5].strip().isdigit()]
    assert kinds == ["RUN_STARTED"] + [
        "TOOL_CALL_RESERVED", "INVOCATION_BEGAN", "INVOCATION_READY"
    ] * 3 + ["RUN_ENDED"]  # fmt: skip
    assert "tool_call_id=call-2" in out
    digests = [word for word in out.split() if word.startswith("request_digest=")]
    assert digests
    assert all(len(word.removeprefix("request_digest=")) == 13 for word in digests)
    assert all(word.endswith("…") for word in digests)


def test_show_as_json_holds_every_event_with_its_full_payload(recorded: Recorded, cli: Cli) -> None:
    code, out, _ = cli("runs", "show", recorded.run_id, "--json", "--config", str(recorded.config))
    assert code == 0
    shown = json.loads(out)
    assert shown["run_id"] == recorded.run_id
    assert shown["chain"] == {"intact": True, "first_bad_event": None}
    assert [event["sequence"] for event in shown["events"]] == list(range(1, 12))
    began = shown["events"][2]
    assert began["type"] == "INVOCATION_BEGAN"
    assert len(began["payload"]["request_digest"]) == 64
    assert shown["head"]["hash"] == shown["events"][-1]["hash"]


def test_show_names_an_unknown_run_and_exits_1(recorded: Recorded, cli: Cli) -> None:
    code, out, err = cli("runs", "show", "run-nobody", "--config", str(recorded.config))
    assert (code, out) == (1, "")
    assert "run-nobody" in err


def test_show_on_a_tampered_run_says_where_the_chain_breaks(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("UPDATE events SET data = replace(data, 'call-2', 'call-X') WHERE sequence = 5")
    code, out, _ = cli("runs", "show", recorded.run_id, "--config", str(recorded.config))
    assert code == 0
    assert "broken at event 5 (HASH_MISMATCH)" in out


def test_a_bad_settings_file_is_one_line_naming_the_key_and_exit_code_2(
    tmp_path: Path, cli: Cli
) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text('[store]\nkind = "sqlite"\npartitions = 0\n')
    for command in (["list"], ["show", "run-1"], ["verify", "--all"]):
        code, out, err = cli("runs", *command, "--config", str(config))
        assert (code, out) == (2, "")
        assert len(err.strip().splitlines()) == 1
        assert "store.partitions" in err


def test_a_store_created_with_other_partitions_is_refused_naming_the_key(
    recorded: Recorded, cli: Cli
) -> None:
    text = recorded.config.read_text() + "partitions = 3\n"
    recorded.config.write_text(text)
    code, _, err = cli("runs", "list", "--config", str(recorded.config))
    assert code == 2
    assert err.count("\n") == 1
    assert "store.partitions" in err
    assert "created with 8 partitions" in err


def test_on_the_memory_store_the_commands_are_harmless(tmp_path: Path, cli: Cli) -> None:
    config = tmp_path / "factledger.toml"
    config.write_text('[store]\nkind = "memory"\n')
    assert cli("runs", "list", "--config", str(config))[0] == 0
    assert cli("runs", "show", "run-1", "--config", str(config))[0] == 1
    assert cli("runs", "verify", "--all", "--config", str(config))[0] == 0


def test_show_explains_a_release_decision(tmp_path: Path, cli: Cli) -> None:
    database = tmp_path / "store.db"
    run_id = record_run(database, calls=1, release=True)
    config = str(write_config(tmp_path, database))
    code, out, _ = cli("runs", "show", run_id, "--config", config)
    assert code == 0
    assert "state    SUCCESS" in out
    (decision,) = [line for line in out.splitlines() if "RELEASE_DECISION" in line]
    assert "outcome=FALLBACK" in out
    assert "fallback_type=MISSING_REQUIRED_CONTEXT" in out
    assert decision.split()[0] == "5"
