"""The ``[sql]`` settings section: datasources and their exact allowlists.

```toml
[[sql.datasources]]
name = "payments"
url = "mysql+pymysql://factledger_ro@127.0.0.1:3306/payments"
max_estimated_rows = 1000000   # the cost gate: refuse a plan the engine expects to be bigger
time_zone = "+00:00"           # the session time zone; NOW() is bound as a literal in it
[sql.datasources.tables.orders]
columns = ["id", "status", "amount", "created_at", "user_id"]
[sql.datasources.tables.users]
columns = ["id", "name", "email", "password_hash", "api_token"]
sensitive = ["password_hash", "api_token"]
```

A PostgreSQL datasource names ``postgresql+psycopg://user@host:5432/database`` and may set
``schema`` (default ``public``), the only schema its queries read. No datasource configured
means the SQL tool is not registered at all. An unknown key or a bad
value is refused with a message that names the key (never the value: a URL may hold a
password).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from returns.result import Failure, Result, Success

__all__ = [
    "SqlDatasourceSettings",
    "SqlSettings",
    "SqlTableSettings",
    "datasource_dialect",
    "describe_errors",
    "load_sql_settings",
]

_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
Dialect = Literal["mysql", "sqlite", "postgres"]
_URL_SCHEMES: dict[str, Dialect] = {
    "mysql+pymysql://": "mysql",
    "postgresql+psycopg://": "postgres",
    "sqlite:///": "sqlite",
}
_OFFSET = re.compile(r"[+-](?:0\d|1[0-4]):[0-5]\d")
DEFAULT_MAX_ESTIMATED_ROWS = 1_000_000
"""Rows the engine may expect to examine before a query is refused (COST_TOO_HIGH)."""

Identifier = Annotated[str, Field(min_length=1, max_length=64)]


def _matching(pattern: re.Pattern[str], value: str, message: str) -> str:
    """``value`` when the whole of it matches ``pattern``; else a ValueError with ``message``."""
    if pattern.fullmatch(value) is None:
        raise ValueError(message)
    return value


def _check_identifier(value: str, what: str) -> str:
    return _matching(
        _IDENTIFIER, value, f"{what} {value!r} must be an ASCII name ([A-Za-z_][A-Za-z0-9_]*)"
    )


def _distinct_identifiers(names: Iterable[str], what: str) -> None:
    """Each name an ASCII identifier, none listed twice (SQL names ignore case)."""
    seen: set[str] = set()
    for name in names:
        _check_identifier(name, what)
        if name.lower() in seen:
            raise ValueError(f"{what} {name!r} is listed twice")
        seen.add(name.lower())


class SqlTableSettings(BaseModel):
    """One allowlisted table: ``[sql.datasources.tables.<table>]``."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    columns: list[Identifier] = Field(min_length=1)
    """Every column a query may name, as the database spells them."""
    sensitive: list[Identifier] = Field(default_factory=list)
    """Columns (a subset of ``columns``) whose values always come back redacted."""

    @field_validator("columns", "sensitive")
    @classmethod
    def _names(cls, value: list[str]) -> list[str]:
        _distinct_identifiers(value, "column")
        return value

    @model_validator(mode="after")
    def _sensitive_listed(self) -> SqlTableSettings:
        listed = {name.lower() for name in self.columns}
        for name in self.sensitive:
            if name.lower() not in listed:
                raise ValueError(f"sensitive: column {name!r} is not in columns")
        return self


class SqlDatasourceSettings(BaseModel):
    """One datasource: ``[[sql.datasources]]``."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, populate_by_name=True)

    name: str
    """The name the model uses to pick the datasource (``[a-z][a-z0-9_-]*``)."""
    url: str
    """``mysql+pymysql://user[:password]@host:port/database``,
    ``postgresql+psycopg://user[:password]@host:port/database`` or ``sqlite:///path``."""
    tables: dict[Identifier, SqlTableSettings] = Field(min_length=1)
    """The allowlisted tables, by name."""
    schema_name: Identifier | None = Field(default=None, alias="schema")
    """PostgreSQL only: the schema the tables live in (default ``public``)."""
    time_zone: str = "+00:00"
    """The session time zone as a UTC offset (``+00:00``, ``-05:00``); ``NOW()`` is bound
    to the call's start instant seen in it."""
    max_estimated_rows: int = Field(default=DEFAULT_MAX_ESTIMATED_ROWS, ge=1)
    """The cost gate: the largest number of rows the engine's EXPLAIN may expect the query
    to examine; above it the query is refused with COST_TOO_HIGH before a row is read."""
    max_estimated_cost: float | None = Field(default=None, gt=0)
    """The cost gate, in the engine's own cost units (PostgreSQL's ``Total Cost``, MySQL's
    ``query_cost``, MariaDB's ``cost``); unset means only rows are checked."""

    @field_validator("time_zone")
    @classmethod
    def _time_zone(cls, value: str) -> str:
        return _matching(_OFFSET, value, "must be a UTC offset such as +00:00 or -05:00")

    @model_validator(mode="after")
    def _schema_only_for_postgres(self) -> SqlDatasourceSettings:
        if self.schema_name is not None:
            _check_identifier(self.schema_name, "schema")
            if self.dialect != "postgres":
                raise ValueError("schema: only a PostgreSQL datasource sets it")
        return self

    @property
    def postgres_schema(self) -> str:
        """The schema a PostgreSQL datasource's queries read (``public`` unless set)."""
        return self.schema_name or "public"

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return _matching(_NAME, value, "must match [a-z][a-z0-9_-]* (at most 64 characters)")

    @field_validator("url")
    @classmethod
    def _url(cls, value: str) -> str:
        if not any(value.startswith(scheme) for scheme in _URL_SCHEMES):
            schemes = ", ".join(_URL_SCHEMES)
            raise ValueError(f"must start with one of: {schemes}")
        for scheme in ("mysql+pymysql://", "postgresql+psycopg://"):
            if value.startswith(scheme):
                rest = value.removeprefix(scheme)
                if "/" not in rest or not rest.split("/", 1)[1].split("?", 1)[0]:
                    raise ValueError("a MySQL/MariaDB or PostgreSQL URL must name its database")
        if value == "sqlite:///":
            raise ValueError("a SQLite URL must name its file")
        return value

    @field_validator("tables")
    @classmethod
    def _tables(cls, value: dict[str, SqlTableSettings]) -> dict[str, SqlTableSettings]:
        _distinct_identifiers(value, "table")
        return value

    @property
    def dialect(self) -> Dialect:
        """The engine the URL names."""
        return datasource_dialect(self.url)


class SqlSettings(BaseModel):
    """The ``[sql]`` section."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    datasources: list[SqlDatasourceSettings] = Field(default_factory=list)
    """The configured datasources; empty means no SQL tool."""

    @field_validator("datasources")
    @classmethod
    def _unique(cls, value: list[SqlDatasourceSettings]) -> list[SqlDatasourceSettings]:
        seen: set[str] = set()
        for datasource in value:
            if datasource.name in seen:
                raise ValueError(f"datasource name {datasource.name!r} is used twice")
            seen.add(datasource.name)
        return value


def datasource_dialect(url: str) -> Dialect:
    """``mysql``, ``postgres`` or ``sqlite`` for a URL the settings accepted."""
    for scheme, dialect in _URL_SCHEMES.items():
        if url.startswith(scheme):
            return dialect
    raise ValueError("unknown URL scheme")


def describe_errors(error: ValidationError, section: str = "sql") -> list[str]:
    """One line per problem, each naming the key (``sql.datasources.0.url: …``), never the
    offending value: a URL may carry a password."""
    lines: list[str] = []
    for problem in error.errors(include_input=False, include_url=False):
        key = ".".join(str(part) for part in (section, *problem["loc"]))
        lines.append(f"{key}: {problem['msg']}")
    return lines


def load_sql_settings(path: Path) -> Result[SqlSettings, tuple[str, ...]]:
    """The ``[sql]`` section of a TOML settings file, or one message per problem (each naming
    its key). A file without an ``[sql]`` table has no datasource."""
    try:
        with path.open("rb") as file:
            document = tomllib.load(file)
    except OSError:
        return Failure((f"{path}: cannot be read",))
    except tomllib.TOMLDecodeError as error:
        return Failure((f"{path}: not valid TOML ({error})",))
    section = document.get("sql", {})
    try:
        return Success(SqlSettings.model_validate(section))
    except ValidationError as error:
        return Failure(tuple(describe_errors(error)))
