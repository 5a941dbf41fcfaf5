"""Registering the evidence tools of one's own: given to ``build_harness``, or installed.

``build_harness(settings, tools=[...])`` takes tools (``EvidenceTool`` instances) and tool
providers (built from their ``[tools.<section>]``). Without ``tools`` the providers installed
under the ``factledger.tools`` entry point group are used, so the command line
(``factledger serve``, ``factledger mcp``...) serves a team's installed tools too. Every
``[tools.<section>]`` needs a provider: a section nobody reads stops start-up, naming it, as
any unknown key does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.metadata import entry_points

from pydantic import JsonValue, ValidationError

from factledger.adapters.config.settings import Settings, SettingsError
from factledger.application.tool_api.provider import ToolSource
from factledger.application.tool_api.spec import ToolSpec
from factledger.application.tools.registry import ToolRegistry

__all__ = ["TOOLS_ENTRY_POINTS", "OwnTool", "installed_tools", "own_tools", "register_own_tools"]

TOOLS_ENTRY_POINTS = "factledger.tools"
"""The entry point group a package names its tool providers (or tools) in."""

OwnTool = ToolSpec | ToolSource
"""A tool, or a provider that builds one from its settings section."""


def installed_tools() -> tuple[OwnTool, ...]:
    """The tool providers and tools installed packages declare (each entry point names a
    provider class, a provider, a tool class or a tool)."""
    found: list[OwnTool] = []
    for entry in entry_points(group=TOOLS_ENTRY_POINTS):
        loaded = entry.load()
        item = loaded() if isinstance(loaded, type) else loaded
        if not isinstance(item, ToolSpec | ToolSource):
            raise SettingsError(
                f"entry point {entry.name!r} in {TOOLS_ENTRY_POINTS!r} is not a tool or provider"
            )
        found.append(item)
    return tuple(found)


def register_own_tools(
    settings: Settings,
    registry: ToolRegistry,
    closers: list[Callable[[], None]],
    tools: Iterable[OwnTool],
) -> None:
    """Register the given tools, and the tools their providers build from their sections."""
    given = list(tools)
    sections: Mapping[str, dict[str, JsonValue]] = settings.tools
    read = {item.section for item in given if isinstance(item, ToolSource)}
    unread = sorted(set(sections) - read)
    if unread:
        raise SettingsError(
            f"tools.{unread[0]}: no evidence tool provider reads this section "
            "(give it to build_harness or install the package that provides it)"
        )
    for item in given:
        spec = item if isinstance(item, ToolSpec) else _configured(item, sections)
        if spec is None:
            continue
        registry.register(spec)
        closers.append(spec.close)


def _configured(
    source: ToolSource, sections: Mapping[str, dict[str, JsonValue]]
) -> ToolSpec | None:
    section = sections.get(source.section)
    if section is None:
        return None  # not configured: the tool is absent, as a built-in without its backend
    try:
        return source.configure(section)
    except ValidationError as invalid:
        raise SettingsError(_describe(source.section, invalid)) from invalid


def _describe(section: str, invalid: ValidationError) -> str:
    lines = []
    for item in invalid.errors():
        key = ".".join(str(part) for part in item["loc"])
        lines.append(f"tools.{section}.{key}: {item['msg']}")
    return "; ".join(lines)


def own_tools(tools: Sequence[OwnTool] | None) -> tuple[OwnTool, ...]:
    """The tools given, or the installed ones when none are given."""
    return installed_tools() if tools is None else tuple(tools)
