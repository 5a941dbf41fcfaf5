"""The Alembic environment of the audit tables.

Online only, on the connection the caller shares through ``config.attributes["connection"]``
(``factledger.adapters.audit.migrate.upgrade``), or on ``sqlalchemy.url`` when run by the
``alembic`` command. Importing this module outside Alembic does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from factledger.adapters.audit.models import AuditBase


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=AuditBase.metadata,
        version_table="audit_schema_version",
    )
    with context.begin_transaction():
        context.run_migrations()


def run() -> None:
    """Apply the migrations Alembic asks for."""
    shared = context.config.attributes.get("connection")
    if isinstance(shared, Connection):
        _migrate(shared)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise RuntimeError("set sqlalchemy.url or share a connection")
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            _migrate(connection)
    finally:
        engine.dispose()


if getattr(context, "_proxy", None) is not None:
    run()
