"""Tool names that could be mistaken for an evidence tool's name.

A name is confusable with an evidence tool when, after removing invisible characters, folding
common look-alike letters to Latin, NFKC normalisation and case folding, it equals that
tool's name or is one edit away from it. Such a call is refused, never passed through to the
host's own handler.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["fold_name", "is_confusable"]

_INVISIBLE = dict.fromkeys(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x200B, 0x200C, 0x200D,
     0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2060, 0x2061, 0x2062, 0x2063,
     0x2064, 0xFEFF]
)  # fmt: skip
_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t",
        "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
        # Latin look-alikes and separators
        "ı": "i", "ȷ": "j", "ℓ": "l", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-",
        "−": "-", "ˍ": "_", "‗": "_", "＿": "_", "·": ".", "․": ".",
    }
)  # fmt: skip


def fold_name(name: str) -> str:
    """The name with invisible characters removed and look-alikes folded."""
    visible = name.translate(_INVISIBLE)
    folded = unicodedata.normalize("NFKC", visible).casefold().translate(_LOOKALIKES)
    return unicodedata.normalize("NFKC", folded).replace("-", "_")


def _within_one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differences = [i for i in range(len(a)) if a[i] != b[i]]
        if len(differences) == 1:
            return True
        # An adjacent transposition counts as one edit.
        return (
            len(differences) == 2
            and differences[1] == differences[0] + 1
            and a[differences[0]] == b[differences[1]]
            and a[differences[1]] == b[differences[0]]
        )
    shorter, longer = (a, b) if len(a) < len(b) else (b, a)
    return any(longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer)))


def is_confusable(name: str, evidence_names: Iterable[str]) -> bool:
    """True when ``name`` is not exactly an evidence tool's name but could pass for one."""
    folded = fold_name(name)
    for evidence in evidence_names:
        if name == evidence:
            return False
        if _within_one_edit(folded, fold_name(evidence)):
            return True
    return False
