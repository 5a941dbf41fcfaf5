"""What a store failure means to a caller: an outage, a corrupted log, or a diverged store.

The repository reports ``StoreFailed`` with its reason; a release result says it with a
``FailureCode`` and a tool observation with ``STORE_ERROR`` plus a ``StoreErrorReason``. The
classification is here once, so both always agree.
"""

from __future__ import annotations

from typing import assert_never

from factledger.application.run_repository import StoreFailed
from factledger.domain.error_codes import StoreErrorReason
from factledger.domain.status import FailureCode

__all__ = ["failure_code_of", "store_error_reason"]


def store_error_reason(failed: StoreFailed) -> StoreErrorReason:
    """Outage (unreachable, unknown outcome, endless contention), corruption, or divergence."""
    match failed.reason:
        case "UNAVAILABLE" | "UNKNOWN_OUTCOME" | "TOO_MUCH_CONTENTION":
            return StoreErrorReason.STORE_UNAVAILABLE
        case "CORRUPT_STREAM":
            return StoreErrorReason.LOG_CORRUPTED
        case "DIVERGED":
            return StoreErrorReason.STORE_DIVERGED
        case _:
            assert_never(failed.reason)


def failure_code_of(failed: StoreFailed) -> FailureCode:
    """The release's failure code for a store failure."""
    return FailureCode(store_error_reason(failed).value)
