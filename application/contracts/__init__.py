"""Typed tool contracts at the edge: strict pydantic envelopes and their exported schemas."""
