"""The logs tool's pure logic: the raw format, redaction, stack folding, template mining,
budgeted selection and the projector that turns a backend's raw result into the bounded
observation the model sees.

Entry points: ``project_logs`` (raw + query → ``ProjectedToolResult``),
``recompute_evidence_status`` (the dual-source check), ``MODEL_VISIBLE_KEYS`` /
``CONTROL_ONLY_KEYS`` (how the views split an agent_result), ``LogQuery`` (a validated
request), ``encode_raw`` / ``RawHeader`` (what a backend returns) and ``mine_templates``.
"""

from factledger.domain.logs.agent_result import (
    CONTROL_ONLY_KEYS,
    MODEL_VISIBLE_KEYS,
    TruncationReason,
    recompute_evidence_status,
)
from factledger.domain.logs.mining import mine_templates
from factledger.domain.logs.projector import (
    DEFAULT_BUDGET_BYTES,
    LogProjectionSettings,
    project_logs,
)
from factledger.domain.logs.query import DEFAULT_LIMIT, MAX_LIMIT, LogQuery, LogQueryError
from factledger.domain.logs.raw_format import RAW_FORMAT, RawHeader, RawLogRecord, encode_raw

__all__ = [
    "project_logs",
    "LogProjectionSettings",
    "DEFAULT_BUDGET_BYTES",
    "recompute_evidence_status",
    "MODEL_VISIBLE_KEYS",
    "CONTROL_ONLY_KEYS",
    "TruncationReason",
    "LogQuery",
    "LogQueryError",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "RAW_FORMAT",
    "RawHeader",
    "RawLogRecord",
    "encode_raw",
    "mine_templates",
]
