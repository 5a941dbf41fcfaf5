"""Audit rows in SQL (SQLAlchemy 2.0; SQLite embedded, MySQL/MariaDB in production), their
Alembic migrations, and the leases projector workers split partition logs with."""
