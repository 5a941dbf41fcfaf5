"""Mining a batch of messages into templates, exactly as the projector does: redact, mask,
then merge across the batch."""

from __future__ import annotations

from collections.abc import Iterable

from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.templates import mask_word, merge_templates, template_of_masked

__all__ = ["mine_templates", "template_of"]


def template_of(message: str, redactor: Redactor | None = None) -> str:
    """One message's template before any batch merge (redacted first)."""
    used = Redactor(word_hook=mask_word) if redactor is None else redactor
    return template_of_masked(used.redact_words(message)[1])


def mine_templates(messages: Iterable[str]) -> list[str]:
    """The template of each message, in order (redacted before mining, merged per batch)."""
    redactor = Redactor(word_hook=mask_word)
    templates = [template_of_masked(redactor.redact_words(message)[1]) for message in messages]
    merged = merge_templates(templates)
    return [merged[template] for template in templates]
