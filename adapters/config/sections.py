"""The sections of ``factledger.toml``. Unknown keys are refused by name."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "AuditSettings",
    "BudgetSettings",
    "HttpSettings",
    "JudgeSettings",
    "KnowledgeSettings",
    "LogsSettings",
    "ModelSettings",
    "ProgressSettings",
    "ReleaseSettings",
    "RetentionSettings",
    "StoreSettings",
    "VaultSettings",
    "WorkerSettings",
]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StoreSettings(_Section):
    """``[store]``: where events and bodies live."""

    kind: Literal["memory", "sqlite", "redis"] = "sqlite"
    """``sqlite`` (embedded file, the default), ``memory`` (in-process, nothing kept) or
    ``redis``."""
    url: str = "redis://127.0.0.1:6379/0"
    """Redis URL, for ``kind = "redis"`` (any node's address for a cluster)."""
    cluster: bool = False
    """True when ``url`` names a node of a Redis Cluster."""
    path: str = ".factledger/store.db"
    """SQLite file, for ``kind = "sqlite"``."""
    synchronous: Literal["FULL", "NORMAL"] = "FULL"
    """SQLite durability, for ``kind = "sqlite"``: ``FULL`` syncs every append to disk (it
    survives a power cut); ``NORMAL`` syncs at checkpoints only (it survives a crash of the
    process, not of the machine) and makes an append several times cheaper."""
    partitions: int = Field(default=8, ge=1, le=4096)
    """How many partition logs runs are spread over (fixed for the life of a store)."""
    key_prefix: str = Field(default="fl", pattern=r"^[A-Za-z0-9_.\-]{1,32}$")
    """Namespace of every Redis key."""


class VaultSettings(_Section):
    """``[vault]``: how long request, raw and result bodies are kept."""

    ttl_seconds: int = Field(default=7200, ge=1)
    """Seconds from the start of a call until its bodies expire (never renewed)."""


class RetentionSettings(_Section):
    """``[retention]``: how long the event log is kept."""

    days: int = Field(default=30, ge=1)
    """Days after a run ends before its events may be removed."""


class AuditSettings(_Section):
    """``[audit]``: where audit rows are projected."""

    url: str | None = None
    """SQLAlchemy URL; default: SQLite beside the store."""
    timeout_seconds: float = Field(default=0.5, gt=0, le=60)
    """Longest an audit view waits for a lock or the server before it answers
    STORE_UNAVAILABLE (the worker has its own, ``[worker] audit_timeout_seconds``)."""


class WorkerSettings(_Section):
    """``[worker]``: the ``factledger worker`` process (projections, retention, vault purge)."""

    purge_interval_seconds: float = Field(default=60.0, gt=0)
    """Between two vault purges: no body outlives its expiry by longer, on disk included."""
    retention_interval_seconds: float = Field(default=600.0, gt=0)
    """Between two retention sweeps of the event log."""
    poll_interval_seconds: float = Field(default=0.5, gt=0)
    """Wait after a turn that found nothing new to project."""
    retry_interval_seconds: float = Field(default=1.0, gt=0)
    """Wait after the audit database or the store was unavailable."""
    heartbeat_interval_seconds: float = Field(default=5.0, gt=0)
    """Between two health records when nothing changed."""
    lease_ttl_seconds: float = Field(default=10.0, gt=0)
    """How long a partition lease lasts unrenewed: a killed worker's partitions are taken
    over after at most this long."""
    batch_size: int = Field(default=2000, ge=1, le=100_000)
    """Events per projection batch (one audit transaction each)."""
    batches_per_turn: int = Field(default=5, ge=1)
    """Batches per partition and projection before the leases are renewed."""
    audit_timeout_seconds: float = Field(default=5.0, gt=0, le=300)
    """Longest the worker waits for an audit lock or the server before it retries later."""
    max_lag_seconds: float = Field(default=60.0, gt=0)
    """Health: the projections count as lagging when not caught up for longer."""
    redis_aof_rewrite: bool = True
    """Redis: rewrite an append-only file that grew, at each purge, so that expired bodies
    leave it (``BGREWRITEAOF``; costs a fork and a rewrite of the dataset)."""
    owner: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.:@\-]{1,100}$")
    """This worker's name among the workers (default: host name and process id)."""

    @model_validator(mode="after")
    def _leases_outlive_a_turn(self) -> WorkerSettings:
        if self.lease_ttl_seconds <= 2 * self.poll_interval_seconds:
            raise ValueError(
                "lease_ttl_seconds must be more than twice poll_interval_seconds "
                "(a lease is renewed once a turn)"
            )
        return self


class KnowledgeSettings(_Section):
    """``[knowledge]``: the runbook folder of the embedded knowledge backend."""

    dir: str | None = None
    """Folder of Markdown or text runbooks; unset means the tool is not registered."""


class LogsSettings(_Section):
    """``[logs]``: the log folder of the embedded log backend."""

    dir: str | None = None
    """Folder of log files; unset means the tool is not registered."""


class BudgetSettings(_Section):
    """``[budget]``: per-run limits."""

    tool_calls: int = Field(default=24, ge=0)
    request_bytes: int = Field(default=256 * 1024, ge=0)
    raw_bytes: int = Field(default=64 * 1024 * 1024, ge=0)
    projection_bytes: int = Field(default=1024 * 1024, ge=0)
    call_raw_bytes: int = Field(default=8 * 1024 * 1024, ge=0)
    call_projection_bytes: int = Field(default=64 * 1024, ge=0)
    record_bytes: int = Field(default=10 * 1024 * 1024, ge=0)
    model_calls: int = Field(default=40, ge=0)
    model_tokens: int = Field(default=400_000, ge=0)
    deadline_seconds: int = Field(default=300, ge=1)
    call_timeout_seconds: float = Field(default=30.0, gt=0)
    """Longest a single backend call may take (never past the run's deadline)."""
    abandon_grace_seconds: float = Field(default=30.0, gt=0)
    """A call still PROJECTING this long past its timeout is closed as ERROR ``ABANDONED``
    (its worker died) by the next command on its run."""
    retry_wait_seconds: float = Field(default=30.0, ge=0)
    """Longest a retry of a call still running elsewhere waits for its result before it
    answers ``CALL_IN_PROGRESS``."""


class ProgressSettings(_Section):
    """``[progress]``: the progress protocol's thresholds."""

    no_gain_threshold: int = Field(default=3, ge=1)
    protocol_violation_limit: int = Field(default=2, ge=1)
    max_observed_facts: int = Field(default=12, ge=1, le=100)


class ModelSettings(_Section):
    """``[model]``: an OpenAI-compatible chat endpoint for the agent loop."""

    base_url: str | None = None
    name: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the API key (the key itself is never in a file)."""


class JudgeSettings(_Section):
    """``[judge]``: the semantic judge."""

    kind: Literal["grounding", "llm"] = "grounding"
    """``grounding`` (embedded, deterministic) or ``llm`` (the ``[model]`` endpoint)."""
    attempts: int = Field(default=2, ge=1, le=10)
    """Attempts while the judge is unavailable (each a metered model call for ``llm``)."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    """Time limit of one attempt."""


class ReleaseSettings(_Section):
    """``[release]``: evidence repair, draft checks and the published result."""

    repair_attempts: int = Field(default=1, ge=0, le=5)
    """EvidenceRepair attempts before an EVIDENCE_VALIDATION_FAILED fallback."""
    check_attempts: int = Field(default=3, ge=0, le=20)
    """Drafts a run may have checked (``check``) before its release; 0 turns checks off."""


HostName = Annotated[str, Field(pattern=r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+)$")]
"""A host name or address as a ``Host`` header carries it, without a port."""


class HttpSettings(_Section):
    """``[http]``: the HTTP API."""

    bind: str = "127.0.0.1:8787"
    token_env: str | None = None
    """The environment variable holding the bearer token."""
    allowed_hosts: tuple[HostName, ...] = ()
    """Host names served besides localhost, 127.0.0.1 and [::1] (a server without a token
    answers any other ``Host`` with 421; with a token, when set, only these and loopback)."""
