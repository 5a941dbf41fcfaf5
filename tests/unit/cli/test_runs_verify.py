"""``factledger runs verify`` catches every kind of tampering with a SQLite store's file:
a modified, deleted (the tail too), reordered or inserted event, and a changed vault body;
it names the first bad event and exits non-zero. Expired bodies are expired, not tampered."""

from __future__ import annotations

import json
from pathlib import Path

from factledger.domain.codec import chain_hash
from tests.unit.cli.conftest import Cli, Recorded, long_ago, record_run, write_config

# The recorded run: 1 RUN_STARTED; per call k (1..3): 3k-1 TOOL_CALL_RESERVED,
# 3k INVOCATION_BEGAN, 3k+1 INVOCATION_READY; 11 RUN_ENDED.


def _verify(cli: Cli, recorded: Recorded) -> tuple[int, dict[str, object]]:
    code, out, _ = cli(
        "runs", "verify", recorded.run_id, "--json", "--config", str(recorded.config)
    )
    (line,) = out.splitlines()
    verdict: dict[str, object] = json.loads(line)
    return code, verdict


def _first_bad(verdict: dict[str, object]) -> tuple[object, object]:
    first = verdict["first_bad_event"]
    assert isinstance(first, dict), verdict
    return first["sequence"], first["reason"]


def test_an_untouched_run_verifies_with_every_body(recorded: Recorded, cli: Cli) -> None:
    code, verdict = _verify(cli, recorded)
    assert code == 0
    assert verdict["ok"] is True
    assert verdict["events"] == 11
    assert verdict["bodies"] == {"verified": 9, "expired": 0}
    assert verdict["first_bad_event"] is None
    code, out, _ = cli("runs", "verify", recorded.run_id, "--config", str(recorded.config))
    assert code == 0
    assert out.startswith(f"{recorded.run_id}  OK  11 events")
    assert "9 verified, 0 expired" in out


def test_a_modified_event_is_named_by_its_sequence(recorded: Recorded, cli: Cli) -> None:
    recorded.sql(
        "UPDATE events SET data = CAST(replace(data, 'call-2', 'call-9') AS BLOB) "
        "WHERE sequence = 6"
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (6, "HASH_MISMATCH")


def test_a_modified_event_with_a_recomputed_hash_breaks_the_next_link(
    recorded: Recorded, cli: Cli
) -> None:
    ((data, prev),) = recorded.sql(
        "SELECT e.data, p.hash FROM events e JOIN events p ON p.sequence = e.sequence - 1 "
        "WHERE e.sequence = 6"
    )
    assert isinstance(data, bytes)
    assert isinstance(prev, str)
    forged = data.replace(b'"request_bytes":14', b'"request_bytes":15')
    assert forged != data
    recorded.sql(
        "UPDATE events SET data = ?, hash = ? WHERE sequence = 6", forged, chain_hash(prev, forged)
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (7, "HASH_MISMATCH")


def test_a_deleted_tail_is_caught_by_the_head_kept_outside(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("DELETE FROM events WHERE sequence > 8")
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (9, "TAIL_MISSING")
    code, out, _ = cli("runs", "verify", recorded.run_id, "--config", str(recorded.config))
    assert code == 1
    assert "first bad event 9: TAIL_MISSING" in out


def test_a_deleted_event_in_the_middle_is_a_gap(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("DELETE FROM events WHERE sequence = 4")
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (4, "SEQUENCE_GAP")


def test_reordered_events_are_caught_at_the_first_moved_one(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("UPDATE events SET sequence = -sequence WHERE sequence IN (5, 6)")
    recorded.sql("UPDATE events SET sequence = 6 WHERE sequence = -5")
    recorded.sql("UPDATE events SET sequence = 5 WHERE sequence = -6")
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (5, "HASH_MISMATCH")


def test_an_inserted_event_is_caught_even_with_a_valid_link_of_its_own(
    recorded: Recorded, cli: Cli
) -> None:
    ((data, prev),) = recorded.sql("SELECT data, hash FROM events WHERE sequence = 4")
    assert isinstance(data, bytes)
    assert isinstance(prev, str)
    recorded.sql("UPDATE events SET sequence = -sequence WHERE sequence >= 5")
    recorded.sql("UPDATE events SET sequence = 1 - sequence WHERE sequence < 0")
    envelope = json.loads(data)
    envelope.update(sequence=5, prev_hash=prev)
    forged = json.dumps(envelope, sort_keys=True, separators=(",", ":")).encode()
    recorded.sql(
        "INSERT INTO events (run_id, sequence, data, hash) VALUES (?, 5, ?, ?)",
        recorded.run_id,
        forged,
        chain_hash(prev, forged),
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (6, "HASH_MISMATCH")


def test_an_event_appended_past_the_head_is_extra(recorded: Recorded, cli: Cli) -> None:
    ((data, prev),) = recorded.sql("SELECT data, hash FROM events WHERE sequence = 11")
    assert isinstance(data, bytes)
    assert isinstance(prev, str)
    envelope = json.loads(data)
    envelope.update(sequence=12, prev_hash=prev)
    forged = json.dumps(envelope, sort_keys=True, separators=(",", ":")).encode()
    recorded.sql(
        "INSERT INTO events (run_id, sequence, data, hash) VALUES (?, 12, ?, ?)",
        recorded.run_id,
        forged,
        chain_hash(prev, forged),
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (12, "EXTRA_EVENTS")


def test_a_changed_vault_body_is_named_by_the_event_holding_its_digest(
    recorded: Recorded, cli: Cli
) -> None:
    recorded.sql(
        'UPDATE vault SET body = CAST(\'{"evidence": ["forged"]}\' AS BLOB) '
        "WHERE tool_call_id = 'call-2' AND part = 'raw'"
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert verdict["first_bad_event"] == {
        "sequence": 7,
        "reason": "BODY_TAMPERED",
        "tool_call_id": "call-2",
        "part": "raw",
    }
    code, out, _ = cli("runs", "verify", recorded.run_id, "--config", str(recorded.config))
    assert "first bad event 7: BODY_TAMPERED (call-2 raw)" in out


def test_a_changed_request_body_is_named_by_its_invocation_began_event(
    recorded: Recorded, cli: Cli
) -> None:
    recorded.sql(
        "UPDATE vault SET body = CAST('{}' AS BLOB) "
        "WHERE tool_call_id = 'call-3' AND part = 'request'"
    )
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (9, "BODY_TAMPERED")


def test_a_body_deleted_before_its_expiry_is_missing(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("DELETE FROM vault WHERE tool_call_id = 'call-1' AND part = 'result'")
    code, verdict = _verify(cli, recorded)
    assert code == 1
    assert _first_bad(verdict) == (4, "BODY_MISSING")


def test_expired_bodies_are_reported_as_expired_and_the_run_still_verifies(
    tmp_path: Path, cli: Cli
) -> None:
    database = tmp_path / "store.db"
    run_id = record_run(database, clock=long_ago(), release=True)
    config = str(write_config(tmp_path, database))
    code, out, _ = cli("runs", "verify", run_id, "--json", "--config", config)
    assert code == 0
    verdict = json.loads(out)
    assert verdict["ok"] is True
    assert verdict["bodies"] == {"verified": 0, "expired": 10}


def test_the_published_release_result_is_verified_against_its_decision(
    tmp_path: Path, cli: Cli
) -> None:
    database = tmp_path / "store.db"
    released = Recorded(
        write_config(tmp_path, database), database, record_run(database, release=True)
    )
    code, verdict = _verify(cli, released)
    assert code == 0
    assert verdict["bodies"] == {"verified": 10, "expired": 0}
    released.sql("UPDATE vault SET body = CAST('{}' AS BLOB) WHERE part = 'release'")
    code, verdict = _verify(cli, released)
    assert code == 1
    assert verdict["first_bad_event"] == {
        "sequence": 11,
        "reason": "BODY_TAMPERED",
        "tool_call_id": "release",
        "part": "release",
    }


def test_every_problem_is_listed_first_bad_event_first(recorded: Recorded, cli: Cli) -> None:
    recorded.sql("UPDATE vault SET body = CAST('x' AS BLOB) WHERE tool_call_id = 'call-3'")
    recorded.sql("DELETE FROM events WHERE sequence = 11")
    code, verdict = _verify(cli, recorded)
    assert code == 1
    problems = verdict["problems"]
    assert isinstance(problems, list)
    assert [(p["sequence"], p["reason"]) for p in problems] == [
        (9, "BODY_TAMPERED"), (10, "BODY_TAMPERED"), (10, "BODY_TAMPERED"), (11, "TAIL_MISSING"),
    ]  # fmt: skip


def test_verify_all_checks_every_run_and_fails_if_any_fails(tmp_path: Path, cli: Cli) -> None:
    database = tmp_path / "store.db"
    good, bad = record_run(database, calls=1), record_run(database, calls=1)
    config = str(write_config(tmp_path, database))
    code, out, _ = cli("runs", "verify", "--all", "--json", "--config", config)
    assert code == 0
    assert {json.loads(line)["run_id"] for line in out.splitlines()} == {good, bad}
    Recorded(Path(config), database, bad).sql(
        "DELETE FROM events WHERE run_id = ? AND sequence = 5", bad
    )
    code, out, _ = cli("runs", "verify", "--all", "--config", config)
    assert code == 1
    assert f"{good}  OK" in out
    assert f"{bad}  FAILED  first bad event 5: TAIL_MISSING" in out
    assert out.endswith("1 of 2 runs verified\n")


def test_verifying_an_unknown_run_fails_with_not_found(recorded: Recorded, cli: Cli) -> None:
    code, out, _ = cli("runs", "verify", "run-nobody", "--json", "--config", str(recorded.config))
    assert code == 1
    assert json.loads(out)["error"] == "NOT_FOUND"
