"""``factledger runs``: forensics over recorded runs, on whichever store the settings choose.

- ``runs list [--limit N]``: recent runs, newest first: start, state, chain head.
- ``runs show RUN_ID``: the run's timeline, each event with its sequence, time, type and its
  safe metadata (events hold only ids, codes, sizes and digests; digests are shortened on a
  terminal and kept whole in ``--json``).
- ``runs verify RUN_ID | --all``: the hash chain over the stored bytes against the head kept
  outside the stream, then every vault body against the digest its event recorded (request
  in INVOCATION_BEGAN, raw and result in INVOCATION_READY). A body past its expiry is counted
  as expired, not as tampered. The published release result is checked against the digest in
  RELEASE_DECISION the same way. Names the first bad event; exits 1 on any failure.

Every command takes ``--config FILE`` (else the usual lookup order) and ``--json``. A settings
error is one line naming the key, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final

from attrs import frozen
from returns.result import Success

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.settings import SettingsError, load_settings
from factledger.adapters.system import SystemClock
from factledger.domain.chain import (
    ChainBroken,
    ChainHead,
    ChainVerdict,
    StoredEvent,
    verify_chain,
)
from factledger.domain.codec import encode_datetime, sha256_hex
from factledger.domain.event_catalog import default_codec
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.release.events import ReleaseDecided
from factledger.domain.run_events import InvocationBegan, InvocationReady
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault

__all__ = ["RunVerdict", "VerifyProblem", "register", "verify_run"]

_EVERY_RUN: Final = 1_000_000_000
_CLOCK_SKEW: Final = timedelta(seconds=5)
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
_SHORT: Final = 12
_WIDTH: Final = 120


# -- the parser ----------------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value!r}")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--config", type=Path, metavar="FILE", help="settings file (default: lookup order)"
    )
    common.add_argument("--json", action="store_true", help="print JSON")
    parser = subparsers.add_parser("runs", help="list, show and verify recorded runs")
    commands = parser.add_subparsers(dest="runs_command", metavar="COMMAND", required=True)
    listing = commands.add_parser("list", parents=[common], help="recent runs, newest first")
    listing.add_argument("--limit", type=_positive, default=20, metavar="N")
    listing.set_defaults(handler=_list)
    show = commands.add_parser("show", parents=[common], help="a run's timeline")
    show.add_argument("run_id", metavar="RUN_ID")
    show.set_defaults(handler=_show)
    verify = commands.add_parser(
        "verify",
        parents=[common],
        help="verify hash chains and vault bodies",
        description="Exit code 0 when every run verifies, 1 when any does not.",
    )
    which = verify.add_mutually_exclusive_group(required=True)
    which.add_argument("run_id", nargs="?", metavar="RUN_ID")
    which.add_argument("--all", action="store_true", help="every run the store lists")
    verify.set_defaults(handler=_verify)


@frozen
class _Stores:
    events: EventStore
    vault: PayloadVault
    clock: Clock
    release_ttl: timedelta


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[_Stores | None]:
    """The stores the settings choose, or ``None`` after printing why not."""
    clock = SystemClock()
    try:
        settings = load_settings(args.config)
        events, vault, close = build_stores(settings, clock)
    except SettingsError as error:
        print(f"factledger runs: {error}", file=sys.stderr)
        yield None
        return
    try:
        yield _Stores(events, vault, clock, timedelta(seconds=settings.vault.ttl_seconds))
    finally:
        close()


def _with_stores(
    args: argparse.Namespace, command: Callable[[argparse.Namespace, _Stores], int]
) -> int:
    with _opened(args) as stores:
        return 2 if stores is None else command(args, stores)


def _unavailable(reason: str) -> int:
    print(f"factledger runs: the store is unavailable ({reason})", file=sys.stderr)
    return 1


def _short(digest: str) -> str:
    return digest[:_SHORT] + "…"


# -- list ----------------------------------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    return _with_stores(args, _list_with)


def _list_with(args: argparse.Namespace, stores: _Stores) -> int:
    listed = stores.events.list_runs(args.limit)
    if not isinstance(listed, Success):
        return _unavailable(listed.failure().reason)
    if args.json:
        for entry in listed.unwrap():
            print(
                json.dumps(
                    {
                        "run_id": entry.run_id,
                        "started_at": encode_datetime(entry.started_at),
                        "state": entry.state,
                        "events": entry.head.sequence,
                        "head": {"sequence": entry.head.sequence, "hash": entry.head.hash},
                    }
                )
            )
        return 0
    entries = listed.unwrap()
    if not entries:
        print("no runs recorded")
        return 0
    width = max(len("RUN"), *(len(entry.run_id) for entry in entries))
    print(f"{'RUN':<{width}}  {'STARTED (UTC)':<19}  {'STATE':<16}  {'EVENTS':>6}  HEAD")
    for entry in entries:
        started = entry.started_at.strftime("%Y-%m-%d %H:%M:%S")
        print(
            f"{entry.run_id:<{width}}  {started:<19}  {entry.state:<16}  "
            f"{entry.head.sequence:>6}  {_short(entry.head.hash)}"
        )
    return 0


# -- show ----------------------------------------------------------------------------------


@frozen
class _TimelineEntry:
    sequence: int
    hash: str
    envelope: JsonObject | None
    """The parsed envelope; ``None`` when the stored bytes are not a JSON object."""


def _timeline(stored: Sequence[StoredEvent]) -> list[_TimelineEntry]:
    entries: list[_TimelineEntry] = []
    for item in stored:
        try:
            envelope = json.loads(item.data)
        except (ValueError, RecursionError):
            envelope = None
        entries.append(
            _TimelineEntry(
                item.sequence, item.hash, envelope if isinstance(envelope, dict) else None
            )
        )
    return entries


def _occurred_at(entry: _TimelineEntry) -> datetime | None:
    if entry.envelope is None:
        return None
    value = entry.envelope.get("occurred_at")
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def _flatten(prefix: str, value: JsonValue, into: list[tuple[str, str]]) -> None:
    if isinstance(value, dict):
        for key in sorted(value):
            _flatten(f"{prefix}.{key}" if prefix else key, value[key], into)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _flatten(f"{prefix}[{index}]", item, into)
    elif value is None:
        return
    elif isinstance(value, str):
        into.append((prefix, _short(value) if _DIGEST.fullmatch(value) else value))
    else:
        into.append((prefix, json.dumps(value)))


def _metadata_text(payload: JsonValue) -> str:
    pairs: list[tuple[str, str]] = []
    _flatten("", payload, pairs)
    return " ".join(f"{key}={value}" for key, value in pairs)


def _run_state(entries: Sequence[_TimelineEntry]) -> str:
    state = "UNKNOWN"
    for entry in entries:
        if entry.envelope is None:
            continue
        payload = entry.envelope.get("payload")
        if entry.envelope.get("type") == "RUN_STARTED":
            state = "RUNNING"
        elif entry.envelope.get("type") == "RUN_ENDED" and isinstance(payload, dict):
            ended = payload.get("state")
            state = ended if isinstance(ended, str) else state
    return state


def _show(args: argparse.Namespace) -> int:
    return _with_stores(args, _show_with)


def _show_with(args: argparse.Namespace, stores: _Stores) -> int:
    head = stores.events.read_head(args.run_id)
    if not isinstance(head, Success):
        return _unavailable(head.failure().reason)
    found = head.unwrap()
    if found is None:
        print(f"factledger runs: no run {args.run_id!r} in this store", file=sys.stderr)
        return 1
    stored = stores.events.read_run(args.run_id)
    if not isinstance(stored, Success):
        return _unavailable(stored.failure().reason)
    events = stored.unwrap()
    entries = _timeline(events)
    chain = verify_chain(events, found, deep=True)
    if args.json:
        print(json.dumps(_show_json(args.run_id, found, entries, chain), indent=2))
        return 0
    started = next((at for entry in entries if (at := _occurred_at(entry)) is not None), None)
    print(f"run {args.run_id}")
    print(f"  state    {_run_state(entries)}")
    print(f"  started  {'-' if started is None else encode_datetime(started)}")
    print(f"  head     {found.sequence} {_short(found.hash)}")
    verdict = (
        f"broken at event {chain.sequence} ({chain.reason}); run `factledger runs verify`"
        if isinstance(chain, ChainBroken)
        else "intact"
    )
    print(f"  chain    {verdict}")
    print()
    for entry in entries:
        print(_timeline_line(entry, started))
    return 0


def _timeline_line(entry: _TimelineEntry, started: datetime | None) -> str:
    if entry.envelope is None:
        return f"{entry.sequence:>5}  (stored bytes are not an event envelope)"
    at = _occurred_at(entry)
    offset = "" if at is None or started is None else f"+{(at - started).total_seconds():.3f}s"
    stamp = "-" if at is None else encode_datetime(at)
    kind = entry.envelope.get("type")
    kind_text = kind if isinstance(kind, str) else "?"
    metadata = _metadata_text(entry.envelope.get("payload"))
    line = f"{entry.sequence:>5}  {stamp}  {offset:>10}  {kind_text:<26} {metadata}"
    width = max(shutil.get_terminal_size((_WIDTH, 24)).columns, 60)
    return textwrap.fill(
        line,
        width,
        subsequent_indent=" " * 9,
        break_long_words=False,
        break_on_hyphens=False,
    )


def _show_json(
    run_id: str, head: ChainHead, entries: Sequence[_TimelineEntry], chain: ChainVerdict
) -> JsonObject:
    events: list[JsonValue] = []
    for entry in entries:
        item: JsonObject = {"sequence": entry.sequence, "hash": entry.hash}
        if entry.envelope is None:
            item["undecodable"] = True
        else:
            for key in ("type", "occurred_at", "schema_version", "prev_hash", "payload"):
                item[key] = entry.envelope.get(key)
        events.append(item)
    broken: JsonValue = (
        {"sequence": chain.sequence, "reason": chain.reason}
        if isinstance(chain, ChainBroken)
        else None
    )
    return {
        "run_id": run_id,
        "state": _run_state(entries),
        "head": {"sequence": head.sequence, "hash": head.hash},
        "chain": {"intact": broken is None, "first_bad_event": broken},
        "events": events,
    }


# -- verify --------------------------------------------------------------------------------


@frozen
class VerifyProblem:
    """A place where a run does not verify."""

    sequence: int
    """The event that is bad, or whose recorded digest a body does not match."""
    reason: str
    """A chain reason (``HASH_MISMATCH``, ``TAIL_MISSING``, …), ``UNDECODABLE``,
    ``BODY_TAMPERED`` or ``BODY_MISSING`` (gone before its expiry)."""
    tool_call_id: str | None = None
    """The call, for a body."""
    part: PayloadPart | None = None
    """Which body."""


@frozen
class RunVerdict:
    """What verifying one run found."""

    run_id: str
    """The run."""
    error: str | None
    """``NOT_FOUND`` or ``STORE_UNAVAILABLE`` when the run could not be verified at all."""
    events: int = 0
    """Events read."""
    head: ChainHead | None = None
    """The head kept outside the stream."""
    bodies_verified: int = 0
    """Bodies whose digest matches their event."""
    bodies_expired: int = 0
    """Bodies past their expiry (absent as they should be)."""
    problems: tuple[VerifyProblem, ...] = ()
    """Every problem found, first bad event first."""

    @property
    def ok(self) -> bool:
        """True when the run verified completely."""
        return self.error is None and not self.problems


@frozen
class _Expected:
    sequence: int
    key: PayloadKey
    digest: str
    expires_at: datetime | None


def _expected_bodies(
    run_id: str, events: Sequence[StoredEvent], release_ttl: timedelta
) -> tuple[list[_Expected], list[VerifyProblem]]:
    codec = default_codec()
    expected: list[_Expected] = []
    problems: list[VerifyProblem] = []
    expiry: dict[str, datetime] = {}
    for item in events:
        decoded = codec.decode(item.data, item.hash)
        if not isinstance(decoded, Success):
            problems.append(VerifyProblem(item.sequence, "UNDECODABLE"))
            continue
        recorded = decoded.unwrap()
        event = recorded.event
        if isinstance(event, ReleaseDecided):
            # The event does not record the body's expiry: it was set when the release was
            # decided, ``[vault] ttl_seconds`` ahead.
            key = PayloadKey.of_release(run_id)
            expires_at = recorded.occurred_at + release_ttl
            expected.append(_Expected(item.sequence, key, event.result_digest, expires_at))
        elif isinstance(event, InvocationBegan):
            expiry[event.tool_call_id] = event.content_expires_at
            key = PayloadKey(run_id, event.tool_call_id, PayloadPart.REQUEST)
            expected.append(
                _Expected(item.sequence, key, event.request_digest, event.content_expires_at)
            )
        elif isinstance(event, InvocationReady):
            for part, digest in (
                (PayloadPart.RAW, event.raw_digest),
                (PayloadPart.RESULT, event.result_digest),
            ):
                key = PayloadKey(run_id, event.tool_call_id, part)
                expected.append(
                    _Expected(item.sequence, key, digest, expiry.get(event.tool_call_id))
                )
    return expected, problems


def verify_run(
    store: EventStore,
    vault: PayloadVault,
    clock: Clock,
    run_id: str,
    release_ttl: timedelta,
) -> RunVerdict:
    """Verify one run's chain (deep, against the head kept outside) and vault bodies: the
    request, raw and result bodies of each call and the published release result.
    ``release_ttl`` is how long release results are kept (``[vault] ttl_seconds``)."""
    head_read = store.read_head(run_id)
    if not isinstance(head_read, Success):
        return RunVerdict(run_id, "STORE_UNAVAILABLE")
    head = head_read.unwrap()
    if head is None:
        return RunVerdict(run_id, "NOT_FOUND")
    stored = store.read_run(run_id)
    if not isinstance(stored, Success):
        return RunVerdict(run_id, "STORE_UNAVAILABLE", head=head)
    events = stored.unwrap()
    chain = verify_chain(events, head, deep=True)
    problems: list[VerifyProblem] = []
    trusted = events
    if isinstance(chain, ChainBroken):
        problems.append(VerifyProblem(chain.sequence, chain.reason))
        trusted = events[: chain.sequence - 1]  # sequences 1 … k-1 verified, in order
    expected, undecodable = _expected_bodies(run_id, trusted, release_ttl)
    problems += undecodable
    bodies = vault.get_many([item.key for item in expected])
    if not isinstance(bodies, Success):
        return RunVerdict(run_id, "STORE_UNAVAILABLE", len(events), head)
    now = clock.now()
    verified = expired = 0
    for item, body in zip(expected, bodies.unwrap(), strict=True):
        if body is None:
            if item.expires_at is not None and now >= item.expires_at - _CLOCK_SKEW:
                expired += 1
            else:
                problems.append(
                    VerifyProblem(
                        item.sequence, "BODY_MISSING", item.key.tool_call_id, item.key.part
                    )
                )
        elif sha256_hex(body) != item.digest:
            problems.append(
                VerifyProblem(item.sequence, "BODY_TAMPERED", item.key.tool_call_id, item.key.part)
            )
        else:
            verified += 1
    problems.sort(key=lambda problem: problem.sequence)
    return RunVerdict(run_id, None, len(events), head, verified, expired, tuple(problems))


def _problem_json(problem: VerifyProblem) -> JsonObject:
    return {
        "sequence": problem.sequence,
        "reason": problem.reason,
        "tool_call_id": problem.tool_call_id,
        "part": None if problem.part is None else problem.part.value,
    }


def _verdict_json(verdict: RunVerdict) -> JsonObject:
    return {
        "run_id": verdict.run_id,
        "ok": verdict.ok,
        "error": verdict.error,
        "events": verdict.events,
        "head": None
        if verdict.head is None
        else {"sequence": verdict.head.sequence, "hash": verdict.head.hash},
        "bodies": {"verified": verdict.bodies_verified, "expired": verdict.bodies_expired},
        "first_bad_event": _problem_json(verdict.problems[0]) if verdict.problems else None,
        "problems": [_problem_json(problem) for problem in verdict.problems],
    }


def _problem_text(problem: VerifyProblem) -> str:
    where = f"event {problem.sequence}: {problem.reason}"
    if problem.tool_call_id is not None and problem.part is not None:
        where += f" ({problem.tool_call_id} {problem.part.value})"
    return where


def _verdict_lines(verdict: RunVerdict) -> list[str]:
    if verdict.error is not None:
        return [f"{verdict.run_id}  FAILED  {verdict.error}"]
    if verdict.ok:
        head = "" if verdict.head is None else f", head {_short(verdict.head.hash)}"
        return [
            f"{verdict.run_id}  OK  {verdict.events} events{head}; bodies: "
            f"{verdict.bodies_verified} verified, {verdict.bodies_expired} expired"
        ]
    first, *rest = verdict.problems
    lines = [f"{verdict.run_id}  FAILED  first bad {_problem_text(first)}"]
    lines += [f"    also {_problem_text(problem)}" for problem in rest]
    return lines


def _verify(args: argparse.Namespace) -> int:
    return _with_stores(args, _verify_with)


def _verify_with(args: argparse.Namespace, stores: _Stores) -> int:
    if args.all:
        listed = stores.events.list_runs(_EVERY_RUN)
        if not isinstance(listed, Success):
            return _unavailable(listed.failure().reason)
        run_ids = [entry.run_id for entry in listed.unwrap()]
    else:
        run_ids = [args.run_id]
    failed = 0
    for run_id in run_ids:
        verdict = verify_run(stores.events, stores.vault, stores.clock, run_id, stores.release_ttl)
        failed += not verdict.ok
        if args.json:
            print(json.dumps(_verdict_json(verdict)))
        else:
            for line in _verdict_lines(verdict):
                print(line)
    if not args.json and args.all:
        print(f"{len(run_ids) - failed} of {len(run_ids)} runs verified")
    return 1 if failed else 0
