"""The semantic judge: does the verified evidence support the draft? It is the release's last
guard, after the evidence guard has checked every citation."""

from __future__ import annotations

from typing import Protocol, TypeAlias

from attrs import frozen

from factledger.domain.release.judge import ClaimEvidence

__all__ = [
    "JudgeAnswer",
    "JudgeFinding",
    "JudgeRequest",
    "JudgeSupported",
    "JudgeUnavailable",
    "JudgeUnsupported",
    "SemanticJudge",
]


@frozen
class JudgeRequest:
    """The conclusion and every claim with its verified, cited content."""

    conclusion: str
    """The draft's conclusion."""
    claims: tuple[ClaimEvidence, ...]
    """Each analysis with the canonical agent results it cites (never the model's history)."""


@frozen
class JudgeSupported:
    """Every claim and the conclusion are supported."""

    usage: tuple[int, int] | None = None
    """Prompt and completion tokens, when a model was called."""


@frozen
class JudgeFinding:
    """One thing the evidence does not support."""

    analysis_index: int
    """The unsupported analysis (-1 for the conclusion)."""
    reason: str
    """A stable reason code (``UNGROUNDED_NUMBER``, ``POLARITY_MISMATCH``, ...)."""
    token: str | None = None
    """The offending words, quoted from the claim (never from the evidence), when that helps
    the agent mend its draft."""


@frozen
class JudgeUnsupported:
    """Something is not supported by its evidence."""

    findings: tuple[JudgeFinding, ...]
    """What is unsupported, in analysis order (at least one)."""
    usage: tuple[int, int] | None = None
    """Prompt and completion tokens, when a model was called."""

    @property
    def unsupported(self) -> tuple[int, ...]:
        """Indexes of unsupported analyses (-1 for the conclusion), each once."""
        return tuple(dict.fromkeys(finding.analysis_index for finding in self.findings))

    @property
    def reason(self) -> str:
        """The first finding's reason code."""
        return self.findings[0].reason


@frozen
class JudgeUnavailable:
    """The judge gave no verdict (timeout, error, unreadable answer)."""

    reason: str
    """A short code."""
    usage: tuple[int, int] | None = None
    """Prompt and completion tokens, when a model answered."""


JudgeAnswer: TypeAlias = JudgeSupported | JudgeUnsupported | JudgeUnavailable
"""One attempt's answer."""


class SemanticJudge(Protocol):
    """Judges one request; never raises for what a judge can do."""

    @property
    def name(self) -> str:
        """``grounding`` or ``llm`` (recorded with each attempt)."""
        ...

    @property
    def uses_model(self) -> bool:
        """True when an attempt is a model call (metered against the model budget)."""
        ...

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        """One attempt."""
        ...
