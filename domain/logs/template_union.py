"""Sets of templates joined by the batch merge: a union-find over their indexes."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

__all__ = ["components", "union"]


def union(parent: list[int], members: Sequence[int]) -> None:
    """Join the sets of ``members`` into one."""
    first = _root(parent, members[0])
    for index in members[1:]:
        other = _root(parent, index)
        if other != first:
            parent[other] = first


def _root(parent: list[int], index: int) -> int:
    while parent[index] != index:
        parent[index] = parent[parent[index]]
        index = parent[index]
    return index


def components(parent: list[int]) -> list[list[int]]:
    """The indexes of each set."""
    groups: dict[int, list[int]] = defaultdict(list)
    for index in range(len(parent)):
        groups[_root(parent, index)].append(index)
    return list(groups.values())
