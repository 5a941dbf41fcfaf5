"""The four code folders install under ``factledger`` and nowhere else (ADR 0001)."""

from __future__ import annotations

import importlib
import site
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "ports", "adapters", "application")


def _in_package(path: Path) -> bool:
    """True when every folder from the layer down to the file is a package (as setup.py sees)."""
    folder = path.parent
    while folder != ROOT:
        if not (folder / "__init__.py").exists():
            return False
        folder = folder.parent
    return True


def _source_modules() -> list[str]:
    names: list[str] = []
    for layer in LAYERS:
        for path in sorted((ROOT / layer).rglob("*.py")):
            if not _in_package(path):
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join(("factledger", *parts)))
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_installs_as_a_top_level_name(layer: str) -> None:
    installed = [Path(p) for p in site.getsitepackages()]
    assert installed
    for folder in installed:
        assert not (folder / layer).exists(), f"{layer!r} installed as a top-level name"


@pytest.mark.parametrize("module", _source_modules())
def test_every_source_module_imports_under_factledger(module: str) -> None:
    importlib.import_module(module)
