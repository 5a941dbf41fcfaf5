"""Synthetic log corpora of many styles whose true templates are known (deterministic: seeded).

    styled_corpus("sshd", 2000) → [(message, template id), ...]

Each style is a list of templates written with typed slots (``{user}``, ``{ip}``, ``{dur}``
…); a message is a template with every slot filled, and its true template id is the
template's. A slot is a variable of the true template, whatever its shape: numbers, ids and
addresses, but also words without a digit (user names, program names, host names, class
names, states drawn from a large set) and values of several words (quoted phrases). Words
that differ between two templates (``opened`` / ``closed``, ``HTTPS`` / ``SOCKS5``) are
constants: a miner that merges them is wrong. Template frequencies are Zipf-like, so every
corpus has frequent and rare templates.

The styles: sshd/syslog, proxy (program name first), HTTP access and error logs, logfmt
key=value, JSON lines, Java/Spark, Windows events, Linux kernel, and a cloud API log.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import Final

__all__ = ["STYLES", "base_slot", "make_name", "make_pool", "styled_corpus"]

_CONSONANTS: Final = "bcdfghjklmnprstvwz"
_VOWELS: Final = "aeiou"


def _name(rng: random.Random, syllables: int = 0) -> str:
    count = syllables or rng.randrange(2, 4)
    return "".join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS) for _ in range(count))


def _pool(seed: int, size: int, make: Callable[[random.Random], str]) -> tuple[str, ...]:
    rng = random.Random(seed)
    return tuple(dict.fromkeys(make(rng) for _ in range(size * 2)))[:size]


_USERS: Final = _pool(1, 40, _name)
_PROGRAMS: Final = _pool(2, 14, lambda rng: _name(rng).capitalize() + ".exe")
_DOMAINS: Final = _pool(3, 30, lambda rng: f"{_name(rng)}.{_name(rng, 1)}{rng.choice('cmo')}")
_CLASSES: Final = _pool(
    4, 20, lambda rng: f"org.{_name(rng)}.{_name(rng)}.{_name(rng).capitalize()}Service"
)
_STATES: Final = _pool(5, 12, lambda rng: _name(rng).upper())
_SERVICES: Final = _pool(6, 16, lambda rng: _name(rng).capitalize())
_PHRASES: Final = _pool(7, 20, lambda rng: " ".join(_name(rng) for _ in range(rng.randrange(1, 4))))
_DRIVERS: Final = _pool(8, 10, lambda rng: _name(rng, 2) + "_hcd")
_AGENTS: Final = (
    "curl/8.4.0",
    "Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36",
    "python-requests/2.31.0",
    "Go-http-client/1.1",
)


def _hex(rng: random.Random, length: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def _slot(rng: random.Random, kind: str) -> str:  # one branch per slot type
    if kind == "int":
        return str(rng.randrange(0, 10 ** rng.randrange(1, 7)))
    if kind == "port":
        return str(rng.randrange(1024, 65535))
    if kind == "ip":
        return ".".join(str(rng.randrange(1, 255)) for _ in range(4))
    if kind == "ipv6":
        return ":".join(_hex(rng, 4) for _ in range(4)) + "::" + _hex(rng, 3)
    if kind == "hex":
        return "0x" + _hex(rng, rng.choice((4, 8)))
    if kind == "uuid":
        return "-".join(_hex(rng, n) for n in (8, 4, 4, 4, 12))
    if kind == "float":
        return f"{rng.random() * 10 ** rng.randrange(1, 4):.{rng.randrange(1, 4)}f}"
    if kind == "dur":
        return f"{rng.randrange(1, 5000)}ms"
    if kind == "user":
        return rng.choice(_USERS)
    if kind == "program":
        return rng.choice(_PROGRAMS)
    if kind == "domain":
        return rng.choice(_DOMAINS)
    if kind == "class":
        return rng.choice(_CLASSES)
    if kind == "state":
        return rng.choice(_STATES)
    if kind == "service":
        return rng.choice(_SERVICES)
    if kind == "phrase":
        return rng.choice(_PHRASES)
    if kind == "driver":
        return rng.choice(_DRIVERS)
    if kind == "agent":
        return rng.choice(_AGENTS)
    if kind == "path":
        parts = [rng.choice(("api", "v1", "static", "img", "users", "orders")) for _ in range(3)]
        return "/" + "/".join(parts) + "/" + str(rng.randrange(10**5))
    if kind == "word":
        return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(16))
    if kind == "time":
        return f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}"
    if kind == "mac":
        return ":".join(_hex(rng, 2) for _ in range(6))
    raise ValueError(kind)


STYLES: Final[dict[str, tuple[str, ...]]] = {
    "sshd": (
        "Failed password for {user} from {ip} port {port} ssh2",
        "Failed password for invalid user {user} from {ip} port {port} ssh2",
        "Accepted password for {user} from {ip} port {port} ssh2",
        "Invalid user {user} from {ip}",
        "pam_unix(sshd:session): session opened for user {user} by (uid={int})",
        "pam_unix(sshd:session): session closed for user {user}",
        "Received disconnect from {ip}: 11: Bye Bye [preauth]",
        "Connection closed by {ip} [preauth]",
        "Connection reset by {ip} port {port}",
        "reverse mapping checking getaddrinfo for {domain} [{ip}] failed - "
        "POSSIBLE BREAK-IN ATTEMPT!",
        "input_userauth_request: invalid user {user} [preauth]",
        "PAM {int} more authentication failures; logname= uid=0 euid=0 tty=ssh ruser= rhost={ip}",
    ),
    "proxy": (
        "{program} - {domain}:{port} open through proxy {domain}:{port} HTTPS",
        "{program} - {domain}:{port} open through proxy {domain}:{port} SOCKS5",
        "{program} - {domain}:{port} close, {int} bytes sent, {int} bytes received, "
        "lifetime {time}",
        "{program} - {domain}:{port} error : Could not connect through proxy {domain}:{port} - "
        "Proxy server cannot establish a connection with the target, error code {int}",
        "{program} - {domain}:{port} close, {int} bytes ({float} KB) sent, {int} bytes received",
    ),
    "http": (
        '{ip} - - [01/Jun/2024:{time} +0000] "GET {path} HTTP/1.1" {int} {int} "-" "{agent}"',
        '{ip} - - [01/Jun/2024:{time} +0000] "POST {path} HTTP/1.1" {int} {int} "-" "{agent}"',
        "[client {ip}] File does not exist: {path}",
        "[client {ip}] Directory index forbidden by rule: {path}",
        "jk2_init() Found child {int} in scoreboard slot {int}",
        "workerEnv.init() ok {path}",
        "mod_jk child workerEnv in error state {int}",
    ),
    "logfmt": (
        'level=info msg="request served" method=GET path={path} status={int} duration={dur} '
        "user={user}",
        'level=info msg="request served" method=POST path={path} status={int} duration={dur} '
        "user={user}",
        'level=warn msg="slow query" table={service} rows={int} took={dur}',
        'level=error msg="upstream failed" upstream={domain} err="connection refused" '
        "attempt={int}",
        'level=info msg="cache evicted" key={word} size={int} reason={state}',
        'level=debug msg="job finished" job={uuid} state={state} worker={user}',
    ),
    "json": (
        '{{"event": "login", "user": "{user}", "ip": "{ip}", "ok": true}}',
        '{{"event": "login", "user": "{user}", "ip": "{ip}", "ok": false}}',
        '{{"event": "order_placed", "order": {int}, "total": {float}, "currency": "EUR"}}',
        '{{"event": "cache_miss", "key": "{word}", "ttl": {int}}}',
        '{{"event": "job_state", "job": "{uuid}", "state": "{state}"}}',
    ),
    "java": (
        "Starting task {float} in stage {float} (TID {int}, {domain}, executor {int}, "
        "partition {int}, PROCESS_LOCAL, {int} bytes)",
        "Finished task {float} in stage {float} (TID {int}) in {int} ms on {domain} "
        "(executor {int}) ({int}/{int})",
        "Registering block manager {domain}:{port} with {float} MB RAM, "
        "BlockManagerId({int}, {domain}, {port})",
        "Initializing {class}",
        "Shutting down {class}",
        "Exception in thread main java.lang.IllegalStateException: {class} is not running",
        "Got assigned task {int}",
        "Running task {float} in stage {float} (TID {int})",
    ),
    "windows": (
        "The {service} service entered the {state} state.",
        "The {service} service was successfully sent a start control.",
        "An account was successfully logged on. Account Name: {user} Logon ID: {hex}",
        "An account failed to log on. Account Name: {user} Failure Reason: Unknown user name",
        "Session: {int}_{int}:{hex} initialized by client {program}.",
        "Loaded Servicing Stack v{float} with Core: {path}",
        "Warning: Unrecognized packageExtended attribute.",
    ),
    "kernel": (
        "usb {int}-{int}: new high-speed USB device number {int} using {driver}",
        "usb {int}-{int}: USB disconnect, device number {int}",
        "Out of memory: Killed process {int} ({user}) total-vm:{int}kB, anon-rss:{int}kB",
        "CPU{int}: Core temperature above threshold, cpu clock throttled (total events = {int})",
        "[UFW BLOCK] IN=eth0 OUT= MAC={mac} SRC={ip} DST={ip} LEN={int} PROTO=TCP SPT={port} "
        "DPT={port}",
        "EXT4-fs (sda{int}): mounted filesystem with ordered data mode",
        "e1000e: eth{int} NIC Link is Up {int} Mbps Full Duplex, Flow Control: None",
        "audit: type={int} audit({float}:{int}): apparmor=DENIED operation=open profile={user}",
    ),
    "cloud": (
        '{ip} "GET /v2/{uuid}/servers/detail HTTP/1.1" status: {int} len: {int} time: {float}',
        '{ip} "POST /v2/{uuid}/os-server-external-events HTTP/1.1" status: {int} len: {int} '
        "time: {float}",
        "[instance: {uuid}] VM {state} (Lifecycle Event)",
        "[instance: {uuid}] Took {float} seconds to spawn the instance on the hypervisor.",
        "[instance: {uuid}] Terminating instance",
        "Creating image {phrase} for {user}",
    ),
}
"""Each style's templates; a slot in braces is a variable of the true template."""

base_slot = _slot
"""Fills one slot of this module's types."""
make_name = _name
"""A pronounceable made-up word."""
make_pool = _pool
"""A seeded pool of distinct made-up values."""


def styled_corpus(
    style: str,
    lines: int,
    seed: int = 1,
    templates: tuple[str, ...] | None = None,
    slot: Callable[[random.Random, str], str] | None = None,
) -> list[tuple[str, str]]:
    """``lines`` messages of one style with their true template ids (``style:index``); the
    templates are ``STYLES[style]`` unless given, filled by ``slot`` (this module's slot
    types by default)."""
    if templates is None:
        templates = STYLES[style]
    fill = _slot if slot is None else slot
    rng = random.Random(f"{style}:{seed}")
    weights = [1.0 / (rank + 1) ** 1.2 for rank in range(len(templates))]
    order = list(range(len(templates)))
    rng.shuffle(order)
    corpus: list[tuple[str, str]] = []
    for _ in range(lines):
        index = rng.choices(order, weights)[0]
        text = _fill(templates[index], rng, fill)
        corpus.append((text, f"{style}:{index}"))
    return corpus


def _fill(template: str, rng: random.Random, slot: Callable[[random.Random, str], str]) -> str:
    out: list[str] = []
    rest = template
    while rest:
        start = rest.find("{")
        if start < 0 or rest[start : start + 2] == "{{":
            if start < 0:
                out.append(rest.replace("}}", "}"))
                break
            out.append(rest[:start].replace("}}", "}") + "{")
            rest = rest[start + 2 :]
            continue
        end = rest.index("}", start)
        out.append(rest[:start].replace("}}", "}"))
        out.append(slot(rng, rest[start + 1 : end]))
        rest = rest[end + 1 :]
    return "".join(out)
