"""The README's promises, checked as a user would: every Python block runs as written from an
empty folder, and the example settings drive the bundled demo from a checkout."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from factledger import load_settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```python\n(.*?)^```", README, flags=re.DOTALL | re.MULTILINE)


def _environment(home: Path) -> dict[str, str]:
    """No FACTLEDGER_* variables of the test run: the block sees what a user's shell would."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("FACTLEDGER_")}
    return {**kept, "HOME": str(home)}


def test_the_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_every_python_block_runs_as_written_from_an_empty_folder(
    index: int, tmp_path: Path
) -> None:
    script = tmp_path / f"block_{index}.py"
    script.write_text(BLOCKS[index], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, script.name],
        cwd=tmp_path,
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"block {index} failed:\n{done.stdout}\n{done.stderr}"


def test_the_example_settings_are_valid_and_drive_the_demo_from_a_checkout(
    tmp_path: Path,
) -> None:
    example = ROOT / "factledger.toml.example"
    settings = load_settings(example, environ={})
    assert settings.knowledge.dir == "adapters/demo/knowledge"
    for folder in ("knowledge", "logs", "transcripts"):
        shutil.copytree(ROOT / "adapters" / "demo" / folder, tmp_path / "adapters/demo" / folder)
    shutil.copy(ROOT / "adapters/demo/metrics.json", tmp_path / "adapters/demo/metrics.json")
    shutil.copy(example, tmp_path / "factledger.toml.example")
    factledger = Path(sys.executable).parent / "factledger"
    env = _environment(tmp_path)
    subprocess.run([factledger, "demo", "--json"], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    done = subprocess.run(
        [factledger, "run", "--config", "factledger.toml.example", "--json",
         "--transcript", "adapters/demo/transcripts/honest.json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["release"]["outcome"] == "SUCCESS"
