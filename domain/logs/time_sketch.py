"""Remembering a few records per stretch of time, in bounded memory, in one pass.

The sketch keeps, for each time slot, the most severe record and the first record seen in
it. Slots start one second wide; whenever more than ``max_slots`` are in use, every slot
doubles in width and neighbours merge (keeping the better record). Whatever the time range,
the sketch ends with between ``max_slots / 2`` and ``max_slots`` slots spread over it, so a
sample drawn from it covers the whole range, the last minutes as well as the first.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

__all__ = ["TimeSketch"]

Item = TypeVar("Item")

_START_WIDTH: Final = 1.0


class TimeSketch(Generic[Item]):
    """Per time slot: (severity, order, item) of the most severe record, and the first."""

    def __init__(self, max_slots: int = 256) -> None:
        self.max_slots = max_slots
        self.width = _START_WIDTH
        self._severe: dict[int, tuple[int, int, Item]] = {}
        self._first: dict[int, tuple[int, int, Item]] = {}

    @property
    def severe_slots(self) -> dict[int, tuple[int, int, Item]]:
        """The most severe record kept per slot (a caller may skip ``add`` for a record no
        more severe than the one kept in its slot). Replaced when slots widen."""
        return self._severe

    def add(self, seconds: float, severity: int, order: int, item: Item) -> None:
        """Offer a record written at ``seconds`` (epoch), of a severity rank, in input order."""
        slot = int(seconds // self.width)
        kept = self._severe.get(slot)
        if kept is None:
            self._severe[slot] = (severity, order, item)
            self._first[slot] = (severity, order, item)
            if len(self._severe) > self.max_slots:
                self._widen()
        elif severity > kept[0]:
            self._severe[slot] = (severity, order, item)

    def _widen(self) -> None:
        while len(self._severe) > self.max_slots:
            self.width *= 2
            severe: dict[int, tuple[int, int, Item]] = {}
            first: dict[int, tuple[int, int, Item]] = {}
            for slot, entry in self._severe.items():
                merged = slot // 2
                other = severe.get(merged)
                if other is None or (entry[0], -entry[1]) > (other[0], -other[1]):
                    severe[merged] = entry
            for slot, entry in self._first.items():
                merged = slot // 2
                other = first.get(merged)
                if other is None or entry[1] < other[1]:
                    first[merged] = entry
            self._severe = severe
            self._first = first

    def entries(self) -> list[tuple[float, int, int, Item]]:
        """Every kept record as (slot start seconds, severity, order, item), once each."""
        seen: set[int] = set()
        result: list[tuple[float, int, int, Item]] = []
        for table in (self._severe, self._first):
            for slot, (severity, order, item) in table.items():
                if order in seen:
                    continue
                seen.add(order)
                result.append((slot * self.width, severity, order, item))
        result.sort(key=lambda entry: entry[2])
        return result
