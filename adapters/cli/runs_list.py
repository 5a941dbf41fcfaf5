"""``factledger runs list``: recent runs, newest first, with the release outcome.

    factledger runs list [--limit N] [--outcome OUTCOME] [--json]

A table within 100 columns (run, start, state, release outcome, calls, events), or under
``--json`` one JSON object per line: the listing row (question digest, service, window,
outcome, fallback type, calls, events) with the chain head. A FALLBACK run shows FALLBACK,
not its run state SUCCESS; a run not released shows ``-``.
"""

from __future__ import annotations

import argparse
import json

from factledger.adapters.cli.stores import Stores, unavailable, with_stores
from factledger.adapters.system import UuidIdFactory
from factledger.application.run_listing import MAX_PAGE, RunLister, RunListItem
from factledger.application.run_repository import RunRepository, StoreFailed
from factledger.domain.event_catalog import default_codec
from factledger.domain.json_types import JsonObject
from factledger.domain.status import ReleaseOutcome

__all__ = ["list_runs", "listed_rows"]


def listed_rows(
    stores: Stores, limit: int, outcome: ReleaseOutcome | None = None
) -> list[RunListItem] | StoreFailed:
    """Up to ``limit`` runs, newest first, page after page."""
    lister = RunLister(RunRepository(stores.events, default_codec(), stores.clock, UuidIdFactory()))
    rows: list[RunListItem] = []
    cursor: str | None = None
    while len(rows) < limit:
        page = lister.page(limit=min(limit - len(rows), MAX_PAGE), cursor=cursor, outcome=outcome)
        if isinstance(page, StoreFailed):
            return page
        rows += page.runs
        cursor = page.next_cursor
        if cursor is None:
            break
    return rows


def list_runs(args: argparse.Namespace) -> int:
    """The ``runs list`` handler."""
    return with_stores(args, _list_with)


def _list_with(args: argparse.Namespace, stores: Stores) -> int:
    outcome = None if args.outcome is None else ReleaseOutcome(args.outcome)
    rows = listed_rows(stores, args.limit, outcome)
    if isinstance(rows, StoreFailed):
        return unavailable(args, rows.reason)
    if args.json:
        for row in rows:
            head: JsonObject = {"sequence": row.events, "hash": row.head_hash}
            line: JsonObject = {**row.to_json(), "head": head}
            print(json.dumps(line))
        return 0
    if not rows:
        print("no runs recorded")
        return 0
    width = max(len("RUN"), *(len(row.run_id) for row in rows))
    print(
        f"{'RUN':<{width}}  {'STARTED (UTC)':<16}  {'STATE':<16}  {'OUTCOME':<9}  "
        f"{'CALLS':>5}  {'EVENTS':>6}"
    )
    for row in rows:
        started = row.started_at.strftime("%Y-%m-%d %H:%M")
        outcome_text = "-" if row.outcome is None else row.outcome.value
        print(
            f"{row.run_id:<{width}}  {started:<16}  {row.state.value:<16}  {outcome_text:<9}  "
            f"{row.tool_calls:>5}  {row.events:>6}"
        )
    return 0
