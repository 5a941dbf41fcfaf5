"""A synthetic service log for measurements and the incident test (deterministic: seeded).

``service_log(lines)`` writes a day of an order service: request lines, cache and database
lines, warnings, errors with Java stack traces, some credentials and personal data in
messages (to exercise redaction). ``with_incident`` adds a burst of a new error template
(0.3 % of the lines) in the last 10 % of the window.
"""

from __future__ import annotations

import random
import string
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Final

from attrs import frozen

__all__ = ["INCIDENT_MESSAGE", "SyntheticLine", "service_log"]

START: Final = datetime(2024, 6, 1, tzinfo=UTC)
WINDOW: Final = timedelta(hours=24)
INCIDENT_MESSAGE: Final = (
    "HikariPool-1 - Connection is not available, request timed out after {ms}ms (total={n}, "
    "active={n}, idle=0, waiting={w})"
)


@frozen
class SyntheticLine:
    """One written line and what it stands for."""

    text: str
    """The line as written to the file (no line break)."""
    level: str
    """Its level, or ``CONT`` for a continuation line."""
    template: str
    """A name for its template (the same for every line of that template)."""
    incident: bool = False
    """Part of the incident burst."""


_PATHS: Final = ("orders", "carts", "payments", "users", "inventory", "shipping")
_STACK: Final = (
    "com.acme.orders.PaymentClient.charge(PaymentClient.java:{a})",
    "com.acme.orders.CheckoutService.placeOrder(CheckoutService.java:{b})",
    "org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:897)",
    "org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:162)",
    "java.base/java.lang.Thread.run(Thread.java:833)",
)


def _hex(rng: random.Random, length: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def _word(rng: random.Random, length: int) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(length))


def _ip(rng: random.Random) -> str:
    return f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def _uuid(rng: random.Random) -> str:
    return f"{_hex(rng, 8)}-{_hex(rng, 4)}-4{_hex(rng, 3)}-a{_hex(rng, 3)}-{_hex(rng, 12)}"


def _message(rng: random.Random) -> tuple[str, str, str, list[str]]:
    """(level, template name, message, continuation lines)."""
    roll = rng.random()
    path = rng.choice(_PATHS)
    if roll < 0.40:
        status = rng.choice((200, 200, 200, 201, 204, 304))
        return (
            "INFO",
            f"http-{path}",
            (
                f"GET /api/{path}/{rng.randrange(10**6)} {status} in {rng.randrange(2, 900)}ms "
                f"request_id={_uuid(rng)} client={_ip(rng)}"
            ),
            [],
        )
    if roll < 0.55:
        hit = rng.random() < 0.8
        return (
            "DEBUG",
            "cache-hit" if hit else "cache-miss",
            (
                f"cache {'hit' if hit else 'miss'} key={path}:{rng.randrange(10**5)} "
                f"ttl={rng.randrange(10, 600)}s"
            ),
            [],
        )
    if roll < 0.68:
        return (
            "INFO",
            "db-query",
            (f"query on {path} took {rng.randrange(1, 200)} ms rows={rng.randrange(0, 500)}"),
            [],
        )
    if roll < 0.76:
        return (
            "INFO",
            "order-placed",
            (
                f"order {rng.randrange(10**8)} placed by {_word(rng, 6).lower()}@example.com "
                f"total={rng.randrange(100, 99999) / 100:.2f} EUR"
            ),
            [],
        )
    if roll < 0.82:
        return "INFO", "heartbeat", f"heartbeat ok from worker-{rng.randrange(16)}", []
    if roll < 0.86:
        return (
            "INFO",
            "login",
            (f"login user={_word(rng, 7).lower()} from {_ip(rng)} session={_word(rng, 24)}"),
            [],
        )
    if roll < 0.90:
        return (
            "WARN",
            "slow-query",
            (f"slow query on {path}: {rng.randrange(1000, 9000)} ms (threshold 1000 ms)"),
            [],
        )
    if roll < 0.93:
        return (
            "WARN",
            "retry",
            (
                f"retrying call to inventory-svc attempt {rng.randrange(1, 5)}/5 after "
                f"{rng.randrange(100, 2000)}ms"
            ),
            [],
        )
    if roll < 0.95:
        return (
            "INFO",
            "config-reload",
            f"reloaded config db_url=postgres://app:{_word(rng, 14)}@db.prod.internal:5432/orders",
            [],
        )
    if roll < 0.97:
        frames = [
            "\tat " + frame.format(a=rng.randrange(40, 90), b=rng.randrange(100, 300))
            for frame in _STACK
        ]
        return (
            "ERROR",
            "payment-timeout",
            (f"payment provider call failed for order {rng.randrange(10**8)}"),
            [
                "java.net.SocketTimeoutException: Read timed out",
                *frames,
                "Caused by: java.io.IOException: connection reset by peer",
                f"\t... {rng.randrange(10, 60)} more",
            ],
        )
    if roll < 0.985:
        return (
            "ERROR",
            "card-declined",
            (
                f"charge declined card=4111111111111111 reason=insufficient_funds "
                f"amount={rng.randrange(100, 9999)}"
            ),
            [],
        )
    if roll < 0.995:
        return (
            "ERROR",
            "auth-failed",
            (
                f"upstream 401 with Authorization: Bearer {_word(rng, 40)} for user "
                f"{_word(rng, 6).lower()}"
            ),
            [],
        )
    heap = rng.randrange(1, 8)
    return "FATAL", "oom", f"worker-{rng.randrange(16)} out of memory: heap {heap}GB", []


def service_log(lines: int, seed: int = 7, with_incident: bool = False) -> Iterator[SyntheticLine]:
    """``lines`` written lines (continuation lines included) over 24 hours, in time order."""
    rng = random.Random(seed)
    incident_lines = int(lines * 0.003) if with_incident else 0
    incident_start = START + WINDOW * 0.9
    incident_at = sorted(rng.random() for _ in range(incident_lines))
    incident_index = 0
    written = 0
    while written < lines:
        moment = START + WINDOW * (written / lines)
        if incident_index < incident_lines:
            due = incident_start + (WINDOW * 0.1) * incident_at[incident_index]
            if due <= moment or lines - written <= incident_lines - incident_index:
                stamp = due.strftime("%Y-%m-%dT%H:%M:%S.") + f"{due.microsecond // 1000:03d}Z"
                message = INCIDENT_MESSAGE.format(
                    ms=rng.randrange(30000, 30100), n=10, w=rng.randrange(5, 200)
                )
                yield SyntheticLine(
                    f"{stamp} ERROR [http-nio-{rng.randrange(1, 200)}] {message}",
                    "ERROR",
                    "incident",
                    incident=True,
                )
                incident_index += 1
                written += 1
                continue
        level, template, message, continuation = _message(rng)
        if written + 1 + len(continuation) > lines - (incident_lines - incident_index):
            continuation = []
        stamp = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
        yield SyntheticLine(
            f"{stamp} {level} [worker-{rng.randrange(16)}] {message}", level, template
        )
        written += 1
        for extra in continuation:
            yield SyntheticLine(extra, "CONT", template)
            written += 1
