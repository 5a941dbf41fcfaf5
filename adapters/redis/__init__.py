"""Redis adapters: per-run streams, partition logs and the payload vault."""
