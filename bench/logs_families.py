"""Synthetic log styles built around the shapes template miners get wrong, with true
templates known by construction (deterministic: seeded), written for this project.

    family_corpus("glued", 2000) → [(message, template id), ...]

``FAMILY_STYLES`` are used for development (leave-one-dataset-out with the other styles and
the Loghub samples); ``UNSEEN_STYLES`` are never scored while the miner or its settings are
chosen, only reported on their own, so their scores say how the rules carry over.

Families: variables glued to text (``blk_-42``, ``job_2024_07``, ``user=bob,``), ``key=value``
and ``key: value`` lists, bracketed and parenthesised variables, paths and URLs, hex values and
``ip:port``, numbers with units (``12ms``, ``3.5GB``), variable-length lists and phrases,
templates that differ in one constant word only, very frequent and very rare templates (a
steep frequency curve), and times written in unusual forms inside the message.
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["FAMILY_STYLES", "UNSEEN_STYLES", "family_corpus"]

_MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct")
_DAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_UNITS: Final = ("B", "KB", "MB", "GB", "KiB", "MiB")
_TIME_UNITS: Final = ("ms", "s", "us", "ns")
_HOSTS: Final = make_pool(21, 25, lambda rng: f"{make_name(rng)}-{make_name(rng, 1)}")
_TABLES: Final = make_pool(22, 15, lambda rng: make_name(rng) + "_" + make_name(rng))
_QUEUES: Final = make_pool(23, 12, lambda rng: make_name(rng).upper() + "_" + make_name(rng, 1))
_WORDS: Final = make_pool(24, 60, make_name)


def _list(rng: random.Random, item: str, separator: str) -> str:
    return separator.join(_slot(rng, item) for _ in range(rng.randrange(1, 6)))


def _stamp(rng: random.Random) -> str:
    day, hour, minute, second = (
        rng.randrange(1, 28),
        rng.randrange(24),
        rng.randrange(60),
        rng.randrange(60),
    )
    forms = (
        f"2024-{rng.randrange(1, 13):02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d},"
        f"{rng.randrange(1000):03d}",
        f"{rng.choice(_DAYS)} {rng.choice(_MONTHS)} {day} "
        f"{hour:02d}:{minute:02d}:{second:02d} 2024",
        f"{day:02d}.{rng.randrange(1, 13):02d}.2024 {hour:02d}:{minute:02d}",
        f"{hour:02d}h{minute:02d}m{second:02d}s",
    )
    return forms[rng.randrange(len(forms))]


def _slot(rng: random.Random, kind: str) -> str:  # one branch per slot type
    if kind == "sint":
        return str(rng.randrange(-(10**12), 10**12))
    if kind == "size":
        return f"{rng.random() * 900:.{rng.randrange(0, 2)}f}{rng.choice(_UNITS)}"
    if kind == "tdur":
        return f"{rng.randrange(1, 9000)}{rng.choice(_TIME_UNITS)}"
    if kind == "host":
        return rng.choice(_HOSTS)
    if kind == "table":
        return rng.choice(_TABLES)
    if kind == "queue":
        return rng.choice(_QUEUES)
    if kind == "hexw":
        return "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice((8, 12, 16))))
    if kind == "url":
        path = "/".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 4)))
        return f"https://{base_slot(rng, 'domain')}/{path}?id={rng.randrange(10**6)}"
    if kind == "file":
        parts = [rng.choice(_WORDS) for _ in range(rng.randrange(1, 5))]
        return "/" + "/".join(parts) + "." + rng.choice(("log", "conf", "db", "so"))
    if kind == "winfile":
        return "C:\\" + "\\".join(rng.choice(_WORDS).capitalize() for _ in range(3)) + ".dll"
    if kind == "ipport":
        return base_slot(rng, "ip") + ":" + base_slot(rng, "port")
    if kind == "stamp":
        return _stamp(rng)
    if kind == "words":
        return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 5)))
    if kind.startswith("list:"):
        _, item, separator = kind.split(":", 2)
        return _list(rng, item, {"space": " ", "comma": ",", "commaspace": ", "}[separator])
    return base_slot(rng, kind)


FAMILY_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "glued": (
        "Deleting block blk_{sint} file {file}",
        "Received block blk_{sint} of size {int} from /{ip}",
        "Job job_{int}_{int} submitted by user={user}, queue={queue}",
        "Task attempt_{int}_{int}_m_{int}_{int} done, took {tdur}",
        "Container container_{int}_{int}_{int} exited with code {int}",
        "Worker w{int}-{host} joined pool p{int}",
    ),
    "keyvalue": (
        "request id={uuid} method=GET status={int} bytes={int} user={user}",
        "request id={uuid} method=PUT status={int} bytes={int} user={user}",
        "db pool: active: {int}, idle: {int}, waiting: {int}",
        "gc: pause={tdur} heap_before={size} heap_after={size}",
        "config reloaded: path={file} entries={int} checksum={hexw}",
        "queue={queue} depth={int} consumers={int} state={state}",
    ),
    "brackets": (
        "[{int}] worker <{hex}> ({user}) started on [{host}]",
        "[{int}] worker <{hex}> ({user}) stopped after ({tdur})",
        "({service}) lease {{{uuid}}} renewed until [{stamp}]",
        "<{state}> table [{table}] rows ({int}/{int}) compacted",
        "[pid {int}] signal ({int}) received by {program}",
    ),
    "addresses": (
        "fetching {url} via proxy {ipport}",
        "loaded module {winfile} at {hex}",
        "listening on {ipport} and [{ipv6}]:{port}",
        "peer {mac} at {ip} left, last seen {tdur} ago",
        "opened {file} for writing",
        "GET {url} returned {int} in {tdur}",
    ),
    "units": (
        "Allocated {size} for buffer of {table}",
        "Checkpoint wrote {size} in {tdur} ({float} MB/s)",
        "Cache {table} holds {int} entries using {size}",
        "Timer {service} fired after {tdur}",
        "Disk {host} usage {int}% of {size}",
    ),
    "lists": (
        "replicas of {table}: {list:ip:space}",
        "members changed: [{list:user:commaspace}]",
        "granted roles {list:state:comma} to {user}",
        "routing {int} keys to {list:host:space} now",
        "Creating snapshot {words} for {user}",
    ),
    "constants": (
        "Session {int} opened for {user}",
        "Session {int} closed for {user}",
        "Session {int} expired for {user}",
        "Session {int} resumed for {user}",
        "Session {int} rejected for {user}",
        "Link {host} up at {tdur}",
        "Link {host} down at {tdur}",
        "Link {host} flapping at {tdur}",
    ),
    "stamps": (
        "backup of {table} started at {stamp}",
        "backup of {table} finished at {stamp} with {int} files",
        "certificate for {domain} expires on {stamp}",
        "clock drift {float} ms since {stamp}",
        "{user} logged out at {stamp}",
    ),
}
"""The development family styles; a slot in braces is a variable of the true template."""

UNSEEN_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "scheduler": (
        "Dispatching batch b{int} of {int} items to {host} (priority {int})",
        "Batch b{int} acknowledged by {host} in {tdur}",
        "Batch b{int} requeued: reason={state} retries={int}",
        "Scheduler tick {int}: pending={int} running={int} failed={int}",
        "Node {host} marked unhealthy after {int} missed heartbeats",
        "Node {host} marked healthy after {int} good heartbeats",
        "Assigned shards {list:int:comma} to {host}",
        "Lease for {host} extended to {stamp}",
        "Spilled {size} of batch b{int} to {file}",
    ),
    "gateway": (
        "route matched: {service} -> {ipport} path={file}",
        "upstream {ipport} timed out after {tdur} (attempt {int}/{int})",
        "client {ip} sent {size} with header X-Request-Id: {uuid}",
        "TLS handshake with {domain} failed: {words}",
        "rate limit for key {hexw} reached: {int} req in {tdur}",
        "websocket {uuid} closed by client code={int}",
        "websocket {uuid} closed by server code={int}",
        "config {winfile} applied, {int} routes, {int} filters",
    ),
}
"""Styles kept out of every choice of rules and settings."""


def family_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one family or unseen style with their true template ids."""
    templates = FAMILY_STYLES.get(style) or UNSEEN_STYLES[style]
    return styled_corpus(style, lines, seed, templates=templates, slot=_slot)
