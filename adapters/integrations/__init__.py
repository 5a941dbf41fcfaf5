"""Agent-framework integrations over the public facade (``factledger.integrations.*``).

Each module is a small adapter for one framework, installed with its extra
(``factledger[openai-agents]``, ``factledger[pydantic-ai]``, ``factledger[langgraph]``); this
package imports none of them. What the three share is in ``run_binding``.
"""
