"""Regenerate the demo incident's metrics (deterministic; the output is committed).

    python scripts/make_demo_metrics.py

Writes ``adapters/demo/metrics.json``, the series the demo's fixture backend serves: from
09:40 on 2026-03-14 card-gateway's acquirer pool is saturated (ratio 1) and its authorisation
error ratio jumps from about 0.01 to about 0.64; its p99 latency rises above 2 s from 09:41.
checkout's error ratio stays flat. Samples every 15 s from 08:30 to 10:30.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "adapters" / "demo" / "metrics.json"
FIRST = datetime(2026, 3, 14, 8, 30, tzinfo=UTC)
LAST = datetime(2026, 3, 14, 10, 30, tzinfo=UTC)
POOL_FULL = datetime(2026, 3, 14, 9, 40, tzinfo=UTC)
SLOW = datetime(2026, 3, 14, 9, 41, tzinfo=UTC)
STEP = 15


def _wiggle(index: int, size: float) -> float:
    return ((index * 7) % 6) * size


def _series(labels: dict[str, str], value: Callable[[int, datetime], float]) -> dict[str, object]:
    samples = []
    moment, index = FIRST, 0
    while moment <= LAST:
        samples.append([int(moment.timestamp()), round(value(index, moment), 4)])
        moment += timedelta(seconds=STEP)
        index += 1
    return {"labels": labels, "samples": samples}


def main() -> None:
    gateway = {"service": "card-gateway"}
    pods = ("card-gateway-7d9f8c-x2k4q", "card-gateway-7d9f8c-m8p3z")
    series = []
    for number, pod in enumerate(pods):
        series.append(
            _series(
                {
                    "__name__": "card_gateway_acquirer_pool_saturation_ratio",
                    **gateway,
                    "pool": "acquirer",
                    "pod": pod,
                },
                lambda i, t, n=number: (
                    1.0 if t >= POOL_FULL else 0.38 + 0.02 * n + _wiggle(i, 0.01)
                ),
            )
        )
    series.append(
        _series(
            {
                "__name__": "card_gateway_authorization_error_ratio",
                **gateway,
                "route": "/v1/authorize",
            },
            lambda i, t: (0.62 if t >= POOL_FULL else 0.01) + _wiggle(i, 0.004),
        )
    )
    series.append(
        _series(
            {
                "__name__": "card_gateway_request_duration_p99_seconds",
                **gateway,
                "route": "/v1/authorize",
            },
            lambda i, t: (2.4 if t >= SLOW else 0.28) + _wiggle(i, 0.02),
        )
    )
    series.append(
        _series(
            {"__name__": "checkout_http_error_ratio", "service": "checkout", "route": "/checkout"},
            lambda i, _t: 0.01 + _wiggle(i, 0.001),
        )
    )
    units = {
        "card_gateway_acquirer_pool_saturation_ratio": "ratio",
        "card_gateway_authorization_error_ratio": "ratio",
        "card_gateway_request_duration_p99_seconds": "seconds",
        "checkout_http_error_ratio": "ratio",
    }
    document = {"units": units, "series": series}
    TARGET.write_text(json.dumps(document, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
