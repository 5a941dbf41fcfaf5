"""A finished call and a projection hold EVIDENCE_FOUND or NO_EVIDENCE: ERROR is refused."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from factledger.domain.invocation import InvocationInfo, Ready
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import ProjectedToolResult

_AT = datetime(2026, 1, 1, tzinfo=UTC)
_INFO = InvocationInfo("call_1", "query_sql", 1, 2, "d" * 64, _AT, _AT)


def _ready(status: Any) -> Ready:
    return Ready(_INFO, status, 1, "r" * 64, 1, "p" * 64, False, _AT)


def _projection(status: Any) -> ProjectedToolResult:
    return ProjectedToolResult({}, status)


@pytest.mark.parametrize("build", [_ready, _projection])
def test_an_error_status_is_refused_with_the_record_named(build: Any) -> None:
    with pytest.raises(ValueError, match=r"cannot carry evidence status"):
        build(EvidenceStatus.ERROR)


@pytest.mark.parametrize("build", [_ready, _projection])
@pytest.mark.parametrize("status", [EvidenceStatus.EVIDENCE_FOUND, EvidenceStatus.NO_EVIDENCE])
def test_a_finished_status_is_kept(build: Any, status: EvidenceStatus) -> None:
    assert build(status).evidence_status is status


def test_the_message_names_the_kind_of_record() -> None:
    with pytest.raises(ValueError, match=r"^a Ready "):
        _ready(EvidenceStatus.ERROR)
    with pytest.raises(ValueError, match=r"^a ProjectedToolResult "):
        _projection(EvidenceStatus.ERROR)
