"""Alembic revisions of the audit tables (Alembic skips this file)."""
