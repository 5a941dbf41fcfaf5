"""A number that the word next to it names after one numeric column, while it is a cell of
another, counts something else ("delivered 412 texts" of ``bounced`` 412).

The cited call is of an incident of its own: an SMS provider bouncing texts."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, reason_of, sql_result

TEXTS = sql_result(
    "SELECT SUM(delivered) AS delivered, SUM(bounced) AS bounced FROM sms_minutes "
    "WHERE minute >= '2026-11-28 14:00:00'",
    ["delivered", "bounced"],
    [[57, 412]],
)
BY_CARRIER = sql_result(
    "SELECT carrier, COUNT(id) AS texts, SUM(retries) AS retries FROM sms GROUP BY carrier",
    ["carrier", "texts", "retries"],
    [["telco-a", 300, 12], ["telco-b", 169, 40]],
)


def test_a_number_named_after_its_own_column_passes() -> None:
    assert reason_of(SUPPORT, "After 14:00, 412 were bounced.", TEXTS) is None
    assert reason_of(SUPPORT, "After 14:00, 57 delivered and 412 bounced.", TEXTS) is None


def test_a_number_named_after_another_column_is_refused() -> None:
    twin = "After 14:00, 412 were delivered."
    assert reason_of(SUPPORT, twin, TEXTS) == "FILTER_MISMATCH"
    twin = "After 14:00, 412 delivered and 57 bounced."
    assert reason_of(SUPPORT, twin, TEXTS) == "FILTER_MISMATCH"


def test_a_word_naming_no_column_is_not_read() -> None:
    assert reason_of(SUPPORT, "telco-b needed 40 retries.", BY_CARRIER) is None
    assert reason_of(SUPPORT, "telco-b sent 169 texts.", BY_CARRIER) is None


def test_a_compound_naming_its_column_a_word_later_passes() -> None:
    samples = sql_result(
        "SELECT MAX(lag) AS max_lag, COUNT(id) AS samples FROM lag_samples",
        ["max_lag", "samples"],
        [[79, 36]],
    )
    assert reason_of(SUPPORT, "The 36 lag samples peak at 79 messages.", samples) is None
