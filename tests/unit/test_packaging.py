"""The four code folders install under ``factledger`` and nowhere else (ADR 0001)."""

from __future__ import annotations

import importlib
import importlib.util
import site
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "ports", "adapters", "application")


def _installed_modules() -> list[str]:
    """The module list ``scripts/typecheck.py`` type-checks (one definition of it)."""
    spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names: list[str] = module.installed_modules()
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_no_layer_installs_as_a_top_level_name(layer: str) -> None:
    installed = [Path(p) for p in site.getsitepackages()]
    assert installed
    for folder in installed:
        assert not (folder / layer).exists(), f"{layer!r} installed as a top-level name"


@pytest.mark.parametrize("module", _installed_modules())
def test_every_source_module_imports_under_factledger(module: str) -> None:
    importlib.import_module(module)
