"""Every table and column name resolved against the allowlist, as MySQL would resolve it.

The rules are stricter than MySQL's so that the two can never disagree:

* a table is a common table expression defined earlier in the query or an allowlisted
  table; a CTE never takes an allowlisted table's name, and a table alias never takes the
  name of another table or CTE, nor names two different things in one query;
* a qualified column (``o.status``) looks its qualifier up in the current query level,
  then in the enclosing ones (a correlated reference), exactly like MySQL;
* an unqualified column must match exactly one source of its own query level — never an
  enclosing one — or, in GROUP BY, HAVING and ORDER BY, a select-list alias;
* an alias that takes a column's name (``COALESCE(status, 'unknown') AS status``), every
  JOIN, and every sensitive column follow the rules of ``relations``: resolved the way
  MySQL and PostgreSQL agree on and written unambiguously; joins that relate rows; sensitive
  values only as bare items of the outermost SELECT list (they come back redacted).

Names are rewritten in place to their allowlisted spelling, and the schema qualifier (when it
names the datasource's own database) is dropped.
"""

from __future__ import annotations

from attrs import frozen
from returns.result import Failure, Result, Success
from sqlglot import exp

from factledger.domain.sql.plan import OutputColumn
from factledger.domain.sql.policy import SqlPolicy, TablePolicy
from factledger.domain.sql.refusal import RefusalCode, SqlRefusal
from factledger.domain.sql.relations import (
    alias_position,
    note_shadowing,
    require_relation,
    sensitive_slots,
)
from factledger.domain.sql.scopes import (
    METADATA_PREFIXES,
    METADATA_SCHEMAS,
    ColumnRef,
    Output,
    QueryScope,
    Refused,
    Source,
    alias_name,
    child,
    output_name,
    require_named,
)

__all__ = ["METADATA_SCHEMAS", "Resolution", "resolve_names"]


@frozen
class Resolution:
    """What the query reads and what it returns."""

    tables: tuple[str, ...]
    """Allowlisted tables read, sorted."""
    columns: tuple[str, ...]
    """Allowlisted columns read, as ``table.column``, sorted."""
    output_columns: tuple[OutputColumn, ...]
    """The outermost query's columns, in order."""


def resolve_names(tree: exp.Expr, policy: SqlPolicy) -> Result[Resolution, SqlRefusal]:
    """Resolve and rewrite every name of ``tree`` (a SELECT or UNION), or refuse."""
    resolver = _Resolver(policy)
    try:
        outputs = resolver.query(tree, None, {}, outermost=True)
    except Refused as refused:
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
        outer: QueryScope | None,
        ctes: dict[str, Source],
        *,
        outermost: bool,
    ) -> list[Output]:
        if isinstance(node, exp.Subquery):
            if node.args.get("alias") is not None:
                raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
            return self.query(child(node, "this"), outer, ctes, outermost=outermost)
        if isinstance(node, exp.SetOperation):
            left = self.query(child(node, "this"), outer, ctes, outermost=False)
            self.query(child(node, "expression"), outer, ctes, outermost=False)
            self._union_order(node, left)
            return left
        if isinstance(node, exp.Select):
            return self._select(node, outer, ctes, outermost=outermost)
        raise Refused(RefusalCode.NOT_A_SELECT)

    def _union_order(self, node: exp.SetOperation, outputs: list[Output]) -> None:
        order = node.args.get("order")
        if not isinstance(order, exp.Order):
            return
        names = {out.name.lower() for out in outputs}
        for ordered in order.expressions:
            for column in ordered.find_all(exp.Column):
                if column.args.get("table") is not None or column.name.lower() not in names:
                    raise Refused(RefusalCode.UNLISTED_COLUMN)
            if ordered.find(exp.Subquery, exp.Exists, exp.Select) is not None:
                raise Refused(RefusalCode.FORBIDDEN_SYNTAX)

    def _select(
        self,
        node: exp.Select,
        outer: QueryScope | None,
        ctes: dict[str, Source],
        *,
        outermost: bool,
    ) -> list[Output]:
        visible = self._with(node, ctes)
        scope = QueryScope(outer)
        from_ = node.args.get("from_")
        if isinstance(from_, exp.From):
            self._add_source(scope, child(from_, "this"), visible)
        for join in node.args.get("joins") or ():
            self._add_source(scope, child(join, "this"), visible)

        projections: list[exp.Expr] = list(node.expressions)
        eligible = sensitive_slots(node, projections) if outermost else set()
        scope.positions = [self._register(item, scope, eligible) for item in projections]
        for item in projections:
            if isinstance(item, exp.Alias | exp.Column):  # others are named by their text
                name = output_name(item).lower()
                scope.output_names[name] = scope.output_names.get(name, 0) + 1
        for position, item in enumerate(projections, start=1):
            note_shadowing(item, position, scope)

        for item in projections:
            self._expression(item, scope, visible, eligible, aliases=False)
        self._distinct_on(node, scope, visible, eligible)
        keys = list(scope.sources)
        for index, join in enumerate(node.args.get("joins") or ()):
            condition = child(join, "on")
            self._expression(condition, scope, visible, eligible, aliases=False)
            require_relation(condition, scope, keys[index + 1], frozenset(keys[: index + 1]))
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
                target = alias_position(child(ordered, "this"), scope)
                self._ordinal(target, scope)
                self._expression(ordered, scope, visible, eligible, aliases=True)
        return [
            Output(output_name(item), sensitive)
            for item, sensitive in zip(projections, scope.positions, strict=True)
        ]

    def _with(self, node: exp.Select, ctes: dict[str, Source]) -> dict[str, Source]:
        with_ = node.args.get("with_")
        if not isinstance(with_, exp.With):
            return ctes
        visible = dict(ctes)
        for cte in with_.expressions:
            name = alias_name(cte)
            if name is None:
                raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
            lowered = name.lower()
            if lowered in self._tables or lowered in visible or lowered in self._aliases:
                raise Refused(RefusalCode.SHADOWING_NAME)
            outputs = self.query(child(cte, "this"), None, visible, outermost=False)
            require_named(cte.this)
            visible[lowered] = Source(
                identity=f"cte:{lowered}",
                spelling=name,
                columns={out.name.lower(): ColumnRef(out.name, None, False) for out in outputs},
            )
        return visible

    # -- sources -------------------------------------------------------------------------

    def _add_source(self, scope: QueryScope, node: exp.Expr, ctes: dict[str, Source]) -> None:
        if isinstance(node, exp.Table):
            source, alias = self._table_source(node, ctes)
        elif isinstance(node, exp.Subquery):
            derived_alias = alias_name(node)
            if derived_alias is None:
                raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
            alias = derived_alias
            outputs = self.query(child(node, "this"), None, ctes, outermost=False)
            require_named(node.this)
            self._derived += 1
            source = Source(
                identity=f"derived:{self._derived}",
                spelling=alias,
                columns={out.name.lower(): ColumnRef(out.name, None, False) for out in outputs},
            )
            if alias.lower() in self._tables or alias.lower() in ctes:
                raise Refused(RefusalCode.SHADOWING_NAME)
        else:
            raise Refused(RefusalCode.FORBIDDEN_SYNTAX)
        key = alias.lower()
        if key in scope.sources:
            raise Refused(RefusalCode.SHADOWING_NAME)
        known = self._aliases.get(key)
        if known is not None and known != source.identity:
            raise Refused(RefusalCode.SHADOWING_NAME)
        self._aliases[key] = source.identity
        scope.sources[key] = source

    def _table_source(self, node: exp.Table, ctes: dict[str, Source]) -> tuple[Source, str]:
        name = node.name
        lowered = name.lower()
        schema = node.args.get("db")
        if isinstance(schema, exp.Identifier):
            qualifier = schema.name.lower()
            if qualifier in METADATA_SCHEMAS:
                raise Refused(RefusalCode.METADATA_ACCESS)
            if self._policy.schema is None or qualifier != self._policy.schema.lower():
                raise Refused(RefusalCode.FOREIGN_SCHEMA)
            node.set("db", None)
            source = self._allowlisted(node, lowered)
        elif lowered in ctes:
            source = ctes[lowered]
        else:
            source = self._allowlisted(node, lowered)
        alias = alias_name(node)
        if alias is None:
            return source, source.spelling
        taken = alias.lower()
        if taken != lowered and (taken in self._tables or taken in ctes):
            raise Refused(RefusalCode.SHADOWING_NAME)
        return Source(source.identity, alias, source.columns), alias

    def _allowlisted(self, node: exp.Table, lowered: str) -> Source:
        if lowered in METADATA_SCHEMAS:
            raise Refused(RefusalCode.METADATA_ACCESS)
        table = self._tables.get(lowered)
        if table is None:
            if lowered.startswith(METADATA_PREFIXES):
                raise Refused(RefusalCode.METADATA_ACCESS)
            raise Refused(RefusalCode.UNLISTED_TABLE)
        node.set("this", exp.to_identifier(table.name))
        self.tables.add(table.name)
        return Source(
            identity=f"table:{table.name}",
            spelling=table.name,
            columns={
                column.lower(): ColumnRef(column, table.name, table.is_sensitive(column))
                for column in table.columns
            },
        )

    # -- select lists --------------------------------------------------------------------

    def _register(self, item: exp.Expr, scope: QueryScope, eligible: set[int]) -> bool:
        """Record a select-list item's alias; True when it is a sensitive column."""
        bare = item.this if isinstance(item, exp.Alias) else item
        sensitive = False
        if isinstance(bare, exp.Column) and id(bare) in eligible:
            found = self._lookup(bare, scope)
            sensitive = found is not None and found.sensitive
        if isinstance(item, exp.Alias):
            lowered = item.alias.lower()
            if scope.aliases.get(lowered, sensitive) != sensitive:
                raise Refused(RefusalCode.SHADOWING_NAME)
            scope.aliases[lowered] = sensitive
        return sensitive

    def _distinct_on(
        self,
        node: exp.Select,
        scope: QueryScope,
        ctes: dict[str, Source],
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
                raise Refused(RefusalCode.AMBIGUOUS_COLUMN)
        self._expression(on, scope, ctes, eligible, aliases=False)

    def _lookup(self, column: exp.Column, scope: QueryScope) -> ColumnRef | None:
        """The column an item names, without side effects (None when unresolvable)."""
        try:
            found, _ = self._find(column, scope, aliases=False)
        except Refused:
            return None
        return found

    def _ordinal(self, item: exp.Expr, scope: QueryScope) -> None:
        if isinstance(item, exp.Literal) and not item.is_string:
            text = item.args.get("this")
            if isinstance(text, str) and text.isdigit():
                position = int(text)
                if 1 <= position <= len(scope.positions) and scope.positions[position - 1]:
                    raise Refused(RefusalCode.SENSITIVE_COLUMN_USE)

    # -- expressions ---------------------------------------------------------------------

    def _expression(
        self,
        node: exp.Expr,
        scope: QueryScope,
        ctes: dict[str, Source],
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
                self.query(child(current, "this"), scope, ctes, outermost=False)
                continue
            if isinstance(current, exp.Exists):
                self.query(child(current, "this"), scope, ctes, outermost=False)
                continue
            if isinstance(current, exp.Select | exp.SetOperation):
                self.query(current, scope, ctes, outermost=False)
                continue
            stack.extend(current.iter_expressions())

    def _column(
        self, column: exp.Column, scope: QueryScope, eligible: set[int], *, aliases: bool
    ) -> None:
        found, source = self._find(column, scope, aliases=aliases)
        if found is None or source is None:
            return  # a select-list alias, already checked
        if found.sensitive and id(column) not in eligible:
            raise Refused(RefusalCode.SENSITIVE_COLUMN_USE)
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
        self, column: exp.Column, scope: QueryScope, *, aliases: bool
    ) -> tuple[ColumnRef | None, Source | None]:
        name = column.name.lower()
        qualifier = column.args.get("table")
        if isinstance(qualifier, exp.Identifier):
            wanted = qualifier.name.lower()
            level: QueryScope | None = scope
            while level is not None:
                source = level.sources.get(wanted)
                if source is not None:
                    found = source.columns.get(name)
                    if found is None:
                        raise Refused(RefusalCode.UNLISTED_COLUMN)
                    return found, source
                level = level.parent
            raise Refused(RefusalCode.UNLISTED_TABLE)
        matches = [s for s in scope.sources.values() if name in s.columns]
        if len(matches) > 1:
            raise Refused(RefusalCode.AMBIGUOUS_COLUMN)
        if matches:
            return matches[0].columns[name], matches[0]
        if aliases and name in scope.aliases:
            if scope.aliases[name]:
                raise Refused(RefusalCode.SENSITIVE_COLUMN_USE)
            return None, None
        raise Refused(RefusalCode.UNLISTED_COLUMN)
