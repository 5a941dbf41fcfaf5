"""Folding a stack trace: keep what explains the failure, count what is dropped.

Java/Kotlin (``at …``, ``Caused by:``, ``... 12 more``), Python (``Traceback``, ``File "…",
line N, in f``, chained exceptions), Go (``panic:``, ``goroutine``), Node (``at f (file:1:2)``)
and .NET (``at X in file:line N``, ``--->``) traces are recognised. The fold keeps the
exception type and message, the root cause, the first application frames (library and
runtime frames are skipped when application frames exist) and the number of frames dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from attrs import Factory, define, frozen

from factledger.domain.json_types import JsonObject

__all__ = ["CONTINUATION", "StackSummary", "fold_stack", "looks_like_continuation"]

KEPT_FRAMES: Final = 3
MAX_TEXT_CHARS: Final = 240

_EXCEPTION: Final = re.compile(
    r"^\s*(?:Caused by:\s*|Suppressed:\s*|--->\s*|Exception in thread \"[^\"]*\"\s*)?"
    r"(?P<type>(?:[A-Za-z_$][\w$]*[.:]{1,2})*[A-Za-z_$][\w$]*"
    r"(?:Exception|Error|Throwable|Exit|Interrupt|Fault|Failure|Warning|Panic))"
    r"(?::\s*(?P<message>.*))?$"
)
_GO_PANIC: Final = re.compile(r"^\s*(?P<type>panic|fatal error):\s*(?P<message>.*)$")
_JAVA_FRAME: Final = re.compile(r"^\s*at\s+(?P<frame>[\w$.<>/\[\]-]+\([^)]*\))\s*$")
_NODE_FRAME: Final = re.compile(r"^\s*at\s+(?P<frame>.+?)\s*$")
_DOTNET_FRAME: Final = re.compile(r"^\s*at\s+(?P<frame>.+?)(?: in (?P<file>.+))?\s*$")
_PYTHON_FRAME: Final = re.compile(
    r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<function>.+))?\s*$'
)
_GO_FUNCTION: Final = re.compile(r"^(?P<function>[\w./*()\-]+)\((?:[^)]*)\)\s*$")
_GO_LOCATION: Final = re.compile(r"^\s+(?P<file>/[^\s:]+\.go):(?P<line>\d+)")
_MORE: Final = re.compile(r"^\s*\.\.\. (?P<count>\d+) (?:more|common frames omitted)")
_LIBRARY: Final = re.compile(
    r"^(?:java\.|javax\.|jdk\.|sun\.|com\.sun\.|kotlin\.|kotlinx\.|scala\.|org\.springframework\."
    r"|org\.apache\.|io\.netty\.|reactor\.|com\.fasterxml\.|org\.hibernate\.|org\.junit\."
    r"|com\.google\.common\.|okhttp3\.|io\.grpc\.|akka\.|System\.|Microsoft\.|runtime\.|"
    r"internal/|node:|net/http\.|github\.com/|golang\.org/)"
    r"|/usr/lib/python|/usr/local/lib/python|site-packages/|dist-packages/|<frozen |node_modules/"
    r"|/usr/local/go/src/"
)
CONTINUATION: Final = re.compile(
    r"^(?:[ \t]+\S|Caused by:|Suppressed:|Traceback \(most recent call last\):"
    r"|During handling of the above exception|The above exception was the direct cause"
    r"|\.\.\. \d+ (?:more|common)|goroutine \d+ \[|panic:|---> |"
    r"(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:Exception|Error|Throwable)(?::|$))"
)
"""A line that continues the record before it (a frame, a cause, an exception line)."""


def looks_like_continuation(line: str) -> bool:
    """True when a line without its own timestamp belongs to the record before it."""
    return CONTINUATION.match(line) is not None


@frozen
class StackSummary:
    """What a folded stack trace keeps."""

    exception: str | None
    """The exception type at the top (``java.net.SocketTimeoutException``)."""
    message: str | None
    """Its message."""
    root_cause: str | None
    """The deepest cause (``Type: message``), when it differs from the top exception."""
    frames: tuple[str, ...]
    """The first application frames (the first frames when none is an application's)."""
    dropped_frames: int
    """Frames not kept."""

    def to_json(self) -> JsonObject:
        """The summary as it appears in an agent result."""
        return {
            "exception": self.exception,
            "message": self.message,
            "root_cause": self.root_cause,
            "frames": list(self.frames),
            "dropped_frames": self.dropped_frames,
        }


def fold_stack(message: str, lines: Sequence[str]) -> StackSummary | None:
    """The fold of a record's continuation lines (the message may hold the exception too);
    None when the lines hold neither an exception nor a frame."""
    scan = _StackScan()
    scan.line(message, continuation=False)
    for raw in lines:
        scan.line(raw, continuation=True)
    return scan.summary()


@define
class _StackScan:
    """One pass over a record's lines, one branch per line kind."""

    exceptions: list[tuple[str, str | None]] = Factory(list)
    frames: list[str] = Factory(list)
    python_order: bool = False
    extra_frames: int = 0
    pending_go: str | None = None

    def line(self, raw: str, *, continuation: bool) -> None:
        line = raw.rstrip()
        if not line:
            return
        if line.startswith("Traceback (most recent call last)"):
            self.python_order = True
            return
        more = _MORE.match(line)
        if more is not None:
            self.extra_frames += int(more.group("count"))
            return
        if self._frame(line):
            return
        exception = _EXCEPTION.match(line) or _GO_PANIC.match(line)
        if exception is not None:
            found_message = exception.group("message")
            self.exceptions.append((exception.group("type"), _clip(found_message or "") or None))
            return
        go_function = _GO_FUNCTION.match(line.strip())
        if go_function is not None and continuation:
            self.pending_go = go_function.group("function")

    def _frame(self, line: str) -> bool:
        """Takes the line when it is a frame (Python, Go, Java, .NET, Node)."""
        python_frame = _PYTHON_FRAME.match(line)
        if python_frame is not None:
            location = f"{python_frame.group('file')}:{python_frame.group('line')}"
            function = python_frame.group("function")
            self.frames.append(location if function is None else f"{location} in {function}")
            return True
        go_location = _GO_LOCATION.match(line)
        if go_location is not None and self.pending_go is not None:
            where = f"{go_location.group('file')}:{go_location.group('line')}"
            self.frames.append(f"{self.pending_go} {where}")
            self.pending_go = None
            return True
        if line.strip().startswith("at "):
            frame = _JAVA_FRAME.match(line) or _DOTNET_FRAME.match(line) or _NODE_FRAME.match(line)
            if frame is not None:
                self.frames.append(_clip(frame.group("frame")))
            return True
        return False

    def summary(self) -> StackSummary | None:
        exceptions, frames = list(self.exceptions), self.frames
        if not exceptions and not frames:
            return None
        if self.python_order:
            exceptions.reverse()
        top_type, top_message = exceptions[0] if exceptions else (None, None)
        root_cause: str | None = None
        if len(exceptions) > 1:
            root_type, root_message = exceptions[-1]
            root_cause = root_type if root_message is None else f"{root_type}: {root_message}"
        application = [frame for frame in frames if _LIBRARY.search(frame) is None]
        chosen = application if application else frames
        if self.python_order and application:
            chosen = list(reversed(application))
        kept = tuple(chosen[:KEPT_FRAMES])
        return StackSummary(
            exception=top_type,
            message=top_message,
            root_cause=root_cause,
            frames=kept,
            dropped_frames=len(frames) - len(kept) + self.extra_frames,
        )


def _clip(text: str) -> str:
    if len(text) <= MAX_TEXT_CHARS:
        return text
    return text[: MAX_TEXT_CHARS - 1] + "…"
