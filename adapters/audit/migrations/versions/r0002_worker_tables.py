"""The worker tables: partition leases, lease heartbeats and worker health records.

Revision ID: r0002
Revises: r0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from factledger.adapters.audit.models import CODE, ID, UtcDateTime

revision = "r0002"
down_revision = "r0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_leases",
        sa.Column("lease", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("owner", sa.String(ID), nullable=False),
        sa.Column("expires_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("lease", name="pk_audit_leases"),
    )
    op.create_table(
        "audit_lease_workers",
        sa.Column("owner", sa.String(ID), nullable=False),
        sa.Column("alive_until", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("owner", name="pk_audit_lease_workers"),
    )
    op.create_table(
        "audit_worker_health",
        sa.Column("owner", sa.String(ID), nullable=False),
        sa.Column("state", sa.String(CODE), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("beat_at", UtcDateTime(), nullable=False),
        sa.Column("partitions", sa.Text(), nullable=False),
        sa.Column("maintenance", sa.Boolean(), nullable=False),
        sa.Column("projected_events", sa.BigInteger(), nullable=False),
        sa.Column("caught_up_at", UtcDateTime(), nullable=True),
        sa.Column("purged_at", UtcDateTime(), nullable=True),
        sa.Column("purged_bodies", sa.BigInteger(), nullable=False),
        sa.Column("swept_at", UtcDateTime(), nullable=True),
        sa.Column("failure", sa.String(CODE), nullable=True),
        sa.PrimaryKeyConstraint("owner", name="pk_audit_worker_health"),
    )
    op.create_index("ix_audit_worker_health_beat_at", "audit_worker_health", ["beat_at"])


def downgrade() -> None:
    op.drop_index("ix_audit_worker_health_beat_at", table_name="audit_worker_health")
    op.drop_table("audit_worker_health")
    op.drop_table("audit_lease_workers")
    op.drop_table("audit_leases")
