"""Test kits for what a team builds on factledger (``pip install 'factledger[testing]'``).

``EvidenceToolContract``: the contract suite to run against an evidence tool of one's own
(subclass it in a pytest module). ``adversarial_drafts``: hypothesis strategies of drafts that
try to get something published that the run does not support.
"""

from __future__ import annotations

from factledger.adapters.testing.strategies import adversarial_drafts
from factledger.adapters.testing.tool_contract import EvidenceToolContract

__all__ = ["EvidenceToolContract", "adversarial_drafts"]
