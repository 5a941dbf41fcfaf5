"""Semantic judges and draft repairers."""
