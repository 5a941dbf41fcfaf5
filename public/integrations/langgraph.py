"""``factledger.integrations.langgraph``: see ``factledger.adapters.integrations.langgraph``."""

from factledger.adapters.integrations.langgraph import *  # noqa: F403
from factledger.adapters.integrations.langgraph import __all__ as __all__
