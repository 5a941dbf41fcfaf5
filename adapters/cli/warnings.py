"""What the commands say on standard error before they serve."""

from __future__ import annotations

import sys

from factledger.application.harness import Harness

__all__ = ["warn_without_tools"]


def warn_without_tools(command: str, harness: Harness) -> None:
    """Say so when the harness has no evidence tool (the model would have nothing to call)."""
    if not harness.tool_names:
        print(
            f"factledger {command}: warning: no evidence tool is configured (NO_EVIDENCE_TOOLS): "
            "set [knowledge] dir, [logs] dir or [[sql.datasources]], or install a tool",
            file=sys.stderr,
        )
