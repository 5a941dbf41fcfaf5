"""``query_metrics`` passes the contract suite every evidence tool passes."""

from __future__ import annotations

from factledger.application.tool_api.spec import ToolSpec
from factledger.testing import EvidenceToolContract
from tests.support.metrics import metrics_tool, request

POOL = 'card_gateway_acquirer_pool_saturation_ratio{service="card-gateway"}'


class TestMetricsToolContract(EvidenceToolContract):
    """The fixture backend serves the demo incident's series."""

    service = "card-gateway"
    found_inputs = (
        request(POOL),
        request('card_gateway_authorization_error_ratio{route="/v1/authorize"}', step=30),
        request(
            "card_gateway_request_duration_p99_seconds",
            start="2026-03-14T09:40:00Z",
            end="2026-03-14T09:40:00Z",
            step=None,
        ),
    )
    empty_inputs = (request('card_gateway_acquirer_pool_saturation_ratio{service="ledger"}'),)
    invalid_inputs = (
        request('count by (__name__) ({__name__=~".+"})'),
        request('{__name__=~".+"}'),
        request('card_gateway_authorization_error_ratio{route=~".*"}'),
        request("node_cpu_seconds_total"),
        request(POOL, start="2026-03-01T00:00:00Z", end="2026-03-14T10:00:00Z"),
        request(POOL, step=1),
        request(POOL, end="2026-03-14T08:00:00Z"),
    )

    def make_tool(self) -> ToolSpec:
        return metrics_tool()
