"""How a kept record is shown: redacted again as a whole (fields and stack lines too), its
stack trace folded, every text clipped to its limit, and whether anything was cut."""

from __future__ import annotations

import json
from typing import Final

from factledger.domain.json_types import JsonObject, JsonValue
from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.selection import Draft
from factledger.domain.logs.stack_traces import fold_stack

__all__ = ["SHOWN_CONTINUATION_LINES", "clip", "render_record"]

SHOWN_CONTINUATION_LINES: Final = 3
"""Continuation lines shown when they hold no stack trace to fold."""


def render_record(
    redactor: Redactor,
    ts: str | None,
    level: str | None,
    message: str,
    record: dict[str, JsonValue],
    pattern: str | None,
    message_chars: int,
    field_chars: int,
    max_fields: int,
    key: str | None = None,
) -> Draft:
    """A record as an example or an event (``pattern`` names its template for an event,
    ``key`` what no other shown event may repeat); ``message`` is already redacted."""
    shown_message, clipped = clip(message, message_chars)
    body: JsonObject = {"ts": ts, "level": level}
    if pattern is not None:
        body["pattern"] = pattern
    body["message"] = shown_message
    fields = record.get("fields")
    if isinstance(fields, dict) and fields:
        shown: JsonObject = {}
        for name, value in list(fields.items())[:max_fields]:
            redacted = redactor.redact_value(name, value)
            if isinstance(redacted, str):
                redacted, cut = clip(redacted, field_chars)
                clipped = clipped or cut
            elif isinstance(redacted, list | dict):
                text, cut = clip(
                    json.dumps(redacted, ensure_ascii=False, separators=(",", ":")), field_chars
                )
                redacted = text
                clipped = clipped or cut
            shown[clip(redactor.redact(name), 64)[0]] = redacted
        clipped = clipped or len(fields) > max_fields
        body["fields"] = shown
    frames_dropped = False
    stack = record.get("stack")
    if isinstance(stack, list) and stack:
        lines = [line if isinstance(line, str) else json.dumps(line) for line in stack]
        redacted_lines = redactor.redact("\n".join(lines)).split("\n")
        summary = fold_stack(message, redacted_lines)
        if summary is not None:
            body["stack"] = summary.to_json()
            frames_dropped = summary.dropped_frames > 0
        else:
            kept: list[JsonValue] = [
                clip(line, field_chars)[0] for line in redacted_lines[:SHOWN_CONTINUATION_LINES]
            ]
            body["continuation"] = kept
            frames_dropped = len(redacted_lines) > SHOWN_CONTINUATION_LINES
    return Draft(body, clipped=clipped, frames_dropped=frames_dropped, key=key)


def clip(text: str, limit: int) -> tuple[str, bool]:
    """The text cut to ``limit`` characters (an ellipsis marks the cut), and whether it was."""
    if len(text) <= limit:
        return text, False
    return text[: limit - 1] + "…", True
