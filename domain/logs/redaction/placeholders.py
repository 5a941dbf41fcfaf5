"""The typed placeholders redaction writes in place of a sensitive value."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Placeholder"]


class Placeholder(StrEnum):
    """What kind of value was removed; the key or context around it is kept."""

    SECRET = "<SECRET>"
    IP = "<IP>"
    HOST = "<HOST>"
    POD = "<POD>"
    PID = "<PID>"
    EMAIL = "<EMAIL>"
    MAC = "<MAC>"
    CARD = "<CARD>"
    PHONE = "<PHONE>"
    IBAN = "<IBAN>"
    NATIONAL_ID = "<NATIONAL_ID>"
    USER = "<USER>"
    SQL_LITERAL = "<SQL_LITERAL>"
    LOCATION = "<LOCATION>"
    DEVICE_ID = "<DEVICE_ID>"
    PLATE = "<PLATE>"
