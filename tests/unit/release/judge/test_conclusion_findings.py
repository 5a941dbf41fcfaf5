"""A conclusion follows from the draft's own analyses: its cause is what they found, and it
never affirms what one of its negative observations denies.

The cited calls are of an incident of their own: a video transcoder failing on one codec."""

from __future__ import annotations

from factledger.domain.json_types import JsonObject
from factledger.domain.release.judge import ClaimEvidence, ground
from tests.unit.release.judge.incidents import NEGATIVE, SUPPORT, log_result

FAILURES = log_result(
    "transcoder",
    "CodecUnsupported",
    [
        ("job <*> failed: CodecUnsupported av1 profile main10", 37, "ERROR",
         ["job 88120 failed: CodecUnsupported av1 profile main10"]),
    ],
)  # fmt: skip
ROLLOUT = log_result(
    "config-service",
    "ffmpeg_build",
    [
        ("ffmpeg_build set to <*> for transcoder by <*>", 1, "INFO",
         ["ffmpeg_build set to 6.1-slim for transcoder by ci-bot"]),
    ],
)  # fmt: skip
NO_THUMBS = log_result("thumbnailer", "CodecUnsupported", [])


def _conclusion(conclusion: str, *analyses: tuple[str, str, JsonObject]) -> str | None:
    evidence = [
        ClaimEvidence(SUPPORT if kind == "S" else NEGATIVE, claim, (cited,), (cited["scope"],))
        for kind, claim, cited in analyses
    ]
    found = ground(conclusion, evidence).conclusion
    return None if found is None else found.reason.value


ANALYSES = (
    ("S", "transcoder logged 37 CodecUnsupported failures for av1 main10.", FAILURES),
    ("S", "ci-bot set ffmpeg_build to 6.1-slim for transcoder.", ROLLOUT),
    ("N", "thumbnailer logged no CodecUnsupported between 14:00 and 15:00.", NO_THUMBS),
)


def test_a_cause_the_analyses_found_passes() -> None:
    honest = "Jobs fail because ci-bot set ffmpeg_build to 6.1-slim for transcoder."
    assert _conclusion(honest, *ANALYSES) is None


def test_a_cause_no_analysis_found_is_refused() -> None:
    # every word of the twin's cause is in the evidence of some cited call, none in a claim
    twin = "Jobs fail because the transcoder logged too much at INFO level."
    assert _conclusion(twin, *ANALYSES) == "CAUSAL_UNSUPPORTED"


def test_affirming_what_a_negative_observation_denies_is_refused() -> None:
    honest = "Only transcoder logged CodecUnsupported; thumbnailer did not."
    assert _conclusion(honest, *ANALYSES) is None
    twin = "transcoder and thumbnailer logged CodecUnsupported after 14:00."
    assert _conclusion(twin, *ANALYSES) == "POLARITY_MISMATCH"
