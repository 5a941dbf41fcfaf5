"""Knowledge benchmark: FTS5 lookup over 10,000 runbook sections, and the projector.

    .venv/bin/python bench/knowledge_fts.py [--sections N] [--queries N] [--out FILE]

Generates a synthetic corpus of Markdown runbooks (20 sections per document, 60–160 words
per section, fixed seed) in a temporary folder, builds the embedded backend's index from it
(timed: reading, splitting, inserting and merging), then times ``search`` (limit 10, in the
calling thread, through the public method: term extraction, bm25 ranking, relevance levels,
raw JSON) for a few hundred realistic queries, each run several times after one warm-up
pass, and reports the median and 95th percentile. Then times ``project_knowledge`` on the
raw results those queries returned. The first pass is reported on its own: the backend
remembers how many chunks hold each word it has seen (the index never changes), so a word's
first search costs one extra count. Nothing here asserts a target; the report states the
issue's target (median ≤ 5 ms) beside the figure.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from factledger.adapters.knowledge import SqliteKnowledgeBackend
from factledger.domain.knowledge import KnowledgeLimits, project_knowledge

SEED = 20_240_611
SECTIONS_PER_DOCUMENT = 20
ROUNDS = 3
PROJECTOR_ROUNDS = 20

_SERVICE_NAMES = """
    payments-api checkout ledger card-gateway fraud-check payouts refund-worker settlement-batch
    merchant-portal notifications risk-engine auth-service currency-rates invoice-service
    webhook-dispatcher token-vault dispute-service chargeback-worker kyc-service
    subscription-billing pricing-engine tax-calculator reconciliation-job reporting-api
    partner-gateway wallet-service loyalty-points receipt-mailer audit-trail config-service
    feature-flags search-index customer-profile session-store api-gateway scheduler
    email-relay sms-relay document-store analytics-pipeline
    """
SERVICES = tuple(_SERVICE_NAMES.split())
COMPONENTS = tuple(
    line.strip()
    for line in """
    connection pool
    thread pool
    database primary
    read replica
    posting queue
    Kafka consumer
    Redis cache
    load balancer
    TLS certificate
    DNS resolver
    rate limiter
    circuit breaker
    acquirer link
    outbound proxy
    batch scheduler
    object storage
    service mesh sidecar
    JVM heap
    garbage collector
    disk volume
    NAT gateway
    secrets manager
    message broker
    search cluster
    cron trigger
    webhook endpoint
    HSM signer
    idempotency store
    """.strip().splitlines()
)
SYMPTOMS = tuple(
    line.strip()
    for line in """
    timeouts
    latency spike
    elevated error rate
    deadlocks
    consumer lag
    pool exhaustion
    throttling
    OOM kills
    crash loop
    5xx responses
    handshake failures
    replication lag
    retry storm
    queue backlog
    stale reads
    dropped webhooks
    disk pressure
    CPU saturation
    memory leak
    split brain
    clock skew
    certificate expiry
    duplicate charges
    missing settlements
    slow queries
    lock contention
    connection resets
    packet loss
    """.strip().splitlines()
)
ACTIONS = tuple(
    line.strip()
    for line in """
    restart the pods one at a time
    scale out the deployment
    drain the affected node
    fail over to the secondary region
    roll back the last deploy
    raise the limit temporarily
    pause the batch job
    rotate the certificate
    flush the cache
    open the circuit breaker
    shift traffic to the secondary acquirer
    move poison messages to the dead-letter queue
    lower the read timeout
    page the database on-call
    kill the long-running query
    increase the heap and restart
    resize the volume
    resync the replica from a snapshot
    disable the feature flag
    replay the missed webhooks
    """.strip().splitlines()
)
HEADINGS = (
    "Summary",
    "Symptoms",
    "Impact",
    "Why it happens",
    "Diagnosis",
    "Dashboards",
    "Log queries",
    "Remedy",
    "Remedy > Quick mitigation",
    "Remedy > Permanent fix",
    "Verification",
    "Rollback",
    "Escalation",
    "Known false alarms",
    "Capacity notes",
    "Configuration",
    "Alerts",
    "After the incident",
    "Related runbooks",
    "History",
)
_PROSE_WORDS = """
    the a to of and in is for on that with when if it be as by this are from at or not check
    then after before during each every one two first last same other new old only also
    usually often rarely always never still again already until while within over under
    request response traffic customer merchant order payment refund capture authorisation
    alert threshold baseline dashboard metric graph panel log line trace span error warning
    owner team incident severity impact window peak value config flag setting release deploy
    version change ticket channel status recovery steady normal healthy degraded partial full
    minute minutes hour hours second seconds day week rate ratio percent count total median
    p95 p99 latency throughput capacity limit quota budget headroom spike drop rise fall
    growth trend noise signal cause symptom effect root contributing factor trigger condition
    node pod host region zone cluster replica primary shard partition topic queue job worker
    process thread connection session socket port address route path endpoint client server
    upstream downstream dependency caller callee retry backoff jitter timeout deadline budget
    confirm compare verify observe watch inspect measure record note escalate page notify
    announce mitigate fix repair restore revert resume pause stop start restart reload apply
    schedule drain isolate cordon evict migrate promote demote rebuild reindex compact vacuum
    expected unexpected known unknown safe unsafe manual automatic temporary permanent
    customer-facing internal external primary secondary tertiary hot cold warm stale fresh
    small large higher lower faster slower longer shorter more less most least enough
    should must may can could would will need needs needed requires required optional
    usually typically sometimes commonly especially particularly mainly mostly exactly
    """
PROSE = tuple(_PROSE_WORDS.split())
_PROSE_WEIGHTS = tuple(1.0 / (rank + 1) for rank in range(len(PROSE)))


@dataclass(frozen=True)
class Topic:
    """What one runbook is about: most of its sentences talk about this."""

    service: str
    component: str
    symptom: str
    codes: tuple[str, ...]
    config_key: str


def error_code(rng: random.Random) -> str:
    prefixes = ("GW", "PAY", "LEDGER", "CHK", "FRD", "PO", "RISK", "AUTH", "KYC", "SUB", "TAX")
    return f"{rng.choice(prefixes)}-{rng.randint(100, 999)}"


def topic(rng: random.Random) -> Topic:
    service, component = rng.choice(SERVICES), rng.choice(COMPONENTS)
    slug = component.lower().replace(" ", "_")
    return Topic(
        service=service,
        component=component,
        symptom=rng.choice(SYMPTOMS),
        codes=tuple(error_code(rng) for _ in range(rng.randint(1, 3))),
        config_key=f"{service}.{slug}.{rng.choice(('max_size', 'timeout_ms', 'limit', 'ttl'))}",
    )


def prose(rng: random.Random) -> str:
    words = rng.choices(PROSE, weights=_PROSE_WEIGHTS, k=rng.randint(8, 18))
    return " ".join(words).capitalize() + "."


def sentence(rng: random.Random, own: Topic) -> str:
    about = own if rng.random() < 0.75 else topic(rng)
    template = rng.randrange(7)
    if template == 0:
        return f"When {about.service} shows {about.symptom}, check the {about.component} first."
    if template == 1:
        return (
            f"Errors carry `{rng.choice(about.codes)}` and the log says {about.symptom} "
            f"on the {about.component}."
        )
    if template == 2:
        return f"To recover, {rng.choice(ACTIONS)} and watch the {about.component} metrics."
    if template == 3:
        return f"`{about.config_key}` is set per pod; change it only through the config service."
    if template == 4:
        return f"{about.symptom.capitalize()} in {about.service} often spread through retries."
    return prose(rng)


def section_text(rng: random.Random, own: Topic) -> str:
    words: list[str] = []
    target = rng.randint(60, 160)
    while len(words) < target:
        words.extend(sentence(rng, own).split())
    return " ".join(words)


def write_corpus(folder: Path, sections: int, rng: random.Random) -> tuple[int, list[Topic]]:
    """Runbooks with ``sections`` sections in all, and the topic of each runbook."""
    documents = (sections + SECTIONS_PER_DOCUMENT - 1) // SECTIONS_PER_DOCUMENT
    written = 0
    topics: list[Topic] = []
    for number in range(documents):
        own = topic(rng)
        topics.append(own)
        lines = [f"# {own.service}: {own.component} {own.symptom}", ""]
        for index in range(min(SECTIONS_PER_DOCUMENT, sections - written)):
            heading = HEADINGS[index % len(HEADINGS)]
            level = "###" if ">" in heading else "##"
            lines += [f"{level} {heading.split(' > ')[-1]}", "", section_text(rng, own), ""]
            written += 1
        team = folder / own.service
        team.mkdir(exist_ok=True)
        (team / f"runbook-{number:04d}.md").write_text("\n".join(lines), encoding="utf-8")
    return written, topics


def realistic_queries(count: int, topics: list[Topic], rng: random.Random) -> list[str]:
    """What an agent asks during an incident: mostly about a runbook's topic (an incident
    that has a runbook), sometimes about a combination no runbook covers."""
    queries: list[str] = []
    for _ in range(count):
        about = rng.choice(topics) if rng.random() < 0.8 else topic(rng)
        code = rng.choice(about.codes)
        template = rng.randrange(6)
        if template == 0:
            queries.append(f"{about.service} {about.symptom}")
        elif template == 1:
            queries.append(f"{code} {about.symptom} {about.component}")
        elif template == 2:
            queries.append(f"why is {about.service} returning {code}")
        elif template == 3:
            queries.append(f"how to fix {about.component} {about.symptom} in {about.service}")
        elif template == 4:
            queries.append(f"{about.service} {code} {about.component} {about.symptom} remedy")
        else:
            queries.append(f"{about.symptom} after deploy {about.service} rollback")
    return queries


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def search_once(backend: SqliteKnowledgeBackend, query: str) -> tuple[str, float]:
    """The raw result of one search and its time in milliseconds."""
    begin = time.perf_counter_ns()
    result = backend.search(query, 10, 5.0)
    elapsed = (time.perf_counter_ns() - begin) / 1e6
    return result.unwrap(), elapsed


def time_projector(raws: list[str]) -> list[float]:
    """Microseconds per ``project_knowledge`` call, every raw result ``PROJECTOR_ROUNDS`` times."""
    limits = KnowledgeLimits()
    samples: list[float] = []
    for _ in range(PROJECTOR_ROUNDS):
        for raw in raws:
            begin = time.perf_counter_ns()
            projected = project_knowledge(raw, limits)
            samples.append((time.perf_counter_ns() - begin) / 1e3)
            projected.unwrap()
    return samples


def build(sections: int) -> tuple[SqliteKnowledgeBackend, int, float, list[Topic]]:
    """The backend over a fresh synthetic corpus, the sections written, the build time (s)."""
    with tempfile.TemporaryDirectory(prefix="factledger-knowledge-bench-") as temporary:
        folder = Path(temporary)
        written, topics = write_corpus(folder, sections, random.Random(SEED))
        started = time.perf_counter()
        backend = SqliteKnowledgeBackend.from_folder(folder).unwrap()
        return backend, written, time.perf_counter() - started, topics


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sections", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent / "results" / "knowledge.md",
        help="where the report (Markdown) is written",
    )
    args = parser.parse_args()
    command = ".venv/bin/python bench/knowledge_fts.py" + "".join(
        f" {flag} {value}"
        for flag, value, default in (
            ("--sections", args.sections, 10_000),
            ("--queries", args.queries, 300),
        )
        if value != default
    )
    lines = [
        "# Knowledge benchmark",
        "",
        f"Machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {sys.platform}; "
        f"command: `{command}`",
        "",
        "Corpus: synthetic Markdown runbooks (fixed seed), 20 sections of 60–160 words each; "
        "three sentences in four are about the runbook's own service, component and symptom. "
        "Queries: incident-style questions, four in five about a runbook's topic. Search: "
        "`SqliteKnowledgeBackend.search(query, 10, 5.0)` in the calling thread; projector: "
        "`project_knowledge` with the default `KnowledgeLimits` on those raw results. "
        "Wall-clock time per call.",
        "",
        "| measure | value |",
        "|---|---|",
    ]

    def row(name: str, value: str) -> None:
        lines.append(f"| {name} | {value} |")
        print(f"{name:<62} {value}", flush=True)

    backend, written, build_seconds, topics = build(args.sections)
    stats = backend.stats
    row(
        "runbook documents / sections / indexed chunks",
        f"{stats.documents:,} / {stats.sections:,} / {stats.chunks:,}",
    )
    row("sections written", f"{written:,}")
    row("index build (read, split, insert, merge)", f"{build_seconds * 1000:,.0f} ms")

    queries = realistic_queries(args.queries, topics, random.Random(SEED + 1))
    first = [search_once(backend, query) for query in queries]
    raws = [raw for raw, _ in first]
    samples = [search_once(backend, query)[1] for _ in range(ROUNDS) for query in queries]
    hits = [len(json.loads(raw)["hits"]) for raw in raws]
    row(
        "FTS5 lookup, first pass over the queries: median",
        f"{statistics.median(elapsed for _, elapsed in first):.2f} ms",
    )
    row("queries x rounds timed after the first pass", f"{len(queries)} x {ROUNDS}")
    row("hits per query (limit 10): mean", f"{statistics.fmean(hits):.1f}")
    row("FTS5 lookup: median (target ≤ 5 ms)", f"{statistics.median(samples):.2f} ms")
    row("FTS5 lookup: p95", f"{percentile(samples, 0.95):.2f} ms")
    row("FTS5 lookup: max", f"{max(samples):.2f} ms")

    projector_samples = time_projector(raws)
    raw_sizes = [len(raw.encode("utf-8")) for raw in raws]
    row("raw result size: median", f"{statistics.median(raw_sizes):,.0f} bytes")
    row("projector per call: median", f"{statistics.median(projector_samples):.0f} µs")
    row("projector per call: p95", f"{percentile(projector_samples, 0.95):.0f} µs")
    backend.close()

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
