"""Agent-framework integrations, one module each, installed with its extra.

``factledger.integrations.openai_agents`` (``pip install 'factledger[openai-agents]'``),
``factledger.integrations.pydantic_ai`` (``'factledger[pydantic-ai]'``) and
``factledger.integrations.langgraph`` (``'factledger[langgraph]'``). Importing this package
loads no framework; importing a module without its extra says which extra to install.
"""
