"""Redaction of log texts: rule families (credentials by key and flag, URL and cookie
secrets, vendor key shapes, private key blocks, checksummed numbers, identity documents,
telephone numbers, home paths, network addresses, e-mail addresses) and the ``Redactor``
that applies them with a memory per distinct word."""

from factledger.domain.logs.redaction.redactor import Redactor

__all__ = ["Redactor"]
