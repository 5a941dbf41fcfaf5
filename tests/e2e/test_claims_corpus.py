"""The paired-claims corpus through the public facade: every honest draft passes the gate,
no twin one edit away does.

Each incident under ``tests/corpus/claims/`` gets one harness over its own data (SQLite
datasource, log files, runbooks) and a run of its investigation; every side of every pair is
checked on it with ``Harness.check`` (nothing published, the run goes on), and one honest draft
citing the whole investigation is released. Sides the current judge decides wrongly are listed
in the incident's ``known_gaps`` and run as strict xfails: one that starts deciding right fails
the suite until it is taken off the list.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factledger import ReleaseOutcome
from tests.support.claims_corpus import (
    CorpusRun,
    Family,
    Incident,
    Side,
    load_corpus,
    open_incident,
    reasons,
)

INCIDENTS = load_corpus()
SIDES = [side for incident in INCIDENTS for side in incident.sides]


KNOWN_GAP = pytest.mark.xfail(
    strict=True, reason="listed in known_gaps: the judge decides it wrongly"
)


def _param(side: Side) -> object:
    return pytest.param(side, id=side.case_id, marks=[KNOWN_GAP] if side.known_gap else [])


def _incident_param(incident: Incident) -> object:
    marks = [KNOWN_GAP] if incident.full_draft_known_gap else []
    return pytest.param(incident, id=incident.name, marks=marks)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, CorpusRun]]:
    opened: dict[str, CorpusRun] = {}
    try:
        for incident in INCIDENTS:
            workdir = tmp_path_factory.mktemp(incident.name)
            opened[incident.name] = open_incident(incident, workdir)
        yield opened
    finally:
        for corpus_run in opened.values():
            corpus_run.harness.close()


def test_the_corpus_has_enough_pairs_over_enough_incidents() -> None:
    assert len(INCIDENTS) >= 3
    assert all(len(incident.pairs) >= 35 for incident in INCIDENTS)
    assert sum(len(incident.pairs) for incident in INCIDENTS) >= 120


@pytest.mark.parametrize("incident", INCIDENTS, ids=lambda incident: incident.name)
def test_every_incident_covers_every_edit_family(incident: Incident) -> None:
    assert {pair.family for pair in incident.pairs} == set(Family)


@pytest.mark.parametrize("side", [_param(side) for side in SIDES])
def test_honest_drafts_pass_and_their_twins_are_refused(
    side: Side, runs: dict[str, CorpusRun]
) -> None:
    result = runs[side.incident].check(side.draft)
    detail = f"{side.case_id}: {reasons(result)} {json.dumps(side.draft)[:600]}"
    assert result.passed is side.should_pass, detail


@pytest.mark.parametrize("incident", [_incident_param(incident) for incident in INCIDENTS])
def test_the_honest_full_draft_of_every_incident_is_published(
    incident: Incident, tmp_path: Path
) -> None:
    corpus_run = open_incident(incident, tmp_path)
    try:
        result = corpus_run.harness.release(corpus_run.run_id, json.dumps(incident.full_draft))
    finally:
        corpus_run.harness.close()
    assert result.outcome is ReleaseOutcome.SUCCESS, json.dumps(result.to_json())[:2000]
    published = result.published_result
    assert published is not None
    assert published.conclusion == incident.full_draft["conclusion"]
