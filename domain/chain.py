"""The hash chain of a run's stream, and its verification over the stored bytes.

Verification hashes the bytes exactly as stored (never a re-encoding), checks that sequence
numbers run 1, 2, … without a gap, and compares the last event with the chain head kept
outside the stream, so a modified, inserted, reordered or deleted event (the tail included)
is named by the first sequence where the chain breaks.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.events import GENESIS_HASH

__all__ = [
    "ChainBreak",
    "ChainBroken",
    "ChainHead",
    "ChainIntact",
    "ChainVerdict",
    "GENESIS",
    "StoredEvent",
    "verify_chain",
]


@frozen
class ChainHead:
    """The last sequence of a run and the hash of its event."""

    sequence: int
    """The last sequence number (0 for an empty stream)."""
    hash: str
    """The hash of the last event (``GENESIS_HASH`` for an empty stream)."""


GENESIS = ChainHead(0, GENESIS_HASH)
"""The head of a stream with no events."""


@frozen
class StoredEvent:
    """An event exactly as a store holds it."""

    run_id: str
    """The run whose stream holds it."""
    sequence: int
    """Its place in the run's stream (from the store's entry id)."""
    data: bytes
    """The canonical bytes."""
    hash: str
    """The stored chain hash."""


@frozen
class ChainIntact:
    """Every event verified; the head reached."""

    head: ChainHead
    """The verified head."""
    events: int
    """How many events were verified."""


ChainBreak: TypeAlias = Literal[
    "SEQUENCE_GAP", "HASH_MISMATCH", "ENVELOPE_MISMATCH", "TAIL_MISSING", "HEAD_MISMATCH",
    "EXTRA_EVENTS",
]  # fmt: skip
"""Where a chain breaks: a sequence skipped, bytes that do not hash to the stored hash, an
envelope whose run, sequence or previous hash disagrees with the chain, events missing after
the last stored one, a last hash other than the head's, or more events than the head says."""


@frozen
class ChainBroken:
    """The first place the chain does not hold."""

    sequence: int
    """The first bad sequence number."""
    reason: ChainBreak
    """How it breaks."""


ChainVerdict: TypeAlias = ChainIntact | ChainBroken


_TAIL_MARK = b',"prev_hash":"'
_TAIL_REST = re.compile(rb'[0-9]+,"sequence":([0-9]+),"type":"[A-Za-z0-9_]+"}')


def _run_part(run_id: str) -> bytes:
    """The envelope bytes between the previous hash and the schema version, for ``run_id``."""
    return b'","run_id":' + json.dumps(run_id, ensure_ascii=False).encode() + b',"schema_version":'


def _envelope_matches(
    run_id: str, run_part: bytes, sequence: int, prev_hash: str, data: bytes
) -> bool:
    # Canonical bytes sort their keys, so every field after "payload" is in the envelope's
    # tail, which the last ``,"prev_hash":"`` starts (a JSON string cannot hold one unescaped).
    # That tail is compared as bytes; bytes of any other layout are parsed whole.
    at = data.rfind(_TAIL_MARK)
    expected = _TAIL_MARK + prev_hash.encode() + run_part
    if at > 0 and data.startswith(expected, at) and data.startswith(b'{"occurred_at":'):
        rest = _TAIL_REST.fullmatch(data, at + len(expected))
        if rest is not None and rest.group(1) == str(sequence).encode():
            return True
    try:
        envelope = json.loads(data)
    except ValueError:
        return False
    return (
        isinstance(envelope, dict)
        and envelope.get("run_id") == run_id
        and envelope.get("sequence") == sequence
        and envelope.get("prev_hash") == prev_hash
    )


def verify_chain(
    events: Iterable[StoredEvent],
    expected_head: ChainHead | None = None,
    *,
    deep: bool = False,
) -> ChainVerdict:
    """Verify a run's stored events from sequence 1.

    ``expected_head`` is the head kept outside the stream (run metadata, audit row); without it
    a deleted tail cannot be told from a shorter run. ``deep`` also parses every envelope and
    checks its run, sequence and previous hash against the chain (slower; the hash already
    covers the bytes).
    """
    sha256 = hashlib.sha256
    prev = GENESIS_HASH
    prev_raw = bytes(32)
    sequence = 0
    run_id, run_part = "", b""
    for stored in events:
        expected_sequence = sequence + 1
        if stored.sequence != expected_sequence:
            return ChainBroken(expected_sequence, "SEQUENCE_GAP")
        digest = sha256(prev_raw + stored.data).digest()
        if digest.hex() != stored.hash:
            return ChainBroken(stored.sequence, "HASH_MISMATCH")
        if deep:
            if stored.run_id != run_id:
                run_id, run_part = stored.run_id, _run_part(stored.run_id)
            if not _envelope_matches(run_id, run_part, stored.sequence, prev, stored.data):
                return ChainBroken(stored.sequence, "ENVELOPE_MISMATCH")
        sequence = stored.sequence
        prev = stored.hash
        prev_raw = digest
    if expected_head is not None:
        if sequence < expected_head.sequence:
            return ChainBroken(sequence + 1, "TAIL_MISSING")
        if sequence > expected_head.sequence:
            return ChainBroken(expected_head.sequence + 1, "EXTRA_EVENTS")
        if prev != expected_head.hash:
            return ChainBroken(sequence, "HEAD_MISMATCH")
    return ChainIntact(ChainHead(sequence, prev), sequence)
