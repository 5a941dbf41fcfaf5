"""The installed distribution's version, as every transport reports it (the CLI's
``--version``, the HTTP API's OpenAPI document, the MCP server's implementation info)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["installed_version"]

_UNKNOWN = "0+unknown"


def installed_version() -> str:
    """The version of the installed ``factledger`` distribution (``0+unknown`` when the code
    runs from a source tree that was never installed)."""
    try:
        return version("factledger")
    except PackageNotFoundError:  # pragma: no cover - only when run from a source tree
        return _UNKNOWN
