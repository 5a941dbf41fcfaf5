"""Audit rows, projections, retention and logs (no services needed)."""
