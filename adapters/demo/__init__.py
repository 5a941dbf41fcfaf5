"""Bundled demo material: runbooks of a fictional payments platform for the knowledge tool."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["DEMO_KNOWLEDGE_DIR"]

DEMO_KNOWLEDGE_DIR: Final = Path(__file__).resolve().parent / "knowledge"
"""The folder of demo runbooks (Markdown), indexed by the embedded knowledge backend."""
