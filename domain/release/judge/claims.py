"""A claim, parsed: its times, numbers, identifiers and clauses.

Identifiers are the tokens that must appear verbatim: error codes and mixed letter-digit
tokens (``GW-504``, ``ord_340873``), snake-case and dotted names (``primary_weight``,
``routing.acquirer.primary_weight``), digits with a leading zero (``migration 0142``).
Hyphenated words (``card-gateway``, ``connection-pool``) are compounds: verbatim when they
name something of the run, else read as their words. Upper-case words are ordinary words,
common acronyms (UTC, HTTP, SQL) and status classes (``5xx``) are never required.
"""

from __future__ import annotations

import re
from functools import lru_cache

from attrs import frozen

from factledger.domain.release.judge.instants import ClaimTime, claim_times, mask
from factledger.domain.release.judge.quantities import Quantity, claim_quantities
from factledger.domain.release.judge.words import ACRONYMS, STATUS_CLASS, Word, content_of, words

__all__ = ["ParsedClaim", "parse_claim", "present", "spans"]

_TOKEN = re.compile(
    r"(?<![\w.\-/])(?=[\w.\-/:]*[A-Za-z])[A-Za-z0-9]+(?:[-_./:][A-Za-z0-9]+)*(?![\w-])"
)
_PATH = re.compile(
    r"(?<![\w.\-/])/[A-Za-z0-9_.{}\-]*[A-Za-z][A-Za-z0-9_.{}\-]*(?:/[A-Za-z0-9_.{}\-]+)*"
    r"|(?<=[(`'\"])/(?=[)`'\"])"
)
"""A path (``/v2/cart``, ``/var/lib/shipment-tracker``, the root ``(/)`` or `` `/` ``): an
identifier, verbatim."""
_CLAUSE = re.compile(r",\s|;|\.\s|\band\b|\bbut\b|\bwhile\b|\bwhereas\b|:\s")
_HYPHEN_UNIT = re.compile(
    r"(\d)-(ms|millisecond|second|sec|minute|min|hour|day|byte|kb|mb|gb|percent)\b", re.I
)
_UNIT_WORD = re.compile(r"^\d+(?:\.\d+)?(?:ms|s|m|h|min|kb|mb|gb|kib|mib|gib|b|x)$", re.I)
_PER_TIME = re.compile(r"^[A-Za-z]+/(?:s|sec|second|min|minute|h|hr|hour|day)$", re.I)
"""A unit per a unit of time (``MB/s``, ``records/min``): no identifier."""
_COMPOUND = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
_LABEL = re.compile(r"(?<![\w.,:/-])0\d{2,}(?![\w.,:/-])")
"""Digits with a leading zero (``0142``, ``007``): a label (a migration, a job), no count."""
_STATUS_CLASS = re.compile(STATUS_CLASS)
"""An HTTP status class (``5xx``): an ordinary word, never an identifier."""
_MARKED = re.compile(r"[\d_./]")
"""A digit or a name's separator: the token is an identifier."""


@frozen
class ParsedClaim:
    """What the rules read of a claim."""

    text: str
    times: tuple[ClaimTime, ...]
    quantities: tuple[tuple[Quantity, int], ...]
    """Each number with where it starts."""
    identifiers: tuple[str, ...]
    compounds: tuple[str, ...]
    words: tuple[Word, ...]
    stems: frozenset[str]
    clauses: tuple[tuple[int, int], ...]
    """Clause spans (start, end)."""

    @property
    def keys(self) -> frozenset[str]:
        """The beginnings of its words: which evidence clauses are about it."""
        return frozenset(word.stem[:4] for word in self.words if len(word.stem) >= 3)

    def clause_at(self, position: int) -> str:
        """The clause holding ``position``."""
        for start, end in self.clauses:
            if start <= position < end:
                return self.text[start:end]
        return self.text


def spans(text: str, separator: re.Pattern[str] | None = None) -> tuple[tuple[int, int], ...]:
    """The (start, end) spans of ``text`` between matches of ``separator`` (clauses when
    None)."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in (separator or _CLAUSE).finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    return tuple(spans)


@lru_cache(maxsize=2048)
def parse_claim(text: str) -> ParsedClaim:
    """Parse one claim or conclusion (remembered by text: a parsed claim is a frozen value)."""
    text_units = _HYPHEN_UNIT.sub(r"\1 \2", text)
    times = claim_times(text_units)
    masked = mask(text_units, times)
    identifiers: list[str] = []
    compounds: list[str] = []
    blanked = list(masked)
    for m in _PATH.finditer(masked):
        identifiers.append(m.group().rstrip(".:"))
        blanked[m.start() : m.end()] = " " * (m.end() - m.start())
    for m in _TOKEN.finditer("".join(blanked)):
        token = m.group().rstrip(".:/")
        low = token.lower()
        if low in ACRONYMS or _UNIT_WORD.match(token) or _PER_TIME.match(token):
            continue
        if _STATUS_CLASS.fullmatch(token):
            continue
        if _COMPOUND.fullmatch(token):
            compounds.append(token)
        elif _MARKED.search(token):
            identifiers.append(token)
            blanked[m.start() : m.end()] = " " * (m.end() - m.start())
    for m in _LABEL.finditer("".join(blanked)):
        identifiers.append(m.group())
        blanked[m.start() : m.end()] = " " * (m.end() - m.start())
    quantities = claim_quantities("".join(blanked))
    found = words(masked)
    return ParsedClaim(
        text, times, quantities, tuple(identifiers), tuple(compounds), found,
        content_of(found), spans(text),
    )  # fmt: skip


def present(token: str, text: str) -> bool:
    """True when ``token`` is in ``text`` (lower-cased) as a whole token."""
    low = token.lower()
    return low in text and _whole(low).search(text) is not None


@lru_cache(maxsize=4096)
def _whole(token: str) -> re.Pattern[str]:
    return re.compile(r"(?<![0-9a-z])" + re.escape(token) + r"(?![0-9a-z])")
