"""A number after a word that names what it identifies (``pid 7731``, ``job 5512``, ``build
#88``) in log text is an identifier of that thing: the claim that writes it after the same
word is grounded by the text holding it, whatever record or count it sits beside; another
number after the word is not.

The cited calls are of an incident of their own: a print spooler whose render workers are
killed by the kernel's OOM killer."""

from __future__ import annotations

import pytest

from factledger.domain.json_types import JsonObject
from tests.unit.release.judge.incidents import SUPPORT, log_result, reason_of

KILLED = log_result(
    "print-spooler",
    "killed process",
    [
        ("oom-kill: killed process <*> (render-worker) total-vm:<*>kB", 14, "ERROR",
         ["oom-kill: killed process 7731 (render-worker) total-vm:4194304kB",
          "oom-kill: killed process 7731 (render-worker) total-vm:4194304kB"]),
    ],
)  # fmt: skip
"""The kernel killed render-worker pid 7731 fourteen times' worth of log lines."""

WAITING = log_result(
    "print-spooler",
    "waiting for lock",
    [
        ("queue <*> waiting for lock held by pid <*>", 22, "WARN",
         ["queue invoices waiting for lock held by pid 9052",
          "queue invoices waiting for lock held by pid 9052"]),
    ],
)  # fmt: skip
"""The invoices queue waited 22 times on a lock held by pid 9052."""

CASES = [
    (
        "pid of a killed process",
        "The OOM killer killed render-worker pid 7731.",
        "The OOM killer killed render-worker pid 7713.",
        KILLED,
    ),
    (
        "pid holding a lock",
        "The invoices queue kept waiting for a lock held by pid 9052.",
        "The invoices queue kept waiting for a lock held by pid 9025.",
        WAITING,
    ),
    (
        "process id spelled out",
        "The spooler logged that process 7731, a render-worker, was killed.",
        "The spooler logged that process 7737, a render-worker, was killed.",
        KILLED,
    ),
]


@pytest.mark.parametrize(("family", "honest", "twin", "cited"), CASES)
def test_a_bare_identifier_of_log_text_is_grounded_as_written(
    family: str, honest: str, twin: str, cited: JsonObject
) -> None:
    assert reason_of(SUPPORT, honest, cited) is None, family
    assert reason_of(SUPPORT, twin, cited) is not None, family


def test_an_identifier_is_no_count() -> None:
    """pid 9052 names the holder; "9052 waits" counts what the log does not."""
    claim = "The invoices queue waited 9052 times for the lock."
    assert reason_of(SUPPORT, claim, WAITING) is not None
