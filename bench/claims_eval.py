"""How the release gate decides the paired-claims corpus: honest drafts passed, twins refused.

Runs every incident of the corpus (``tests/corpus/claims/`` unless ``--corpus DIR``) through
the public facade exactly as ``tests/e2e/test_claims_corpus.py`` does: one harness over the
incident's data, its investigation run for real, every side of every pair checked with
``Harness.check`` and the incident's full honest draft released. Prints, per incident and per
edit family, honest accepted / total and twins refused / total, then every refused honest
side and every accepted twin by id with the reason codes of its issues.

    python bench/claims_eval.py [--corpus DIR] [--only NAME,...] [--json] [--update-known-gaps]

``--only`` runs the named incidents alone: a leave-one-incident-out measurement develops a
change on some incidents and reads the figures of the others only after it.

``--update-known-gaps`` rewrites each incident's ``known_gaps`` to the sides (and
``full_draft``) decided wrongly in this run: the list the test suite runs as strict xfails.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from factledger import ReleaseOutcome  # noqa: E402
from tests.support.claims_corpus import (  # noqa: E402
    CORPUS,
    FULL_DRAFT,
    Incident,
    load_corpus,
    open_incident,
    reasons,
)


def _evaluate(incident: Incident, workdir: Path) -> dict[str, Any]:
    """Every side's verdict and the full draft's release outcome."""
    corpus_run = open_incident(incident, workdir / "checks")
    sides: list[dict[str, Any]] = []
    try:
        for side in incident.sides:
            result = corpus_run.check(side.draft)
            sides.append(
                {
                    "id": side.case_id,
                    "pair": side.pair_id,
                    "side": side.name,
                    "family": side.family.value,
                    "passed": result.passed,
                    "right": result.passed is side.should_pass,
                    "reasons": reasons(result),
                }
            )
    finally:
        corpus_run.harness.close()
    release_run = open_incident(incident, workdir / "release")
    try:
        released = release_run.harness.release(release_run.run_id, json.dumps(incident.full_draft))
    finally:
        release_run.harness.close()
    return {
        "incident": incident.name,
        "sides": sides,
        "full_draft": released.outcome.value,
        "full_draft_right": released.outcome is ReleaseOutcome.SUCCESS,
    }


def _tally(sides: list[dict[str, Any]]) -> dict[str, int]:
    honest = [s for s in sides if s["side"] == "honest"]
    twins = [s for s in sides if s["side"] == "twin"]
    return {
        "honest_accepted": sum(s["passed"] for s in honest),
        "honest_total": len(honest),
        "twins_refused": sum(not s["passed"] for s in twins),
        "twins_total": len(twins),
    }


def _summary(evaluations: list[dict[str, Any]]) -> dict[str, Any]:
    every = [side for evaluation in evaluations for side in evaluation["sides"]]
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for side in every:
        by_family[side["family"]].append(side)
    return {
        "total": _tally(every),
        "incidents": {
            e["incident"]: {**_tally(e["sides"]), "full_draft": e["full_draft"]}
            for e in evaluations
        },
        "families": {family: _tally(sides) for family, sides in sorted(by_family.items())},
        "refused_honest": [
            {"id": s["id"], "reasons": s["reasons"]}
            for s in every
            if s["side"] == "honest" and not s["passed"]
        ],
        "accepted_twins": [s["id"] for s in every if s["side"] == "twin" and s["passed"]],
    }


def _line(name: str, tally: dict[str, int], extra: str = "") -> str:
    honest = f"{tally['honest_accepted']}/{tally['honest_total']}"
    twins = f"{tally['twins_refused']}/{tally['twins_total']}"
    return f"  {name:<28} honest accepted {honest:>7}   twins refused {twins:>7}{extra}"


def _print(summary: dict[str, Any]) -> None:
    print("paired-claims corpus: release gate decisions")
    print(_line("all", summary["total"]))
    print("per incident:")
    for name, tally in summary["incidents"].items():
        print(_line(name, tally, f"   full draft {tally['full_draft']}"))
    print("per edit family:")
    for name, tally in summary["families"].items():
        print(_line(name, tally))
    print(f"refused honest sides ({len(summary['refused_honest'])}):")
    for entry in summary["refused_honest"]:
        print(f"  {entry['id']}: {', '.join(entry['reasons']) or '-'}")
    print(f"accepted twins ({len(summary['accepted_twins'])}):")
    for case_id in summary["accepted_twins"]:
        print(f"  {case_id}")


def _update_known_gaps(incidents: tuple[Incident, ...], evaluations: list[dict[str, Any]]) -> None:
    """Rewrite each pairs file's ``known_gaps`` to what this run decided wrongly."""
    for incident, evaluation in zip(incidents, evaluations, strict=True):
        gaps = [f"{s['pair']}/{s['side']}" for s in evaluation["sides"] if not s["right"]]
        if not evaluation["full_draft_right"]:
            gaps.append(FULL_DRAFT)
        path = incident.folder / "pairs.json"
        text = path.read_text(encoding="utf-8")
        document = json.loads(text)
        old = json.dumps(document["known_gaps"])
        new = json.dumps(gaps, indent=2).replace("\n", "\n  ")
        start = text.index('"known_gaps"')
        end = text.index("]", start) + 1
        path.write_text(f'{text[:start]}"known_gaps": {new}{text[end:]}', encoding="utf-8")
        assert json.loads(path.read_text(encoding="utf-8"))["known_gaps"] == gaps, old


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of incidents")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--update-known-gaps",
        action="store_true",
        help="rewrite each incident's known_gaps to the sides decided wrongly",
    )
    parser.add_argument("--only", default="", help="comma-separated incident names to run")
    args = parser.parse_args(argv)
    incidents = load_corpus(args.corpus)
    if args.only:
        wanted = set(args.only.split(","))
        incidents = tuple(incident for incident in incidents if incident.name in wanted)
        if {incident.name for incident in incidents} != wanted:
            parser.error(f"--only names no incident: {sorted(wanted)}")
    with tempfile.TemporaryDirectory(prefix="claims-eval-") as scratch:
        evaluations = [_evaluate(incident, Path(scratch) / incident.name) for incident in incidents]
    summary = _summary(evaluations)
    if args.update_known_gaps:
        _update_known_gaps(incidents, evaluations)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        _print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
