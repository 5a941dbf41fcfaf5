"""Regenerate the demo incident's bundled data (deterministic; the output is committed).

    python scripts/make_demo_data.py

Writes ``adapters/demo/logs/*`` (about 3,000 lines over four services, with the incident:
card-gateway's acquirer connection pool runs dry at 09:40 and GW-504 errors follow, and with
planted fake secrets the projector must mask) and ``adapters/demo/payments.sql`` (the
``orders``/``users`` datasource the SQL tool reads). Every secret here is a random string
of the right shape, made up for the demo.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "adapters" / "demo"
START = datetime(2026, 3, 14, 9, 0, tzinfo=UTC)
INCIDENT = START + timedelta(minutes=40)
END = START + timedelta(hours=1)
_MILLISECOND = timedelta(milliseconds=1)
_SECOND = timedelta(seconds=1)


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def token(
    rng: random.Random, length: int, alphabet: str = string.ascii_letters + string.digits
) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length))


def moments(rng: random.Random, low: int, high: int, unit: timedelta) -> Iterator[datetime]:
    """The instants of one service's records: from START, a random step of ``low`` to ``high``
    units at a time, until one passes END (that one included)."""
    moment = START
    while moment < END:
        moment += unit * rng.randint(low, high)
        yield moment


def card_gateway(rng: random.Random) -> list[str]:
    lines: list[dict[str, object]] = []
    for moment in moments(rng, 1500, 3500, _MILLISECOND):
        order = f"ord_{rng.randint(100000, 999999)}"
        pod = f"card-gateway-7f9c{token(rng, 5, 'bcdfghjklmnpqrstvwxz2456789')}-{token(rng, 5, 'bcdfghjklmnpqrstvwxz2456789')}"
        if moment < INCIDENT - timedelta(minutes=5):
            lines.append({"ts": stamp(moment), "service": "card-gateway", "level": "INFO",
                          "message": f"authorize ok acquirer=acq-a latency_ms={rng.randint(280, 620)} order_id={order}",
                          "pod": pod})  # fmt: skip
        elif moment < INCIDENT:
            lines.append({"ts": stamp(moment), "service": "card-gateway", "level": "WARN",
                          "message": f"acquirer pool saturation active=64 max=64 pending={rng.randint(5, 60)}",
                          "pod": pod})  # fmt: skip
        else:
            pending = rng.randint(180, 340)
            lines.append({"ts": stamp(moment), "service": "card-gateway", "level": "ERROR",
                          "message": f"GW-504 acquirer call failed: pool exhausted (active=64 idle=0 pending={pending} waited_ms=2000) order_id={order}",
                          "pod": pod})  # fmt: skip
            if rng.random() < 0.5:
                lines.append({"ts": stamp(moment + timedelta(milliseconds=5)), "service": "card-gateway",
                              "level": "INFO", "message": f"authorize ok acquirer=acq-a latency_ms={rng.randint(300, 650)} order_id=ord_{rng.randint(100000, 999999)}",
                              "pod": pod})  # fmt: skip
    lines.insert(3, {"ts": stamp(START + timedelta(seconds=4)), "service": "card-gateway", "level": "INFO",
                     "message": f"acquirer client configured url=https://acq-a.example.net api_key=sk_live_{token(rng, 24)} password={token(rng, 14)}"})  # fmt: skip
    lines.insert(9, {"ts": stamp(START + timedelta(seconds=20)), "service": "card-gateway", "level": "DEBUG",
                     "message": f"outbound headers Authorization: Bearer eyJ{token(rng, 20)}.eyJ{token(rng, 40)}.{token(rng, 43)}"})  # fmt: skip
    lines.append({"ts": stamp(INCIDENT + timedelta(minutes=3)), "service": "card-gateway", "level": "ERROR",
                  "message": "GW-504 acquirer call failed: pool exhausted (active=64 idle=0 pending=301 waited_ms=2000) order_id=ord_555001",
                  "stack": ["com.example.gateway.pool.PoolTimeoutException: timed out waiting for acquirer connection",
                            "\tat com.example.gateway.pool.ConnectionPool.borrow(ConnectionPool.java:211)",
                            "\tat com.example.gateway.acquirer.AcquirerClient.authorize(AcquirerClient.java:88)",
                            "\tat com.example.gateway.api.AuthorizeHandler.handle(AuthorizeHandler.java:54)",
                            "\tat io.netty.channel.AbstractChannelHandlerContext.invokeChannelRead(AbstractChannelHandlerContext.java:379)",
                            "\tat io.netty.channel.DefaultChannelPipeline.fireChannelRead(DefaultChannelPipeline.java:919)"]})  # fmt: skip
    lines.sort(key=lambda line: str(line["ts"]))
    return [json.dumps(line) for line in lines]


def payments_api(rng: random.Random) -> list[str]:
    lines: list[dict[str, object]] = []
    for moment in moments(rng, 2000, 4500, _MILLISECOND):
        order = f"ord_{rng.randint(100000, 999999)}"
        ip = f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
        if moment >= INCIDENT and rng.random() < 0.55:
            lines.append({"ts": stamp(moment), "service": "payments-api", "level": "ERROR",
                          "message": f"PAY-502 upstream card-gateway failed error_code=GW-504 order_id={order} client_ip={ip}"})  # fmt: skip
        else:
            lines.append({"ts": stamp(moment), "service": "payments-api", "level": "INFO",
                          "message": f"POST /v1/payments 201 order_id={order} duration_ms={rng.randint(310, 700)} client_ip={ip}"})  # fmt: skip
    lines.insert(5, {"ts": stamp(START + timedelta(seconds=12)), "service": "payments-api", "level": "INFO",
                     "message": f"database pool ready url=postgresql://payments:{token(rng, 16)}@db-payments-01.internal:5432/payments"})  # fmt: skip
    lines.sort(key=lambda line: str(line["ts"]))
    return [json.dumps(line) for line in lines]


def checkout(rng: random.Random) -> list[str]:
    lines: list[str] = []
    for moment in moments(rng, 2500, 5000, _MILLISECOND):
        cart = f"cart_{token(rng, 8, string.ascii_lowercase + string.digits)}"
        user = f"{token(rng, 6, string.ascii_lowercase)}@example.com"
        if moment >= INCIDENT and rng.random() < 0.5:
            lines.append(
                f"{stamp(moment)} ERROR payment could not be completed, please try again cart={cart} user={user}"
            )
        else:
            lines.append(f"{stamp(moment)} INFO payment submitted cart={cart} user={user}")
    return lines


def ledger(rng: random.Random) -> list[str]:
    lines: list[str] = []
    for moment in moments(rng, 6, 14, _SECOND):
        lines.append(json.dumps({"ts": stamp(moment), "service": "ledger", "level": "INFO",
                                 "message": f"posting batch committed size={rng.randint(10, 80)} lag_ms={rng.randint(20, 90)}"}))  # fmt: skip
    return lines


def payments_sql(rng: random.Random) -> str:
    statements = [
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, "
        "password_hash TEXT NOT NULL, api_token TEXT)",
        "CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT NOT NULL, amount REAL NOT NULL, "
        "created_at TEXT NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id))",
    ]
    for user in range(1, 41):
        hashed = "$2b$12$" + token(rng, 53, string.ascii_letters + string.digits + "./")
        api = "'" + "tok_" + token(rng, 28) + "'" if user % 3 else "NULL"
        statements.append(
            f"INSERT INTO users VALUES ({user}, 'Customer {user}', "
            f"'customer{user}@example.com', '{hashed}', {api})"
        )
    order = 1000
    for moment in moments(rng, 5, 15, _SECOND):
        order += 1
        failed = moment >= INCIDENT and rng.random() < 0.6
        status = "FAILED" if failed else "AUTHORIZED"
        amount = round(rng.uniform(5, 400), 2)
        created = moment.strftime("%Y-%m-%d %H:%M:%S")
        statements.append(
            f"INSERT INTO orders VALUES ({order}, '{status}', {amount}, '{created}', "
            f"{rng.randint(1, 40)})"
        )
    return ";\n".join(statements) + ";\n"


def main() -> None:
    rng = random.Random(20260314)
    logs = DEMO / "logs"
    (logs / "card-gateway.jsonl").write_text("\n".join(card_gateway(rng)) + "\n", encoding="utf-8")
    (logs / "payments-api.jsonl").write_text("\n".join(payments_api(rng)) + "\n", encoding="utf-8")
    (logs / "checkout.log").write_text("\n".join(checkout(rng)) + "\n", encoding="utf-8")
    (logs / "ledger.jsonl").write_text("\n".join(ledger(rng)) + "\n", encoding="utf-8")
    (DEMO / "payments.sql").write_text(payments_sql(rng), encoding="utf-8")


if __name__ == "__main__":
    main()
