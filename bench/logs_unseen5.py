"""Unseen log styles of a fifth set: formats no other generator of the bench writes, modelled
on real ones, true templates known by construction (deterministic: seeded).

    unseen5_corpus("klog", 2000) → [(message, template id), ...]

They were written before the miner rules of ADR 0037, and are development data of those
rules (measured before and after each); they are not edited to fit the miner.
``bench/logs_eval.py`` mines them with the default setting and reports them apart; they take
no part in choosing a setting.

* ``klog``: Kubernetes kubelet lines in klog's structured form (``"Pod status updated"
  pod="ns/name" status="Running"``): a quoted message of several words is the template's
  own, quoted values after ``key=`` vary, one of them a state from a small set.
* ``postgres``: PostgreSQL server lines (``LOG:  duration: 0.412 ms  statement: SELECT …``,
  ``FATAL:  password authentication failed for user "bob"``): doubled spaces, quoted names,
  SQL text of many words after a key.
* ``haproxy``: HAProxy HTTP log lines (``10.0.0.1:5123 [02/Dec/2026:10:01:02.123] fe be/srv
  0/0/1/2/3 200 512 - - ---- 1/1/0/0/0 0/0 "GET /x HTTP/1.1"``): timers and counters glued
  by ``/``, termination states of four letters, an absent field written ``-``.
* ``journal``: systemd journal text (``Started Session 12 of User bob.``, ``nginx.service:
  Main process exited, code=exited, status=1/FAILURE``): unit names of several shapes, a
  unit's state words that are kinds of the event.
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["UNSEEN5_STYLES", "unseen5_corpus"]

_NAMESPACES: Final = make_pool(51, 8, make_name)
_PODS: Final = make_pool(
    52, 30, lambda rng: f"{make_name(rng)}-{make_name(rng, 1)}-{rng.randrange(10**5):05x}"
)
_CONTAINERS: Final = make_pool(53, 10, make_name)
_PHASES: Final = ("Pending", "Running", "Succeeded", "Failed", "Unknown")
_DATABASES: Final = make_pool(54, 6, make_name)
_ROLES: Final = make_pool(55, 12, make_name)
_TABLES: Final = make_pool(56, 15, make_name)
_FRONTENDS: Final = make_pool(57, 4, lambda rng: make_name(rng) + "_front")
_BACKENDS: Final = make_pool(58, 6, lambda rng: make_name(rng) + "_back")
_SERVERS: Final = make_pool(59, 8, lambda rng: f"{make_name(rng)}{rng.randrange(1, 9)}")
_TERMINATIONS: Final = ("----", "--NI", "CD--", "SD--", "cD--", "sH--", "PR--")
_UNITS: Final = make_pool(60, 16, lambda rng: make_name(rng) + rng.choice(("", "d", "-agent")))
_USERS: Final = make_pool(61, 20, make_name)
_METHODS: Final = ("GET", "POST", "PUT", "DELETE")


def _sql(rng: random.Random) -> str:
    table = rng.choice(_TABLES)
    column = make_name(rng)
    shapes = (
        f"SELECT * FROM {table} WHERE {column} = {rng.randrange(10**4)}",
        f"UPDATE {table} SET {column} = {rng.randrange(100)} WHERE id = {rng.randrange(10**5)}",
        f"INSERT INTO {table} ({column}) VALUES ('{make_name(rng)}')",
        f"DELETE FROM {table} WHERE id = {rng.randrange(10**5)}",
    )
    return rng.choice(shapes)


def _slot(rng: random.Random, kind: str) -> str:  # one branch per slot type
    if kind == "podref":
        return f"{rng.choice(_NAMESPACES)}/{rng.choice(_PODS)}"
    if kind == "container":
        return rng.choice(_CONTAINERS)
    if kind == "phase":
        return rng.choice(_PHASES)
    if kind == "db":
        return rng.choice(_DATABASES)
    if kind == "role":
        return rng.choice(_ROLES)
    if kind == "table":
        return rng.choice(_TABLES)
    if kind == "sql":
        return _sql(rng)
    if kind == "front":
        return rng.choice(_FRONTENDS)
    if kind == "back":
        return rng.choice(_BACKENDS)
    if kind == "server":
        return rng.choice(_SERVERS)
    if kind == "term":
        return rng.choice(_TERMINATIONS)
    if kind == "timers":
        return "/".join(str(rng.randrange(0, 400)) for _ in range(5))
    if kind == "conns":
        return "/".join(str(rng.randrange(0, 90)) for _ in range(5))
    if kind == "clock":
        return (
            f"{rng.randrange(1, 29):02d}/Dec/2026:{rng.randrange(24):02d}:"
            f"{rng.randrange(60):02d}:{rng.randrange(60):02d}.{rng.randrange(1000):03d}"
        )
    if kind == "method":
        return rng.choice(_METHODS)
    if kind == "opt_int":
        return "-" if rng.random() < 0.4 else str(rng.randrange(10**4))
    if kind == "unit":
        return rng.choice(_UNITS)
    if kind == "luser":
        return rng.choice(_USERS)
    if kind == "exit":
        return rng.choice(("1/FAILURE", "2/INVALIDARGUMENT", "143", "9/KILL"))
    return base_slot(rng, kind)


UNSEEN5_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "klog": (
        '"SyncLoop (PLEG): event for pod" pod="{podref}" event={{ID:{uuid} Type:ContainerStarted}}',
        '"Pod status updated" pod="{podref}" status="{phase}"',
        '"Killing container with a grace period" pod="{podref}" containerName="{container}" '
        "gracePeriod={int}",
        '"Probe failed" probeType="Readiness" pod="{podref}" containerName="{container}" '
        'probeResult="failure" output="Get \\"http://{ip}:{port}/healthz\\": context deadline '
        'exceeded"',
        '"Probe failed" probeType="Liveness" pod="{podref}" containerName="{container}" '
        'probeResult="failure" output="HTTP probe failed with statuscode: {int}"',
        '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for '
        '\\"{container}\\" with CrashLoopBackOff" pod="{podref}" podUID={uuid}',
        '"Image garbage collection succeeded" freedBytes={int}',
        '"RemoveContainer" containerID="containerd://{word}"',
        '"Volume detached for volume" volumeName="kubernetes.io/projected/{uuid}-kube-api" '
        'nodeName="{domain}"',
    ),
    "postgres": (
        "LOG:  duration: {float} ms  statement: {sql}",
        'FATAL:  password authentication failed for user "{role}"',
        'FATAL:  database "{db}" does not exist',
        "LOG:  connection received: host={ip} port={port}",
        "LOG:  connection authorized: user={role} database={db} application_name=psql",
        "LOG:  disconnection: session time: {time}.{int} user={role} database={db} host={ip} "
        "port={port}",
        "LOG:  checkpoint starting: time",
        "LOG:  checkpoint complete: wrote {int} buffers ({float}%); {int} WAL file(s) added, "
        "{int} removed, {int} recycled; write={float} s, sync={float} s, total={float} s",
        'ERROR:  relation "{table}" does not exist at character {int}',
        'ERROR:  duplicate key value violates unique constraint "{table}_pkey"',
        'LOG:  automatic vacuum of table "{db}.public.{table}": index scans: {int}',
    ),
    "haproxy": (
        "{ip}:{port} [{clock}] {front} {back}/{server} {timers} {int} {int} - - {term} "
        '{conns} 0/0 "{method} {path} HTTP/1.1"',
        "{ip}:{port} [{clock}] {front} {front}/<NOSRV> -1/-1/-1/-1/{int} 503 {int} - - SC-- "
        '{conns} 0/0 "{method} {path} HTTP/1.1"',
        "Server {back}/{server} is DOWN, reason: Layer4 timeout, check duration: {int}ms. "
        "{int} active and {int} backup servers left. {int} sessions active, {int} requeued, "
        "{int} remaining in queue.",
        "Server {back}/{server} is UP, reason: Layer7 check passed, code: 200, check "
        "duration: {int}ms. {int} active and {int} backup servers online. {int} sessions "
        "requeued, {int} total in queue.",
        "Proxy {front} started.",
        "Proxy {back} stopped (cumulated conns: FE: {int}, BE: {opt_int}).",
        "backend {back} has no server available!",
    ),
    "journal": (
        "Started Session {int} of User {luser}.",
        "New session {int} of user {luser}.",
        "Removed session {int}.",
        "{unit}.service: Main process exited, code=exited, status={exit}",
        "{unit}.service: Failed with result 'exit-code'.",
        "{unit}.service: Scheduled restart job, restart counter is at {int}.",
        "Stopped {unit}.service.",
        "Starting {unit}.service...",
        "{unit}.service: Consumed {float}s CPU time.",
        "Reached target Multi-User System.",
        "Finished Rotate log files.",
    ),
}
"""The fifth set of unseen styles; a slot in braces is a variable of the true template."""


def unseen5_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one style of the fifth unseen set with their true template ids."""
    return styled_corpus(style + ":unseen5", lines, seed, UNSEEN5_STYLES[style], _slot)
