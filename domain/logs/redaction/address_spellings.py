"""IPv4 addresses in the spellings that parsers accept besides the dotted decimal one:
zero-padded or octal parts (``010.000.000.001``), hexadecimal parts (``0x0a.0x00.0x00.0x01``,
``0x7f.0.0.1``), and a whole address as one hexadecimal or decimal number (``0x0A000001``,
``167772161``, ``0xC6336417:443``). Dotted spellings are caught by their shape (octal parts
may be written with four digits, ``0300.0250.0001.0002``); a bare number is an address only
after a word that names one (``ip``, ``addr``, ``peer``, ``client``, ``remote``, ``src``,
``dst``, ``connection from``) or as a URL's host (``http://3232235777/``), since error codes
and timestamps share its shape; a hexadecimal one also after ``from``, ``via``,
``upstream``, ``server`` … and before a port (``0x0A0B0C0D:8080``), which no error code
has."""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.family import TextFamily, WordFamily
from factledger.domain.logs.redaction.placeholders import Placeholder

__all__ = ["BARE_ADDRESSES", "DOTTED_ADDRESSES"]

_IP: Final = Placeholder.IP.value
_PART: Final = r"(?:0[xX][0-9a-fA-F]{1,2}|\d{1,4})"
_DOTTED: Final = re.compile(
    r"(?<![\w.])" + _PART + r"\." + _PART + r"\." + _PART + r"\." + _PART + r"(?![\w]|\.\w)"
)


_DOTTED_HINT: Final = re.compile(
    r"(?:0[xX][0-9a-fA-F]{1,2}|0{1,4})(?:\.(?:0[xX][0-9a-fA-F]{1,2}|0{1,4})){3}"
).search


def _part_value(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        return int(part, 16)
    if len(part) > 1 and part.startswith("0"):
        if all(char in "01234567" for char in part):
            return int(part, 8)
        return int(part, 10)
    return int(part)


def _dotted(match: re.Match[str]) -> str:
    found = match.group(0)
    parts = found.split(".")
    unusual = any(p[:2] in ("0x", "0X") or (len(p) > 1 and p.startswith("0")) for p in parts)
    if not unusual or any(
        len(p) > 3 and p[:2] not in ("0x", "0X", "00", "01", "02", "03") for p in parts
    ):
        return found
    values = [_part_value(part) for part in parts]
    if any(value is None or value > 255 for value in values):
        return found
    return _IP


DOTTED_ADDRESSES: Final = WordFamily(
    name="IPv4 addresses in zero-padded, octal and hexadecimal spellings",
    hint=lambda shape: _DOTTED_HINT(shape) is not None,
    pattern=_DOTTED,
    replace=_dotted,
    as_written=lambda shape: _DOTTED.search(shape) is not None,
)
"""The pattern reads digits by position only (``\\d``, hexadecimal parts after ``0x``), so on
a shape it matches exactly where it may match the word (a dotted IPv4 address runs it, a
timestamp's ``17.45.55.674418`` does not)."""

_BARE: Final = re.compile(
    r"(?<![\w.])(0[xX][0-9a-fA-F]{7,8}|0[0-7]{10,11}|\d{8,10})(?![\w]|\.\d|:(?!\d{1,5}(?![\w.]|:\d))\d)"
)
_HEX_CUE_BEFORE: Final = re.compile(
    r"(?i)(?<![a-z])(?:from|via|upstream|server|backend|gateway|origin)\s+$"
).search
"""Words that name an address only before a hexadecimal number (``from 0xC6336417``): before
a decimal one they start a time window (``from 1717243200 to …``). ``from``, ``server`` …
alone say nothing of the line (``read from 0x7ffe0000 failed`` is memory): another word of
the line must name an address (``_CUE_WORD``)."""
_CUE_NAMES: Final = (
    r"(?<![a-z])(?:ip|ipv4|addr|address|peer|client|remote|src|dst|source|destination)"
    r"(?:[_\-][a-z_]*)?"
    r"|(?<![\w.])(?:host|hostname|server|nameserver|dns|resolver|gateway|gw|router|route"
    r"|upstream|backend|proxy|forwarded|origin|inet|ping|traceroute|telnet|nmap|dial|listen"
    r"|listening|bind|bound|connect(?:ion|ed|ing)?|accepted|refused|closed|disconnected"
    r"|resolved|resolves|allow|allowed|deny|denied|blocked|ban|banned|unban"
    r"|(?:white|black|allow|deny)list(?:ed)?)(?:[_\-](?:ip|ipv4|addr|address|for|name|host))?"
)
"""Words naming an address: the first ones also at the end of a longer key and with any
suffix (``client_ip``, ``remote_addr``), the others only as a word of their own, with an
address's suffix at most (``X-Forwarded-For``, ``gateway_ip``; ``no_server``,
``server_id`` and ``upstream_response_time`` name none)."""
_CUE_BEFORE: Final = re.compile(
    r"(?i)(?:" + _CUE_NAMES + r")[\"']?(?:\s*[=:]\s*[\"']?|\s+)"
    r"(?:(?:is|to|from|on|of|for|and|or|via|add|del|new|(?:address|addr|ip|host|server)"
    r"(?:\s+at)?|<IP>|<HOST>|[\w\-]+(?:\.[\w\-]+)+)[,;]?\s+){0,3}$"
).search
"""A word naming an address, then at most three words that may stand between it and the
address (``connection from host …``, ``peer address is …``, ``resolved api.example.org to
…``): a host name, an address, a preposition."""
_LISTED_BEFORE: Final = re.compile(
    r"(?:(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}|<IP>)(?::\d{1,5})?"
    r"(?:\s*[,;/|]\s*|\s+(?:and|or)\s+)(?:[a-z]+\s+)?$"
).search
"""An address, then a list's separator and at most one plain word (``10.0.0.1 and backup
…``, ``<IP>, …``): the next one-number address of a list."""
_AFTER: Final = re.compile(r":\d{1,5}(?![\w.]|:\d)|\s+port\s+\d").match
"""A port after the number (``167772161:5432``, ``from 167772161 port 22``): no count, epoch
or error code is written so."""
_SUBJECT: Final = re.compile(r"[\])]?\s+(?:dis)?connected\b").match
"""The number opening the text or a bracket as the subject of ``connected``
(``[3232235777] connected``, ``0xc0a80101 connected from …``)."""


_URL_HOST: Final = re.compile(
    r"(?<=://)((?:[^/@\s\"']*@)?)(0[xX][0-9a-fA-F]{1,8}|0[0-7]{10,11}|\d{8,10})(?=[/:?#\s\"'<>]|$)"
)
"""An address written as one number where a URL names its host (``http://3232235777/``,
``http://0x7f000001:8080/``): the place is the word that names an address."""


def _number_value(number: str) -> int:
    """An address written as one number: hexadecimal after ``0x``, octal when it has a
    leading zero and eleven or twelve digits (``017700000001``), else decimal."""
    if number[:2].lower() == "0x":
        return int(number, 16)
    return int(number, 8) if len(number) > 10 else int(number)


def _url_host(match: re.Match[str]) -> str:
    number = match.group(2)
    value = _number_value(number)
    return match.group(1) + _IP if 0x01000000 <= value <= 0xFFFFFFFF else match.group(0)


_UNIT_AFTER: Final = re.compile(
    r"(?i)[ \t]*(?:bytes?|[kmgt]i?b|b|ms|ns|us|µs|s|sec|secs|seconds?|rows?|requests?|reqs?"
    r"|records?|items?|entries|times|packets?|pkts?|events?|messages?|msgs?|lines?|files?"
    r"|blocks?|pages?|tokens?|calls?|ops|hits?|errors?|%)(?![\w.])"
).match
"""A unit after the number (``max allowed 67108864 bytes``, ``route 167772161 packets``): a
quantity, whatever word stands before it."""


def _names_an_address(text: str, start: int, end: int, listed: bool) -> bool:
    """True when the number at ``start:end`` stands where an address does: after a word
    naming one, before a port, after ``user@``, or in a list of addresses; never before a
    unit."""
    if _AFTER(text, end) is not None:
        return True
    if (start == 0 or text[start - 1] in "[(") and _SUBJECT(text, end) is not None:
        return True
    if _UNIT_AFTER(text, end) is not None:
        return False
    if listed:
        return True
    before = text[max(0, start - 60) : start]
    if before[-1:] == "@" and before[-2:-1].isalnum():
        return True
    if _CUE_BEFORE(before) is not None or _LISTED_BEFORE(before) is not None:
        return True
    return (
        text[start : start + 2].lower() == "0x"
        and _HEX_CUE_BEFORE(before) is not None
        and _CUE_WORD(text.lower()) is not None
    )


_LIST_GAP: Final = re.compile(r"\s*[,;/|]\s*|\s+(?:and|or)\s+").fullmatch


def _bare_addresses(text: str) -> str:
    pieces: list[str] = []
    position = 0
    last_end = -1
    for match in _BARE.finditer(text):
        start, end, number = match.start(), match.end(), match.group(1)
        listed = last_end >= 0 and _LIST_GAP(text, last_end, start) is not None
        if not _names_an_address(text, start, end, listed):
            continue
        value = _number_value(number)
        if not 0x01000000 <= value <= 0xFFFFFFFF:
            continue
        pieces.append(text[position:start] + _IP)
        position = last_end = end
    if not pieces:
        return text
    return "".join(pieces) + text[position:]


_NUMBER_WORD: Final = re.compile(
    r"(?:.*[=:\"'\[(@])?(?:0[xX][0-9a-fA-F]{7,8}|\d{8,10})(?::0{1,5})?\W{0,2}"
).fullmatch
_EIGHT_DIGITS: Final = re.compile(r"\d{8}").search
_URL_NUMBER_HOST: Final = re.compile(
    r"://(?:[^/@]*@)?(?:0[xX][0-9a-fA-F]{1,8}|0{11,12}|\d{8,10})(?:[/:?#]|$)"
).search


def _number_word(shape: str) -> bool:
    """A word that is, or ends in, an address as one number, or a URL with such a host."""
    if "://" in shape:
        return _URL_NUMBER_HOST(shape) is not None
    if "0x" not in shape and "0X" not in shape and _EIGHT_DIGITS(shape) is None:
        return False  # the cheaper test of what the pattern needs
    return _NUMBER_WORD(shape) is not None


"""A word that is, or ends in, an address written as one number (the family runs only on
texts holding one; the words around it decide)."""


_CUE_WORD: Final = re.compile(
    r"(?<![a-z])(?:ip|ipv4|addr|address|peer|client|remote|src|dst|source|destination"
    r"|connect|connection|connected|connecting|accepted|refused|closed|disconnected|via|upstream"
    r"|gateway)(?![a-z])|://|^0x[0-9a-f0]{8}:0"
).search

_CUE_RUNS: Final = frozenset(
    {"ip", "addr", "address", "peer", "client", "remote", "src", "dst", "source", "destination"}
    | {"connect", "connection", "connected", "connecting", "accepted", "refused", "closed"}
    | {"disconnected", "via", "upstream", "gateway", "ipv", "host", "hostname", "server"}
    | {"nameserver", "dns", "resolver", "gw", "router", "route", "backend", "proxy", "forwarded"}
    | {"origin", "inet", "ping", "traceroute", "telnet", "nmap", "dial", "listen", "port"}
    | {"listening", "bind", "bound", "resolved", "resolves", "allow", "allowed", "deny"}
    | {"denied", "blocked", "ban", "banned", "unban", "whitelist", "whitelisted", "blacklist"}
    | {"blacklisted", "allowlist", "allowlisted", "denylist", "denylisted"}
)
"""The runs of letters of ``_CUE_NAMES`` (and ``port``): a text is read for an address
written as one number only when one of its words holds one."""
_LETTER_RUNS: Final = re.compile(r"[a-z]+").findall
_PORTED: Final = re.compile(r"0x[0-9a-f0]{8}:0|0{8,10}:0{1,5}(?!\w)").match
_PLACED: Final = re.compile(r"[a-z0-9]@0{8,10}").search
"""A decimal number after ``user@`` (a hexadecimal one is no cue: BGL writes code addresses
as ``@0xff83d7de``, and every such line would be read). A dotted IPv4 address is no cue
either: most lines holding one and a long number are a transfer's size or a block's offset,
and a list of addresses names itself with one of the words."""


def _cue_word(lowered: str) -> bool:
    """Whether a lower-cased word's shape says a number of the text may be an address: it
    holds a word of ``_CUE_RUNS`` (by its runs of letters: faster than a search, and the
    same), a URL, a number before a port or after ``user@``."""
    if "://" in lowered or (lowered[:1] == "0" and _PORTED(lowered) is not None):
        return True
    if "@" in lowered and _PLACED(lowered) is not None:
        return True
    return not _CUE_RUNS.isdisjoint(_LETTER_RUNS(lowered))


BARE_ADDRESSES: Final = TextFamily(
    name="IPv4 addresses as one number after a word that names an address",
    gate=_number_word,
    probe=lambda lowered: "0x" in lowered or _EIGHT_DIGITS(lowered) is not None,
    apply=lambda text: _bare_addresses(_URL_HOST.sub(_url_host, text) if "://" in text else text),
    cue=lambda shape: _cue_word(shape.lower()),
)
