"""Numbers that are the cited query's own terms: searched, never counted.

A logs search for ``status=502``, a SQL filter ``http_code = 500`` or ``duration_ms > 3000``
and a ``LIMIT 5`` hold numbers the results carry because they were asked for: the lines
matched show ``status=502``, the rows are capped at five. Such a number is grounded where the
claim writes it as a term ("status=502", "HTTP 500", "no 502", "over 3000 ms", "the top 5"),
and refused where it counts something, unless a count of the result (a numeric field or cell,
not its text) is that number too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from math import isclose
from typing import Final

from factledger.domain.json_types import JsonValue, json_leaves
from factledger.domain.release.judge.claims import ParsedClaim
from factledger.domain.release.judge.evidence import CallView
from factledger.domain.release.judge.quantities import Quantity, key_unit, text_quantities

__all__ = ["query_term"]

_NUMBER = re.compile(r"(?<![\w.:\-])\d+(?:\.\d+)?(?![\w.:\-])")
_LIMIT = re.compile(r"\blimit\s+(\d+)\b", re.IGNORECASE)
_AS_TERM = re.compile(
    r"(?:[=:#]|\b(?:http|status|code|codes|exit|port|errno|limit|top|first|no|any|than|over|"
    r"above|under|below|beyond|past|exceed\w*|least|most|threshold)\s*)$",
    re.IGNORECASE,
)
_TO_BOUND = re.compile(r"\b(?:to|of|a|an|reach\w*|hit\w*)\s*$", re.IGNORECASE)
"""Before a bound of a comparison ("back to 0.9", "a ratio of 0.9"): the bound itself."""
_PLURAL = re.compile(r"s\b")


def query_term(
    claim: ParsedClaim, quantity: Quantity, position: int, views: Sequence[CallView]
) -> bool | None:
    """True when the number is a term of a cited query written as one, False when it is one
    written as a count that no count of the result holds, None when it is no term."""
    kinds = {bound for view in views for bound in _kinds(quantity, view)}
    before = claim.text[max(0, position - 16) : position]
    after = position + len(quantity.text)
    as_term = _AS_TERM.search(before) is not None or quantity.bound != "="
    if not kinds:
        # "more than 600 hours" of ``duration_s > 600``: the filter's number in another unit
        return False if as_term and _in_other_unit(quantity, views) else None
    if as_term or _PLURAL.match(claim.text, after):
        return True
    if True in kinds and _TO_BOUND.search(before):
        return True
    if quantity.dimension is not None:
        return None  # a measurement: the other rules read it
    if any(isclose(quantity.value, n) for view in views for n in _counts(view)):
        return None
    return False


def _kinds(quantity: Quantity, view: CallView) -> set[bool]:
    """For each term of the call that is the number: True for a bound of a comparison."""
    return {bound for value, bound, unit in _terms(view) if _is(quantity, value, unit)}


def _is(quantity: Quantity, value: float, unit: str | None) -> bool:
    """True when the claim's number is the term: the same amount in the unit the filtered
    column names (``duration_s > 600`` is "600 s" or "10 minutes", never "600 hours"), else
    the same number."""
    if unit is not None and quantity.dimension is not None:
        column = next(iter(text_quantities(f"{value:g} {unit}")), None)
        if column is not None and column.dimension == quantity.dimension:
            return any(isclose(a, b) for a in quantity.base for b in column.base)
    return isclose(quantity.value, value)


def _in_other_unit(quantity: Quantity, views: Sequence[CallView]) -> bool:
    """True when a filtered column naming its unit has the claim's number as its bound, and
    the claim writes it in a unit of the same dimension that makes it another amount."""
    return quantity.dimension is not None and any(
        unit is not None and isclose(quantity.value, value) and not _is(quantity, value, unit)
        for view in views
        for value, _, unit in _terms(view)
    )


def _terms(view: CallView) -> Iterator[tuple[float, bool, str | None]]:
    """The numbers of the call's query (search words, numeric filters, LIMIT), each with
    True when it bounds a comparison (``ratio >= 0.9``) and the unit its column names."""
    scope = view.scope
    for found in _NUMBER.findall(scope.query):
        yield float(found), False, None
    for predicate in scope.shape.predicates if scope.shape else ():
        if not predicate.strings:
            bound = predicate.op in {">", ">=", "<", "<="}
            unit = key_unit(predicate.column.split(".")[-1])
            for value in predicate.values:
                yield from ((float(found), bound, unit) for found in _NUMBER.findall(value))
    for found in _LIMIT.findall(scope.text):
        if _reached(view.content, float(found)):
            yield float(found), False, None


def _reached(content: JsonValue, limit: float) -> bool:
    """True when the result was capped by its LIMIT (truncated, or as many rows as the limit,
    or its row count unknown): a limit the rows never reached caps nothing, and "201 of the
    396 attempts failed" of a ``LIMIT 201`` query of seven rows counts them."""
    if not isinstance(content, dict) or content.get("truncated") is True:
        return True
    rows = content.get("rows")
    count = content.get("returned_count", len(rows) if isinstance(rows, list) else None)
    return not isinstance(count, int) or isinstance(count, bool) or count >= limit


_SCOPE: Final = frozenset({"scope"})


def _counts(view: CallView) -> Iterator[float]:
    return _numeric(view.content)


def _numeric(value: JsonValue) -> Iterator[float]:
    """The numeric fields and cells of a result (its text and scope left out)."""
    for leaf in json_leaves(value, _SCOPE):
        if isinstance(leaf, int | float) and not isinstance(leaf, bool):
            yield float(leaf)
