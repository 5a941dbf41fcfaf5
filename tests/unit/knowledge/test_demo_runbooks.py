"""The bundled demo runbooks index cleanly and answer the demo incident."""

from __future__ import annotations

import json

import pytest

from factledger.adapters.demo import DEMO_KNOWLEDGE_DIR
from factledger.adapters.knowledge import SqliteKnowledgeBackend
from factledger.domain.knowledge import project_knowledge
from factledger.domain.status import EvidenceStatus

REMEDY_DOCUMENT = "card-gateway-acquirer-timeouts.md"


@pytest.fixture(scope="module")
def backend() -> SqliteKnowledgeBackend:
    return SqliteKnowledgeBackend.from_folder(DEMO_KNOWLEDGE_DIR).unwrap()


def test_the_demo_runbooks_ship_with_the_package_and_all_index(
    backend: SqliteKnowledgeBackend,
) -> None:
    runbooks = sorted(path.name for path in DEMO_KNOWLEDGE_DIR.glob("*.md"))

    assert 6 <= len(runbooks) <= 10
    assert backend.stats.documents == len(runbooks)
    assert backend.stats.skipped == ()


@pytest.mark.parametrize(
    "query",
    [
        "card-gateway GW-504 pool exhausted",
        "GW-504 pool exhausted remedy",
        "card-gateway timeouts connection pool exhaustion",
    ],
)
def test_the_demo_incident_finds_the_pool_exhaustion_remedy_as_high_evidence(
    backend: SqliteKnowledgeBackend, query: str
) -> None:
    projected = project_knowledge(backend.search(query, 10, 2.0).unwrap()).unwrap()

    assert projected.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    blocks = projected.agent_result["evidence"]
    assert isinstance(blocks, list)
    remedies = [
        block
        for block in blocks
        if isinstance(block, dict)
        and block["document_id"] == REMEDY_DOCUMENT
        and str(block["section"]).startswith("Remedy")
    ]
    assert remedies, json.dumps(blocks, indent=1)
    assert all(block["relevance_level"] == "HIGH" for block in remedies)


@pytest.mark.parametrize(
    "query",
    ["GW-504 pool exhausted remedy", "how to fix card-gateway GW-504 pool exhausted"],
)
def test_asking_for_the_fix_shows_the_remedy_for_a_healthy_acquirer(
    backend: SqliteKnowledgeBackend, query: str
) -> None:
    projected = project_knowledge(backend.search(query, 10, 2.0).unwrap()).unwrap()

    blocks = projected.agent_result["evidence"]
    assert isinstance(blocks, list)
    assert {
        "document_id": REMEDY_DOCUMENT,
        "section": "Remedy > GW-504 with pool exhausted, acquirer latency normal",
        "relevance_level": "HIGH",
    } in [
        {key: block[key] for key in ("document_id", "section", "relevance_level")}
        for block in blocks
        if isinstance(block, dict)
    ]


@pytest.mark.parametrize(
    ("query", "document_id"),
    [
        ("ledger deadlock LEDGER-409", "ledger-database-deadlocks.md"),
        ("TLS handshake certificate expired GW-525", "card-gateway-certificate-expiry.md"),
        ("retry storm amplification", "checkout-retry-storms.md"),
        ("PAY-429 merchant quota", "payments-api-rate-limiting.md"),
        ("ledger.postings consumer lag backlog", "ledger-posting-queue-backlog.md"),
        ("payments failing at checkout error codes", "payment-failures-triage.md"),
    ],
)
def test_each_topic_finds_its_own_runbook_first(
    backend: SqliteKnowledgeBackend, query: str, document_id: str
) -> None:
    hits = json.loads(backend.search(query, 5, 2.0).unwrap())["hits"]

    assert hits[0]["document_id"] == document_id
