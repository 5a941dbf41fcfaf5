"""``factledger runs``: forensics over recorded runs, on whichever store the settings choose.

- ``runs list [--limit N] [--outcome OUTCOME]``: recent runs, newest first, with the release
  outcome (``runs_list.py``).
- ``runs show RUN_ID``: the run's timeline, each event with its sequence, time, type and its
  safe metadata (events hold only ids, codes, sizes and digests; digests are shortened on a
  terminal and kept whole in ``--json``).
- ``runs verify RUN_ID | --all``: the hash chain over the stored bytes against the head kept
  outside the stream, then every vault body against the digest its event recorded (request
  in INVOCATION_BEGAN, raw and result in INVOCATION_READY). A body past its expiry is counted
  as expired, not as tampered. The published release result is checked against the digest in
  RELEASE_DECISION the same way. Names the first bad event; exits 1 on any failure. With
``--all`` on a terminal a progress bar is drawn on standard error.

Every command takes ``--config FILE`` (else the usual lookup order) and ``--json``. A settings
error is one line naming the key (under ``--json`` an ``{"error": ...}`` object), exit code 2;
output stays within 100 columns.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import textwrap
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final

from attrs import frozen
from returns.result import Success

from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.cli.progress import progress
from factledger.adapters.cli.runs_list import list_runs
from factledger.adapters.cli.stores import Stores, unavailable, with_stores
from factledger.application.verification.chain_read import read_chain
from factledger.application.verification.run_verifier import RunVerifier
from factledger.application.verification.verdicts import RunVerdict
from factledger.domain.chain import (
    ChainBroken,
    ChainHead,
    ChainVerdict,
    StoredEvent,
    verify_chain,
)
from factledger.domain.codec import encode_datetime
from factledger.domain.event_catalog import default_codec
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.status import ReleaseOutcome

__all__ = ["register"]

_EVERY_RUN: Final = 1_000_000_000
_CLOCK_SKEW: Final = timedelta(seconds=5)
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")
_SHORT: Final = 12
_WIDTH: Final = 100
"""The widest line the commands print."""


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
    listing.add_argument(
        "--outcome", choices=[o.value for o in ReleaseOutcome], help="only this release outcome"
    )
    listing.set_defaults(handler=list_runs)
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


def _short(digest: str) -> str:
    return digest[:_SHORT] + "…"


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
    return with_stores(args, _show_with)


def _show_with(args: argparse.Namespace, stores: Stores) -> int:
    read = read_chain(stores.events, args.run_id)
    if not isinstance(read, Success):
        return unavailable(args, read.failure().reason)
    chained = read.unwrap()
    if chained is None:
        return fail(args, "runs", CliError.UNKNOWN_RUN, f"no run {args.run_id!r} in this store")
    found, events = chained.head, chained.events
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
    width = min(max(shutil.get_terminal_size((_WIDTH, 24)).columns, 60), _WIDTH)
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


def _verdict_lines(verdict: RunVerdict) -> list[str]:
    if verdict.error is not None:
        return [f"{verdict.run_id}  FAILED  {verdict.error}"]
    if verdict.ok:
        head = "" if verdict.head is None else f", head {verdict.head.hash[:8]}…"
        return [
            f"{verdict.run_id}  OK  {verdict.events} events{head}; bodies: "
            f"{verdict.bodies_verified} verified, {verdict.bodies_expired} expired"
        ]
    first, *rest = verdict.problems
    lines = [f"{verdict.run_id}  FAILED  first bad {first.describe()}"]
    lines += [f"    also {problem.describe()}" for problem in rest]
    return lines


def _verify(args: argparse.Namespace) -> int:
    return with_stores(args, _verify_with)


def _verify_with(args: argparse.Namespace, stores: Stores) -> int:
    if args.all:
        listed = stores.events.list_runs(_EVERY_RUN)
        if not isinstance(listed, Success):
            return unavailable(args, listed.failure().reason)
        run_ids = [entry.run_id for entry in listed.unwrap()]
    else:
        run_ids = [args.run_id]
    verifier = RunVerifier(
        stores.events, stores.vault, stores.clock, default_codec(), release_ttl=stores.release_ttl
    )
    failed = 0
    with progress(args, "verifying runs", len(run_ids), enabled=args.all) as bar:
        for run_id in run_ids:
            verdict = verifier.verify(run_id)
            failed += not verdict.ok
            if args.json:
                print(json.dumps(verdict.to_json()))
            else:
                for line in _verdict_lines(verdict):
                    print(_fitted(line))
            bar.advance()
    if not args.json and args.all:
        print(f"{len(run_ids) - failed} of {len(run_ids)} runs verified")
    return int(ExitCode.ERROR if failed else ExitCode.SUCCESS)


def _fitted(line: str) -> str:
    return textwrap.fill(line, _WIDTH, subsequent_indent=" " * 4, break_long_words=False)
