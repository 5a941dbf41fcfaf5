"""Writes and reads the redaction corpus of format families.

``families.jsonl`` is generated here with a fixed seed: for every family of
``redaction_families``, lines with the family's value in each of its templates. Each row holds
``family``, ``format`` (family and template), ``kind`` (``secret``: no part of a value may
survive; ``keep``: every value must come out intact), ``line`` and ``values``.
``hand_written.jsonl`` holds rows of the same shape written by hand from real log formats;
the older ``corpus.jsonl`` and ``must_not_redact.jsonl`` are read as further families.

A family is *held out* when the first byte of the SHA-256 of its name is a multiple of 5:
about one family in five, decided by its name, never by a line.

    python -m tests.support.redaction_corpus          # writes families.jsonl
    python -m tests.support.redaction_corpus --figures  # leaks and keep rates, held out apart
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path
from typing import Final, TypedDict

from tests.support.redaction_families import KEEP_FAMILIES, SECRET_FAMILIES

DATA: Final = Path(__file__).resolve().parents[1] / "data" / "redaction"
SEED: Final = 20261201
SECRET_LINES: Final = 14
KEEP_LINES: Final = 10
_HOST: Final = ("db1.prod.internal", "cache-2.svc", "api.example.org")


class Row(TypedDict):
    family: str
    format: str
    kind: str
    line: str
    values: list[str]


def held_out(family: str) -> bool:
    """True for the families kept apart from development (one in five, by name)."""
    return hashlib.sha256(family.encode()).digest()[0] % 5 == 0


def generate() -> list[Row]:
    rng = random.Random(SEED)
    rows: list[Row] = []
    for kind, families, count in (
        ("secret", SECRET_FAMILIES, SECRET_LINES),
        ("keep", KEEP_FAMILIES, KEEP_LINES),
    ):
        for family, (maker, templates) in families.items():
            for index in range(count):
                template = templates[index % len(templates)]
                shown, _, value = maker(rng).rpartition("\x1f")
                line = template.format(
                    v=shown + value,
                    t="2024-06-01T12:00:00Z",
                    n=rng.randrange(2, 9),
                    h=_HOST[index % 3],
                )
                rows.append(
                    {
                        "family": family,
                        "format": f"{family}/{templates.index(template)}",
                        "kind": kind,
                        "line": line,
                        "values": [value],
                    }
                )
    return rows


def load() -> list[Row]:
    """Every row of the corpus: generated, hand-written and the older files."""
    rows: list[Row] = []
    for name in ("families.jsonl", "hand_written.jsonl"):
        rows.extend(json.loads(line) for line in (DATA / name).read_text().splitlines())
    for name, kind in (("corpus.jsonl", "secret"), ("must_not_redact.jsonl", "keep")):
        for line in (DATA / name).read_text().splitlines():
            old = json.loads(line)
            rows.append(
                {
                    "family": old["format"],
                    "format": old["format"],
                    "kind": kind,
                    "line": old["line"],
                    "values": old["values"],
                }
            )
    return rows


def leaked(row: Row, redacted: str) -> list[str]:
    """Pieces of a secret value (six characters, or the whole of a shorter one) found in the
    redacted line and nowhere else in the original line."""
    context = row["line"]
    for value in row["values"]:
        context = context.replace(value, "\0")
    found = []
    for value in row["values"]:
        size = min(6, len(value))
        for start in range(len(value) - size + 1):
            piece = value[start : start + size]
            if piece in redacted and piece not in context:
                found.append(piece)
    return found


def kept(row: Row, redacted: str) -> bool:
    return all(value in redacted for value in row["values"])


def figures(rows: list[Row]) -> dict[str, tuple[int, int, int, int, int]]:
    """Per part (all, development, held out): secret rows, leaking rows, keep rows, kept
    rows, families."""
    from factledger.domain.logs.redaction import Redactor

    parts: dict[str, list[Row]] = {
        "all": rows,
        "development": [row for row in rows if not held_out(row["family"])],
        "held out": [row for row in rows if held_out(row["family"])],
    }
    result = {}
    for part, chosen in parts.items():
        secrets = [row for row in chosen if row["kind"] == "secret"]
        keeps = [row for row in chosen if row["kind"] == "keep"]
        leaking = sum(1 for row in secrets if leaked(row, Redactor().redact(row["line"])))
        intact = sum(1 for row in keeps if kept(row, Redactor().redact(row["line"])))
        families = len({row["family"] for row in chosen})
        result[part] = (len(secrets), leaking, len(keeps), intact, families)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description="redaction corpus of format families")
    parser.add_argument("--figures", action="store_true")
    arguments = parser.parse_args()
    if arguments.figures:
        for part, (secrets, leaking, keeps, intact, families) in figures(load()).items():
            print(
                f"{part:12} families {families:4}  secret lines {secrets:4}  leaking {leaking:3}"
                f"  keep lines {keeps:4}  intact {intact / max(keeps, 1):.1%}"
            )
        return
    rows = generate()
    with (DATA / "families.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} rows to {DATA / 'families.jsonl'}")


if __name__ == "__main__":
    main()
