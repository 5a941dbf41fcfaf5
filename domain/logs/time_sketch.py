"""Remembering a few records per stretch of time, in bounded memory, in one pass.

The sketch keeps, for each time slot, the most severe record and the first record of each of
up to ``kinds_per_slot`` kinds (templates) seen in it, so that a stretch dominated by one
kind still offers the others. Slots start one second wide; whenever more than ``max_slots``
are in use, every slot doubles in width and neighbours merge (keeping the more severe
record, and per kind the earlier one). Whatever the time range, the sketch ends with between
``max_slots / 2`` and ``max_slots`` slots spread over it, so a sample drawn from it covers
the whole range, the last minutes as well as the first.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

__all__ = ["TimeSketch"]

Item = TypeVar("Item")

_START_WIDTH: Final = 1.0

_Entry = tuple[int, int, Item]
"""(severity, order, item)."""


class _Slot(Generic[Item]):
    __slots__ = ("kinds", "severe")

    def __init__(self, severe: _Entry[Item], kinds: dict[str, _Entry[Item]]) -> None:
        self.severe = severe
        self.kinds = kinds


class TimeSketch(Generic[Item]):
    """Per time slot: the most severe record, and the first record of each of a few kinds."""

    def __init__(self, max_slots: int = 256, kinds_per_slot: int = 4) -> None:
        self.max_slots = max_slots
        self.kinds_per_slot = kinds_per_slot
        self.width = _START_WIDTH
        self._slots: dict[int, _Slot[Item]] = {}

    def offer(self, seconds: float, severity: int, order: int, kind: str, item: Item) -> None:
        """Offer a record written at ``seconds`` (epoch), of a severity rank, in input order,
        of a kind (records of one kind are interchangeable but for their time)."""
        slot_number = int(seconds // self.width)
        slot = self._slots.get(slot_number)
        if slot is None:
            entry = (severity, order, item)
            self._slots[slot_number] = _Slot(entry, {kind: entry})
            if len(self._slots) > self.max_slots:
                self._widen()
            return
        if severity > slot.severe[0]:
            slot.severe = (severity, order, item)
        kinds = slot.kinds
        if kind not in kinds and len(kinds) < self.kinds_per_slot:
            kinds[kind] = (severity, order, item)

    def _widen(self) -> None:
        while len(self._slots) > self.max_slots:
            self.width *= 2
            merged: dict[int, _Slot[Item]] = {}
            for number in sorted(self._slots):
                slot = self._slots[number]
                target = merged.get(number // 2)
                if target is None:
                    merged[number // 2] = _Slot(slot.severe, dict(slot.kinds))
                    continue
                if slot.severe[0] > target.severe[0]:
                    target.severe = slot.severe
                for kind, entry in slot.kinds.items():
                    if kind not in target.kinds and len(target.kinds) < self.kinds_per_slot:
                        target.kinds[kind] = entry
            self._slots = merged

    def entries(self) -> list[tuple[float, int, int, Item]]:
        """Every kept record as (slot start seconds, severity, order, item), once each, in
        input order."""
        seen: set[int] = set()
        result: list[tuple[float, int, int, Item]] = []
        for number, slot in self._slots.items():
            for severity, order, item in (slot.severe, *slot.kinds.values()):
                if order not in seen:
                    seen.add(order)
                    result.append((number * self.width, severity, order, item))
        result.sort(key=lambda entry: entry[2])
        return result
