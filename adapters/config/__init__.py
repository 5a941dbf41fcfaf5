"""Settings: one factledger.toml, every key also an environment variable."""
