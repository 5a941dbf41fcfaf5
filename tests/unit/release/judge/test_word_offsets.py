"""Each word of a claim is found where the claim writes it, also after a phrase the judge
reads as one word ("timed out", "time-out"): the rules that look around a word (the name
before a noun, the words beside a number) see the claim's own text.

The cited calls are of an incident of their own: a checkout service timing out on one
payment processor."""

from __future__ import annotations

from factledger.domain.release.judge.claims import parse_claim
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

PROCESSOR = log_result(
    "checkout-api",
    "timeout calling processor",
    [
        ("timeout calling processor=<*> after <*>", 7, "ERROR",
         ["timeout calling processor=westgate after 2500ms"]),
    ],
)  # fmt: skip


def test_every_word_starts_where_the_claim_writes_it() -> None:
    for text in ("checkout-api timed out calling the westgate processor.",
                 "A time-out hit the westgate processor 7 times."):  # fmt: skip
        parsed = parse_claim(text)
        for word in parsed.words:
            assert text[word.start :].lower().startswith(word.raw.lower()[:4]), word


def test_the_evidences_name_after_timed_out_passes() -> None:
    honest = "checkout-api timed out calling the westgate processor."
    assert reason_of(SUPPORT, honest, PROCESSOR) is None


def test_another_name_after_timed_out_is_refused() -> None:
    twin = "checkout-api timed out calling the eastgate processor."
    assert reason_of(SUPPORT, twin, PROCESSOR) == "UNGROUNDED_ENTITY"
