"""Audit against real MariaDB and Redis, and the planted-secrets run."""
