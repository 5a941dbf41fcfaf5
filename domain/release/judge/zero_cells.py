"""Zero cells of a SQL result as clauses: a cell of value 0 denies its column for its row.

``SUM(errors_5xx) AS errors`` of 0 in the ``fra1`` row reads as "fra1 requests 9120 no
errors no 5xx"; the ``ams2`` row, whose errors are 14, as "ams2 requests 8433 errors 5xx 14", so
the polarity rule finds, for a claim about ams2, the clause that affirms its errors. A result
without a zero cell adds nothing. A column is named by its words and by the words of the
columns its expression reads.
"""

from __future__ import annotations

from factledger.domain.json_types import JsonValue
from factledger.domain.release.judge.result_values import cell_number
from factledger.domain.release.judge.sql_predicates import QueryShape

__all__ = ["zero_cell_clauses"]

_MAX_ROWS = 50


def _zero(cell: JsonValue) -> bool:
    return cell_number(cell) == 0


def _counted(cell: JsonValue) -> bool:
    return cell_number(cell) is not None


def _name(column: str, read: dict[str, tuple[str, ...]]) -> str:
    """A column's words, then those of the columns its expression reads not already said."""
    said = column.lower().split("_")
    more = [w for name in read.get(column, ()) for w in name.lower().split("_") if w not in said]
    return " ".join((*said, *dict.fromkeys(more)))


def zero_cell_clauses(data: dict[str, JsonValue], shape: QueryShape | None) -> tuple[str, ...]:
    """One clause per row of a result with a zero cell in a numeric column: the row's labels,
    its other numeric cells by name and value, then "no <word>" for each word naming a zero cell's
    column ("fra1 requests 9120 no errors no 5xx": each word the head of its denial)."""
    columns, rows = data.get("columns"), data.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list) or len(rows) > _MAX_ROWS:
        return ()
    table = [row for row in rows if isinstance(row, list) and len(row) == len(columns)]
    read = dict(shape.sources) if shape else {}
    numeric = [
        index
        for index in range(len(columns))
        if table and all(_counted(row[index]) for row in table)
    ]
    if not any(_zero(row[index]) for row in table for index in numeric):
        return ()
    names = {index: _name(str(columns[index]), read) for index in numeric}
    found: list[str] = []
    for row in table:
        labels = [cell for cell in row if isinstance(cell, str)]
        held = [f"{names[i]} {row[i]}" for i in numeric if not _zero(row[i])]
        denied = [f"no {word}" for i in numeric if _zero(row[i]) for word in names[i].split()]
        found.append(" ".join((*labels, *held, *denied)))
    return tuple(found)
