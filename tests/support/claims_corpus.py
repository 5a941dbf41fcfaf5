"""The paired-claims corpus: incidents with real data, and minimal pairs of claims about them.

Each incident is a folder under ``tests/corpus/claims/`` holding

* ``incident.json``: the question, service and window of the run, the SQLite datasource
  (a ``.sql`` script and the allowlisted tables) and the tool calls an agent makes, each with
  the evidence status it must get;
* ``knowledge/`` (runbooks), ``logs/`` (log files) and the ``.sql`` script;
* ``pairs.json``: the minimal pairs (an honest draft and a twin one edit away, labelled with
  the edit family), ``full_draft`` (an honest draft citing the whole investigation) and
  ``known_gaps`` (``"<pair id>/<side>"`` entries the current judge decides wrongly).

Everything runs through the public facade only (``factledger.build_harness`` on the embedded
defaults with the incident's sources configured), so the corpus does not depend on how the
judge decides. A run has at most ``[release] check_attempts`` checks, so ``CorpusRun`` starts
a fresh run with the same calls when one is used up.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

from attrs import frozen

from factledger import CheckResult, Harness, Settings, build_harness

__all__ = [
    "CHECKS_PER_RUN",
    "CORPUS",
    "FULL_DRAFT",
    "CorpusRun",
    "Family",
    "Incident",
    "Pair",
    "Side",
    "describe",
    "load_corpus",
    "load_incident",
    "open_incident",
    "reasons",
]

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "claims"
"""The bundled corpus."""

FULL_DRAFT = "full_draft"
"""The ``known_gaps`` entry that marks the incident's full honest draft as not yet published."""

CHECKS_PER_RUN = 20
"""``[release] check_attempts`` of the corpus runs (the most the setting allows)."""

SideName = Literal["honest", "twin"]


class Family(StrEnum):
    """The edit that turns the honest side into its twin."""

    NEGATION = "negation"
    NUMBER = "number"
    UNIT = "unit"
    ENTITY = "entity"
    FILTER = "filter"
    WINDOW = "window"
    SCOPE = "scope"
    QUANTIFIER = "quantifier"
    CAUSAL = "causal"
    CONCLUSION = "conclusion"


@frozen
class Side:
    """One draft of a pair and what the gate must do with it."""

    incident: str
    pair_id: str
    name: SideName
    family: Family
    draft: dict[str, Any]
    known_gap: bool
    """True when the current judge is known to decide this side wrongly."""

    @property
    def case_id(self) -> str:
        """``incident/pair/side``."""
        return f"{self.incident}/{self.pair_id}/{self.name}"

    @property
    def should_pass(self) -> bool:
        """The honest side must pass, the twin must be refused."""
        return self.name == "honest"


@frozen
class Pair:
    """An honest draft and its twin."""

    pair_id: str
    family: Family
    honest: Side
    twin: Side


@frozen
class Incident:
    """One incident folder, loaded."""

    name: str
    folder: Path
    spec: dict[str, Any]
    pairs: tuple[Pair, ...]
    full_draft: dict[str, Any]
    full_draft_known_gap: bool
    """True when the current judge is known not to publish the full honest draft."""

    @property
    def sides(self) -> Iterator[Side]:
        """Every side of every pair, honest first."""
        for pair in self.pairs:
            yield pair.honest
            yield pair.twin


def _analysis(entry: dict[str, Any], kind: str, claim: str, cites: list[str]) -> dict[str, Any]:
    return {"kind": entry.get("kind", kind), "claim": claim, "tool_call_ids": cites}


def _draft(entry: dict[str, Any], side: SideName) -> dict[str, Any]:
    """The draft of one side: a single analysis whose claim is also the conclusion, or, with
    ``analyses``, those analyses under the side's conclusion."""
    text = entry[side]
    if "analyses" in entry:
        analyses = [
            _analysis(a, "SUPPORTING_EVIDENCE", a["claim"], list(a["cites"]))
            for a in entry["analyses"]
        ]
        return {"conclusion": text, "analyses": analyses}
    kind = entry.get(f"{side}_kind", entry.get("kind", "SUPPORTING_EVIDENCE"))
    cites = list(entry.get(f"{side}_cites", entry["cites"]))
    return {
        "conclusion": text,
        "analyses": [{"kind": kind, "claim": text, "tool_call_ids": cites}],
    }


def load_incident(folder: Path) -> Incident:
    """An incident folder with its pairs (ids unique, known gaps naming real sides)."""
    spec = json.loads((folder / "incident.json").read_text(encoding="utf-8"))
    document = json.loads((folder / "pairs.json").read_text(encoding="utf-8"))
    gaps = set(document.get("known_gaps", []))
    pairs: list[Pair] = []
    for entry in document["pairs"]:
        family = Family(entry["family"])
        sides = {
            name: Side(
                folder.name,
                entry["id"],
                name,
                family,
                _draft(entry, name),
                f"{entry['id']}/{name}" in gaps,
            )
            for name in ("honest", "twin")
        }
        pairs.append(Pair(entry["id"], family, sides["honest"], sides["twin"]))
    ids = [pair.pair_id for pair in pairs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{folder.name}: pair ids repeat")
    named = {f"{pair.pair_id}/{side}" for pair in pairs for side in ("honest", "twin")}
    named.add(FULL_DRAFT)
    if not gaps <= named:
        raise ValueError(f"{folder.name}: known_gaps name no side: {sorted(gaps - named)}")
    full_draft = document["full_draft"]
    return Incident(folder.name, folder, spec, tuple(pairs), full_draft, FULL_DRAFT in gaps)


def load_corpus(root: Path = CORPUS) -> tuple[Incident, ...]:
    """Every incident under ``root``, by name."""
    folders = sorted(p for p in root.iterdir() if (p / "pairs.json").is_file())
    return tuple(load_incident(folder) for folder in folders)


def _settings(incident: Incident, workdir: Path) -> Settings:
    datasource = incident.spec["datasource"]
    database = workdir / f"{datasource['name']}.db"
    if not database.exists():
        connection = sqlite3.connect(database)
        try:
            script = (incident.folder / datasource["script"]).read_text(encoding="utf-8")
            connection.executescript(script)
            connection.commit()
        finally:
            connection.close()
    return Settings.model_validate(
        {
            "store": {"kind": "memory"},
            "knowledge": {"dir": str(incident.folder / "knowledge")},
            "logs": {"dir": str(incident.folder / "logs")},
            "sql": {
                "datasources": [
                    {
                        "name": datasource["name"],
                        "url": f"sqlite:///{database}",
                        "tables": datasource["tables"],
                    }
                ]
            },
            "release": {"check_attempts": CHECKS_PER_RUN},
            "budget": {"tool_calls": max(24, len(incident.spec["calls"]))},
        }
    )


class CorpusRun:
    """An incident's harness and a run holding its investigation, renewed when its checks are
    used up (every run makes the same calls, so the drafts' citations hold in each)."""

    def __init__(self, incident: Incident, harness: Harness) -> None:
        self.incident = incident
        self.harness = harness
        self.run_id = ""
        self._checks_left = 0

    def investigate(self) -> str:
        """Start a run and make the incident's calls in order, each evaluating the result
        before it as GAINED; every call must get the evidence status the incident expects."""
        spec = self.incident.spec
        run_id = self.harness.start_run(
            question=spec["question"],
            service=spec["service"],
            start=datetime.fromisoformat(spec["start"]),
            end=datetime.fromisoformat(spec["end"]),
        )
        previous: dict[str, str] | None = None
        for call in spec["calls"]:
            arguments = {"previous_observation": previous, "input": call["input"]}
            observation = self.harness.call_tool(
                run_id, call["id"], call["tool"], json.dumps(arguments)
            )
            got = (observation.status, observation.evidence_status)
            if got != ("READY", call["expect"]):
                raise AssertionError(f"{self.incident.name}/{call['id']}: {got}")
            found = observation.evidence_status == "EVIDENCE_FOUND"
            previous = {"tool_call_id": call["id"], "evaluation": "GAINED"} if found else None
        self.run_id = run_id
        self._checks_left = CHECKS_PER_RUN
        return run_id

    def check(self, draft: dict[str, Any]) -> CheckResult:
        """Check a draft on a run that still has a check left."""
        if self._checks_left == 0:
            self.investigate()
        result = self.harness.check(self.run_id, json.dumps(draft))
        self._checks_left = result.attempts_left
        return result


def open_incident(incident: Incident, workdir: Path) -> CorpusRun:
    """A harness over the incident's data (its datasource built under ``workdir``) and a run
    of its investigation."""
    workdir.mkdir(parents=True, exist_ok=True)
    corpus_run = CorpusRun(incident, build_harness(_settings(incident, workdir)))
    corpus_run.investigate()
    return corpus_run


def reasons(result: CheckResult) -> list[str]:
    """The reason codes of a check's issues (the issue code where no reason is given)."""
    return [str(issue.reason or issue.code) for issue in result.validation_issues]


def describe(sides: Sequence[Side]) -> str:
    """Ids of sides, one a line."""
    return "\n".join(side.case_id for side in sides)
