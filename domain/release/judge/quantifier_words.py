"""Where a quantifier word of a claim claims something of every, some or most records.

A quantifier word claims unless a count follows it ("every five minutes", "only about
2.3 GiB"), it is a rate's ("for all", "per every") or it stands in an idiom that claims
nothing of the records ("no 503 at all between ...", "89 in all", "all told", "over the
whole morning").
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.release.judge.words import QUANTIFIER_GROUPS

__all__ = ["QUANTIFIER_CLAIMED", "QUANTIFIER_WORD"]

_COUNTED = (
    r"(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|a|an|about|around|"
    r"roughly|nearly|almost|some)\b)"
)
"""After a quantifier word, a number: "only about 2.3 GiB", "every five minutes" count."""
QUANTIFIER_WORD: Final = {
    word: re.compile(rf"\b{word}\b") for group in QUANTIFIER_GROUPS.values() for word in group
}
_PHRASE_END = r"(?=\s*(?:[,.;:)]|$|\s(?:in|between|from|since|during|after|before|on|until)\b))"
_IDIOMS = {
    "all": rf"(?!(?<=\bat all){_PHRASE_END})(?!(?<=\bin all){_PHRASE_END})(?!\s+told\b)",
    "whole": r"(?!\s+(?:day|night|hour|morning|afternoon|evening|week|window|period|incident"
    r"|outage|time|interval)s?\b)",
}
_IDIOMS["entire"] = _IDIOMS["whole"]
"""Where a quantifier word claims nothing of every record: "no 503 at all", "89 in all",
"all told", "over the whole day" (a window, not a quantifier)."""
QUANTIFIER_CLAIMED: Final = {
    word: re.compile(rf"(?<!for )(?<!per )\b{word}\b(?!\s+{_COUNTED}){_IDIOMS.get(word, '')}")
    for group in QUANTIFIER_GROUPS.values()
    for word in group
}
"""A quantifier word that claims (not "for all", "per every", not a count's, not an idiom's)."""
