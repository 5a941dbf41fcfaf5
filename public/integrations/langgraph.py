"""``factledger.integrations.langgraph``: LangGraph over the harness
(``pip install 'factledger[langgraph]'``); see ``LedgerRun``."""

from factledger.adapters.integrations.langgraph import (
    EvidenceToolBypassed,
    LedgerRun,
    LedgerState,
)

__all__ = ["EvidenceToolBypassed", "LedgerRun", "LedgerState"]
