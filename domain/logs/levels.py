"""Log levels: the names backends use, folded onto one ordered set."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = ["LogLevel", "SEVERE_LEVELS", "level_rank", "normalize_level"]


class LogLevel(StrEnum):
    """One level per severity, lowest first."""

    TRACE = "TRACE"
    DEBUG = "DEBUG"
    INFO = "INFO"
    NOTICE = "NOTICE"
    WARN = "WARN"
    ERROR = "ERROR"
    CRITICAL = "CRITICAL"
    FATAL = "FATAL"


_RANK: Final[dict[LogLevel, int]] = {level: rank for rank, level in enumerate(LogLevel)}

SEVERE_LEVELS: Final[frozenset[LogLevel]] = frozenset(
    {LogLevel.ERROR, LogLevel.CRITICAL, LogLevel.FATAL}
)
"""Levels whose templates are "error templates": shown first, never cut for volume."""

_ALIASES: Final[dict[str, LogLevel]] = {
    "trace": LogLevel.TRACE,
    "trc": LogLevel.TRACE,
    "finest": LogLevel.TRACE,
    "finer": LogLevel.TRACE,
    "verbose": LogLevel.TRACE,
    "debug": LogLevel.DEBUG,
    "dbg": LogLevel.DEBUG,
    "fine": LogLevel.DEBUG,
    "info": LogLevel.INFO,
    "inf": LogLevel.INFO,
    "information": LogLevel.INFO,
    "informational": LogLevel.INFO,
    "config": LogLevel.INFO,
    "notice": LogLevel.NOTICE,
    "warn": LogLevel.WARN,
    "warning": LogLevel.WARN,
    "wrn": LogLevel.WARN,
    "error": LogLevel.ERROR,
    "err": LogLevel.ERROR,
    "severe": LogLevel.ERROR,
    "critical": LogLevel.CRITICAL,
    "crit": LogLevel.CRITICAL,
    "alert": LogLevel.CRITICAL,
    "fatal": LogLevel.FATAL,
    "emerg": LogLevel.FATAL,
    "emergency": LogLevel.FATAL,
    "panic": LogLevel.FATAL,
}


def normalize_level(name: str) -> LogLevel | None:
    """The level a backend's level name stands for, or None when it names none."""
    return _ALIASES.get(name.strip().lower())


def level_rank(level: LogLevel | None) -> int:
    """Severity order: higher is more severe; an unknown level ranks below TRACE."""
    if level is None:
        return -1
    return _RANK[level]
