"""Flag filters of the cited SQL: ``ntp_reachable = 0`` selects rows that are *not* reachable.

A query that keeps only the rows whose flag column is off (``= 0``, ``!= 1``, ``<> 1``)
says of every row it returns that the column's words do not hold: its result reads as "no
ntp reachable", the way an empty field denies its name. A claim of those rows ("no reachable
NTP server", "the NTP server unreachable") then agrees with the evidence instead of
contradicting the column's name.
"""

from __future__ import annotations

from factledger.domain.release.judge.sql_predicates import QueryShape

__all__ = ["denied_flags"]

_OFF = {"=": "0", "!=": "1", "not =": "1"}


def denied_flags(shape: QueryShape | None) -> tuple[str, ...]:
    """The words of each flag column the query keeps off (``ntp_reachable = 0`` →
    ``ntp reachable``)."""
    if shape is None:
        return ()
    return tuple(
        predicate.column.replace("_", " ").lower()
        for predicate in shape.predicates
        if not predicate.strings
        and not predicate.aggregate
        and predicate.column
        and _OFF.get(predicate.op) == "".join(predicate.values)
    )
