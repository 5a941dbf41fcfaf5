"""One settings object from ``factledger.toml`` and ``FACTLEDGER_<SECTION>__<KEY>`` variables.

The file is found by ``--config FILE``, else ``$FACTLEDGER_CONFIG``, else ``./factledger.toml``,
else the embedded defaults are used. Environment variables override the file. A value given
in the environment is read as JSON when it parses as JSON (numbers, booleans, lists), else
as a string. An unknown key or a bad value stops start-up with a ``SettingsError`` that
names the key.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError

from factledger.adapters.config.sections import (
    AuditSettings,
    BudgetSettings,
    HttpSettings,
    JudgeSettings,
    KnowledgeSettings,
    LogsSettings,
    ModelSettings,
    ProgressSettings,
    ReleaseSettings,
    RetentionSettings,
    StoreSettings,
    VaultSettings,
    WorkerSettings,
)
from factledger.adapters.config.sql import SqlSettings

__all__ = ["ENV_PREFIX", "Settings", "SettingsError", "find_config_file", "load_settings"]

ENV_PREFIX = "FACTLEDGER_"
_NOT_SETTINGS = frozenset({"FACTLEDGER_CONFIG"})


class SettingsError(ValueError):
    """A settings file or variable that cannot be used; the message names the key."""


class Settings(BaseModel):
    """Every section of ``factledger.toml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    store: StoreSettings = Field(default_factory=StoreSettings)
    vault: VaultSettings = Field(default_factory=VaultSettings)
    retention: RetentionSettings = Field(default_factory=RetentionSettings)
    audit: AuditSettings = Field(default_factory=AuditSettings)
    knowledge: KnowledgeSettings = Field(default_factory=KnowledgeSettings)
    logs: LogsSettings = Field(default_factory=LogsSettings)
    budget: BudgetSettings = Field(default_factory=BudgetSettings)
    progress: ProgressSettings = Field(default_factory=ProgressSettings)
    model: ModelSettings = Field(default_factory=ModelSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    release: ReleaseSettings = Field(default_factory=ReleaseSettings)
    sql: SqlSettings = Field(default_factory=SqlSettings)
    http: HttpSettings = Field(default_factory=HttpSettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    tools: dict[str, dict[str, JsonValue]] = Field(default_factory=dict)
    """``[tools.<section>]``: the sections of evidence tools of one's own, each checked against
    its tool provider's settings model when the harness is built."""


def find_config_file(
    explicit: str | os.PathLike[str] | None, environ: Mapping[str, str], cwd: Path
) -> Path | None:
    """The settings file to read, following the lookup order."""
    if explicit is not None:
        return Path(explicit)
    from_env = environ.get("FACTLEDGER_CONFIG")
    if from_env:
        return Path(from_env)
    local = cwd / "factledger.toml"
    return local if local.is_file() else None


def _env_value(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _from_environment(environ: Mapping[str, str]) -> dict[str, dict[str, object]]:
    sections: dict[str, dict[str, object]] = {}
    for name, value in environ.items():
        if not name.startswith(ENV_PREFIX) or name in _NOT_SETTINGS:
            continue
        if name.startswith(ENV_PREFIX + "TEST_"):
            continue  # the test suite's own service locations
        rest = name[len(ENV_PREFIX) :]
        section, separator, key = rest.partition("__")
        if not separator or not section or not key:
            raise SettingsError(f"{name}: expected FACTLEDGER_<SECTION>__<KEY>")
        if section.lower() == "tools":
            _tool_variable(sections, name, key, value)
            continue
        sections.setdefault(section.lower(), {})[key.lower()] = _env_value(value)
    return sections


def _tool_variable(
    sections: dict[str, dict[str, object]], name: str, rest: str, value: str
) -> None:
    """``FACTLEDGER_TOOLS__<SECTION>__<KEY>``: one key of a tool's own section."""
    tool, separator, key = rest.partition("__")
    if not separator or not tool or not key:
        raise SettingsError(f"{name}: expected FACTLEDGER_TOOLS__<SECTION>__<KEY>")
    tools = sections.setdefault("tools", {})
    section = tools.setdefault(tool.lower(), {})
    assert isinstance(section, dict)
    section[key.lower()] = _env_value(value)


def _merge(base: dict[str, object], override: dict[str, dict[str, object]]) -> dict[str, object]:
    merged = dict(base)
    for section, values in override.items():
        current = merged.get(section)
        if section == "tools" and isinstance(current, dict):
            tools = dict(current)
            for tool, keys in values.items():
                known = tools.get(tool)
                given = keys if isinstance(keys, dict) else {}
                tools[tool] = {**known, **given} if isinstance(known, dict) else dict(given)
            merged[section] = tools
        elif isinstance(current, dict):
            merged[section] = {**current, **values}
        else:
            merged[section] = dict(values)
    return merged


def _describe(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        key = ".".join(str(part) for part in item["loc"])
        lines.append(f"{key}: {item['msg']}")
    return "; ".join(lines)


def load_settings(
    config: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Settings from the file the lookup order finds, overridden by the environment."""
    env = os.environ if environ is None else environ
    path = find_config_file(config, env, cwd or Path.cwd())
    data: dict[str, object] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as missing:
            raise SettingsError(f"settings file {str(path)!r} does not exist") from missing
        except tomllib.TOMLDecodeError as bad:
            raise SettingsError(f"settings file {str(path)!r} is not valid TOML: {bad}") from bad
    try:
        return Settings.model_validate(_merge(data, _from_environment(env)))
    except ValidationError as invalid:
        raise SettingsError(_describe(invalid)) from invalid
