"""The evidence-tool API: what every tool is, built-in or a team's own (``factledger.tools``)."""
