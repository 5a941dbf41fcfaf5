"""Every rule family, in the order it runs.

Word families run on each distinct word after the shape patterns (``word_shapes``), planned
once per shape; text families run on a text that holds a word one of them gates on, after
the context patterns (``context``). A family's values are already placeholders when a later
family reads the text, and every family leaves a ``<PLACEHOLDER>`` alone.

The families kept elsewhere, older than this registry and planned the same way: credentials
named by a key (``key=value``, ``"key": "value"``, ``--flag value``, XML elements) and by
``Authorization``, ``Cookie`` and ``Set-Cookie`` headers and auth schemes, URL userinfo and
session parameters, Kubernetes Secrets, SQL literals (``context``); listed vendor prefixes,
JWTs, password hashes, webhook URLs, high-entropy runs, e-mail addresses, MACs, IPv4 and IPv6
addresses, host and pod names, card numbers in one piece or with dashes, dots or spaces
(Luhn), telephone numbers with a ``+`` or North American groups (``patterns``).
"""

from __future__ import annotations

from typing import Final

from factledger.domain.logs.redaction.address_spellings import BARE_ADDRESSES, DOTTED_ADDRESSES
from factledger.domain.logs.redaction.bank_numbers import GROUPED_IBAN, IBAN
from factledger.domain.logs.redaction.call_arguments import POSITIONAL_CREDENTIALS
from factledger.domain.logs.redaction.changed_values import CHANGED_VALUES
from factledger.domain.logs.redaction.checked_ids import CHECKED_IDS
from factledger.domain.logs.redaction.checked_numbers import CHECKED_NUMBERS, SHAPED_NUMBERS
from factledger.domain.logs.redaction.command_arguments import COMMAND_ARGUMENTS
from factledger.domain.logs.redaction.command_secrets import COMMAND_SECRETS
from factledger.domain.logs.redaction.config_directives import DIRECTIVES, QUOTED_PAIRS
from factledger.domain.logs.redaction.config_pairs import CONFIG_PAIRS
from factledger.domain.logs.redaction.coordinates import COORDINATES
from factledger.domain.logs.redaction.credential_nouns import (
    LOGIN_PAIRS,
    NAMED_KEYS,
    SETTER_CALLS,
    USERINFO_WORDS,
)
from factledger.domain.logs.redaction.credential_phrases import (
    CARD_CODES,
    NETRC_AND_PHRASES,
    SHORT_FLAGS,
)
from factledger.domain.logs.redaction.device_configs import DEVICE_CONFIGS
from factledger.domain.logs.redaction.document_numbers import BIRTH_DATES, DOCUMENT_NUMBERS
from factledger.domain.logs.redaction.email_spellings import EMAIL_SPELLINGS
from factledger.domain.logs.redaction.encoded_queries import ENCODED_QUERIES
from factledger.domain.logs.redaction.family import TextFamily, WordFamily
from factledger.domain.logs.redaction.ftp_commands import FTP_USER_COMMANDS
from factledger.domain.logs.redaction.hardware_addresses import BARE_MACS
from factledger.domain.logs.redaction.health_records import HL7_PERSON_SEGMENTS
from factledger.domain.logs.redaction.home_paths import HOME_PATHS
from factledger.domain.logs.redaction.key_shapes import BASE64_LINES, VENDOR_KEYS
from factledger.domain.logs.redaction.licence_plates import LICENCE_PLATES
from factledger.domain.logs.redaction.mail_auth import MAIL_AUTH
from factledger.domain.logs.redaction.named_numbers import NAMED_NUMBERS
from factledger.domain.logs.redaction.named_settings import NAMED_SETTINGS
from factledger.domain.logs.redaction.national_ids import NAMED_NATIONAL_IDS, NATIONAL_IDS
from factledger.domain.logs.redaction.nested_values import NESTED_VALUES
from factledger.domain.logs.redaction.password_labels import PASSWORD_LABELS
from factledger.domain.logs.redaction.path_tokens import PATH_TOKENS
from factledger.domain.logs.redaction.phones import NATIONAL_PHONES
from factledger.domain.logs.redaction.phrase_secrets import ONE_TIME_CODES, SECRET_PHRASES
from factledger.domain.logs.redaction.private_keys import PRIVATE_KEY_LINES
from factledger.domain.logs.redaction.query_codes import QUERY_CODES
from factledger.domain.logs.redaction.secret_setters import SECRET_SETTERS
from factledger.domain.logs.redaction.sql_users import SQL_USERS
from factledger.domain.logs.redaction.travel_documents import MRZ_LINES
from factledger.domain.logs.redaction.user_arguments import USER_ARGUMENTS
from factledger.domain.logs.redaction.vendor_shapes import STAGED_KEYS
from factledger.domain.logs.redaction.word_spellings import (
    CI_MASKED,
    HEX_VENDOR_KEYS,
    SLASHED_CARDS,
    TRACK_DATA,
)

__all__ = [
    "ALL_TEXT_FAMILIES",
    "CONFIRMED",
    "PAIRED",
    "PAIRED_CUES",
    "pair_complete",
    "TEXT_FAMILIES",
    "WORD_FAMILIES",
    "confirm_gates",
    "key_families_gated",
    "redact_text_families",
    "text_families_gated",
]

WORD_FAMILIES: Final[tuple[WordFamily, ...]] = (
    VENDOR_KEYS,
    STAGED_KEYS,
    BASE64_LINES,
    IBAN,
    NATIONAL_IDS,
    HOME_PATHS,
    DOTTED_ADDRESSES,
    SLASHED_CARDS,
    TRACK_DATA,
    HEX_VENDOR_KEYS,
    CI_MASKED,
    SHAPED_NUMBERS,
    QUERY_CODES,
    PATH_TOKENS,
    MRZ_LINES,
)
TEXT_FAMILIES: Final[tuple[TextFamily, ...]] = (
    PRIVATE_KEY_LINES,
    SECRET_SETTERS,
    NAMED_SETTINGS,
    SHORT_FLAGS,
    COMMAND_ARGUMENTS,
    SECRET_PHRASES,
    NETRC_AND_PHRASES,
    FTP_USER_COMMANDS,
    DEVICE_CONFIGS,
    CHANGED_VALUES,
    PASSWORD_LABELS,
    ENCODED_QUERIES,
    MAIL_AUTH,
    SQL_USERS,
    USER_ARGUMENTS,
    NAMED_KEYS,
    NESTED_VALUES,
    LOGIN_PAIRS,
    SETTER_CALLS,
    POSITIONAL_CREDENTIALS,
    USERINFO_WORDS,
    COMMAND_SECRETS,
    CONFIG_PAIRS,
    DIRECTIVES,
    QUOTED_PAIRS,
    CARD_CODES,
    ONE_TIME_CODES,
    GROUPED_IBAN,
    NAMED_NATIONAL_IDS,
    NAMED_NUMBERS,
    CHECKED_NUMBERS,
    CHECKED_IDS,
    DOCUMENT_NUMBERS,
    BIRTH_DATES,
    HL7_PERSON_SEGMENTS,
    NATIONAL_PHONES,
    BARE_ADDRESSES,
    BARE_MACS,
    EMAIL_SPELLINGS,
    COORDINATES,
    LICENCE_PLATES,
)


_CUE_SHIFT: Final = len(TEXT_FAMILIES)
ALL_TEXT_FAMILIES: Final = (1 << (2 * _CUE_SHIFT)) - 1
"""Every text family, gate and cue, as a set of bits: bit ``i`` for the gate of
``TEXT_FAMILIES[i]``, bit ``len(TEXT_FAMILIES) + i`` for its cue."""


PAIRED: Final = sum(
    (1 << index) | (1 << (_CUE_SHIFT + index))
    for index, family in enumerate(TEXT_FAMILIES)
    if family.cue is not None
)
"""The gate and cue bits of the families with a cue: a word passing only these makes a text
worth reading only together with a word passing the other half (``pair_complete``)."""


PAIRED_CUES: Final = PAIRED & ~((1 << _CUE_SHIFT) - 1)
"""The cue half of ``PAIRED``."""


CONFIRMED: Final = sum(
    1 << index for index, family in enumerate(TEXT_FAMILIES) if family.confirm is not None
)
"""The gate bits of the families whose gate is read again on the word (``confirm``)."""


_CONFIRMS: Final = tuple(
    (1 << index, family.confirm)
    for index, family in enumerate(TEXT_FAMILIES)
    if family.confirm is not None
)
"""Per text family with a ``confirm``: its gate bit and the confirm."""


def confirm_gates(word: str, bits: int) -> int:
    """The gate and cue bits of a word, given those of its shape: a family's gate bit with a
    ``confirm`` stays only when the word itself passes it."""
    for bit, confirm in _CONFIRMS:
        if bits & bit and not confirm(word):
            bits &= ~bit
    return bits


_AFTER_KEY: Final = sum(
    (1 << index) | (1 << (_CUE_SHIFT + index))
    for index, family in enumerate(TEXT_FAMILIES)
    if family.after_key
)


def key_families_gated(key: str) -> int:
    """The gates and cues the key of a ``key=value`` word passes (``text_families_gated`` on
    the key, without the families whose values never follow a key)."""
    return text_families_gated(key) & _AFTER_KEY


def pair_complete(bits: int) -> bool:
    """True when, for some family with a cue, both its gate and its cue are among the bits."""
    return (bits & (bits >> _CUE_SHIFT) & PAIRED) != 0


_TESTS: Final = tuple(
    (1 << index, family.gate, 1 << (_CUE_SHIFT + index), family.cue)
    for index, family in enumerate(TEXT_FAMILIES)
)
"""Per text family: its gate bit and gate, its cue bit and cue."""


def text_families_gated(shape: str) -> int:
    """The gates and cues of the text families a word of this shape passes, as bits."""
    bits = 0
    for gate_bit, gate, cue_bit, cue in _TESTS:
        if gate(shape):
            bits |= gate_bit
        if cue is not None and cue(shape):
            bits |= cue_bit
    return bits


_RUNS: Final = tuple(
    (
        1 << index,
        0 if family.cue is None else 1 << (_CUE_SHIFT + index),
        family.probe,
        family.apply,
    )
    for index, family in enumerate(TEXT_FAMILIES)
)
"""Per text family, in order: its gate bit, its cue bit (0 without a cue), probe and apply."""


def redact_text_families(text: str, families: int = ALL_TEXT_FAMILIES) -> str:
    """The text with the values of the chosen text families (bits of gates and cues the
    text's words passed) replaced."""
    lowered = text.lower()
    for gate_bit, cue_bit, probe, apply in _RUNS:
        if not families & gate_bit or (cue_bit and not families & cue_bit):
            continue
        if probe(lowered):
            rewritten = apply(text)
            if rewritten is not text and rewritten != text:
                text = rewritten
                lowered = text.lower()
    return text
