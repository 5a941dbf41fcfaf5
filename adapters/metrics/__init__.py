"""``query_metrics``: a PromQL evidence tool over Prometheus, built on the public tool API."""
