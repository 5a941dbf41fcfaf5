"""The audit tables: runs, invocations, transitions, model usage and checkpoints.

Revision ID: r0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from factledger.adapters.audit.models import CODE, ID, UtcDateTime

revision = "r0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_runs",
        sa.Column("run_id", sa.String(ID), nullable=False),
        sa.Column("partition", sa.Integer(), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=True),
        sa.Column("ended_at", UtcDateTime(), nullable=True),
        sa.Column("state", sa.String(CODE), nullable=True),
        sa.Column("failure_code", sa.String(CODE), nullable=True),
        sa.Column("application_status", sa.String(CODE), nullable=True),
        sa.Column("stop_reason", sa.String(CODE), nullable=True),
        sa.Column("release_outcome", sa.String(CODE), nullable=True),
        sa.Column("fallback_type", sa.String(CODE), nullable=True),
        sa.Column("failure_stage", sa.String(CODE), nullable=True),
        sa.Column("release_failure_code", sa.String(CODE), nullable=True),
        sa.Column("released_at", UtcDateTime(), nullable=True),
        sa.Column("guard_passed", sa.Boolean(), nullable=True),
        sa.Column("repair_attempts", sa.Integer(), nullable=False),
        sa.Column("semantic_verdict", sa.String(CODE), nullable=True),
        sa.Column("semantic_attempts", sa.Integer(), nullable=False),
        sa.Column("tool_calls", sa.Integer(), nullable=False),
        sa.Column("invocations_ready", sa.Integer(), nullable=False),
        sa.Column("invocations_failed", sa.Integer(), nullable=False),
        sa.Column("protocol_violations", sa.Integer(), nullable=False),
        sa.Column("duplicate_scopes", sa.Integer(), nullable=False),
        sa.Column("rejected_observations", sa.Integer(), nullable=False),
        sa.Column("model_calls", sa.Integer(), nullable=False),
        sa.Column("prompt_tokens", sa.BigInteger(), nullable=False),
        sa.Column("completion_tokens", sa.BigInteger(), nullable=False),
        sa.Column("undecodable_events", sa.Integer(), nullable=False),
        sa.Column("last_sequence", sa.Integer(), nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("run_id", name="pk_audit_runs"),
    )
    op.create_index("ix_audit_runs_started_at", "audit_runs", ["started_at"])
    op.create_table(
        "audit_invocations",
        sa.Column("run_id", sa.String(ID), nullable=False),
        sa.Column("tool_call_id", sa.String(ID), nullable=False),
        sa.Column("tool_name", sa.String(ID), nullable=False),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(CODE), nullable=False),
        sa.Column("evidence_status", sa.String(CODE), nullable=True),
        sa.Column("error_code", sa.String(CODE), nullable=True),
        sa.Column("error_reason", sa.String(CODE), nullable=True),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("completed_at", UtcDateTime(), nullable=True),
        sa.Column("latency_us", sa.BigInteger(), nullable=True),
        sa.Column("request_bytes", sa.BigInteger(), nullable=False),
        sa.Column("raw_bytes", sa.BigInteger(), nullable=True),
        sa.Column("projection_bytes", sa.BigInteger(), nullable=True),
        sa.Column("truncated", sa.Boolean(), nullable=True),
        sa.Column("last_sequence", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", "tool_call_id", name="pk_audit_invocations"),
    )
    op.create_table(
        "audit_transitions",
        sa.Column("run_id", sa.String(ID), nullable=False),
        sa.Column("layer", sa.String(32), nullable=False),
        sa.Column("to_state", sa.String(CODE), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("from_state", sa.String(CODE), nullable=True),
        sa.Column("at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", "layer", "to_state", name="pk_audit_transitions"),
    )
    op.create_table(
        "audit_model_usage",
        sa.Column("run_id", sa.String(ID), nullable=False),
        sa.Column("purpose", sa.String(32), nullable=False),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("prompt_tokens", sa.BigInteger(), nullable=False),
        sa.Column("completion_tokens", sa.BigInteger(), nullable=False),
        sa.Column("last_sequence", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", "purpose", name="pk_audit_model_usage"),
    )
    op.create_table(
        "audit_checkpoints",
        sa.Column("projection", sa.String(32), nullable=False),
        sa.Column("partition", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("position", sa.String(64), nullable=True),
        sa.Column("rebuilding", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("projection", "partition", name="pk_audit_checkpoints"),
    )


def downgrade() -> None:
    op.drop_table("audit_checkpoints")
    op.drop_table("audit_model_usage")
    op.drop_table("audit_transitions")
    op.drop_table("audit_invocations")
    op.drop_index("ix_audit_runs_started_at", table_name="audit_runs")
    op.drop_table("audit_runs")
