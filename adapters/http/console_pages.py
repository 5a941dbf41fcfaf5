"""The run console's pages: server-rendered HTML with inline CSS, nothing loaded from another
host (no script, font or stylesheet), every value escaped.

The pages show what the facade's typed results hold (metadata, codes, digests and checked
scopes) and nothing else: a raw body never reaches them because no result they are built from
carries one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape
from typing import Final
from urllib.parse import quote, urlencode

from factledger.application.run_inspection import CallSummary, CitationCheck, RunInspection
from factledger.application.run_listing import RunListItem, RunPage
from factledger.domain.json_types import JsonObject
from factledger.domain.status import ReleaseOutcome

__all__ = ["error_page", "inspection_page", "listing_page"]

_CSS: Final = """
:root{--fg:#1d232b;--muted:#5b6673;--line:#d8dde3;--bg:#f6f7f9;--ok:#1e7b3a;--warn:#9a6200;
--bad:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg)}
header{background:#17202b;color:#fff;padding:.6rem 1rem}
header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:1240px;margin:0 auto;padding:1rem}
h1{font-size:1.3rem;margin:.2rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}
th,td{text-align:left;padding:.4rem .55rem;border-bottom:1px solid var(--line);vertical-align:top;
overflow-wrap:anywhere}
th{background:#eef1f4;font-weight:600;font-size:.85rem}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:16rem;overflow:auto}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45rem;border-radius:.6rem;font-size:.8rem;font-weight:600;
border:1px solid currentColor}
.SUCCESS,.pass,.intact{color:var(--ok)}.FALLBACK{color:var(--warn)}
.FAILED,.CANCELLED,.fail,.broken{color:var(--bad)}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin-bottom:1rem}
form.filters label{display:flex;flex-direction:column;font-size:.85rem}
input,select,button{font:inherit;padding:.3rem .45rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;
border:1px solid var(--line);padding:.7rem;margin:0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
nav.pages{margin-top:1rem}
@media (max-width:700px){
 main{padding:.6rem}
 table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%}
 table.cards thead{display:none}
 table.cards tr{border-bottom:2px solid var(--line);padding:.3rem 0}
 table.cards td{border:0;padding:.15rem .55rem}
 table.cards td::before{content:attr(data-label);display:block;font-size:.75rem;
 color:var(--muted);font-weight:600}
 dl.facts{grid-template-columns:1fr}
}
"""

_LIST_COLUMNS: Final = (
    "Run", "Question", "Service", "Window", "Outcome", "Fallback", "Calls", "Started",
)  # fmt: skip


def _page(title: str, body: str) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)} · factledger</title><style>{_CSS}</style></head>"
        '<body><header><a href="/ui/">factledger runs</a></header>'
        f"<main>{body}</main></body></html>"
    )


def _at(value: datetime | None) -> str:
    return "–" if value is None else escape(value.strftime("%Y-%m-%d %H:%M:%S"))


def _text(value: object) -> str:
    return "–" if value is None else escape(str(value))


def _badge(value: object) -> str:
    if value is None:
        return '<span class="muted">–</span>'
    text = escape(str(value))
    return f'<span class="badge {text}">{text}</span>'


def _window(item: RunListItem) -> str:
    if item.start is None and item.end is None:
        return "–"
    return f"{_at(item.start)} → {_at(item.end)}"


def _question(item: RunListItem) -> str:
    if item.question_digest is None:
        return '<span class="muted">none</span>'
    digest = escape(item.question_digest[:12])
    size = f'<span class="muted">{item.question_bytes} B</span>'
    return f'<code title="sha256">{digest}…</code> {size}'


def _cells(labels: Sequence[str], values: Iterable[str]) -> str:
    return "".join(
        f'<td data-label="{escape(label)}">{value}</td>'
        for label, value in zip(labels, values, strict=True)
    )


def _table(labels: Sequence[str], rows: Iterable[Iterable[str]], empty: str) -> str:
    head = "".join(f"<th>{escape(label)}</th>" for label in labels)
    body = "".join(f"<tr>{_cells(labels, row)}</tr>" for row in rows)
    if not body:
        return f'<p class="muted">{escape(empty)}</p>'
    return f'<table class="cards"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _list_row(item: RunListItem) -> list[str]:
    href = f"/ui/runs/{quote(item.run_id, safe='')}"
    link = f'<a href="{escape(href)}"><code>{escape(item.run_id)}</code></a>'
    return [
        link,
        _question(item),
        _text(item.service),
        _window(item),
        _badge(item.outcome) if item.outcome is not None else _badge(item.state),
        _text(item.fallback_type),
        str(item.tool_calls),
        _at(item.started_at),
    ]


def _filters(outcome: ReleaseOutcome | None, service: str | None) -> str:
    options = ['<option value="">any</option>'] + [
        f'<option value="{o.value}"{" selected" if o is outcome else ""}>{o.value}</option>'
        for o in ReleaseOutcome
    ]
    return (
        '<form class="filters" method="get" action="/ui/">'
        f'<label>Outcome<select name="outcome">{"".join(options)}</select></label>'
        '<label>Service<input name="service" maxlength="200" '
        f'value="{escape(service or "")}"></label>'
        "<button type=submit>Filter</button></form>"
    )


def listing_page(page: RunPage, outcome: ReleaseOutcome | None, service: str | None) -> str:
    """``/ui/``: the runs of one page, with the filters and a link to the next page."""
    table = _table(_LIST_COLUMNS, (_list_row(item) for item in page.runs), "No runs match.")
    more = ""
    if page.next_cursor is not None:
        query = {"cursor": page.next_cursor}
        if outcome is not None:
            query["outcome"] = outcome.value
        if service:
            query["service"] = service
        more = f'<nav class="pages"><a href="/ui/?{escape(urlencode(query))}">Next page →</a></nav>'
    body = f"<h1>Runs</h1>{_filters(outcome, service)}{table}{more}"
    return _page("Runs", body)


def _facts(pairs: Iterable[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{escape(key)}</dt><dd>{value}</dd>" for key, value in pairs)
    return f'<dl class="facts">{items}</dl>'


def _json(value: object) -> str:
    if value is None:
        return "–"
    return f"<pre>{escape(json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False))}</pre>"


def _metadata(metadata: JsonObject) -> str:
    if not metadata:
        return ""
    return f"<pre>{escape(json.dumps(metadata, sort_keys=True, ensure_ascii=False))}</pre>"


def _call_row(call: CallSummary) -> list[str]:
    failure = " ".join(escape(str(v)) for v in (call.error_code, call.reason) if v is not None)
    return [
        f"<code>{escape(call.tool_call_id)}</code>",
        escape(call.tool_name),
        _badge(call.status),
        _text(call.evidence_status),
        "yes" if call.truncated else "no",
        escape(call.content_state.value),
        _json(call.scope),
        failure or "–",
    ]


def _citation_row(check: CitationCheck) -> list[str]:
    call = "–" if check.tool_call_id is None else f"<code>{escape(check.tool_call_id)}</code>"
    return [
        escape(check.step),
        _text(check.analysis_index),
        call,
        _badge(check.verdict),
        _text(check.reason),
    ]


def _verification(inspection: RunInspection) -> str:
    verdict = inspection.verification
    if verdict.error is not None:
        return _badge("FAILED") + f" {escape(verdict.error)}"
    if verdict.ok:
        return (
            '<span class="badge intact">verifies</span> '
            f"{verdict.events} events; bodies {verdict.bodies_verified} verified, "
            f"{verdict.bodies_expired} expired"
        )
    problems = "; ".join(escape(problem.describe()) for problem in verdict.problems)
    return f'<span class="badge broken">does not verify</span> {problems}'


def inspection_page(inspection: RunInspection) -> str:
    """``/ui/runs/{id}``: one run's timeline, calls, citations, release and verification."""
    run = inspection.run
    summary = _facts(
        [
            ("Outcome", _badge(run.outcome)),
            ("Fallback type", _text(run.fallback_type)),
            ("Failure code", _text(run.failure_code)),
            ("Run state", escape(run.state.value)),
            ("Service", _text(run.service)),
            ("Window", _window(run)),
            ("Question", _question(run)),
            ("Started", _at(run.started_at)),
            ("Tool calls", str(run.tool_calls)),
            ("Chain", _verification(inspection)),
        ]
    )
    calls = _table(
        ("Call", "Tool", "Status", "Evidence", "Truncated", "Content", "Scope", "Error"),
        (_call_row(call) for call in inspection.calls),
        "No tool calls.",
    )
    citations = _table(
        ("Guard step", "Analysis", "Call", "Verdict", "Reason"),
        (_citation_row(check) for check in inspection.citations),
        "No citation was judged (the run was not released with a draft).",
    )
    steps = _table(
        ("Sequence", "Step", "Verdict"),
        ([str(s.sequence), escape(s.step), _badge(s.verdict)] for s in inspection.release_steps),
        "No release step recorded.",
    )
    timeline = _table(
        ("Seq", "Time", "Event", "Metadata"),
        (
            [str(e.sequence), _at(e.occurred_at), escape(e.type), _metadata(e.metadata)]
            for e in inspection.timeline
        ),
        "No events.",
    )
    body = (
        f"<h1>Run <code>{escape(run.run_id)}</code></h1>{summary}"
        f"<h2>Calls</h2>{calls}<h2>Citations and guard verdicts</h2>{citations}"
        f"<h2>Release</h2>{steps}<h2>Release decision</h2>{_json(inspection.decision)}"
        f"<h2>Timeline</h2>{timeline}"
    )
    return _page(f"Run {run.run_id}", body)


def error_page(title: str, message: str) -> str:
    """A page that says why the console cannot answer (a code and a sentence, no content)."""
    return _page(title, f"<h1>{escape(title)}</h1><p>{escape(message)}</p>")
