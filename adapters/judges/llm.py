"""The LLM judge: any OpenAI-compatible chat model asked for a strict JSON verdict.

Temperature 0, a JSON-schema response format in strict mode, a timeout per attempt. The model
sees the conclusion and each claim with the verified content of the calls it cites (bounded,
redacted projections from the canonical store, never raw bodies). An answer that is not
exactly the verdict object is "unavailable", never a guess.
"""

from __future__ import annotations

import json
import time

from factledger.adapters.models.chat_http import ChatClient, ChatFailure
from factledger.domain.json_types import JsonObject, JsonValue
from factledger.ports.semantic_judge import (
    JudgeAnswer,
    JudgeFinding,
    JudgeRequest,
    JudgeSupported,
    JudgeUnavailable,
    JudgeUnsupported,
)

__all__ = ["LlmJudge", "VERDICT_SCHEMA"]

VERDICT_SCHEMA: JsonObject = {
    "type": "object",
    "properties": {
        "verdict": {"type": "string", "enum": ["SUPPORTED", "UNSUPPORTED"]},
        "unsupported": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "Indexes of analyses not supported by their evidence; -1 for the "
            "conclusion. Empty when SUPPORTED.",
        },
    },
    "required": ["verdict", "unsupported"],
    "additionalProperties": False,
}

INSTRUCTIONS = (
    "You check a diagnosis against evidence. For each analysis, decide whether its cited "
    "evidence supports its claim exactly as written: numbers, identifiers, services and causes "
    "must appear in the evidence. A NEGATIVE_OBSERVATION only supports 'no match for X in "
    "scope S', never 'X did not happen'. Then decide whether the analyses together support the "
    "conclusion. Answer only with the JSON verdict."
)


class LlmJudge:
    """A semantic judge over an OpenAI-compatible chat endpoint."""

    name = "llm"
    uses_model = True

    def __init__(self, client: ChatClient) -> None:
        self._client = client

    def judge(self, request: JudgeRequest, timeout_seconds: float) -> JudgeAnswer:
        payload: JsonObject = {
            "conclusion": request.conclusion,
            "analyses": [
                {
                    "index": index,
                    "kind": claim.kind.value,
                    "claim": claim.claim,
                    "evidence": list[JsonValue](claim.contents),
                }
                for index, claim in enumerate(request.claims)
            ],
        }
        reply = self._client.complete(
            [
                {"role": "system", "content": INSTRUCTIONS},
                {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
            ],
            response_format={
                "type": "json_schema",
                "json_schema": {"name": "verdict", "strict": True, "schema": VERDICT_SCHEMA},
            },
            temperature=0.0,
            timeout_seconds=timeout_seconds,
            deadline=time.monotonic() + timeout_seconds,
        )
        if isinstance(reply, ChatFailure):
            return JudgeUnavailable(reply.reason)
        usage = (reply.prompt_tokens, reply.completion_tokens)
        verdict = _verdict(reply.content, len(request.claims))
        if verdict is None:
            return JudgeUnavailable("MALFORMED_VERDICT", usage)
        supported, unsupported = verdict
        if supported:
            return JudgeSupported(usage)
        findings = tuple(JudgeFinding(index, "MODEL_UNSUPPORTED") for index in unsupported or (-1,))
        return JudgeUnsupported(findings, usage)


def _verdict(content: str | None, analyses: int) -> tuple[bool, tuple[int, ...]] | None:
    if content is None:
        return None
    try:
        value = json.loads(content)
    except ValueError:
        return None
    if not isinstance(value, dict) or set(value) != {"verdict", "unsupported"}:
        return None
    verdict, indexes = value["verdict"], value["unsupported"]
    if verdict not in ("SUPPORTED", "UNSUPPORTED") or not isinstance(indexes, list):
        return None
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in indexes):
        return None
    if any(i < -1 or i >= analyses for i in indexes):
        return None
    if verdict == "SUPPORTED":
        return (True, ()) if not indexes else None
    return False, tuple(indexes)
