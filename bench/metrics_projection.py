"""One ``query_metrics`` projection: 24 h at 15 s resolution for 50 series.

    .venv/bin/python bench/metrics_projection.py [--series 50] [--hours 24] [--step 15]
        [--rounds 15]

The raw answer (the metrics port's shape, as the Prometheus backend hands it over) is made
once: 50 series of 5,761 points each, flat, noisy, with a level shift, with a one-point
spike, with gaps. What is timed is everything after the backend answered: the tool's
projection (parse, top-k by change, downsampling, units, redaction) and the canonical JSON of
its result. Reports the median of the rounds, the same run's median of ``json.loads`` of the
same values as plain JSON numbers (a reference: what merely reading them would cost in the
usual form), their ratio, and the size of the result against the call projection budget.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from factledger.adapters.config.sections import BudgetSettings
from factledger.adapters.metrics.fixture_backend import FixtureMetricsBackend
from factledger.adapters.metrics.settings import MetricsSettings
from factledger.adapters.metrics.tool import MetricsInput, MetricsTool
from factledger.adapters.metrics.values import encode_values
from factledger.domain.codec import canonical_json

START = datetime(2026, 3, 13, 10, tzinfo=UTC)
LIMIT_MS = 50.0


def _values(index: int, count: int) -> list[float | None]:
    shape = index % 5
    values: list[float | None] = []
    for i in range(count):
        noise = math.sin(i * 0.37 + index) * 0.02
        level = 0.2 + 0.01 * index
        if shape == 1 and i > count * 0.8:
            level *= 3
        values.append(level + noise)
    if shape == 2:
        values[count // 3] = 9.0
    if shape == 3:
        for i in range(count // 2, count // 2 + 200):
            values[i] = None
    return values


def _raw(series: int, count: int, step: int) -> str:
    items = [
        {
            "labels": {
                "__name__": "card_gateway_request_duration_seconds",
                "service": "card-gateway",
                "pod": f"card-gateway-{index:03d}",
                "route": f"/v1/route-{index % 7}",
            },
            "start": START.timestamp(),
            "step": step,
            "values": encode_values(_values(index, count)),
        }
        for index in range(series)
    ]
    return json.dumps({"result_type": "matrix", "series": items, "units": {}})


class _Unused(FixtureMetricsBackend):
    def __init__(self) -> None:
        return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--series", type=int, default=50)
    parser.add_argument("--hours", type=int, default=24)
    parser.add_argument("--step", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    count = args.hours * 3600 // args.step + 1
    raw = _raw(args.series, count, args.step)
    plain = json.dumps([_values(index, count) for index in range(args.series)])
    settings = MetricsSettings(backend="fixture", fixture="unused", metrics=["card_gateway_*"])
    tool = MetricsTool(_Unused(), settings)
    request = MetricsInput(
        query='card_gateway_request_duration_seconds{service="card-gateway"}',
        start=START,
        end=START + timedelta(hours=args.hours),
        step=args.step,
    )
    assert tool.refuse(request) is None
    projections, parses = [], []
    body = b""
    for _ in range(args.rounds):
        began = time.perf_counter()
        result = tool.project(request, raw).unwrap()
        body = canonical_json(result.agent_result)
        projections.append((time.perf_counter() - began) * 1e3)
        began = time.perf_counter()
        json.loads(plain)
        parses.append((time.perf_counter() - began) * 1e3)
    projected, parsed = statistics.median(projections), statistics.median(parses)
    budget = BudgetSettings().call_projection_bytes
    print(
        f"query_metrics projection, {args.series} series x {count} points "
        f"({args.hours} h at {args.step} s; raw {len(raw) / 1e6:.1f} MB): "
        f"median {projected:.1f} ms over {args.rounds} rounds (limit {LIMIT_MS:.0f} ms); "
        f"json.loads of the values as JSON numbers {parsed:.1f} ms "
        f"(ratio {projected / parsed:.2f}); "
        f"result {len(body)} bytes of the {budget} byte call projection budget "
        f"({'within' if len(body) <= budget else 'OVER'})"
    )


if __name__ == "__main__":
    main()
