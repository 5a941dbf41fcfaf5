"""Every table and column name resolved against the allowlist, as MySQL would resolve it.

The rules are stricter than MySQL's so that the two can never disagree:

* a table is a common table expression defined earlier in the query or an allowlisted
  table; a CTE never takes an allowlisted table's name, and a table alias never takes the
  name of another table or CTE, nor names two different things in one query;
* a qualified column (``o.status``) looks its qualifier up in the current query level,
  then in the enclosing ones (a correlated reference), exactly like MySQL;
* an unqualified column must match exactly one source of its own query level — never an
  enclosing one — or, in GROUP BY, HAVING and ORDER BY, a select-list alias;
* an alias that takes the name of a column (``COALESCE(status, 'unknown') AS status``) is
  resolved the way MySQL and PostgreSQL agree on, and written so that no engine can read it
  otherwise: a bare ORDER BY item of that name is the alias (written as its position), every
  other use is the column (written qualified);
* every JOIN relates rows: its ON condition holds, as one of its top-level AND terms, an
  equality between a column of the joined source and a column of a source before it;
* a sensitive column may stand only as a bare item (optionally aliased) of the outermost
  SELECT list, and only when that SELECT has no DISTINCT, GROUP BY, HAVING, aggregate or
  window: its values come back redacted, and nothing else may compute with them.

Names are rewritten in place to their allowlisted spelling, and the schema qualifier (when it
names the datasource's own database) is dropped.
"""

from __future__ import annotations

from attrs import frozen
from returns.result import Failure, Result, Success
from sqlglot import exp

from factledger.domain.sql.grammar import AGGREGATE_TYPES
from factledger.domain.sql.plan import OutputColumn
from factledger.domain.sql.policy import SqlPolicy, TablePolicy
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal

__all__ = ["METADATA_SCHEMAS", "Resolution", "resolve_names"]

METADATA_SCHEMAS = frozenset(
    {"information_schema", "mysql", "performance_schema", "sys", "pg_catalog", "pg_toast"}
)
"""Schemas that describe the server: never readable, whatever the allowlist says."""
METADATA_PREFIXES = ("pg_", "sqlite_")
"""Names of the catalog tables and views of PostgreSQL and SQLite."""


@frozen
class Resolution:
    """What the query reads and what it returns."""

    tables: tuple[str, ...]
    """Allowlisted tables read, sorted."""
    columns: tuple[str, ...]
    """Allowlisted columns read, as ``table.column``, sorted."""
    output_columns: tuple[OutputColumn, ...]
    """The outermost query's columns, in order."""


@frozen
class _Column:
    name: str
    table: str | None
    sensitive: bool


@frozen
class _Source:
    identity: str
    """``table:<name>``, ``cte:<name>`` or ``derived:<n>``: what an alias stands for."""
    spelling: str
    """How a qualifier names this source in the regenerated SQL."""
    columns: dict[str, _Column]


@frozen
class _Output:
    name: str
    sensitive: bool


class _Scope:
    def __init__(self, parent: _Scope | None) -> None:
        self.parent = parent
        self.sources: dict[str, _Source] = {}
        self.aliases: dict[str, bool] = {}
        """Select-list aliases (lower case) and whether each stands for a sensitive column."""
        self.positions: list[bool] = []
        """Whether each select-list item is a sensitive column, by position."""
        self.shadowing: dict[str, int] = {}
        """Aliases (lower case) that take a source column's name, and their 1-based position
        in the select list (0 when another item has the same name)."""
        self.output_names: dict[str, int] = {}
        """How many select-list items have each output name (lower case)."""
        self.resolved: dict[int, str] = {}
        """The source (its key in ``sources``) of each resolved Column node, by node id."""


class _Refused(Exception):
    def __init__(self, code: RefusalCode) -> None:
        super().__init__(code.value)
        self.code = code


def resolve_names(tree: exp.Expr, policy: SqlPolicy) -> Result[Resolution, SqlRefusal]:
    """Resolve and rewrite every name of ``tree`` (a SELECT or UNION), or refuse."""
    resolver = _Resolver(policy)
    try:
        outputs = resolver.query(tree, None, {}, outermost=True)
    except _Refused as refused:
        return Failure(SqlRefusal(refused.code))
    return Success(
        Resolution(
            tables=tuple(sorted(resolver.tables)),
            columns=tuple(sorted(resolver.columns)),
            output_columns=tuple(OutputColumn(out.name, out.sensitive) for out in outputs),
        )
    )


class _Resolver:
    def __init__(self, policy: SqlPolicy) -> None:
        self._policy = policy
        self._tables: dict[str, TablePolicy] = {t.name.lower(): t for t in policy.tables}
        self._aliases: dict[str, str] = {}
        """Every source alias of the whole query (lower case) and the identity it stands for."""
        self._derived = 0
        self.tables: set[str] = set()
        self.columns: set[str] = set()

    # -- queries -------------------------------------------------------------------------

    def query(
        self,
        node: exp.Expr,
        outer: _Scope | None,
        ctes: dict[str, _Source],
        *,
        outermost: bool,
    ) -> list[_Output]:
        if isinstance(node, exp.Subquery):
            if node.args.get("alias") is not None:
                raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
            return self.query(_child(node, "this"), outer, ctes, outermost=outermost)
        if isinstance(node, exp.Union):
            left = self.query(_child(node, "this"), outer, ctes, outermost=False)
            self.query(_child(node, "expression"), outer, ctes, outermost=False)
            self._union_order(node, left)
            return left
        if isinstance(node, exp.Select):
            return self._select(node, outer, ctes, outermost=outermost)
        raise _Refused(RefusalCode.NOT_A_SELECT)

    def _union_order(self, node: exp.Union, outputs: list[_Output]) -> None:
        order = node.args.get("order")
        if not isinstance(order, exp.Order):
            return
        names = {out.name.lower() for out in outputs}
        for ordered in order.expressions:
            for column in ordered.find_all(exp.Column):
                if column.args.get("table") is not None or column.name.lower() not in names:
                    raise _Refused(RefusalCode.UNLISTED_COLUMN)
            if ordered.find(exp.Subquery, exp.Exists, exp.Select) is not None:
                raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)

    def _select(
        self,
        node: exp.Select,
        outer: _Scope | None,
        ctes: dict[str, _Source],
        *,
        outermost: bool,
    ) -> list[_Output]:
        visible = self._with(node, ctes)
        scope = _Scope(outer)
        from_ = node.args.get("from_")
        if isinstance(from_, exp.From):
            self._add_source(scope, _child(from_, "this"), visible)
        for join in node.args.get("joins") or ():
            self._add_source(scope, _child(join, "this"), visible)

        projections: list[exp.Expr] = list(node.expressions)
        eligible = self._sensitive_slots(node, projections) if outermost else set()
        scope.positions = [self._register(item, scope, eligible) for item in projections]
        for item in projections:
            name = _output_name(item).lower()
            scope.output_names[name] = scope.output_names.get(name, 0) + 1
        for position, item in enumerate(projections, start=1):
            self._note_shadowing(item, position, scope)

        for item in projections:
            self._expression(item, scope, visible, eligible, aliases=False)
        self._distinct_on(node, scope, visible, eligible)
        keys = list(scope.sources)
        for index, join in enumerate(node.args.get("joins") or ()):
            condition = _child(join, "on")
            self._expression(condition, scope, visible, eligible, aliases=False)
            _require_relation(condition, scope, keys[index + 1], frozenset(keys[: index + 1]))
        where = node.args.get("where")
        if isinstance(where, exp.Where):
            self._expression(where, scope, visible, eligible, aliases=False)
        group = node.args.get("group")
        if isinstance(group, exp.Group):
            for item in group.expressions:
                self._ordinal(item, scope)
                self._expression(item, scope, visible, eligible, aliases=True)
        having = node.args.get("having")
        if isinstance(having, exp.Having):
            self._expression(having, scope, visible, eligible, aliases=True)
        order = node.args.get("order")
        if isinstance(order, exp.Order):
            for ordered in order.expressions:
                target = _alias_position(_child(ordered, "this"), scope)
                self._ordinal(target, scope)
                self._expression(ordered, scope, visible, eligible, aliases=True)
        return [
            _Output(_output_name(item), sensitive)
            for item, sensitive in zip(projections, scope.positions, strict=True)
        ]

    def _with(self, node: exp.Select, ctes: dict[str, _Source]) -> dict[str, _Source]:
        with_ = node.args.get("with_")
        if not isinstance(with_, exp.With):
            return ctes
        visible = dict(ctes)
        for cte in with_.expressions:
            name = _alias_name(cte)
            if name is None:
                raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
            lowered = name.lower()
            if lowered in self._tables or lowered in visible or lowered in self._aliases:
                raise _Refused(RefusalCode.SHADOWING_NAME)
            outputs = self.query(_child(cte, "this"), None, visible, outermost=False)
            _require_named(cte.this)
            visible[lowered] = _Source(
                identity=f"cte:{lowered}",
                spelling=name,
                columns={out.name.lower(): _Column(out.name, None, False) for out in outputs},
            )
        return visible

    # -- sources -------------------------------------------------------------------------

    def _add_source(self, scope: _Scope, node: exp.Expr, ctes: dict[str, _Source]) -> None:
        if isinstance(node, exp.Table):
            source, alias = self._table_source(node, ctes)
        elif isinstance(node, exp.Subquery):
            derived_alias = _alias_name(node)
            if derived_alias is None:
                raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
            alias = derived_alias
            outputs = self.query(_child(node, "this"), None, ctes, outermost=False)
            _require_named(node.this)
            self._derived += 1
            source = _Source(
                identity=f"derived:{self._derived}",
                spelling=alias,
                columns={out.name.lower(): _Column(out.name, None, False) for out in outputs},
            )
            if alias.lower() in self._tables or alias.lower() in ctes:
                raise _Refused(RefusalCode.SHADOWING_NAME)
        else:
            raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
        key = alias.lower()
        if key in scope.sources:
            raise _Refused(RefusalCode.SHADOWING_NAME)
        known = self._aliases.get(key)
        if known is not None and known != source.identity:
            raise _Refused(RefusalCode.SHADOWING_NAME)
        self._aliases[key] = source.identity
        scope.sources[key] = source

    def _table_source(self, node: exp.Table, ctes: dict[str, _Source]) -> tuple[_Source, str]:
        name = node.name
        lowered = name.lower()
        schema = node.args.get("db")
        if isinstance(schema, exp.Identifier):
            qualifier = schema.name.lower()
            if qualifier in METADATA_SCHEMAS:
                raise _Refused(RefusalCode.METADATA_ACCESS)
            if self._policy.schema is None or qualifier != self._policy.schema.lower():
                raise _Refused(RefusalCode.FOREIGN_SCHEMA)
            node.set("db", None)
            source = self._allowlisted(node, lowered)
        elif lowered in ctes:
            source = ctes[lowered]
        else:
            source = self._allowlisted(node, lowered)
        alias = _alias_name(node)
        if alias is None:
            return source, source.spelling
        taken = alias.lower()
        if taken != lowered and (taken in self._tables or taken in ctes):
            raise _Refused(RefusalCode.SHADOWING_NAME)
        return _Source(source.identity, alias, source.columns), alias

    def _allowlisted(self, node: exp.Table, lowered: str) -> _Source:
        if lowered in METADATA_SCHEMAS:
            raise _Refused(RefusalCode.METADATA_ACCESS)
        table = self._tables.get(lowered)
        if table is None:
            if lowered.startswith(METADATA_PREFIXES):
                raise _Refused(RefusalCode.METADATA_ACCESS)
            raise _Refused(RefusalCode.UNLISTED_TABLE)
        node.set("this", exp.to_identifier(table.name))
        self.tables.add(table.name)
        return _Source(
            identity=f"table:{table.name}",
            spelling=table.name,
            columns={
                column.lower(): _Column(column, table.name, table.is_sensitive(column))
                for column in table.columns
            },
        )

    # -- select lists --------------------------------------------------------------------

    def _sensitive_slots(self, node: exp.Select, projections: list[exp.Expr]) -> set[int]:
        """Ids of the Column nodes that may name a sensitive column in this SELECT."""
        if node.args.get("distinct") is not None or node.args.get("group") is not None:
            return set()
        if node.args.get("having") is not None:
            return set()
        for item in projections:
            if item.find(*AGGREGATE_TYPES) is not None:
                return set()
        slots: set[int] = set()
        for item in projections:
            bare = item.this if isinstance(item, exp.Alias) else item
            if isinstance(bare, exp.Column):
                slots.add(id(bare))
        return slots

    def _register(self, item: exp.Expr, scope: _Scope, eligible: set[int]) -> bool:
        """Record a select-list item's alias; True when it is a sensitive column."""
        bare = item.this if isinstance(item, exp.Alias) else item
        sensitive = False
        if isinstance(bare, exp.Column) and id(bare) in eligible:
            found = self._lookup(bare, scope)
            sensitive = found is not None and found.sensitive
        if isinstance(item, exp.Alias):
            lowered = item.alias.lower()
            if scope.aliases.get(lowered, sensitive) != sensitive:
                raise _Refused(RefusalCode.SHADOWING_NAME)
            scope.aliases[lowered] = sensitive
        return sensitive

    def _note_shadowing(self, item: exp.Expr, position: int, scope: _Scope) -> None:
        """Remember an alias that takes the name of a column of this SELECT's sources."""
        if not isinstance(item, exp.Alias):
            return
        lowered = item.alias.lower()
        bare = item.this
        if isinstance(bare, exp.Column) and bare.name.lower() == lowered:
            return  # ``status AS status``: the alias is the column
        if not any(lowered in source.columns for source in scope.sources.values()):
            return
        shared = lowered in scope.shadowing or scope.output_names.get(lowered, 0) > 1
        scope.shadowing[lowered] = 0 if shared else position

    def _distinct_on(
        self,
        node: exp.Select,
        scope: _Scope,
        ctes: dict[str, _Source],
        eligible: set[int],
    ) -> None:
        """PostgreSQL's ``DISTINCT ON (…)``: its expressions read columns like any other."""
        distinct = node.args.get("distinct")
        if not isinstance(distinct, exp.Distinct):
            return
        on = distinct.args.get("on")
        if on is None:
            return
        for column in on.find_all(exp.Column):
            if column.args.get("table") is None and column.name.lower() in scope.shadowing:
                raise _Refused(RefusalCode.AMBIGUOUS_COLUMN)
        self._expression(on, scope, ctes, eligible, aliases=False)

    def _lookup(self, column: exp.Column, scope: _Scope) -> _Column | None:
        """The column an item names, without side effects (None when unresolvable)."""
        try:
            found, _ = self._find(column, scope, aliases=False)
        except _Refused:
            return None
        return found

    def _ordinal(self, item: exp.Expr, scope: _Scope) -> None:
        if isinstance(item, exp.Literal) and not item.is_string:
            text = item.args.get("this")
            if isinstance(text, str) and text.isdigit():
                position = int(text)
                if 1 <= position <= len(scope.positions) and scope.positions[position - 1]:
                    raise _Refused(RefusalCode.SENSITIVE_COLUMN_USE)

    # -- expressions ---------------------------------------------------------------------

    def _expression(
        self,
        node: exp.Expr,
        scope: _Scope,
        ctes: dict[str, _Source],
        eligible: set[int],
        *,
        aliases: bool,
    ) -> None:
        stack: list[exp.Expr] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, exp.Column):
                self._column(current, scope, eligible, aliases=aliases)
                continue
            if isinstance(current, exp.Subquery):
                self.query(_child(current, "this"), scope, ctes, outermost=False)
                continue
            if isinstance(current, exp.Exists):
                self.query(_child(current, "this"), scope, ctes, outermost=False)
                continue
            if isinstance(current, exp.Select | exp.Union):
                self.query(current, scope, ctes, outermost=False)
                continue
            stack.extend(current.iter_expressions())

    def _column(
        self, column: exp.Column, scope: _Scope, eligible: set[int], *, aliases: bool
    ) -> None:
        found, source = self._find(column, scope, aliases=aliases)
        if found is None or source is None:
            return  # a select-list alias, already checked
        if found.sensitive and id(column) not in eligible:
            raise _Refused(RefusalCode.SENSITIVE_COLUMN_USE)
        column.set("this", exp.to_identifier(found.name))
        qualified = column.args.get("table") is not None
        if qualified or found.name.lower() in scope.shadowing:
            column.set("table", exp.to_identifier(source.spelling))
        for key, candidate in scope.sources.items():
            if candidate is source:
                scope.resolved[id(column)] = key
        if found.table is not None:
            self.columns.add(f"{found.table}.{found.name}")

    def _find(
        self, column: exp.Column, scope: _Scope, *, aliases: bool
    ) -> tuple[_Column | None, _Source | None]:
        name = column.name.lower()
        qualifier = column.args.get("table")
        if isinstance(qualifier, exp.Identifier):
            wanted = qualifier.name.lower()
            level: _Scope | None = scope
            while level is not None:
                source = level.sources.get(wanted)
                if source is not None:
                    found = source.columns.get(name)
                    if found is None:
                        raise _Refused(RefusalCode.UNLISTED_COLUMN)
                    return found, source
                level = level.parent
            raise _Refused(RefusalCode.UNLISTED_TABLE)
        matches = [s for s in scope.sources.values() if name in s.columns]
        if len(matches) > 1:
            raise _Refused(RefusalCode.AMBIGUOUS_COLUMN)
        if matches:
            return matches[0].columns[name], matches[0]
        if aliases and name in scope.aliases:
            if scope.aliases[name]:
                raise _Refused(RefusalCode.SENSITIVE_COLUMN_USE)
            return None, None
        raise _Refused(RefusalCode.UNLISTED_COLUMN)


_MAX_OUTPUT_NAME = 64


def _output_name(item: exp.Expr) -> str:
    """The result column's name: the alias, the column, or the expression's text (cut)."""
    if isinstance(item, exp.Alias):
        return item.alias
    if isinstance(item, exp.Column):
        return item.name
    text = item.sql(dialect="mysql")
    if len(text) > _MAX_OUTPUT_NAME:
        return text[: _MAX_OUTPUT_NAME - 1] + "…"
    return text


def _alias_position(target: exp.Expr, scope: _Scope) -> exp.Expr:
    """A bare ORDER BY name that is a shadowing alias, written as the alias's position."""
    if not isinstance(target, exp.Column) or target.args.get("table") is not None:
        return target
    position = scope.shadowing.get(target.name.lower())
    if position is None:
        return target
    if position == 0:
        raise _Refused(RefusalCode.AMBIGUOUS_COLUMN)
    literal = exp.Literal.number(position)
    target.replace(literal)
    return literal


def _require_relation(
    condition: exp.Expr, scope: _Scope, joined: str, before: frozenset[str]
) -> None:
    """The ON condition must equate a column of the joined source with one of a source
    joined before it, as one of its top-level AND terms: ``ON 1 = 1``, ``ON a.id = a.id``,
    ``ON a.id <> b.id`` or ``ON b.id >= 0`` relate nothing and multiply rows."""
    terms: list[exp.Expr] = [condition]
    while terms:
        term = terms.pop()
        while isinstance(term, exp.Paren):
            term = term.this
        if isinstance(term, exp.And):
            terms.extend((term.this, term.expression))
            continue
        if not isinstance(term, exp.EQ | exp.NullSafeEQ):
            continue
        left, right = _bare(term.this), _bare(term.expression)
        if left is None or right is None:
            continue
        sides = {scope.resolved.get(id(left)), scope.resolved.get(id(right))}
        if joined in sides and sides - {joined} and (sides - {joined}) <= before:
            return
    raise _Refused(RefusalCode.UNRELATED_JOIN)


def _bare(node: exp.Expr) -> exp.Column | None:
    while isinstance(node, exp.Paren):
        node = node.this
    return node if isinstance(node, exp.Column) else None


def _child(node: exp.Expr, key: str) -> exp.Expr:
    value = node.args.get(key)
    if not isinstance(value, exp.Expr):
        raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
    return value


def _alias_name(node: exp.Expr) -> str | None:
    alias = node.args.get("alias")
    if isinstance(alias, exp.TableAlias):
        identifier = alias.args.get("this")
        if isinstance(identifier, exp.Identifier):
            name = identifier.args.get("this")
            return name if isinstance(name, str) else None
    return None


def _require_named(query: exp.Expr) -> None:
    """A CTE's or derived table's columns must have names a reader can rely on."""
    select = query
    while isinstance(select, exp.Union | exp.Subquery):
        select = _child(select, "this")
    if not isinstance(select, exp.Select):
        raise _Refused(RefusalCode.FORBIDDEN_SYNTAX)
    for item in select.expressions:
        if not isinstance(item, exp.Alias | exp.Column):
            raise _Refused(RefusalCode.UNNAMED_DERIVED_COLUMN)
