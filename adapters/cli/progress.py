"""Progress bars (rich) on standard error for commands that work through many items.

A bar is drawn only when the command prints for a person: not under ``--json`` and only when
standard output and standard error are both terminals. Otherwise the bar does nothing, so
piped or captured output holds the command's result alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from factledger.adapters.cli.contract import wants_json

__all__ = ["Bar", "draws_bars", "progress"]


def draws_bars(args: argparse.Namespace) -> bool:
    """True when a bar may be drawn for this command."""
    return not wants_json(args) and sys.stdout.isatty() and sys.stderr.isatty()


class Bar:
    """One bar: ``advance`` moves it, ``note`` changes the text after it."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress = progress
        self._task = task

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more items done."""
        if self._progress is not None:
            self._progress.advance(self._task, steps)

    def note(self, text: str) -> None:
        """Show ``text`` after the count (events applied, the rate)."""
        if self._progress is not None:
            self._progress.update(self._task, note=text)


@contextmanager
def progress(
    args: argparse.Namespace, label: str, total: int, *, enabled: bool = True
) -> Iterator[Bar]:
    """A bar of ``total`` steps labelled ``label`` (a silent one when none may be drawn)."""
    if not (enabled and total > 1 and draws_bars(args)):
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    console.width = min(console.width, 100)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(bar_width=30),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        console=console,
        transient=False,
    ) as drawn:
        yield Bar(drawn, drawn.add_task(label, total=total, note=""))
