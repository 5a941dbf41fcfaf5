"""The value detector: the backstop behind redaction by origin.

Sensitive columns are redacted because of where they come from (the plan knows). This module
catches what the allowlist did not foresee: a string cell whose column name says secret, or
whose value looks like a credential (a JWT, a private key, a bearer token, a password hash,
a password in a connection string, a well-known API-key format).
"""

from __future__ import annotations

import re

__all__ = ["REDACTED", "looks_secret", "sensitive_name"]

REDACTED = "[REDACTED]"
"""What a redacted cell holds."""

_SENSITIVE_NAME = re.compile(
    r"pass(?:word|wd)?|pwd|secret|token|credential|api_?key|private_?key|access_?key"
    r"|session_?key|auth_?key",
    re.IGNORECASE,
)
_SECRET_VALUE = re.compile(
    r"""
      eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*          # JWT
    | -----BEGIN[ A-Z]*PRIVATE\ KEY-----                                # PEM private key
    | \b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{12,}                       # HTTP credentials
    | \b(?:AKIA|ASIA)[0-9A-Z]{16}\b                                     # AWS access key id
    | \b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)
      \s*[=:]\s*\S+                                                     # key=value secret
    | \b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@                         # URL with password
    | \b(?:ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abposr]|sk_live|sk_test|rk_live)
      [-_][A-Za-z0-9_-]{10,}                                            # vendor tokens
    | \bsk-[A-Za-z0-9_-]{20,}                                           # API secret keys
    | \$(?:2[abxy]?|5|6|y|argon2(?:id|i|d)?|scrypt)\$\S{10,}            # password hashes
    | \bpbkdf2_sha\d+\$\S+
    """,
    re.IGNORECASE | re.VERBOSE,
)


def sensitive_name(name: str) -> bool:
    """True when a result column's name says it holds a secret."""
    return _SENSITIVE_NAME.search(name) is not None


def looks_secret(value: str) -> bool:
    """True when a string value looks like a credential."""
    return _SECRET_VALUE.search(value) is not None
