"""What a PromQL query may ask: parsed with a real parser, then held to the source's rules.

A query is parsed by ``promql_parser`` (the Prometheus grammar) and walked once. It must name
every metric it selects, and each name must match one of the source's patterns; label
matchers, groupings and joins use only allowlisted labels; functions are allowlisted; no
grouping by ``__name__`` (probing which series exist), no regular expression that matches
every value, a few regular expressions at most, no ``@`` modifier (it escapes the window), no
range selector, subquery or offset longer than the look-back, and at most the allowed number
of subqueries, never nested. A refusal is a ``MetricsRefusal``; nothing runs.
"""

from __future__ import annotations

import re
from datetime import timedelta
from enum import StrEnum
from fnmatch import fnmatchcase
from typing import Final

import promql_parser as promql
from attrs import frozen

from factledger.adapters.metrics.settings import MetricsSettings
from factledger.adapters.metrics.units import unit_of

__all__ = ["CheckedQuery", "MetricsRefusal", "check_query"]

_MAX_DEPTH: Final = 40
_MAX_REGEX_CHARS: Final = 200
_PROBES: Final = ("x", "zz-9_Q.a/b:c", "card-gateway", "0", "Ωmega", "a" * 40)
"""Non-empty values a regex that matches "every value" matches all of."""


class MetricsRefusal(StrEnum):
    """Why a metrics request was refused before it ran."""

    QUERY_TOO_LONG = "QUERY_TOO_LONG"
    UNPARSABLE_QUERY = "UNPARSABLE_QUERY"
    QUERY_TOO_DEEP = "QUERY_TOO_DEEP"
    METRIC_NAME_REQUIRED = "METRIC_NAME_REQUIRED"
    METRIC_NOT_ALLOWED = "METRIC_NOT_ALLOWED"
    NAME_MATCHER_NOT_ALLOWED = "NAME_MATCHER_NOT_ALLOWED"
    LABEL_NOT_ALLOWED = "LABEL_NOT_ALLOWED"
    FUNCTION_NOT_ALLOWED = "FUNCTION_NOT_ALLOWED"
    GROUPING_BY_NAME = "GROUPING_BY_NAME"
    REGEX_MATCHES_EVERYTHING = "REGEX_MATCHES_EVERYTHING"
    REGEX_NOT_SUPPORTED = "REGEX_NOT_SUPPORTED"
    TOO_MANY_REGEX_MATCHERS = "TOO_MANY_REGEX_MATCHERS"
    TOO_MANY_SELECTORS = "TOO_MANY_SELECTORS"
    AT_MODIFIER_NOT_ALLOWED = "AT_MODIFIER_NOT_ALLOWED"
    LOOKBACK_TOO_LONG = "LOOKBACK_TOO_LONG"
    TOO_MANY_SUBQUERIES = "TOO_MANY_SUBQUERIES"
    NESTED_SUBQUERY = "NESTED_SUBQUERY"
    SUBQUERY_STEP_TOO_SMALL = "SUBQUERY_STEP_TOO_SMALL"
    BAD_TIMESTAMP = "BAD_TIMESTAMP"
    EMPTY_WINDOW = "EMPTY_WINDOW"
    RANGE_TOO_LONG = "RANGE_TOO_LONG"
    STEP_TOO_SMALL = "STEP_TOO_SMALL"
    TOO_MANY_POINTS = "TOO_MANY_POINTS"
    OUTSIDE_RUN_WINDOW = "OUTSIDE_RUN_WINDOW"


@frozen
class CheckedQuery:
    """A query that passed every rule, with what the result and the judge need of it."""

    canonical: str
    """The parser's own spelling of the query (two spellings of one query compare equal)."""
    metric_names: tuple[str, ...]
    """Every metric name it selects, sorted."""
    matchers: tuple[str, ...]
    """Every label matcher it uses (``status="500"``), sorted, ``__name__`` left out."""
    unit: str | None
    """The unit of its values, from the metric names and the functions applied."""


class _Refused(Exception):
    def __init__(self, refusal: MetricsRefusal) -> None:
        super().__init__(refusal.value)
        self.refusal = refusal


class _Walk:
    """One walk over a parsed query, collecting names and enforcing the rules."""

    def __init__(self, settings: MetricsSettings) -> None:
        self.settings = settings
        self.names: set[str] = set()
        self.matchers: set[str] = set()
        self.selectors = 0
        self.regexes = 0
        self.subqueries = 0
        self.lookback = timedelta(seconds=settings.max_lookback_seconds)

    def visit(self, node: object, depth: int, in_subquery: bool) -> None:
        if depth > _MAX_DEPTH:
            raise _Refused(MetricsRefusal.QUERY_TOO_DEEP)
        deeper = depth + 1
        if isinstance(node, promql.VectorSelector):
            self._selector(node)
        elif isinstance(node, promql.MatrixSelector):
            self._window(node.range)
            self._selector(node.vector_selector)
        elif isinstance(node, promql.SubqueryExpr):
            self._subquery(node, in_subquery)
            self.visit(node.expr, deeper, True)
        elif isinstance(node, promql.Call):
            if node.func.name not in self.settings.functions:
                raise _Refused(MetricsRefusal.FUNCTION_NOT_ALLOWED)
            for argument in node.args:
                self.visit(argument, deeper, in_subquery)
        elif isinstance(node, promql.AggregateExpr):
            if node.modifier is not None:
                self._labels(node.modifier.labels)
            if node.param is not None:
                self.visit(node.param, deeper, in_subquery)
            self.visit(node.expr, deeper, in_subquery)
        elif isinstance(node, promql.BinaryExpr):
            modifier = node.modifier
            if modifier is not None:
                if modifier.matching is not None:
                    self._labels(modifier.matching.labels)
                self._labels(modifier.group_labels or [])
            self.visit(node.lhs, deeper, in_subquery)
            self.visit(node.rhs, deeper, in_subquery)
        elif isinstance(node, promql.ParenExpr | promql.UnaryExpr):
            self.visit(node.expr, deeper, in_subquery)

    def _labels(self, labels: list[str]) -> None:
        for label in labels:
            if label == "__name__":
                raise _Refused(MetricsRefusal.GROUPING_BY_NAME)
            if label not in self.settings.labels:
                raise _Refused(MetricsRefusal.LABEL_NOT_ALLOWED)

    def _window(self, length: timedelta | None) -> None:
        if length is not None and abs(length) > self.lookback:
            raise _Refused(MetricsRefusal.LOOKBACK_TOO_LONG)

    def _subquery(self, node: promql.SubqueryExpr, in_subquery: bool) -> None:
        if in_subquery:
            raise _Refused(MetricsRefusal.NESTED_SUBQUERY)
        self.subqueries += 1
        _within(self.subqueries, self.settings.max_subqueries, MetricsRefusal.TOO_MANY_SUBQUERIES)
        _unpinned(node)
        self._window(node.range)
        self._window(node.offset)
        step = node.step
        if step is None or step.total_seconds() < self.settings.min_step_seconds:
            raise _Refused(MetricsRefusal.SUBQUERY_STEP_TOO_SMALL)

    def _selector(self, node: promql.VectorSelector) -> None:
        self.selectors += 1
        _within(self.selectors, self.settings.max_selectors, MetricsRefusal.TOO_MANY_SELECTORS)
        _unpinned(node)
        self._window(node.offset)
        if node.matchers.or_matchers:
            raise _Refused(MetricsRefusal.LABEL_NOT_ALLOWED)
        name = node.name
        for matcher in node.matchers.matchers:
            if matcher.name == "__name__":
                if matcher.op != promql.MatchOp.Equal or (name and name != matcher.value):
                    raise _Refused(MetricsRefusal.NAME_MATCHER_NOT_ALLOWED)
                name = matcher.value
                continue
            self._matcher(matcher)
        if not name:
            raise _Refused(MetricsRefusal.METRIC_NAME_REQUIRED)
        if not any(fnmatchcase(name, pattern) for pattern in self.settings.metrics):
            raise _Refused(MetricsRefusal.METRIC_NOT_ALLOWED)
        self.names.add(name)

    def _matcher(self, matcher: promql.Matcher) -> None:
        if matcher.name not in self.settings.labels:
            raise _Refused(MetricsRefusal.LABEL_NOT_ALLOWED)
        if matcher.op in (promql.MatchOp.Re, promql.MatchOp.NotRe):
            self.regexes += 1
            if self.regexes > self.settings.max_regex_matchers:
                raise _Refused(MetricsRefusal.TOO_MANY_REGEX_MATCHERS)
            matched = _probes_matched(matcher.value)
            everything = matched == len(_PROBES) if matcher.op == promql.MatchOp.Re else not matched
            if everything:
                raise _Refused(MetricsRefusal.REGEX_MATCHES_EVERYTHING)
        self.matchers.add(str(matcher))


def _probes_matched(pattern: str) -> int:
    """How many probe values the (anchored) regex matches: all of them for ``=~`` that selects
    every value, none for ``!~`` that does."""
    if len(pattern) > _MAX_REGEX_CHARS:
        raise _Refused(MetricsRefusal.REGEX_NOT_SUPPORTED)
    try:
        compiled = re.compile(pattern, re.DOTALL)
    except re.error as invalid:
        raise _Refused(MetricsRefusal.REGEX_NOT_SUPPORTED) from invalid
    return sum(1 for probe in _PROBES if compiled.fullmatch(probe) is not None)


def check_query(text: str, settings: MetricsSettings) -> CheckedQuery | MetricsRefusal:
    """The checked query, or the first rule it breaks."""
    if len(text) > settings.max_query_chars:
        return MetricsRefusal.QUERY_TOO_LONG
    try:
        parsed = promql.parse(text)
    except (ValueError, TypeError, RuntimeError, OverflowError):
        return MetricsRefusal.UNPARSABLE_QUERY
    walk = _Walk(settings)
    try:
        walk.visit(parsed, 0, False)
    except _Refused as refused:
        return refused.refusal
    except RecursionError:
        return MetricsRefusal.QUERY_TOO_DEEP
    if not walk.names:
        return MetricsRefusal.METRIC_NAME_REQUIRED
    return CheckedQuery(
        canonical=str(parsed),
        metric_names=tuple(sorted(walk.names)),
        matchers=tuple(sorted(walk.matchers)),
        unit=unit_of(parsed),
    )


def _within(count: int, limit: int, refusal: MetricsRefusal) -> None:
    """Refuse with ``refusal`` once a query holds more than ``limit`` of something."""
    if count > limit:
        raise _Refused(refusal)


def _unpinned(node: promql.SubqueryExpr | promql.VectorSelector) -> None:
    """Neither a selector nor a subquery may pin its evaluation time with ``@``."""
    if node.at is not None:
        raise _Refused(MetricsRefusal.AT_MODIFIER_NOT_ALLOWED)
