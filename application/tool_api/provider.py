"""How a tool of one's own is registered: directly, or built from its settings section.

A ``ToolProvider`` names its section (``[tools.<section>]`` in ``factledger.toml``, or the
variables ``FACTLEDGER_TOOLS__<SECTION>__<KEY>``), gives the pydantic model of that section,
and builds the tool from the validated settings — or returns None when the section does not
configure it, so the tool is absent, as a built-in tool without its backend is. A package can
make its provider known to the command line through the ``factledger.tools`` entry point
group. A name a tool may be registered under is refused when it is malformed, taken, or could
pass for another evidence tool's name.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from enum import StrEnum
from typing import ClassVar, Final, Generic, TypeVar, cast

from pydantic import BaseModel, ConfigDict, JsonValue

from factledger.application.tool_api.spec import ToolSpec
from factledger.application.tools.confusables import is_confusable

__all__ = [
    "BUILT_IN_TOOL_NAMES",
    "ToolProvider",
    "ToolRegistrationError",
    "ToolRegistrationFailure",
    "ToolSettings",
    "ToolSource",
    "check_tool_name",
]

S = TypeVar("S", bound=BaseModel)

BUILT_IN_TOOL_NAMES: Final = ("lookup_knowledge", "query_logs", "query_sql")
"""The built-in evidence tools' names: never passed through to a host, registered or not."""

_NAME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


class ToolRegistrationFailure(StrEnum):
    """Why a tool could not be registered."""

    INVALID_NAME = "INVALID_NAME"
    """Not 1–64 letters, digits and ``_``, starting with a letter."""
    DUPLICATE_NAME = "DUPLICATE_NAME"
    """Another registered tool has this name."""
    CONFUSABLE_NAME = "CONFUSABLE_NAME"
    """The name could pass for another evidence tool's (look-alike letters, one edit away)."""
    INVALID_DECLARATION = "INVALID_DECLARATION"
    """The tool's declarations are incomplete (no description, no input model...)."""


class ToolRegistrationError(ValueError):
    """A tool that cannot be registered; ``failure`` says why."""

    def __init__(self, failure: ToolRegistrationFailure, message: str) -> None:
        super().__init__(f"{failure.value}: {message}")
        self.failure = failure
        """Why (stable)."""


class ToolSettings(BaseModel):
    """A base for a tool's settings section: unknown keys are refused, by name."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolSource(ABC):
    """Anything that configures an evidence tool from one settings section."""

    section: ClassVar[str]
    """The section's name: ``[tools.<section>]``."""

    @abstractmethod
    def configure(self, section: Mapping[str, JsonValue]) -> ToolSpec | None:
        """The tool the section configures, or None (``ValidationError`` for a bad section)."""


class ToolProvider(ToolSource, Generic[S]):
    """Builds one evidence tool from its settings section (see the module docstring)."""

    settings_model: ClassVar[type[BaseModel]]
    """The pydantic model of the section (``ToolSettings`` refuses unknown keys)."""

    @abstractmethod
    def build(self, settings: S) -> ToolSpec | None:
        """The tool the settings configure, or None when they configure none."""

    def configure(self, section: Mapping[str, JsonValue]) -> ToolSpec | None:
        """Validate the section against ``settings_model``, then ``build``."""
        settings = cast("S", self.settings_model.model_validate(dict(section)))
        return self.build(settings)


def check_tool_name(name: str, registered: tuple[str, ...]) -> None:
    """Refuse a name that is malformed, taken, or confusable with an evidence tool's."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ToolRegistrationError(
            ToolRegistrationFailure.INVALID_NAME,
            f"{name!r}: a tool name is 1-64 letters, digits and '_', starting with a letter",
        )
    if name in registered:
        raise ToolRegistrationError(
            ToolRegistrationFailure.DUPLICATE_NAME, f"tool {name!r} is already registered"
        )
    others = tuple(dict.fromkeys((*BUILT_IN_TOOL_NAMES, *registered)))
    if is_confusable(name, others):
        raise ToolRegistrationError(
            ToolRegistrationFailure.CONFUSABLE_NAME,
            f"{name!r} could pass for another evidence tool's name",
        )
