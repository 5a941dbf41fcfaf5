"""The tool registry: model-visible definitions and invokers, two tables joined by name.

A definition is what a model sees (exported as an OpenAI or MCP tool); calling it directly
raises, so the interceptor is the only way to run an evidence tool. An invoker binds its own
tool name and builds the boundary envelope itself (authorized, read-only as registered), so a
caller cannot smuggle another tool's name in. A tool whose backend is not configured is simply
never registered: it is absent from both tables.
"""

from __future__ import annotations

from typing import Literal

from attrs import frozen

from factledger.application.contracts.schemas import mcp_tool, openai_tool
from factledger.application.tool_api.provider import (
    ToolRegistrationError,
    ToolRegistrationFailure,
    check_tool_name,
)
from factledger.application.tool_api.spec import PreparedCall, ToolSpec
from factledger.application.tool_boundary import ToolBoundary
from factledger.application.tool_call import (
    CallHooks,
    RunContext,
    ToolBoundaryResult,
    ToolCallRequestEnvelope,
)
from factledger.domain.json_types import JsonObject
from factledger.domain.run_events import ToolGrant

__all__ = ["DirectToolCallError", "ToolDefinition", "ToolFormat", "ToolInvoker", "ToolRegistry"]

ToolFormat = Literal["openai", "mcp"]
"""The formats tool definitions are exported in: OpenAI strict-mode function tools, or MCP
tools (the one definition every transport uses)."""


class DirectToolCallError(RuntimeError):
    """An evidence tool's definition was called directly instead of through the interceptor."""


@frozen
class ToolDefinition:
    """What the model sees of a tool."""

    name: str
    """The tool name."""
    openai: JsonObject
    """The OpenAI function-tool definition (strict mode)."""
    mcp: JsonObject
    """The MCP tool definition."""

    def __call__(self, *_args: object, **_kwargs: object) -> object:
        """Always raises: evidence tools run only through the interceptor and the boundary."""
        raise DirectToolCallError(
            f"{self.name!r} is an evidence tool: call it through the Harness (interceptor), "
            "never directly"
        )


@frozen
class ToolInvoker:
    """Runs one tool through the boundary under its own name."""

    spec: ToolSpec
    """The tool."""
    boundary: ToolBoundary
    """The one gate."""

    def invoke(
        self, context: RunContext, tool_call_id: str, prepared: PreparedCall, hooks: CallHooks
    ) -> ToolBoundaryResult:
        envelope = ToolCallRequestEnvelope(
            run_id=context.run_id,
            tool_call_id=tool_call_id,
            tool_name=self.spec.name,
            arguments_json=prepared.arguments_json,
            authorized=True,
            read_only=self.spec.read_only,
            arguments_digest=prepared.arguments_digest,
            scope_identity=prepared.scope_identity,
        )
        return self.boundary.invoke(
            context,
            envelope,
            prepared.executor,
            prepared.projector,
            isolated=self.spec.blocking and not self.spec.self_bounded,
            hooks=hooks,
        )


class ToolRegistry:
    """Definitions and invokers of the configured evidence tools."""

    def __init__(self, boundary: ToolBoundary) -> None:
        self._boundary = boundary
        self._definitions: dict[str, ToolDefinition] = {}
        self._invokers: dict[str, ToolInvoker] = {}
        self._specs: dict[str, ToolSpec] = {}

    def register(self, spec: ToolSpec) -> None:
        """Add a configured tool (once); ``ToolRegistrationError`` says why one cannot be."""
        check_tool_name(getattr(spec, "name", None), self.names)  # type: ignore[arg-type]  # checked
        if not isinstance(getattr(spec, "description", None), str) or not spec.description:
            raise ToolRegistrationError(
                ToolRegistrationFailure.INVALID_DECLARATION, f"{spec.name!r} has no description"
            )
        model = spec.envelope_model()
        self._definitions[spec.name] = ToolDefinition(
            name=spec.name,
            openai=openai_tool(spec.name, spec.description, model),
            mcp=mcp_tool(spec.name, spec.description, model),
        )
        self._invokers[spec.name] = ToolInvoker(spec, self._boundary)
        self._specs[spec.name] = spec

    @property
    def grants(self) -> tuple[ToolGrant, ...]:
        """Every registered tool as granted to a new run (name and read-only declaration)."""
        return tuple(ToolGrant(name, spec.read_only) for name, spec in self._specs.items())

    @property
    def names(self) -> tuple[str, ...]:
        """Registered tool names, in registration order."""
        return tuple(self._specs)

    def spec(self, name: str) -> ToolSpec | None:
        """The tool with exactly this name, if registered."""
        return self._specs.get(name)

    def invoker(self, name: str) -> ToolInvoker | None:
        """The invoker of the tool with exactly this name, if registered."""
        return self._invokers.get(name)

    def definition(self, name: str) -> ToolDefinition | None:
        """The model-visible definition, if registered."""
        return self._definitions.get(name)

    def definitions(self, fmt: ToolFormat = "openai") -> list[JsonObject]:
        """Every definition in the given format."""
        if fmt == "openai":
            return [definition.openai for definition in self._definitions.values()]
        return [definition.mcp for definition in self._definitions.values()]
