"""Whatever draft an adversary writes, the release is SUCCESS only if every cited id is a READY
call of this run of an accepting kind and the judge said SUPPORTED."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factledger.domain.invocation import Ready
from factledger.domain.release.draft import AnalysisKind
from factledger.domain.release.fallback import ReleaseResult
from factledger.ports.semantic_judge import JudgeFinding, JudgeSupported, JudgeUnsupported
from tests.support.interceptor import settings_for
from tests.support.release import ScriptedJudge, scenario

IDS = st.sampled_from(["c1", "c2", "c3", "ghost", "c1 ", "C1", "", "theirs"])
KINDS = st.sampled_from([kind.value for kind in AnalysisKind])
ANALYSIS = st.fixed_dictionaries(
    {
        "kind": KINDS,
        "claim": st.text(min_size=1, max_size=40),
        "tool_call_ids": st.lists(IDS, max_size=3),
    }
)
DRAFT = st.one_of(
    st.fixed_dictionaries(
        {"conclusion": st.text(min_size=1, max_size=40), "analyses": st.lists(ANALYSIS, max_size=3)}
    ).map(json.dumps),
    st.text(max_size=60),
    st.none(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DRAFT, st.booleans())
def test_only_verified_citations_and_a_supporting_judge_reach_success(
    draft_text: str | None, judge_supports: bool
) -> None:
    with scenario(settings_for("memory")) as run:
        run.call("c1", "GW-504 pool exhausted")
        run.call("c2", "zzqx qqvv", ("c1", "GAINED"))
        judge = ScriptedJudge(
            [JudgeSupported() if judge_supports else JudgeUnsupported((JudgeFinding(0, "NO"),))]
        )
        result = run.release(draft_text, judge=judge)
        assert isinstance(result, ReleaseResult)
        if result.outcome.value != "SUCCESS":
            return
        assert judge_supports
        log = run.runtime.runs.load(run.run_id)
        invocations = log.invocations  # type: ignore[union-attr]
        published = result.published_result
        assert published is not None
        assert published.analyses
        for analysis in published.analyses:
            assert analysis.tool_call_ids
            for tool_call_id in analysis.tool_call_ids:
                invocation = invocations.get(tool_call_id)
                assert isinstance(invocation, Ready)
                assert invocation.evidence_status is analysis.kind.accepts
