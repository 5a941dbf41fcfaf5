"""Alembic migrations of the audit tables, applied by ``factledger.adapters.audit.migrate``."""
