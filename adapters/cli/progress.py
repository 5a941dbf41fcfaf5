"""Progress bars (rich) on standard error for commands that work through many items.

A bar is drawn only when the command prints for a person: not under ``--json`` and only when
standard output and standard error are both terminals. Otherwise ``advance`` does nothing, so
piped or captured output holds the command's result alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from factledger.adapters.cli.contract import wants_json

__all__ = ["draws_bars", "progress"]


def draws_bars(args: argparse.Namespace) -> bool:
    """True when a bar may be drawn for this command."""
    return not wants_json(args) and sys.stdout.isatty() and sys.stderr.isatty()


@contextmanager
def progress(
    args: argparse.Namespace, label: str, total: int, *, enabled: bool = True
) -> Iterator[Callable[[int], None]]:
    """A bar of ``total`` steps labelled ``label``; yields ``advance(steps)``."""
    if not (enabled and total > 1 and draws_bars(args)):
        yield lambda _steps: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=40),
        MofNCompleteColumn(),
        console=Console(stderr=True, width=min(Console(stderr=True).width, 100)),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda steps: bar.advance(task, steps)
