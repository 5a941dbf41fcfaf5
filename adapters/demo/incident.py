"""The bundled demo incident: runbooks, logs, metrics, a payments datasource, and three recorded
agents.

Card payments fail from 09:40 on 2026-03-14: card-gateway's acquirer connection pool is
exhausted and authorisations end in GW-504. The honest agent finds and cites that; the
hallucinating agent cites calls it never made; the metrics (a fixed series set the fixture
backend of ``query_metrics`` serves) show the pool saturated and the error ratio rising at
09:40; the looping agent repeats itself until the
harness stops it.
"""

from __future__ import annotations

import sqlite3
from importlib.resources import files
from pathlib import Path

from factledger.adapters.config.sections import KnowledgeSettings, LogsSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.config.sql import SqlDatasourceSettings, SqlSettings, SqlTableSettings
from factledger.domain.json_types import JsonValue

__all__ = [
    "DEMO_METRIC_PATTERNS",
    "SCENARIOS",
    "demo_settings",
    "ensure_logs",
    "ensure_payments_db",
    "transcript_path",
]

SCENARIOS = ("honest", "hallucinating", "looping")
"""The bundled transcripts, in the order the demo plays them."""

_DEMO = files("factledger.adapters.demo")

DEMO_METRIC_PATTERNS = ("card_gateway_*", "checkout_*", "payments_*", "ledger_*")
"""The metric names a demo query may select."""


def _bundled(name: str) -> Path:
    return Path(str(_DEMO.joinpath(name)))


def transcript_path(scenario: str) -> Path:
    """The bundled transcript of a scenario."""
    return _bundled("transcripts") / f"{scenario}.json"


def ensure_payments_db(folder: Path) -> Path:
    """The demo's SQLite payments datasource under ``folder`` (created once from the script)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "payments.db"
    if not path.exists():
        script = _bundled("payments.sql").read_text(encoding="utf-8")
        partial = path.with_suffix(".db.partial")
        connection = sqlite3.connect(partial)
        try:
            connection.executescript(script)
            connection.commit()
        finally:
            connection.close()
        partial.replace(path)
    return path


def ensure_logs(folder: Path) -> Path:
    """The demo's log files copied under ``folder`` (the file backend reads no symlinks, and an
    installed package may hold its data as links or in an archive)."""
    target = folder / "logs"
    target.mkdir(parents=True, exist_ok=True)
    source = _DEMO.joinpath("logs")
    for entry in source.iterdir():
        name = entry.name
        if name.endswith((".jsonl", ".log")) and not (target / name).exists():
            partial = target / f".{name}.partial"
            partial.write_bytes(entry.read_bytes())
            partial.replace(target / name)
    return target


def demo_settings(workdir: Path, store: StoreSettings | None = None) -> Settings:
    """Embedded defaults pointed at the bundled incident (the store in ``workdir``)."""
    database = ensure_payments_db(workdir / "demo")
    logs = ensure_logs(workdir / "demo")
    payments = SqlDatasourceSettings(
        name="payments",
        url=f"sqlite:///{database.resolve()}",
        tables={
            "orders": SqlTableSettings(columns=["id", "status", "amount", "created_at", "user_id"]),
            "users": SqlTableSettings(
                columns=["id", "name", "email", "password_hash", "api_token"],
                sensitive=["password_hash", "api_token"],
            ),
        },
    )
    return Settings(
        store=store or StoreSettings(kind="sqlite", path=str(workdir / "store.db")),
        knowledge=KnowledgeSettings(dir=str(_bundled("knowledge"))),
        logs=LogsSettings(dir=str(logs)),
        sql=SqlSettings(datasources=[payments]),
        tools={"metrics": _metrics_section()},
    )


def _metrics_section() -> dict[str, JsonValue]:
    """``[tools.metrics]`` over the bundled series (no Prometheus runs for the demo)."""
    return {
        "backend": "fixture",
        "fixture": str(_bundled("metrics.json")),
        "metrics": list(DEMO_METRIC_PATTERNS),
    }
