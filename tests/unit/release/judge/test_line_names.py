"""Names a sentence of a claim joins must be joined by one line of the evidence when its
lines bind such names together; names the lines write one a line are not held to one.

The cited calls are of an incident of their own: a deploy controller that rolled out new
replicas while old ones were still draining."""

from __future__ import annotations

from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

ROLLOUT = log_result(
    "deploy-ctl",
    "still draining",
    [
        ("started replica <*> while <*> still draining", 3, "INFO",
         ["started replica web-7 while web-5 still draining",
          "started replica web-8 while web-5, web-6 still draining",
          "started replica web-9 while web-6, web-7 still draining"]),
    ],
)  # fmt: skip
CALLERS = log_result(
    "auth-api",
    "expired token",
    [
        ("expired token from <*>", 30, "WARN",
         ["expired token from shop-ui", "expired token from admin-ui",
          "expired token from batch-job"]),
    ],
)  # fmt: skip


def test_names_of_one_line_pass() -> None:
    honest = "deploy-ctl started web-8 while web-5 and web-6 were still draining."
    assert reason_of(SUPPORT, honest, ROLLOUT) is None


def test_names_of_lines_written_one_a_line_pass() -> None:
    honest = "auth-api saw expired tokens from shop-ui, admin-ui and batch-job."
    assert reason_of(SUPPORT, honest, CALLERS) is None


def test_names_of_different_lines_joined_are_refused() -> None:
    twin = "deploy-ctl started web-8 while web-5 and web-7 were still draining."
    assert reason_of(SUPPORT, twin, ROLLOUT) == "UNGROUNDED_ENTITY"
