"""The three framework examples run offline as a user runs them, honest and forged: the honest
draft is published, the forged citation (a call the agent never made) is caught by name."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ("openai_agents_agent.py", "pydantic_ai_agent.py", "langgraph_agent.py")


def _release(example: str, scenario: str) -> dict[str, object]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("FACTLEDGER_", "OPENAI_"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / example), "--scenario", scenario],
        cwd=ROOT / "examples",
        env=kept,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{example} {scenario}:\n{done.stdout}\n{done.stderr}"
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_honest_agent_is_published(example: str) -> None:
    result = _release(example, "honest")
    assert result["outcome"] == "SUCCESS"
    published = result["published_result"]
    assert isinstance(published, dict)
    assert published["analyses"][0]["tool_call_ids"] == ["call-1"]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_forged_citation_is_caught_by_name(example: str) -> None:
    result = _release(example, "forged")
    assert result["outcome"] == "FALLBACK"
    fallback = result["fallback"]
    assert isinstance(fallback, dict)
    issues = fallback["validation_issues"]
    assert {(i["tool_call_id"], i["reason"]) for i in issues} == {("call-404", "NOT_IN_RUN")}
    # the two lookups of the first turn were admitted together, as one step
    assert {f["tool_call_id"] for f in fallback["observed_facts"]} == {"call-1", "call-2"}


README = (ROOT / "README.md").read_text(encoding="utf-8")
SNIPPETS = re.findall(r"^```py\n(.*?)^```", README, flags=re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize(
    ("example", "module"),
    [
        ("openai_agents_agent.py", "factledger.integrations.openai_agents"),
        ("pydantic_ai_agent.py", "factledger.integrations.pydantic_ai"),
        ("langgraph_agent.py", "factledger.integrations.langgraph"),
    ],
)
def test_the_readme_shows_each_examples_glue_and_it_is_at_most_five_lines(
    example: str, module: str
) -> None:
    """The wiring a user writes per framework (beyond building the harness and the agent) is
    the example's ``# glue`` lines; the README's block for that framework shows every one."""
    glue = [
        line.strip()
        for line in (ROOT / "examples" / example).read_text(encoding="utf-8").splitlines()
        if line.rstrip().endswith("# glue")
    ]
    assert 1 <= len(glue) <= 5
    (snippet,) = [block for block in SNIPPETS if module in block]
    shown = {line.strip() for line in snippet.splitlines()}
    assert [line for line in glue if line not in shown] == []
    assert sum(line.rstrip().endswith("# glue") for line in snippet.splitlines()) == len(glue)
