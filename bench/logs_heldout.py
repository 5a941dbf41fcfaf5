"""Held-out log styles: formats no other generator of the bench writes, with true templates
known by construction (deterministic: seeded), written for this project.

    heldout_corpus("gc", 2000) → [(message, template id), ...]

These styles are never scored while rules or settings are chosen (no leave-one-out, no
grid); ``bench/logs_eval.py`` mines them with the default setting and reports them apart,
so their scores say how the miner carries over to formats it was not written against.

* ``gc``: Java garbage-collector lines, both the unified logging of recent JVMs
  (``GC(12) Pause Young (Normal) (G1 Evacuation Pause) 24M->5M(256M) 3.456ms``) and the
  older bracketed form (``[GC (Allocation Failure) [PSYoungGen: 512K->64K(1024K)] ...``):
  values glued by ``->`` and parentheses, causes in parentheses that are the template's own
  words, phases that differ in one word.
* ``access``: envoy- and nginx-style access and error lines where an absent field is written
  ``-`` (so one position holds ``-`` in some lines and a number, an address or a quoted
  value in others), response flags, quoted request lines and user agents of many words.
* ``logfmt``: ``key=value`` lines whose key sets differ between templates that share their
  first keys (``component=raft term=5 index=9`` / ``component=raft commit=5 applied=9``):
  the keys are the template's own words, only values vary, and a quoted ``msg`` of several
  words is a constant of its template.
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["HELDOUT_STYLES", "heldout_corpus"]

_WORDS: Final = make_pool(41, 50, make_name)
_NODES: Final = make_pool(42, 12, lambda rng: f"{make_name(rng)}-{rng.randrange(1, 9)}")
_CLUSTERS: Final = make_pool(43, 10, lambda rng: f"{make_name(rng)}_{make_name(rng, 1)}")
_FLAGS: Final = ("-", "UF", "UH", "URX", "NR", "UT", "DC", "UO")
_METHODS: Final = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD")
_PROTOCOLS: Final = ("HTTP/1.1", "HTTP/2", "HTTP/1.0")
_AGENTS: Final = (
    "curl/8.5.0",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 Version/17.2 Safari",
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:122.0) Gecko/20100101 Firefox/122.0",
    "okhttp/4.12.0",
    "kube-probe/1.29",
    "Envoy/HC",
)


def _memory(rng: random.Random, unit: str) -> str:
    return f"{rng.randrange(1, 4096)}{unit}"


def _optional(rng: random.Random, kind: str) -> str:
    """A value that is absent (``-``) in about a third of the lines."""
    if rng.random() < 0.35:
        return "-"
    return _slot(rng, kind)


def _slot(rng: random.Random, kind: str) -> str:  # one branch per slot type
    if kind.startswith("opt_"):
        return _optional(rng, kind[4:])
    if kind in ("M", "K"):
        return _memory(rng, kind)
    if kind == "msec":
        return f"{rng.random() * 500:.3f}ms"
    if kind == "secs":
        return f"{rng.random() * 3:.7f}"
    if kind == "cpu":
        return f"{rng.random():.2f}s"
    if kind == "iso":
        return (
            f"2025-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}T"
            f"{rng.randrange(24):02d}:{rng.randrange(60):02d}:{rng.randrange(60):02d}."
            f"{rng.randrange(1000):03d}Z"
        )
    if kind == "method":
        return rng.choice(_METHODS)
    if kind == "proto":
        return rng.choice(_PROTOCOLS)
    if kind == "flags":
        return rng.choice(_FLAGS)
    if kind == "uagent":
        return rng.choice(_AGENTS)
    if kind == "route":
        parts = [rng.choice(_WORDS) for _ in range(rng.randrange(1, 4))]
        return "/" + "/".join(parts) + ("" if rng.random() < 0.5 else f"/{rng.randrange(10**4)}")
    if kind == "hostport":
        return f"{base_slot(rng, 'ip')}:{rng.choice((80, 443, 8080, 9000))}"
    if kind == "node":
        return rng.choice(_NODES)
    if kind == "cluster":
        return rng.choice(_CLUSTERS)
    if kind == "word":
        return rng.choice(_WORDS)
    if kind == "reqid":
        return "".join(rng.choice("0123456789abcdef") for _ in range(16))
    if kind == "file":
        parts = [rng.choice(_WORDS) for _ in range(rng.randrange(1, 4))]
        return "/" + "/".join(parts) + rng.choice((".html", ".yaml", ".js", ""))
    if kind == "caller":
        return f"{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.go:{rng.randrange(10, 900)}"
    return base_slot(rng, kind)


HELDOUT_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "gc": (
        "GC({int}) Pause Young (Normal) (G1 Evacuation Pause) {M}->{M}({M}) {msec}",
        "GC({int}) Pause Young (Concurrent Start) (G1 Humongous Allocation) {M}->{M}({M}) {msec}",
        "GC({int}) Pause Remark {M}->{M}({M}) {msec}",
        "GC({int}) Pause Cleanup {M}->{M}({M}) {msec}",
        "GC({int}) Pause Full (System.gc()) {M}->{M}({M}) {msec}",
        "GC({int}) Using {int} workers of {int} for evacuation",
        "GC({int}) Eden regions: {int}->{int}({int})",
        "GC({int}) Survivor regions: {int}->{int}({int})",
        "GC({int}) Old regions: {int}->{int}",
        "GC({int}) Humongous regions: {int}->{int}",
        "GC({int}) Metaspace: {K}->{K}({K}) NonClass: {K}->{K}({K}) Class: {K}->{K}({K})",
        "GC({int}) User={cpu} Sys={cpu} Real={cpu}",
        "GC({int}) Concurrent Mark Cycle {msec}",
        "[GC (Allocation Failure) [PSYoungGen: {K}->{K}({K})] {K}->{K}({K}), {secs} secs] "
        "[Times: user={float} sys={float}, real={float} secs]",
        "[Full GC (Ergonomics) [PSYoungGen: {K}->{K}({K})] [ParOldGen: {K}->{K}({K})] "
        "{K}->{K}({K}), {secs} secs]",
    ),
    "access": (
        '[{iso}] "{method} {route} {proto}" {int} {flags} {int} {int} {int} {opt_int} '
        '"{opt_ip}" "{uagent}" "{uuid}" "{domain}" "{opt_hostport}"',
        '[{iso}] "- - -" 0 {flags} {int} {int} {int} - "-" "-" "-" "-" "{opt_hostport}"',
        '{ip} - {opt_user} [{iso}] "{method} {route} {proto}" {int} {int} "{opt_route}" '
        '"{uagent}" rt={float} uct="{opt_float}" urt="{opt_float}"',
        "*{int} upstream timed out (110: Connection timed out) while reading response header "
        'from upstream, client: {ip}, server: {domain}, request: "{method} {route} {proto}", '
        'upstream: "http://{hostport}{route}", host: "{domain}"',
        '*{int} open() "{file}" failed (2: No such file or directory), client: {ip}, '
        'server: {domain}, request: "{method} {route} {proto}", host: "{domain}"',
        "*{int} no live upstreams while connecting to upstream, client: {ip}, "
        'server: {domain}, request: "{method} {route} {proto}", upstream: "http://{cluster}"',
        "{int}#{int}: *{int} client {ip} closed keepalive connection",
    ),
    "logfmt": (
        'ts={iso} level=info caller={caller} component=raft msg="became leader" '
        "term={int} index={int}",
        'ts={iso} level=info caller={caller} component=raft msg="committed entries" '
        "commit={int} applied={int}",
        'ts={iso} level=warn caller={caller} component=raft msg="election timeout" '
        "term={int} peer={node}",
        'ts={iso} level=info caller={caller} component=http msg="request" '
        "method={method} path={route} status={int} took={msec} req_id={reqid}",
        'ts={iso} level=error caller={caller} component=http msg="handler panic" '
        'path={route} err="{word} {word}" req_id={reqid}',
        'ts={iso} level=info caller={caller} component=store msg="compaction done" '
        "cluster={cluster} bytes={int} files={int}",
        'ts={iso} level=debug caller={caller} component=store msg="flush" '
        "cluster={cluster} memtable={int}",
        'ts={iso} level=info caller={caller} msg="config loaded" file={file}',
    ),
}
"""The held-out styles; a slot in braces is a variable of the true template."""


def heldout_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one held-out style with their true template ids."""
    return styled_corpus(style + ":heldout", lines, seed, HELDOUT_STYLES[style], _slot)
