"""Fixtures of the audit unit tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.audit.support import migrated_template


@pytest.fixture(scope="session")
def audit_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An audit database migrated once per session; tests copy it."""
    return migrated_template(tmp_path_factory.mktemp("audit-template"))
