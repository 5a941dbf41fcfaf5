"""What a worker tells whoever runs it (the ``factledger worker`` command prints them as JSON
lines): ids, counts, codes and times, never content."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, TypeAlias

from attrs import frozen

from factledger.domain.json_types import JsonObject
from factledger.ports.worker_health import WorkerProblem

__all__ = [
    "Job",
    "JobFailed",
    "LogSwept",
    "VaultPurgedNotice",
    "WorkerNotice",
    "WorkerStarted",
    "WorkerStopped",
    "notice_json",
]

Job: TypeAlias = Literal["project", "purge", "sweep"]
"""Which part of the loop failed."""


@frozen
class WorkerStarted:
    """The loop began."""

    owner: str
    at: datetime


@frozen
class VaultPurgedNotice:
    """A vault purge ran (with its compaction)."""

    at: datetime
    bodies: int
    compacted: bool


@frozen
class LogSwept:
    """A retention sweep ran."""

    at: datetime
    log_entries: int
    runs: int


@frozen
class JobFailed:
    """A part of the loop could not do its work this time (it is tried again)."""

    at: datetime
    job: Job
    problem: WorkerProblem


@frozen
class WorkerStopped:
    """The loop ended: leases given up, STOPPED recorded."""

    owner: str
    at: datetime
    projected_events: int


WorkerNotice: TypeAlias = WorkerStarted | VaultPurgedNotice | LogSwept | JobFailed | WorkerStopped
"""Everything a worker tells."""


def notice_json(notice: WorkerNotice) -> JsonObject:
    """A notice as one JSON object with an ``event`` name."""
    match notice:
        case WorkerStarted(owner, at):
            return {"event": "started", "owner": owner, "at": at.isoformat()}
        case VaultPurgedNotice(at, bodies, compacted):
            return {
                "event": "purged",
                "at": at.isoformat(),
                "bodies": bodies,
                "compacted": compacted,
            }
        case LogSwept(at, entries, runs):
            return {"event": "swept", "at": at.isoformat(), "log_entries": entries, "runs": runs}
        case JobFailed(at, job, problem):
            return {"event": "failed", "at": at.isoformat(), "job": job, "problem": problem.value}
        case WorkerStopped(owner, at, projected):
            return {
                "event": "stopped",
                "owner": owner,
                "at": at.isoformat(),
                "projected_events": projected,
            }
