"""``factledger.integrations.openai_agents``: the OpenAI Agents SDK over the harness
(``pip install 'factledger[openai-agents]'``); see ``LedgerRun``."""

from factledger.adapters.integrations.openai_agents import (
    DraftModel,
    EvidenceToolBypassed,
    LedgerRun,
)

__all__ = ["DraftModel", "EvidenceToolBypassed", "LedgerRun"]
