"""Words of claims and evidence: folding, stems, vocabulary classes and negation scope.

A word is folded before it is compared: lower case, British spellings to American ones
("authorisation" → "authorization"), common inflections stripped ("exhausted", "exhaustion"
→ "exhaust"), hyphenated and snake-case words split into their parts. Function words are left
out; decisive words (failed, error, problem, timeout, ...) never are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from attrs import frozen

from factledger.domain.release.judge.timed_out import joined_timeout

__all__ = [
    "STATUS_CLASS",
    "ACRONYMS",
    "CAUSAL_CLAIM",
    "CAUSAL_EVIDENCE",
    "FORMAT_WORDS",
    "MEASURE_WORDS",
    "AGGREGATE_SYNONYMS",
    "CLAUSE_SEPARATOR",
    "DEPLETED",
    "META",
    "QUANTIFIER_GROUPS",
    "synonyms",
    "SPECIFIC_TROUBLE",
    "SYMPTOMS",
    "TROUBLE",
    "Marks",
    "Word",
    "clauses",
    "joined_timeout",
    "content_of",
    "content_stems",
    "stem",
    "word_marks",
    "words",
]


def _words(text: str) -> frozenset[str]:
    """The words of a list written as text."""
    return frozenset(text.split())


STATUS_CLASS = r"(?<![0-9A-Za-z])[1-5][xX]{2}(?![0-9A-Za-z])"
"""An HTTP status class (``5xx``) is one word, not a digit and ``xx``."""
_WORD = re.compile(rf"{STATUS_CLASS}|[A-Za-z][A-Za-z']*|\d+")
_SPLIT = re.compile(
    r"(?=[.;:!?()\[\]|,\s\-–—bw])"  # a cheap first-character test before the alternatives
    r"(?:[.;:!?()\[\]|]+\s|[;|()\[\]]|,\s|\s[-–—]\s|\n|\b(?:but|while|whereas)\b)"
)
CLAUSE_SEPARATOR = _SPLIT
"""What ends a clause: sentence and clause punctuation before a space, a semicolon, a bracket
or a bar, a dash between spaces, a newline, "but", "while" and "whereas"."""
_SEPARATING = frozenset(".;:!?()[]|,\n-–—")
_SEPARATING_WORDS = ("but", "while", "whereas")
"""What every clause separator (``_SPLIT``) holds: a text with none of them is one clause."""
_BRITISH = re.compile(r"is(ation|ations|e|ed|es|ing)$")
_BRITISH_ENDINGS = ("isation", "isations", "ise", "ised", "ises", "ising", "\n")
"""How a word ``_BRITISH`` changes ends (its ``$`` also matches before a final newline)."""
_SUFFIXES = (
    "ations", "ation", "itions", "ition", "ions", "ion", "ements", "ement", "ments", "ment",
    "ness", "ities", "ity", "ures", "ure", "ings", "ing", "edly", "ed", "ers", "ies", "es",
    "s", "ly", "er", "als", "al",
)  # fmt: skip
_SUFFIXES_BY_LAST: dict[str, tuple[str, ...]] = {
    last: tuple(suffix for suffix in _SUFFIXES if suffix.endswith(last))
    for last in {suffix[-1] for suffix in _SUFFIXES}
}
"""The suffixes by their last letter, each list in the order of ``_SUFFIXES``: a word is
tried only against the suffixes it can end with."""
_NEGATION = _words(
    "not no never none nothing neither nor without cannot nobody nowhere zero against avoid"
)
_STOP = _words(
    """a an the of to in on at by for from with as is are was were be been being it its this
    that these those there their they them we our you your he she his her i me my and or if
    then than so such also too very just into onto out up down off over about after before
    since until between during per via while when where which who whom whose what how why
    has have had having do does did doing can could may might must shall should will would
    s t one both each other same own more most some any all every only again further once
    here ll re ve d m o y"""
)
_FOLDS = {
    "success": "succeed", "successful": "succeed", "successfully": "succeed",
    "succeeded": "succeed", "succeeds": "succeed", "failure": "fail", "failures": "fail",
}  # fmt: skip
_FAIL_AFTER = frozenset({"fail", "failed", "fails", "failing"})
_FAILED_TO = _FAIL_AFTER | {"unable"}
"""Before "to" and a verb ("failed to rotate", "unable to open"): the act is denied."""
_LIGHT = frozenset({"go", "goes", "went", "be", "been"})
_CAUSING = _words("make makes made making let lets letting")
"""A denied causative denies what it would have caused, not its object ("did not make quotes
*fail*")."""
_BOUND_AFTER = re.compile(
    r"(?:\s+[a-z]+)?(?:\s+by)?\s+(?:more|less|fewer|above|over|below|under|beyond|"
    r"higher|lower|exceed\w*)\b",
    re.IGNORECASE,
)
_BOUND_THAN = re.compile(
    r"(?:\s+[\w'-]+){1,3}?\s+(?:more|less|fewer|higher|lower|longer|shorter|later|earlier|"
    r"slower|faster|larger|smaller|greater|bigger)\s+than\s+(?:about\s+|around\s+|roughly\s+)?\d",
    re.IGNORECASE,
)
"""After "no", a comparison a few words on ("no batch took more than 9,060 ms"): the "no"
denies a larger value, not the batches (a "not" or "never" still denies its verb: "do not
raise it higher than 60")."""
_COMPARED = re.compile(r"\s+(?:(?:only|just|about|roughly|around)\s+)?\d")
"""After "against", a number: a comparison ("46 failed against 3 before"), no denial."""
META = _words(
    """log logs logged logging line lines entry entries row rows record records result results
    query queries queried search searched show shows showed shown see seen saw find found
    finding match matched matches matching return returned returns evidence runbook runbooks
    document documents doc docs section says say said state states stated note notes noted
    indicate indicates indicated report reports reported observed observe observation appear
    appears appeared contain contains contained mention mentions mentioned table column count
    counted counts total number"""
)
"""Words about the evidence itself rather than what it tells (not required to appear)."""
_MARKING = _NEGATION | _STOP | _FAIL_AFTER | _LIGHT | META
"""Words that change how the words after them are read, or are left out (``words``): every
other word is a plain content word."""
ACRONYMS = _words(
    """utc gmt cet z http https sql api apis cpu cpus db dbs ram tls ssl dns url urls id ids json
    xml tcp udp ip ok p50 p90 p95 p99 p999 qps rps tps sla slo slos eta am pm ui ux os vm vms
    k8s aws gcp io ntp smtp rest rpc grpc ci cd iso gc jvm oom mtls"""
)
"""Common acronyms: never identifiers that must appear verbatim (still words of a claim)."""
MEASURE_WORDS = _words(
    """went go goes gone going rose rise rises risen rising fell fall falls fallen falling
    grew grow grows grown growing climbed climb climbs dropped drop drops jumped jump jumps
    increase increased increases decrease decreased decreases higher lower times took take
    takes taken roughly average averaged averages mean median half quarter twice double
    doubled tripled fold previous prior earlier later still against compared versus vs
    above below beyond exceed exceeded exceeds nearly almost afterwards afterward already
    longer shorter slower faster larger smaller bigger greater little"""
)
"""Words that relate or measure numbers ("went from 3 to 46", "took 5 s", "twice"): the
numbers carry the claim; these words are not required to appear in the evidence."""
AGGREGATE_SYNONYMS: dict[str, frozenset[str]] = {
    "avg": _words("averag mean typical"),
    "max": _words("max maximum worst peak highest slowest largest top longest"),
    "min": _words("min minimum lowest fastest smallest shortest"),
    "sum": _words("total overall combined"),
    "count": _words("number total"),
}
"""What a SQL aggregate of the cited query lets a claim call its value."""
DEPLETED = _words("idle free available remaining left spare")
"""Fields whose value zero shows a resource used up (``idle=0``, ``free_bytes: 0``)."""
_SYNONYM_GROUPS = (
    "volume disk mount filesystem drive partition storage",
    "free left available remaining spare unused",
    "request call",
    "start begin began begun",
    "stop halt ceas",
    "server host node machine instance",
    "deploy release rollout",
    "restart reboot",
    "message record event",
    "grow rise climb increas",
    "drop fall declin decreas",
)
"""Common operations words that stand for one another in a paraphrase (word coverage
only: never for polarity, entities or decisive words); see ``synonyms``."""
FORMAT_WORDS = _words("utc gmt cet z am pm iso ok id ids")
"""Words that only format a value (a time zone, a clock half): never required."""
TROUBLE = _words("fail error problem issue fault trouble broken incident outage degrad bad")
"""Generic trouble words: one stands for another."""
SYMPTOMS = _words("stop cannot unabl lag pressur full affect high spik miss wait stuck pend")
"""Words of evidence that describe trouble without naming it (they back a generic one)."""
SPECIFIC_TROUBLE = _words(
    """deadlock timeout exhaust crash leak throttl reject refus panic saturat overload
    unreachable unavailable backlog oom evict outofmemory"""
)
"""Specific trouble words: each must be matched by the same word (stem) in the evidence."""
QUANTIFIER_GROUPS: dict[str, frozenset[str]] = {
    "universal": _words("all every each entire whole always everything everyone"),
    "exclusive": _words("only solely exclusively sole"),
    "dual": frozenset(["both"]),
    "existential": _words("some several few partly partially"),
    "majority": _words("most majority mostly"),
}
"""Quantifier words by what they claim."""
CAUSAL_CLAIM = re.compile(
    r"\b(because|caused\s+by|caus\w*|due\s+to|owing\s+to|led\s+to|leads?\s+to|leading\s+to|"
    r"result(?:s|ed)?\s+(?:in|from)|as\s+a\s+result|triggered|responsible\s+for|root\s+cause|driven\s+by|"
    r"ma(?:de|kes?)\s+(?:\w+\s+){0,3}?(?:die|fail|crash|stop|break|expire|time\s+out)|"
    r"therefore|hence|consequently)\b",
    re.IGNORECASE,
)
"""Causal wording in a claim (needs evidence that says why)."""
CAUSAL_EVIDENCE = re.compile(
    r"\b(because|caused\s+by|caus\w*|due\s+to|owing|led|leads?|result\w*|trigger\w*|responsible|from|"
    r"therefore|hence|so|means?|makes?|when|ties|tied|driven|explains?)\b",
    re.IGNORECASE,
)
"""Causal wording in evidence (a runbook's "from", "because", "means", ...)."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The folded form of one word."""
    word = word.lower().strip("'")
    if "'" in word:
        if word.endswith("n't"):
            return "not"
        if word.endswith("'s"):
            word = word[:-2]
    if word in {"timed", "time-out", "timeouts"}:
        return "timeout" if word != "timed" else "time"
    if word.endswith(_BRITISH_ENDINGS):
        word = _BRITISH.sub(r"iz\1", word)
    word = _FOLDS.get(word, word)
    for suffix in _SUFFIXES_BY_LAST.get(word[-1:], ()):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            if suffix == "s" and word.endswith("ss"):
                break
            cut = len(suffix)
            if suffix == "es" and not word[:-2].endswith(("s", "x", "z", "ch", "sh")):
                cut = 1
            elif suffix == "ies":
                cut = 2  # "retries" as "retried": "retri"
            word = word[:-cut]
            break
    if word.endswith("e") and len(word) > 4:
        word = word[:-1]
    elif word.endswith("y") and len(word) >= 4 and word[-2] not in _VOWELS:
        word = word[:-1] + "i"  # "retry" as "retried" and "retries": "retri"
    return word


_VOWELS = frozenset("aeiouy")


@lru_cache(maxsize=1)
def _synonym_table() -> dict[str, frozenset[str]]:
    table: dict[str, frozenset[str]] = {}
    for group in _SYNONYM_GROUPS:
        members = frozenset(stem(word) for word in group.split())
        for member in members:
            table[member] = members - {member}
    return table


def synonyms(word_stem: str) -> frozenset[str]:
    """The stems that stand for ``word_stem`` in a paraphrase ("volume" for "disk")."""
    return _synonym_table().get(word_stem, frozenset())


@frozen
class Word:
    """One word of a text with its place and negation."""

    raw: str
    stem: str
    negated: bool
    start: int
    head: bool = False
    """The first word a negation applies to ("not *gradually*", "never go *above*")."""
    failed: bool = False
    """Followed by "failed" ("*renewal* failed"): denied as well as affirmed."""


Marks = tuple[str, str, bool, int, bool, bool]
"""A word read without building its ``Word``: raw, stem, negated, start, head, failed (the
fields of ``Word`` in order)."""


def words(text: str) -> tuple[Word, ...]:
    """The content words of ``text`` (function words left out), each marked negated when it
    is one of the two content words after a negation in the same clause. A "without" in a
    clause already negated is a double negation: the words after it are affirmed."""
    return tuple(Word(*marks) for marks in word_marks(text))


def word_marks(text: str) -> list[Marks]:
    """``words`` of ``text`` as plain tuples (the fields of each ``Word`` in order), for
    readers that only fold the words into sets of stems."""
    found: list[Marks] = []
    if "tim" in text.lower():
        text = joined_timeout(text)
    for clause_start, clause in _clause_spans(text):
        left = 0
        denied = failing = caused = False
        previous = ""
        for match in _WORD.finditer(clause):
            raw = match.group()
            low = raw.lower()
            prior, previous = previous, low
            if low not in _MARKING and not low.endswith("n't"):
                if not low.isdigit():  # a plain content word: the negation reaches it
                    denies = failing or (left > 0 and not _trouble_free(found, low, left))
                    found.append(
                        (raw, stem(low), denies and not caused, clause_start + match.start(),
                         left == 2 or failing, False)
                    )  # fmt: skip
                    left = left - 1 if left and not caused else left
                    caused, failing = denies and left == 1 and low in _CAUSING, False
                continue
            failing = low == "to" and prior in _FAILED_TO
            if low == "all" and prior == "at":
                left = 0  # "no 5xx at all in its requests": "at all" closes the denial
                continue
            if low == "without" and denied:
                left = 0  # "never deploy ... without warming": warming is affirmed
                continue
            if low in _NEGATION or low.endswith("n't"):
                end = match.end()
                bounds = (low == "no" and _BOUND_THAN.match(clause, end) is not None) or (
                    low == "against" and _COMPARED.match(clause, end) is not None
                )
                if not (_BOUND_AFTER.match(clause, end) or bounds):
                    left, denied = 2, True  # "never above 79" bounds a number instead
                    _deny_verb(found, low, prior, clause_start)
                continue
            if low in _FAIL_AFTER and found and found[-1][3] >= clause_start:
                found[-1] = (*found[-1][:5], True)
            if low in _STOP or low.isdigit():
                continue
            head = left == 2 and low not in _LIGHT
            found.append((raw, stem(low), left > 0, clause_start + match.start(), head, False))
            if not (left == 2 and low in _LIGHT) and low not in META:
                left = max(0, left - 1)  # "did not log any X": the negation reaches X
    return found


def _deny_verb(found: list[Marks], low: str, prior: str, clause_start: int) -> None:
    """A verb right before "no" is denied with its object ("created no job")."""
    if low != "no" or not found or found[-1][3] < clause_start:
        return
    raw, word_stem, negated, start = found[-1][:4]
    if not negated and raw.lower() == prior and prior.endswith("ed"):
        found[-1] = (raw, word_stem, True, start, False, found[-1][5])


def _trouble_free(found: list[Marks], low: str, left: int) -> bool:
    """True when ``low`` is an act right after a denied trouble word: "no trouble *flushing*"."""
    if left != 1 or not low.endswith("ing") or not found or not found[-1][4]:
        return False
    return any(found[-1][1].startswith(word[:5]) for word in TROUBLE)


def _clause_spans(text: str) -> Iterable[tuple[int, str]]:
    if _SEPARATING.isdisjoint(text) and all(word not in text for word in _SEPARATING_WORDS):
        return ((0, text),)  # nothing a separator begins with: one clause
    return _split_spans(text)


def _split_spans(text: str) -> Iterable[tuple[int, str]]:
    start = 0
    for match in _SPLIT.finditer(text):
        yield start, text[start : match.start()]
        start = match.end()
    yield start, text[start:]


@lru_cache(maxsize=128)
def clauses(text: str) -> tuple[str, ...]:
    """The clauses of ``text`` (split at sentence and clause punctuation), remembered by text
    (a call's prose is split again whenever the call is judged again; a few calls' worth, as a
    call's prose may be a whole observation)."""
    if " " not in text:
        return (text,) if text else ()
    return tuple(part for part in _SPLIT.split(text) if part.strip())


def content_stems(text: str) -> frozenset[str]:
    """The folded content words of ``text`` that are not about the evidence itself."""
    return frozenset(
        marks[1]
        for marks in word_marks(text)
        if marks[0].lower() not in META and marks[1] not in FORMAT_WORDS
    )


def content_of(found: Iterable[Word]) -> frozenset[str]:
    """The stems of ``found`` (words already read) that are not about the evidence itself."""
    return frozenset(
        w.stem for w in found if w.raw.lower() not in META and w.stem not in FORMAT_WORDS
    )
