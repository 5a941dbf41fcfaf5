"""Patient fields of HL7 v2 messages, segment by segment.

An HL7 v2 message is a run of segments (``MSH|^~\\&|…``, ``PID|1||…``), each a three-letter
id and fields split by ``|``. The segments that describe a person — the patient (``PID``),
next of kin (``NK1``), the guarantor (``GT1``), the insured (``IN1``, ``IN2``) — hold names,
birth dates, addresses, phone numbers and record, account and social security numbers in
every field but the first (the set id). Each of their non-empty fields becomes a
placeholder; the segment id, the set id and the number of fields stay, so the message's
structure (and a field missing from it) can still be read. Other segments (``MSH``, ``EVN``,
``OBX``, ``ERR``) stay as they are.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["HL7_PERSON_SEGMENTS"]

_SECRET: Final = Placeholder.SECRET.value
_NEXT_SEGMENT: Final = (
    r"[ \t](?:MSH|EVN|PID|PD1|NK1|PV1|PV2|ORC|OBR|OBX|NTE|AL1|DG1|PR1|GT1|IN1|IN2|IN3|ROL"
    r"|MSA|ERR|QRD|QAK|RXA|RXE|RXO|RXR|SPM|TQ1|FT1|MRG|SCH|AIS|Z[A-Z0-9]{2})\|"
)
"""Where a segment ends when a log joined the segments with spaces: the next segment's id (a
name such as ``MARY ANN|`` is no segment)."""
_SEGMENT: Final = re.compile(
    r"(?<![A-Za-z0-9])(PID|NK1|GT1|IN1|IN2)\|((?:(?!" + _NEXT_SEGMENT + r")[^\r\n])*)"
)
_GATED: Final = ("PID|", "NK0|", "GT0|", "IN0|")
"""Segment ids as word shapes (digits made ``0``)."""


def _fields(match: re.Match[str]) -> str:
    fields = match.group(2).split("|")
    kept = [fields[0]] + [
        field if not field.strip() or field.startswith("<") else _SECRET for field in fields[1:]
    ]
    return match.group(1) + "|" + "|".join(kept)


def _gate(shape: str) -> bool:
    start = shape.lstrip("\"'[(")
    return start[:4] in _GATED or ("|" in shape and any(s in shape for s in _GATED))


HL7_PERSON_SEGMENTS: Final = TextFamily(
    name="patient, next of kin, guarantor and insured fields of HL7 v2 segments",
    gate=_gate,
    probe=lambda lowered: "|" in lowered,
    apply=lambda text: _SEGMENT.sub(_fields, text),
)
