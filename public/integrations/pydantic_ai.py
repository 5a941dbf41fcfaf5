"""``factledger.integrations.pydantic_ai``: see ``factledger.adapters.integrations.pydantic_ai``."""

from factledger.adapters.integrations.pydantic_ai import *  # noqa: F403
from factledger.adapters.integrations.pydantic_ai import __all__ as __all__
