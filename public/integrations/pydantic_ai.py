"""``factledger.integrations.pydantic_ai``: Pydantic AI over the harness
(``pip install 'factledger[pydantic-ai]'``); see ``LedgerRun``."""

from factledger.adapters.integrations.pydantic_ai import (
    DraftModel,
    EvidenceToolBypassed,
    EvidenceToolset,
    LedgerRun,
)

__all__ = ["DraftModel", "EvidenceToolBypassed", "EvidenceToolset", "LedgerRun"]
