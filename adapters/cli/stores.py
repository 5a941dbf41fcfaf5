"""The stores the settings choose, opened for one forensic command (``runs``), and closed
after it; a settings error or an unavailable store is printed by the CLI contract."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from attrs import frozen

from factledger.adapters.bootstrap import build_stores
from factledger.adapters.cli.contract import CliError, ExitCode, fail
from factledger.adapters.config.settings import SettingsError, load_settings
from factledger.adapters.system import SystemClock
from factledger.ports.clock import Clock
from factledger.ports.event_store import EventStore
from factledger.ports.payload_vault import PayloadVault

__all__ = ["Stores", "unavailable", "with_stores"]


@frozen
class Stores:
    """An opened event store and vault, with the clock and the release body's TTL."""

    events: EventStore
    vault: PayloadVault
    clock: Clock
    release_ttl: timedelta


@contextmanager
def _opened(args: argparse.Namespace) -> Iterator[Stores | str]:
    """The stores the settings choose, or the settings error's message."""
    clock = SystemClock()
    try:
        settings = load_settings(args.config)
        events, vault, close = build_stores(settings, clock)
    except SettingsError as error:
        yield str(error)
        return
    try:
        yield Stores(events, vault, clock, timedelta(seconds=settings.vault.ttl_seconds))
    finally:
        close()


def with_stores(
    args: argparse.Namespace, command: Callable[[argparse.Namespace, Stores], int]
) -> int:
    """Run ``command`` on the opened stores; a settings error exits 2 (USAGE)."""
    with _opened(args) as stores:
        if isinstance(stores, str):
            return fail(args, "runs", CliError.INVALID_SETTINGS, stores, ExitCode.USAGE)
        return command(args, stores)


def unavailable(args: argparse.Namespace, reason: str) -> int:
    """The store could not be read: exit 1 (ERROR)."""
    return fail(args, "runs", CliError.STORE_UNAVAILABLE, f"the store is unavailable ({reason})")
