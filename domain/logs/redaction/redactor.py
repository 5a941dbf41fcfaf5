"""One redaction pass over a text: context patterns gated by keywords, then shapes per word.

Keys, header names, schemes and URL structure stay; only the sensitive value is replaced by a
typed placeholder (``password=<SECRET>``, ``Authorization: Bearer <SECRET>``,
``postgres://app:<SECRET>@<HOST>:5432/db``). A ``Redactor`` remembers the result for every
distinct word it has seen, so a repeated word costs one dictionary look-up.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from factledger.domain.json_types import JsonValue
from factledger.domain.logs.redaction import patterns
from factledger.domain.logs.redaction.context import (
    grouped_card,
    phone,
    redact_secrets,
    redact_structures,
)
from factledger.domain.logs.redaction.field_values import redact_field
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.registry import (
    CONFIRMED,
    PAIRED,
    PAIRED_CUES,
    pair_complete,
    redact_text_families,
)
from factledger.domain.logs.redaction.rejoin import redact_pieces, rejoin
from factledger.domain.logs.redaction.shape_facts import key_facts, shape_facts
from factledger.domain.logs.redaction.word_gate import (
    CONTEXT,
    DIGIT_GROUP,
    FAMILY_SHIFT,
    KEY,
    PHONE,
    KeyKind,
    confirmed_flags,
    gated,
    keyed_value,
    number_flags,
)
from factledger.domain.logs.redaction.word_shapes import (
    EMAIL_WORD,
    HAS_DIGIT,
    IPV4_WORD,
    Plan,
    apply_plan,
    is_local_address,
    names_public_value,
    names_version,
    shape_of,
)

__all__ = ["Redactor"]

_MEMO_LIMIT: Final = 200_000
_MEMO_CHARS: Final = 16_000_000
"""The word memory is emptied when the words it holds reach this many characters."""
_SECRET: Final = Placeholder.SECRET.value
_CARD: Final = Placeholder.CARD.value
_EMAIL: Final = Placeholder.EMAIL.value
_IP: Final = Placeholder.IP.value
_PAIRED_FLAGS: Final = PAIRED << FAMILY_SHIFT
_CONFIRMED_FLAGS: Final = CONFIRMED << FAMILY_SHIFT
_PAIRED_CUE_FLAGS: Final = PAIRED_CUES << FAMILY_SHIFT
_WHITE_SPACE: Final = re.compile(r"([ \t\r\n]+)")
_HEX_CHARACTERS: Final = "0123456789abcdef-"  # every character of a hex id (patterns.HEX_ID)


class Redactor:
    """Redacts texts; keep one per projection so its word memory stays bounded.

    ``word_hook``, when given, is applied once to every distinct redacted word and its result
    remembered with it (the projector masks words for template mining this way, so a word is
    looked up once for both); ``redact_words`` returns those results. A ``key=value`` word's
    result is its key followed by the hook's result for its value.
    """

    def __init__(self, word_hook: Callable[[str], str] | None = None) -> None:
        self._hook = word_hook
        self._seen: dict[str, str] = {}
        """Every word learned → the hook's result for it ("" without a hook)."""
        self._changed: dict[str, str] = {}
        """Words that redaction changes → their redaction."""
        self._hooked_redactions: dict[str, str] = {}
        # redacted words → the hook's result (many words redact to one placeholder)
        self._flagged: dict[str, int] = {}
        self._digit_groups: dict[str, bool] = {}
        self._shapes: dict[str, tuple[bool, Plan, int, str | None]] = {}
        self._keys: dict[str, tuple[KeyKind, int]] = {}
        """``key=`` prefixes → what the key says about its value, and its text family bits."""
        self._halves: dict[str, int] = {}
        self._cue_halves: dict[str, int] = {}
        """Words that pass only the gate half (``_halves``) or only the cue half
        (``_cue_halves``) of a family with a cue → those flags: a text is read for them only
        when its words pass both halves."""
        self._flags_of: dict[str, int] = {}
        self._notable: set[str] = set()
        """Every word with flags → all of them (the union of the four tables above), and the
        words of ``_flagged``, ``_digit_groups`` and ``_halves`` in one set."""
        self._texts: dict[str, tuple[str, tuple[str, ...] | None]] = {}
        """Texts with a line break or tab → their redaction and the hook's results, once asked."""
        self._memo_chars = 0
        self._digits_hook = "" if word_hook is None else word_hook("0")
        """The hook's result for a word made of digits, or of hex digits with a digit (a
        hook must treat such words alike: the projector's masks them all to a wildcard)."""

    def _bound_memory(self) -> None:
        """Forget every word once the memory is full (only between two texts)."""
        if len(self._seen) >= _MEMO_LIMIT or self._memo_chars > _MEMO_CHARS:
            self._memo_chars = 0
            for memory in (self._seen, self._changed, self._hooked_redactions, self._shapes):
                memory.clear()
            for table in (self._flagged, self._halves, self._cue_halves, self._flags_of):
                table.clear()
            self._digit_groups.clear()
            self._notable.clear()
            self._texts.clear()

    def redact(self, text: str) -> str:
        """The text with every sensitive value replaced by its placeholder."""
        if not text:
            return text
        self._bound_memory()
        if "\n" in text or "\t" in text or "\r" in text:
            return self._redact_lines(text)
        parts = text.split(" ")
        self._known(parts)
        if not self._notable.isdisjoint(parts) and self._needs_context(parts):
            rewritten = self._context(text, parts)
            if rewritten != text:
                return self._words(rewritten)
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text
        return rejoin(parts, changed)

    def redact_words(self, text: str) -> tuple[str, list[str]]:
        """The redacted text and the word hook's result for each of its words (split on
        white space). Needs a ``word_hook``."""
        hook = self._hook
        if hook is None:
            raise TypeError("redact_words needs a Redactor built with a word_hook")
        if len(self._seen) >= _MEMO_LIMIT or self._memo_chars > _MEMO_CHARS:
            self._bound_memory()
        if not text or "\n" in text or "\t" in text or "\r" in text:
            known = self._texts.get(text)
            if known is not None and known[1] is not None:
                return known[0], list(known[1])
            redacted_text = self.redact(text)
            words = tuple(map(hook, redacted_text.split()))
            self._texts[text] = redacted_text, words
            return redacted_text, list(words)
        parts = text.split(" ")
        hooked = list(map(self._seen.get, parts))
        if None in hooked:
            self._fill(parts, hooked)
        if not self._notable.isdisjoint(parts) and self._needs_context(parts):
            rewritten = self._context(text, parts)
            if rewritten != text:
                rewritten = self._words(rewritten)
                return rewritten, [hook(word) for word in rewritten.split()]
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text, hooked  # type: ignore[return-value]  # every None was replaced
        return rejoin(parts, changed), hooked  # type: ignore[return-value]  # as above

    def _known(self, parts: list[str]) -> list[str]:
        """The hook's result for every word, learning the words not seen yet."""
        hooked = list(map(self._seen.get, parts))
        if None in hooked:
            self._fill(parts, hooked)
        return hooked  # type: ignore[return-value]  # every None was replaced above

    def _fill(self, parts: list[str], hooked: list[str | None]) -> None:
        index = -1
        for _ in range(hooked.count(None)):
            index = hooked.index(None, index + 1)
            word = parts[index]
            hooked[index] = self._remember(word, *self._judge(word))[1]

    def _needs_context(self, parts: list[str]) -> bool:
        flagged = self._flagged
        if flagged and not flagged.keys().isdisjoint(parts):
            return True
        groups = self._digit_groups
        if not groups.keys().isdisjoint(parts) and sum(map(groups.__contains__, parts)) >= 3:
            return True
        halves = self._halves
        return bool(halves) and not halves.keys().isdisjoint(parts) and self._pairs_complete(parts)

    def _pairs_complete(self, parts: list[str]) -> bool:
        """True when the words pass both the gate and the cue of a family with a cue."""
        cue_halves = self._cue_halves
        if not cue_halves or cue_halves.keys().isdisjoint(parts):
            return False
        flags_of = self._flags_of
        bits = 0
        for part in parts:
            bits |= flags_of.get(part, 0)
        return pair_complete(bits >> FAMILY_SHIFT)

    def _words(self, text: str) -> str:
        parts = text.split(" ")
        self._known(parts)
        changed = self._changed
        if not changed or changed.keys().isdisjoint(parts):
            return text
        return rejoin(parts, changed)

    def _redact_lines(self, text: str) -> str:
        """A text with line breaks or tabs: context patterns over the whole text (a PEM block
        spans lines), then the words of each piece between white space. Such a text (a stack
        frame, a continuation line) is remembered whole, since many repeat."""
        known = self._texts.get(text)
        if known is not None:
            return known[0]
        lowered = text.lower()
        rewritten = text
        if patterns.SECRET_GATE.search(lowered) is not None:
            rewritten = redact_secrets(rewritten, lowered)
        if patterns.STRUCTURE_GATE.search(lowered) is not None:
            rewritten = redact_structures(rewritten, lowered)
        if "+" in rewritten or "(" in rewritten:
            rewritten = patterns.SPACED_PHONE.sub(phone, rewritten)
        rewritten = patterns.GROUPED_CARD.sub(grouped_card, rewritten)
        rewritten = redact_text_families(rewritten)
        pieces = _WHITE_SPACE.split(rewritten)
        redacted = redact_pieces(pieces, lambda word: self._lookup(word)[0])
        self._texts[text] = redacted, None
        self._memo_chars += len(text)
        return redacted

    def _context(self, text: str, parts: list[str]) -> str:
        flags_of = self._flags_of
        flags = 0
        for part in parts:
            flags |= flags_of.get(part, 0)
        groups = sum(map(self._digit_groups.__contains__, parts))
        rewritten = text
        if flags & CONTEXT:
            lowered = text.lower()
            if patterns.SECRET_GATE.search(lowered) is not None:
                rewritten = redact_secrets(rewritten, lowered)
            if patterns.STRUCTURE_GATE.search(lowered) is not None:
                rewritten = redact_structures(rewritten, lowered)
        if flags & PHONE:
            rewritten = patterns.SPACED_PHONE.sub(phone, rewritten)
        if groups >= 3:
            rewritten = patterns.GROUPED_CARD.sub(grouped_card, rewritten)
        if flags >> FAMILY_SHIFT:
            rewritten = redact_text_families(rewritten, flags >> FAMILY_SHIFT)
        return rewritten

    def _lookup(self, word: str) -> tuple[str, str]:
        """(redaction, hook result) of a word, learning it when it is new."""
        hooked = self._seen.get(word)
        if hooked is None:
            return self._remember(word, *self._judge(word))
        return self._changed.get(word, word), hooked

    def _judge(self, word: str) -> tuple[str, int, str | None]:
        """(redaction, context flags, the word hook's result when the shape decides it) of a
        word, nothing remembered about the word itself."""
        if word.isdigit():
            flags = DIGIT_GROUP if 4 <= len(word) <= 7 else 0
            if (word[0] == "0" and len(word) <= 5) or 8 <= len(word) <= 10:
                flags |= number_flags(len(word), word[0] == "0")
            if 13 <= len(word) <= 19 and patterns.luhn_valid(word):
                return _CARD, flags, None
            return word, flags, self._digits_hook
        equals = word.find("=")
        if 0 < equals < len(word) - 1 and word[equals + 1] != "=":
            known_key = self._keys.get(word[: equals + 1])
            if known_key is not None or (
                KEY(word, len(word) - len(word.lstrip(".-")), equals) is not None
                and (equals < 20 or HAS_DIGIT(word, 0, equals) is None)
            ):
                return self._judge_pair(word, equals, known_key)
        if "@" in word and EMAIL_WORD(word) is not None:
            return _EMAIL, CONTEXT if gated(word.lower()) else 0, None
        if not word.strip(_HEX_CHARACTERS) and patterns.HEX_ID(word) is not None:
            return word, 0, self._digits_hook if HAS_DIGIT(word) is not None else None
        shape = shape_of(word)
        known = self._shapes.get(shape)
        if known is None:
            known = self._shape_of(shape)
            self._shapes[shape] = known
        maybe_address, plan, flags, shape_hook = known
        if (
            maybe_address
            and (address := IPV4_WORD(word)) is not None
            and not is_local_address(address.group(1))
        ):
            return _IP + (address.group(2) or ""), 0, None
        if flags & _CONFIRMED_FLAGS:
            flags = confirmed_flags(word, flags)
        if plan:
            redacted = apply_plan(word, plan)
            if redacted is not word:
                return redacted, flags, None
        return word, flags, shape_hook

    def _judge_pair(
        self, word: str, equals: int, known_key: tuple[KeyKind, int] | None
    ) -> tuple[str, int, str | None]:
        """Judge a ``key=value`` word: the key says what the value is; the value is judged as
        a word of its own (looked up when it was seen alone, else not remembered: most
        values are seen once)."""
        key = word[: equals + 1]
        if known_key is None:
            known_key = key_facts(key)
            self._keys[key] = known_key
        kind, flags = known_key
        value = word[equals + 1 :]
        if kind is KeyKind.CONTEXT:
            flags |= CONTEXT
        elif kind is not KeyKind.PLAIN:
            keyed = keyed_value(kind, value, key)
            if keyed is not None:
                flags |= CONTEXT | self._judge(value)[1] if keyed is value else 0
                return key + keyed, flags, None
        if value.isdigit() and len(value) < 13:
            found, value_hook = value, self._digits_hook
            if (value[0] == "0" and len(value) <= 5) or 8 <= len(value) <= 10:
                flags |= number_flags(len(value), value[0] == "0")
            flags |= DIGIT_GROUP if 4 <= len(value) <= 7 else 0  # a card's group (``pan=3782 …``)
        elif (known := self._seen.get(value)) is not None:
            found, value_hook = self._changed.get(value, value), known
            flags |= self._flags_of.get(value, 0)
            found = value if found.startswith(_IP) and names_version(key) else found
        else:
            found, value_flags, value_shape_hook = self._judge(value)
            if found.startswith(_IP) and names_version(key):
                found, value_shape_hook = value, None
            value_hook = self._hook_result(found, value_shape_hook)
            flags |= value_flags
        if found is not value and names_public_value(key):
            found, value_hook = value, self._hook_result(value, None)
        redacted = word if found is value else key + found
        return redacted, flags, key + value_hook

    def _remember(
        self, word: str, redacted: str, flags: int, shape_hook: str | None
    ) -> tuple[str, str]:
        """Remember a new word: its redaction, context flags and word hook's result."""
        self._memo_chars += len(word)
        hooked = shape_hook if shape_hook is not None else self._hook_result(redacted, None)
        self._seen[word] = hooked
        if redacted != word:
            self._changed[word] = redacted
        if not flags:
            return redacted, hooked
        self._flags_of[word] = flags
        if flags & DIGIT_GROUP:
            self._digit_groups[word] = True
            self._notable.add(word)
            flags &= ~DIGIT_GROUP
        if flags and (flags & ~_PAIRED_FLAGS or pair_complete(flags >> FAMILY_SHIFT)):
            self._flagged[word] = flags
            self._notable.add(word)
        elif flags & _PAIRED_CUE_FLAGS:
            self._cue_halves[word] = flags
        elif flags:
            self._halves[word] = flags
            self._notable.add(word)
        return redacted, hooked

    def _hook_result(self, redacted: str, shape_hook: str | None) -> str:
        """The word hook's result for a redacted word (``shape_hook`` when the shape decided
        it; "" without a hook)."""
        if shape_hook is not None:
            return shape_hook
        if self._hook is None:
            return ""
        remembered = self._hooked_redactions.get(redacted)
        if remembered is None:
            remembered = self._hook(redacted)
            self._hooked_redactions[redacted] = remembered
        return remembered

    def _shape_of(self, shape: str) -> tuple[bool, Plan, int, str | None]:
        """(whether a word of this shape may be an IPv4 address, shape plan, context flags,
        the word hook's result for any unchanged word of this shape) — all independent of
        digit values."""
        hooked = None if self._hook is None else self._hook(shape)
        return (*shape_facts(shape), hooked)

    def redact_value(self, key: str, value: JsonValue) -> JsonValue:
        """A structured field's value, redacted: wholly when its key names a credential."""
        return redact_field(self.redact, key, value)
