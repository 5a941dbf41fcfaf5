"""Slot values of the seventh set of unseen log styles (``bench/logs_unseen7.py``): pools of
made-up names skewed as real logs are (one value in most lines, many rare ones), and the
compound values of each format (Cassandra sizes, CQL text, Git revisions, ALB request fields;
the system styles' values are in ``bench/logs_unseen7_system.py``)."""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus
from bench.logs_unseen7_styles import UNSEEN7_STYLES
from bench.logs_unseen7_system import SYSTEM_FILLERS
from bench.logs_unseen7_system import hex_string as _hex
from bench.logs_unseen7_system import skewed as _skewed

__all__ = ["unseen7_corpus", "unseen7_slot"]

_KEYSPACES: Final = make_pool(81, 5, make_name)
_TABLES: Final = make_pool(82, 14, lambda rng: make_name(rng) + rng.choice(("", "_by_id", "s")))
_GC_NAMES: Final = ("G1 Young Generation", "G1 Young Generation", "G1 Old Generation", "ParNew")
_STAGES: Final = (
    "Build",
    "Unit Tests",
    "Checkout",
    "Static analysis",
    "Deploy to staging",
    "Integration tests (postgres)",
    "Publish",
)
_STEPS: Final = ("sh", "sh", "stage", "node", "echo", "withEnv", "script", "junit", "dir")
_FULL_NAMES: Final = ("admin", "Alice Moreau", "Jean-Luc Picard", "Bob", "Kim Ji Woo", "deploy")
_JOBS: Final = make_pool(83, 8, lambda rng: f"{make_name(rng)}_{make_name(rng)}")
_BRANCHES: Final = ("main", "main", "develop", "feature/ABC-123-login-fix", "PR-482", "release/2.4")
_SUBJECTS: Final = (
    "Fix flaky test",
    "Bump jackson-databind from 2.15.2 to 2.16.0",
    "Merge pull request #482 from team/feature/login-fix",
    "wip",
    "Add retry to the upload step and log the response body on failure",
)
_ARTIFACTS: Final = make_pool(84, 8, lambda rng: f"{make_name(rng)}-{rng.choice(('core', 'api'))}")
_TEST_CLASSES: Final = make_pool(
    85, 12, lambda rng: f"com.example.{make_name(rng)}.{make_name(rng).capitalize()}Test"
)
_AGENTS: Final = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/119.0.0.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
    "Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    "ELB-HealthChecker/2.0",
    "okhttp/4.11.0",
    "curl/8.4.0",
    "-",
    "Amazon CloudFront",
)
_HOSTS: Final = ("api.example.com", "api.example.com", "www.example.com", "shop.example.net")
_URL_PARTS: Final = ("api", "v2", "orders", "users", "cart", "static", "img", "search")


def _size(rng: random.Random, unit: str) -> str:
    return f"{rng.random() * 10 ** rng.randrange(1, 4):.3f}{unit}"


def _cql(rng: random.Random) -> str:
    table = f"{rng.choice(_KEYSPACES)}.{rng.choice(_TABLES)}"
    where = " AND ".join(
        f"{make_name(rng)} = {rng.randrange(10**4)}" for _ in range(rng.randrange(1, 3))
    )
    text = f"SELECT * FROM {table} WHERE {where}"
    return text + (f" LIMIT {rng.choice((100, 5000))}" if rng.random() < 0.6 else "")


def _cassandra(rng: random.Random, kind: str) -> str | None:
    if kind == "table":
        return rng.choice(_TABLES)
    if kind == "ks":
        return rng.choice(_KEYSPACES)
    if kind in ("mib", "kib"):
        return _size(rng, "MiB" if kind == "mib" else "KiB")
    if kind == "mibs":
        return _size(rng, "MiB/s")
    if kind == "comma":
        return f"{rng.randrange(1, 10**6):,}"
    if kind == "pct":
        return str(rng.randrange(0, 101))
    if kind == "long":
        return str(rng.randrange(10**12, 10**13))
    if kind == "sstables":
        return "".join(f"{_sstable(rng)}," for _ in range(rng.choice((1, 1, 1, 2, 4))))
    if kind == "datafile":
        return _sstable(rng) + "-Data.db"
    if kind == "merges":
        return "".join(f"{n}:{rng.randrange(1, 5000)}, " for n in range(1, rng.randrange(2, 5)))
    if kind == "gcname":
        return rng.choice(_GC_NAMES)
    if kind == "cql":
        return _cql(rng)
    if kind == "tables":
        return ", ".join(
            f"{rng.choice(_KEYSPACES)}.{t}" for t in rng.sample(_TABLES, rng.randrange(1, 4))
        )
    if kind == "node":
        return f"/{base_slot(rng, 'ip')}:7000"
    return None


def _sstable(rng: random.Random) -> str:
    keyspace, table = rng.choice(_KEYSPACES), rng.choice(_TABLES)
    return (
        f"/var/lib/cassandra/data/{keyspace}/{table}-{_hex(rng, 32)}/nb-{rng.randrange(1, 900)}-big"
    )


def _jenkins(rng: random.Random, kind: str) -> str | None:
    if kind == "stage":
        return rng.choice(_STAGES)
    if kind == "step":
        return rng.choice(_STEPS)
    if kind == "fullname":
        return _skewed(rng, _FULL_NAMES)
    if kind == "agent":
        return rng.choice(("linux-agent-07", "built-in", f"docker-{_hex(rng, 6)}", "mac-m2-2"))
    if kind == "ws":
        suffix = rng.choice(("", "", "@2", "@tmp"))
        branch = rng.choice(_BRANCHES).replace("/", "_")
        return f"/var/lib/jenkins/workspace/{rng.choice(_JOBS)}_{branch}{suffix}"
    if kind == "repo":
        return f"https://github.com/example/{rng.choice(_JOBS).replace('_', '-')}.git"
    if kind == "sha":
        return _hex(rng, 40)
    if kind == "branch":
        return rng.choice(_BRANCHES)
    if kind == "subject":
        return rng.choice(_SUBJECTS)
    if kind == "mails":
        return " ".join(f"{make_name(rng)}@example.com" for _ in range(rng.randrange(1, 4)))
    if kind == "result":
        return rng.choice(("SUCCESS", "SUCCESS", "SUCCESS", "FAILURE", "UNSTABLE", "ABORTED"))
    if kind == "artifact":
        return rng.choice(_ARTIFACTS)
    if kind == "mvnversion":
        return f"{rng.randrange(1, 4)}.{rng.randrange(20)}.{rng.randrange(10)}" + rng.choice(
            ("", "-SNAPSHOT")
        )
    if kind == "testclass":
        return rng.choice(_TEST_CLASSES)
    if kind == "pom":
        group = "/".join(make_name(rng) for _ in range(rng.randrange(2, 4)))
        name, version = make_name(rng), f"{rng.randrange(1, 9)}.{rng.randrange(30)}"
        file = f"{name}-{version}.{rng.choice(('pom', 'jar'))}"
        return f"https://repo.maven.apache.org/maven2/org/{group}/{name}/{version}/{file}"
    if kind == "kb":
        return f"{rng.random() * 900:.1f} {rng.choice(('kB', 'kB', 'MB', 'B'))}"
    return None


def _url(rng: random.Random, scheme: str) -> str:
    path = "/".join(rng.choice(_URL_PARTS) for _ in range(rng.randrange(1, 4)))
    query = rng.choice(
        ("", "", f"?id={rng.randrange(10**5)}", f"?q={make_name(rng)}&page={rng.randrange(9)}")
    )
    port = 443 if scheme in ("https", "wss") else 80
    return f"{scheme}://{_skewed(rng, _HOSTS)}:{port}/{path}{query}"


def _alb(rng: random.Random, kind: str) -> str | None:
    if kind == "albtime":
        return f"2026-12-04T{base_slot(rng, 'time')}.{rng.randrange(10**6):06d}Z"
    if kind == "client":
        return f"{base_slot(rng, 'ip')}:{base_slot(rng, 'port')}"
    if kind == "target":
        return f"10.0.{rng.randrange(4)}.{rng.randrange(2, 250)}:{rng.choice((80, 8080))}"
    if kind == "t":
        return f"{rng.random() * rng.choice((0.01, 0.1, 2)):.3f}"
    if kind == "st":
        return rng.choice(("200", "200", "200", "304", "404", "201", "500"))
    if kind in ("https", "http", "wss"):
        return _url(rng, kind)
    if kind == "ua":
        return rng.choice(_AGENTS)
    if kind == "cipher":
        return rng.choice(
            ("ECDHE-RSA-AES128-GCM-SHA256", "TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES256-GCM-SHA384")
        )
    if kind == "tls":
        return rng.choice(("TLSv1.2", "TLSv1.3"))
    if kind == "tg":
        name = rng.choice(("web-prod", "api-prod", "api-canary"))
        arn = "arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup"
        return f"{arn}/{name}/{_hex(rng, 16)}"
    if kind == "trace":
        return f"Root=1-{_hex(rng, 8)}-{_hex(rng, 24)}"
    if kind == "host":
        return _skewed(rng, _HOSTS)
    if kind == "cert":
        return f"arn:aws:acm:eu-west-1:123456789012:certificate/{base_slot(rng, 'uuid')}"
    if kind == "prio":
        return str(rng.choice((0, 1, 10, 20, 100)))
    if kind == "tid":
        return "TID_" + _hex(rng, 32)
    if kind == "autherr":
        return rng.choice(("AuthInvalidCookie", "AuthInvalidIdToken", "AuthTokenEpRequestTimeout"))
    return None


_FILLERS: Final = (_cassandra, _jenkins, _alb, *SYSTEM_FILLERS)


def unseen7_slot(rng: random.Random, kind: str) -> str:
    """One slot's value: this set's own kinds first, then ``bench/logs_styles.py``'s."""
    for filler in _FILLERS:
        value = filler(rng, kind)
        if value is not None:
            return value
    return base_slot(rng, kind)


def unseen7_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one style of the seventh unseen set with their true template ids."""
    return styled_corpus(style + ":unseen7", lines, seed, UNSEEN7_STYLES[style], unseen7_slot)
