"""Telephone numbers the blind red-team set found whole: an international number in spaced
groups right after a quote or ``=`` of a key (``phone="+44 20 …"``), and a number in one
word after a verb of calling (``dialing 0049…``, ``caller 0033…``)."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

MASKED = [
    ('phone="+44 20 7326 1373"', "7326 1373"),
    ("mobile='+33 6 12 34 56 78'", "12 34 56 78"),
    ('{"tel": "+49 30 1234 5678"}', "1234 5678"),
    ("contact=[+1 415 555 2671]", "555 2671"),
    ("dialing 00492704826571", "00492704826571"),
    ("dialled 00441632960961 failed", "00441632960961"),
    ("sip: calling 0033612345678", "0033612345678"),
    ("caller=00390612345678 hung up", "00390612345678"),
    ("callee 4155550132 busy", "4155550132"),
]

KEPT = [
    "calling 3 handlers",
    "dialing 10.0.0.5:5060",
    'retry="+3 attempts"',
    "caller=batch-7 took 1200ms",
    "calling 20260104 job",
]


@pytest.mark.parametrize(("line", "phone"), MASKED)
def test_a_phone_after_a_quote_or_a_verb_of_calling_goes(line: str, phone: str) -> None:
    assert phone not in Redactor().redact(line)


@pytest.mark.parametrize("line", KEPT)
def test_counts_addresses_and_dates_after_such_words_stay(line: str) -> None:
    redacted = Redactor().redact(line)
    assert "<PHONE>" not in redacted
