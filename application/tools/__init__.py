"""Evidence tools: their specs, the registry and the invokers."""
