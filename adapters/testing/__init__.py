"""A testing kit for teams that embed factledger: hypothesis strategies for tool results,
event sequences and adversarial drafts, and a harness fixture over the embedded defaults.

Needs ``hypothesis`` (``pip install 'factledger[testing]'``). The transcript model that
replays recorded agent turns is ``factledger.adapters.models.transcript``.
"""
