"""Mining a batch of messages into templates, exactly as the projector does: redact, mask
each message by the shapes of its words, then merge across the batch."""

from __future__ import annotations

from collections.abc import Iterable

from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.template_merge import DEFAULT_MERGE, MergeSettings
from factledger.domain.logs.templates import mask_word, merge_templates, template_of_masked

__all__ = ["masked_templates", "mine_templates", "template_of"]


def template_of(message: str, redactor: Redactor | None = None) -> str:
    """One message's template before any batch merge (redacted first)."""
    used = Redactor(word_hook=mask_word) if redactor is None else redactor
    return template_of_masked(used.redact_words(message)[1])


def masked_templates(messages: Iterable[str]) -> list[str]:
    """The template of each message before the batch merge, in order (redacted first)."""
    redactor = Redactor(word_hook=mask_word)
    redact_words = redactor.redact_words
    return [template_of_masked(redact_words(message)[1]) for message in messages]


def mine_templates(messages: Iterable[str], settings: MergeSettings = DEFAULT_MERGE) -> list[str]:
    """The template of each message, in order (redacted before mining, merged per batch)."""
    templates = masked_templates(messages)
    merged = merge_templates(templates, settings)
    return [merged[template] for template in templates]
