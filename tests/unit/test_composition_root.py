"""Transports never build stores, vaults, leases, executors or judges: the composition root
(``adapters/bootstrap.py``, with each adapter package's own factory) does (docs/adr/0034)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRANSPORTS = ("adapters/cli", "adapters/http", "adapters/mcp", "adapters/demo", "public")
SUFFIXES = ("EventStore", "PayloadVault", "AuditStore", "Leases", "Executor", "Judge")


def _adapter_classes() -> frozenset[str]:
    names: set[str] = set()
    for path in (ROOT / "adapters").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(SUFFIXES):
                names.add(node.name)
    return frozenset(names)


def _constructions(path: Path, classes: frozenset[str], root: Path = ROOT) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name in classes:
            found.append(f"{path.relative_to(root)}:{node.lineno} builds {name}")
    return found


def test_the_scan_knows_the_adapters() -> None:
    classes = _adapter_classes()
    assert {"RedisEventStore", "SqliteEventStore", "SqlAuditStore", "GroundingJudge"} <= classes


@pytest.mark.parametrize("folder", TRANSPORTS)
def test_transports_leave_wiring_to_the_composition_root(folder: str) -> None:
    classes = _adapter_classes()
    found = [
        line
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in _constructions(path, classes)
    ]
    assert found == []


def test_the_scan_would_see_a_transport_building_a_store(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("store = RedisEventStore(client)\n", encoding="utf-8")
    found = _constructions(bad, _adapter_classes(), root=tmp_path)
    assert found == ["bad.py:1 builds RedisEventStore"]


def test_the_facade_finds_the_root_through_its_entry_point() -> None:
    from importlib.metadata import entry_points

    from factledger.adapters.bootstrap import embedded_harness

    found = list(entry_points(group="factledger.composition", name="embedded"))
    assert [entry.load() for entry in found] == [embedded_harness]
