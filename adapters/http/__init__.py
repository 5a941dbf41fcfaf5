"""The HTTP API (FastAPI): the facade's operations as JSON endpoints, status events as SSE.

    app = create_app(harness, ApiOptions(token=...))

Bearer-token authentication (none configured: loopback only), a request body limit, errors as
``application/problem+json`` with stable codes, views as metadata and digests. ``factledger
serve`` runs it with uvicorn. See docs/adr/0006-http-api.md.
"""

from factledger.adapters.http.app import ApiOptions, create_app
from factledger.adapters.http.server import ServeError, ServerPlan, plan_server, serve

__all__ = ["ApiOptions", "ServeError", "ServerPlan", "create_app", "plan_server", "serve"]
