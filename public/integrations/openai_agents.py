"""``factledger.integrations.openai_agents``: see ``factledger.adapters.integrations.openai_agents``."""

from factledger.adapters.integrations.openai_agents import *  # noqa: F403
from factledger.adapters.integrations.openai_agents import __all__ as __all__
