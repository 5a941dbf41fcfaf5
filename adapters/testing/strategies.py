"""Hypothesis strategies for property tests against factledger.

* ``adversarial_drafts(ids)``: drafts an agent could write — valid, malformed, citing real,
  invented, empty or mangled ids, with either kind — as the JSON text ``release`` receives.
* ``projected_results()``: bounded tool results with a consistent evidence status.
* ``run_commands()``: sequences of run commands (start, calls, completions, failures, ends)
  for state-machine style tests of the domain.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hypothesis import strategies as st

from factledger.domain.json_types import JsonObject
from factledger.domain.status import EvidenceStatus
from factledger.domain.tool_result import ProjectedToolResult

__all__ = ["adversarial_drafts", "projected_results", "run_commands", "tool_call_ids"]

_KINDS = ("SUPPORTING_EVIDENCE", "NEGATIVE_OBSERVATION")


def tool_call_ids(real: Sequence[str] = ()) -> st.SearchStrategy[str]:
    """Ids a draft might cite: the real ones, near misses of them, and inventions."""
    mangled = [variant for i in real for variant in (i.upper(), f" {i}", f"{i}x", i[:-1])]
    invented = st.from_regex(r"[A-Za-z0-9_.:-]{1,16}", fullmatch=True)
    choices: list[st.SearchStrategy[str]] = [invented, st.just("")]
    if real:
        choices.append(st.sampled_from(list(real)))
        choices.append(st.sampled_from(list(real)))
    if mangled:
        choices.append(st.sampled_from(mangled))
    return st.one_of(*choices)


def adversarial_drafts(real_ids: Sequence[str] = ()) -> st.SearchStrategy[str | None]:
    """Draft texts (or None: the agent stopped without one) an adversary might submit."""
    analysis = st.fixed_dictionaries(
        {
            "kind": st.sampled_from(_KINDS),
            "claim": st.text(min_size=1, max_size=80),
            "tool_call_ids": st.lists(tool_call_ids(real_ids), max_size=4),
        }
    )
    valid = st.fixed_dictionaries(
        {"conclusion": st.text(min_size=1, max_size=80), "analyses": st.lists(analysis, max_size=4)}
    ).map(json.dumps)
    broken = st.one_of(
        st.text(max_size=80),
        st.just("{}"),
        st.just('{"conclusion": "x"}'),
        valid.map(lambda text: text + " trailing"),
        valid.map(lambda text: text.replace('"claim"', '"claim2"', 1)),
    )
    return st.one_of(valid, valid, broken, st.none())


def projected_results() -> st.SearchStrategy[ProjectedToolResult]:
    """Bounded results whose evidence status matches their content (non-empty ⇒ found)."""
    items = st.lists(st.text(max_size=40), max_size=5)

    def build(found: list[str]) -> ProjectedToolResult:
        result: JsonObject = {"scope": {"query": "q"}, "items": list(found)}
        status = EvidenceStatus.EVIDENCE_FOUND if found else EvidenceStatus.NO_EVIDENCE
        return ProjectedToolResult(result, status)  # type: ignore[arg-type]  # narrowed above

    return items.map(build)


def run_commands() -> st.SearchStrategy[list[tuple[str, str]]]:
    """Sequences of (command, tool_call_id): ``begin``, ``ready``, ``fail``, ``cancel``."""
    step = st.tuples(
        st.sampled_from(["begin", "ready", "fail", "cancel"]),
        st.sampled_from(["c1", "c2", "c3"]),
    )
    return st.lists(step, max_size=30)
