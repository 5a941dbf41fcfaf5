"""A projector worker process for the takeover test: wired from plain settings through the
same composition functions production uses, following until told to stop (or killed)."""

from __future__ import annotations

from datetime import timedelta
from multiprocessing.synchronize import Event

from factledger.adapters.audit.wiring import open_audit
from factledger.adapters.bootstrap import build_stores
from factledger.adapters.config.sections import AuditSettings, StoreSettings
from factledger.adapters.config.settings import Settings
from factledger.adapters.system import SystemClock
from factledger.application.projections.follower import FollowerSettings

LEASE = timedelta(seconds=1)


def settings_for(url: str, prefix: str, audit_url: str, partitions: int) -> Settings:
    return Settings(
        store=StoreSettings(kind="redis", url=url, key_prefix=prefix, partitions=partitions),
        audit=AuditSettings(url=audit_url),
    )


def follow(owner: str, url: str, prefix: str, audit_url: str, partitions: int, stop: Event) -> None:
    """Follow every projection as ``owner`` until ``stop`` is set."""
    settings = settings_for(url, prefix, audit_url, partitions)
    clock = SystemClock()
    events, _, close_store = build_stores(settings, clock)
    audit = open_audit(settings, events, clock, batch_size=7).unwrap()
    try:
        audit.follower(FollowerSettings(owner, lease_ttl=LEASE, poll_interval=0.05)).run(stop)
    finally:
        audit.close()
        close_store()
