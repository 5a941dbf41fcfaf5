"""The patterns redaction looks for, and the checks that confirm a match.

Two kinds: *context* patterns find a value by what surrounds it (``password=…``,
``Authorization: Bearer …``, ``redis://:…@``, a PEM block, a SQL statement) and run only when
a line holds one of their keywords; *shape* patterns find a value by its own form (an IP
address, ``AKIA…``, a JWT, a Luhn-valid card number) and run once per distinct word.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Final

__all__ = [
    "AUTH_HEADER_QUOTED",
    "AUTH_HEADER_UNQUOTED",
    "AUTH_SCHEME",
    "CLI_CREDENTIALS",
    "COOKIE_HEADER",
    "EZCONNECT",
    "FLAG_VALUE",
    "GROUPED_CARD",
    "HOST_CONTEXT",
    "K8S_JSON_DATA",
    "K8S_SECRET_KIND",
    "K8S_YAML_DATA",
    "KEY_VALUE",
    "PEM_PRIVATE_KEY",
    "PID_CONTEXT",
    "POD_CONTEXT",
    "SENTRY_KEY",
    "CARD_DIGITS",
    "DASHED_NUMBER",
    "HEX_ID",
    "HOST",
    "HOST_HINT",
    "IPV4",
    "IPV6",
    "LONG_RUN",
    "MAC",
    "ODD_PREFIXED_SECRETS",
    "POD",
    "PREFIXED_SECRETS",
    "EMAIL",
    "SECRET_GATE",
    "STRUCTURE_GATE",
    "SYSLOG_PID",
    "ipv6_continues",
    "SQL_NUMBER",
    "SQL_STATEMENT",
    "SPACED_PHONE",
    "SQL_STRING",
    "URL_PASSWORD",
    "XML_VALUE",
    "is_high_entropy",
    "luhn_valid",
    "luhn_valid_any",
]

SECRET_GATE: Final = re.compile(
    r"pass|pwd|secret|token|key|auth|bearer|basic|digest|cookie|session|sessid|cred|sig|jwt|salt|cvv|cvc"
    r"|private|birth|pw\b|sid\b|sas\b|otp\b|pin\b|psk\b|dob\b"
)
"""A lower-cased text matching none of these holds no credential named by its key."""
STRUCTURE_GATE: Final = re.compile(
    r"-----begin|://|select|insert|update|delete|replace|pid|tid|process|host|node|fqdn|pod"
    r"|mysql|-u |--user"
)


# --- context patterns (run on a whole text when one of the keywords is in it) ------------

PEM_PRIVATE_KEY: Final = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----"
    r".*?(?:-----END \1PRIVATE KEY\2-----|\Z)",
    re.DOTALL,
)
"""A private key block, multi-line or with escaped ``\\n`` on one line; an unterminated block
is redacted to the end of the text."""

AUTH_HEADER_QUOTED: Final = re.compile(
    r"(?i)((?:proxy-)?authorization\\?[\"']?\s*[:=]\s*)(\\?[\"'])"
    r"((?:bearer|basic|digest|token|negotiate|ntlm|apikey|hmac|sso-key|aws4-hmac-sha256)\s+"
    r"|(?-i:[A-Z][A-Za-z0-9\-]{1,30})\s+(?=[^\s\"'\\]{16,}))?"
    r"((?:\\[\"']|.)*?)(\2|$)"
)
"""An ``Authorization`` header in quotes (a scheme not listed is a capitalised word before
credentials of 16 characters or more); inside a plain quote an escaped one does not end
it (``"Token token=\\"…\\""`` in JSON)."""
AUTH_HEADER_UNQUOTED: Final = re.compile(
    r"(?i)((?:proxy-)?authorization\s*[:=]\s*)"
    r"((?:bearer|basic|token|negotiate|ntlm|apikey|hmac|sso-key|aws4-hmac-sha256)\s+"
    r"|(?-i:[A-Z][A-Za-z0-9\-]{1,30})\s+(?=[^\s\"']{16,}|(?=[^\s\"']*\d)[^\s\"']{6,})"
    r"|(?-i:[a-z][a-z0-9\-]{1,30})\s+(?=(?=[\w\-.~+/]*\d)[\w\-.~+/]{12,}=*(?![^\s,;]))"
    r")?"
    r"(digest\s+.*|[\w\-]+=[ \t]*\"[^\"]*\"(?:[ \t]*,[ \t]*[\w\-]+=[ \t]*\"[^\"]*\")*|[^\s\"']+)"
)
"""An ``Authorization`` header without quotes; a scheme not listed (``Bot``, ``SSWS``,
``GenieKey``) is a capitalised word before credentials of 16 characters or more, or of 6 or
more with a digit, or a lower-case word (``ssws``) before token-shaped credentials of 12 or
more with a digit; credentials
written as quoted parameters (Rails' ``Token token="…", email="…"``, ``OAuth
oauth_signature="…"``) go with all their parameters."""
AUTH_SCHEME: Final = re.compile(
    r"(?i)\b(bearer|basic|token|apikey|api-key)(\s+)([A-Za-z0-9\-._~+/:]{8,}=*)(?![\w\-.~+/=])"
)
"""``Bearer <credentials>`` anywhere; ``Basic`` and ``Token`` only before credential-shaped
words (checked by the caller)."""

_VALUE: Final = (
    r"\\\"(?:[^\"\\]|\\[^\"])*\\\"|\"(?:[^\"\\]|\\.)*\"|N?'(?:[^'\\]|\\.)*'"
    r"|(?:[^\s&;,\"'<>()\[\]{}|:]|:(?=[^\s]))+(?<![=:])"
)
KEY_VALUE: Final = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?P<key>[.\-]{0,3}[A-Za-z_][A-Za-z0-9_.\-]*)(?P<quote>\\?[\"']?)"
    r"(?P<sep>[ \t]*(?:=>|->|:=|<-|=|:)[ \t]*)(?P<value>" + _VALUE + r")"
)
"""``key=value``, ``key: value``, ``"key": "value"``, ``\\"key\\":\\"value\\"``,
``key => value``, ``key := value`` (Go, Make), ``key <- value`` (R) (the caller decides
whether the key names a credential)."""
FLAG_VALUE: Final = re.compile(
    r"(?<![\w-])(?P<flag>--?[A-Za-z][A-Za-z0-9_\-]*)(?P<sep>[ \t]+)(?!-)(?P<value>" + _VALUE + r")"
)
"""``--password value`` (a command-line flag and its separate value)."""
XML_VALUE: Final = re.compile(r"<(?P<tag>[A-Za-z_][\w.\-]*)>(?P<value>[^<]{1,512})</(?P=tag)>")

URL_PASSWORD: Final = re.compile(
    r"(?P<scheme>\b[A-Za-z][A-Za-z0-9+.\-]*://)(?P<user>(?:[^:/@\s\"'<>]|<[A-Z]{2,12}>)*)"
    r":(?P<password>[^@\s\"'<>/]+)@"
)
"""``scheme://user:password@host`` (also ``redis://:password@host``, and a user already
replaced, ``smtp://<EMAIL>:password@host``)."""
CLI_CREDENTIALS: Final = re.compile(
    r"(?P<mysql>\bmysql(?:dump|admin|sh)?\b[^\n]*?\s-p)(?P<pw>[^\s\"']+)"
    r"|(?P<curl>(?<![\w-])(?:-u|--user)[ \t]+[^\s:\"']+:"
    r"|(?<![\w-])(?:-U|--user)[ \t]+[\"']?[^\s%:\"']+%)(?P<userpw>[^\s\"']+)"
)
"""``mysql -uroot -pPASSWORD``, ``curl -u user:password`` and Samba's ``-U user%password``."""
EZCONNECT: Final = re.compile(
    r"(?P<user>(?<![\w$#/.\-])[A-Za-z_][\w$#]*)/(?P<pw>[^@\s/\"']+)@"
    r"(?=//|[A-Za-z0-9])(?!sha\d{1,3}:[0-9a-f])"
)
"""Oracle's ``user/password@//host:1521/service`` (not an image pinned by its digest,
``ghcr.io/acme/api@sha256:…``: no path before the user, no digest after the ``@``)."""
SENTRY_KEY: Final = re.compile(r"(?<=://)[0-9a-f]{32}(?=(?::[0-9a-f]{32})?@)")

COOKIE_HEADER: Final = re.compile(r"(?i)\b((?:set-)?cookie\\?[\"']?\s*[:=]\s*)([^\"'\r\n]*)")
"""The value of a ``Cookie`` / ``Set-Cookie`` header: every ``name=value`` in it is a secret
except cookie attributes."""

K8S_SECRET_KIND: Final = re.compile(r"\"kind\"\s*:\s*\"Secret\"|\bkind:\s*Secret\b")
K8S_JSON_DATA: Final = re.compile(r"(\"(?:data|stringData)\"\s*:\s*\{)([^{}]*)(\})")
K8S_YAML_DATA: Final = re.compile(
    r"(?m)^([ \t]*(?:data|stringData):[ \t]*\n)((?:[ \t]+[\w.\-]+:[ \t]*\S.*(?:\n|$))+)"
)

SQL_STATEMENT: Final = re.compile(
    r"(?i)\b(?:select\b.{0,2000}?\bfrom\b|insert\s+into\b|update\b.{0,200}?\bset\b"
    r"|delete\s+from\b|replace\s+into\b)"
)
SQL_STRING: Final = re.compile(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.)*\"")
SQL_NUMBER: Final = re.compile(r"(?<![\w.$:@\-])-?\d+(?:\.\d+)?(?![\w.])")

PID_CONTEXT: Final = re.compile(
    r"(?i)\b(pid|ppid|tid|process(?:[ _]?id)?)(\s*[=:#]\s*|\s+)(\d{1,9})\b"
)
HOST_CONTEXT: Final = re.compile(
    r"(?i)\b(host(?:_?name)?|node(?:_?name)?|fqdn)(\s*[=:]\s*[\"']?)"
    r"(?=[A-Za-z0-9.\-]*[A-Za-z])(?![A-Za-z0-9.\-]*<)([A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?)"
)
POD_CONTEXT: Final = re.compile(
    r"(?i)\b(pods?(?:_?name)?)(\s*[=:/]\s*[\"']?|\s+(?=[a-z0-9.\-]*[\d\-]))"
    r"([a-z0-9](?:[a-z0-9.\-]*[a-z0-9])?)"
)

GROUPED_CARD: Final = re.compile(
    r"\d{4}[ \-]\d{4}[ \-]\d{4}[ \-]\d{1,7}(?![\w.])|\d{4}[ \-]\d{6}[ \-]\d{4,5}(?![\w.])"
)
"""A card number written in groups (the caller checks what precedes it and Luhn)."""
SPACED_PHONE: Final = re.compile(
    r"\+\d{1,3}[ .\-]?(?:\(0\)[ ]?)?\(?\d{1,4}\)?(?:[ .\-]?\d{2,4}){2,4}(?![\w.])"
    r"|\(\d{3}\)[ ]?\d{3}[ .\-]\d{4}(?!\w)"
)
"""A telephone number with spaces (the caller checks what precedes it and its digit count);
the trunk ``(0)`` a European number is written with may stand before its area code
(``+33 (0)6 12 34 56 78``)."""

# --- shape patterns (run once per distinct space-separated word) -------------------------

_TLDS: Final = (
    "com|net|org|edu|gov|mil|io|co|ai|dev|cloud|info|biz|us|uk|de|fr|nl|eu|jp|cn|ru|au|ca|"
    "ch|internal|local|localdomain|lan|corp|intranet|svc|example|invalid|arpa|onion"
)
_POD_HASH: Final = "[bcdfghjklmnpqrstvwxz2456789]"

PREFIXED_SECRETS: Final = re.compile(
    # password hashes
    r"(?P<crypt>\$(?:2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|argon2(?:id|i|d)\$[^\s\"']+"
    r"|(?:[156]|apr1|md5|sha1)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{20,}"
    r"|y\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{1,32}\$[./A-Za-z0-9]{20,}|pbkdf2[\-\w]*\$[^\s\"']+)"
    r"|\{SSHA\}[A-Za-z0-9+/=]{20,})"
    # webhook URLs whose path is the credential
    r"|(?P<webhook>(?:hooks\.slack\.com/(?:services|workflows|triggers)"
    r"|discord(?:app)?\.com/api/webhooks|outlook\.office\.com/webhook)/[A-Za-z0-9_\-/@]{16,})"
    # JSON web tokens (also encrypted ones with five parts)
    r"|(?P<jwt>eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{4,}(?:\.[A-Za-z0-9_\-]*){1,3})"
    # tokens recognised by their prefix, grouped by first letter
    r"|(?P<token>"
    r"A(?:(?:KIA|SIA|BIA|CCA|GPA|IDA|IPA|NPA|NVA|PKA|ROA|SCA)[A-Z2-7]{16}"
    r"|Iza[0-9A-Za-z_\-]{35}|C[0-9a-f]{32}|GE-SECRET-KEY-1[A-Z0-9]{50,}"
    r"|TATT[A-Za-z0-9_\-=]{30,})"
    r"|G(?:OCSPX-[0-9A-Za-z_\-]{20,})"
    r"|N(?:RAK-[A-Z0-9]{27})"
    r"|P(?:MAK-[a-f0-9]{24}-[a-f0-9]{34})"
    r"|S(?:G\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}|K[0-9a-fA-F]{32})"
    r"|a(?:pi_org_[A-Za-z0-9]{30,})"
    r"|d(?:o[po]_v1_[a-f0-9]{64}|p\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,})"
    r"|g(?:h[pousr]_[A-Za-z0-9]{36,}|ithub_pat_[A-Za-z0-9_]{40,}"
    r"|l(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ffct|agent|feed|ft)-[A-Za-z0-9_\-]{20,}"
    r"|lsa_[A-Za-z0-9_]{32,}|lc_[A-Za-z0-9+/=_\-]{32,})"
    r"|h(?:f_[A-Za-z0-9]{30,}|v[sbr]\.[A-Za-z0-9_\-]{20,})"
    r"|k(?:ey-[0-9a-z]{32})"
    r"|l(?:in_api_[A-Za-z0-9]{40})"
    r"|n(?:pm_[A-Za-z0-9]{36})"
    r"|p(?:ypi-[A-Za-z0-9_\-]{50,}|k_(?:live|test)_[A-Za-z0-9]{16,}|ul-[a-f0-9]{40})"
    r"|r(?:k_(?:live|test)_[A-Za-z0-9]{16,})"
    r"|s(?:k_(?:live|test)_[A-Za-z0-9]{16,}|k-[A-Za-z0-9_\-]{20,}"
    r"|hp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})"
    r"|w(?:hsec_[A-Za-z0-9]{24,})"
    r"|x(?:ox[abposrce]-[A-Za-z0-9\-]{10,}|app-\d-[A-Za-z0-9\-]{10,})"
    r"|y(?:a29\.[0-9A-Za-z_\-]{20,})"
    r")"
)
"""Credentials recognised by their prefix (alternatives grouped by first character, so the
engine tries one group per position); the caller checks that a match does not start inside
a longer word."""
ODD_PREFIXED_SECRETS: Final = re.compile(
    r"(?P<token>[A-Za-z0-9_\-.]{3}\dQ~[A-Za-z0-9_\-.~]{31,34}|\d{8,10}:AA[A-Za-z0-9_\-]{33})"
)
"""Azure AD client secrets (``…8Q~…``) and Telegram bot tokens (``123456789:AA…``)."""
LONG_RUN: Final = re.compile(r"(?P<entropy>[A-Za-z0-9+/_\-]{32,}={0,2})")
"""A run of 32 or more base64 characters (a secret when it looks random)."""

EMAIL: Final = re.compile(
    r"(?P<email>(?<![\w.+\-])[A-Za-z0-9._%+\-]+(?:'[A-Za-z0-9._%+\-]+)*@[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w\-]))"
)
MAC: Final = re.compile(
    r"(?P<mac>(?<![\w:\-.])[0-9A-Fa-f]{2}(?P<macsep>[:\-])(?:[0-9A-Fa-f]{2}(?P=macsep)){4}"
    r"[0-9A-Fa-f]{2}(?![\w:\-])|(?<![\w.])[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}(?![\w.])"
    r"|(?<![\w:\-.])[0-9A-Fa-f]{1,2}(?::[0-9A-Fa-f]{1,2}){5}(?![\w:\-]))"
)
"""A MAC address: six pairs of hex digits joined by ``:`` or ``-``, Cisco's three dotted
quads, or six groups of one or two hex digits joined by ``:`` (BSD and macOS print
``ether 0:1c:42:0:0:8`` without the zeros)."""
IPV6: Final = re.compile(
    r"(?P<ipv6>(?<![\w:.])\[?(?=[0-9A-Fa-f:]*\d)(?:[0-9A-Fa-f]{1,4}:){1,7}:?"
    r"(?:[0-9A-Fa-f]{1,4}:){0,6}"
    r"(?:(?<=:)(?:\d{1,3}\.){3}\d{1,3}(?![\w.])|[0-9A-Fa-f]{1,4})?(?:%[\w.\-]+)?\]?"
    r"|(?<![\w:.])::(?:[0-9A-Fa-f]{1,4}:){0,6}"
    r"(?:(?:\d{1,3}\.){3}\d{1,3}|[0-9A-Fa-f]{1,4})(?![\w.]))"
)
IPV4: Final = re.compile(
    r"(?P<ipv4>(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}"
    r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\w]|\.\d))"
)
HOST: Final = re.compile(
    r"(?P<host>(?<![\w.\-])(?:(?<=//)|(?<!/))(?:ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}"
    r"(?:\.[a-z0-9\-]+)*|(?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.)+(?:" + _TLDS + r"))"
    r"(?![\w\-]|\.\w|\((?![\d:<])))"
)
"""A host name (never a name called as code, ``logger.info("…")``; ``mx.example.org(10.0.0.5)``
is one)."""
HOST_HINT: Final = re.compile(r"\.(?:" + _TLDS + r")\b|ip-\d")
"""Cheap test: can this word hold a host name at all."""
POD: Final = re.compile(
    r"(?P<pod>(?<![\w.\-])[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?-"
    + _POD_HASH
    + r"{6,10}-"
    + _POD_HASH
    + r"{5}(?![\w.\-])"
    r"|(?<![\w.\-])[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+-(?="
    + _POD_HASH
    + r"{0,4}\d)"
    + _POD_HASH
    + r"{5}(?![\w.\-]))"
)
"""Kubernetes pod names: ``deployment-<replicaset hash>-<5>`` or ``daemonset-<5>``."""
DASHED_NUMBER: Final = re.compile(
    r"(?P<card>(?<![\w\-+.])(?:\d{4}(?P<cardsep>[\-.])\d{4}(?P=cardsep)\d{4}(?P=cardsep)\d{1,7}"
    r"|\d{4}([\-.])\d{6}\3\d{4,5})(?![\w]|\.\d))"
    r"|(?P<phone>(?<![\w\-.])(?:1[\-.])?\d{3}[\-.]\d{3}[\-.]\d{4}(?![\w\-.]))"
)
"""Card numbers written with dashes or dots, and telephone numbers."""

SYSLOG_PID: Final = re.compile(r"(?P<pid>(?<=[A-Za-z0-9_)\]])\[\d{1,7}\](?=:))")
"""``sshd[1234]:``."""
CARD_DIGITS: Final = re.compile(r"(?P<card>\d{13,19}(?![\w.]))")
"""A long digit run (the caller checks what precedes it and Luhn)."""
HEX_ID: Final = re.compile(
    r"(?![a-f]{2}\d{2}(?:[0-9a-f]{11,30})?$)[0-9a-f]*[a-f][0-9a-f]*"
    r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
).fullmatch
"""A lower-case hex id or a UUID: it stays (hashes, trace and request ids), and no context
keyword is made of hex letters only. A word shaped like a lower-case IBAN of hex letters
(``de89370400440532013000``) is left to the IBAN family's check."""

_IPV6_CONTINUES: Final = re.compile(r":[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}(?:\W|$)")


def ipv6_continues(text: str, end: int) -> bool:
    """True when a colon-hex sequence goes on after ``end`` (a hardware id, not an address)."""
    return _IPV6_CONTINUES.match(text, end) is not None


def luhn_valid(digits: str) -> bool:
    """True when a digit string passes the Luhn check and has a card issuer's prefix."""
    if not 13 <= len(digits) <= 19 or digits[0] not in "23456":
        return False
    return luhn_valid_any(digits)


def luhn_valid_any(digits: str) -> bool:
    """The Luhn check alone (``luhn_valid`` also asks for a card issuer's prefix)."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = ord(char) - 48
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def is_high_entropy(word: str) -> bool:
    """True when a long word looks random: upper, lower and digits, many changes between
    them, and a high character entropy (a hex string never is: ids and hashes stay)."""
    if word.islower() or word.isupper() or word.isalpha() or _NO_DIGIT(word):
        return False
    changes = 0
    previous = ""
    for char in word:
        if char.isupper():
            kind = "u"
        elif char.islower():
            kind = "l"
        elif char.isdigit():
            kind = "d"
        else:
            kind = "o"
        if kind != previous:
            changes += 1
            previous = kind
    if changes - 1 < len(word) * 0.3:
        return False
    counts = Counter(word)
    entropy = -sum(n / len(word) * math.log2(n / len(word)) for n in counts.values())
    return entropy >= 4.0


def _no_digit(word: str) -> bool:
    return _DIGIT_SEARCH(word) is None


_DIGIT_SEARCH: Final = re.compile(r"\d").search
_NO_DIGIT: Final = _no_digit
