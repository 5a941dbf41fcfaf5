"""Slot values of the system styles of the seventh unseen set (``bench/logs_unseen7.py``):
BIND names and flags, containerd ids and images, Linux audit record fields; and the helpers
the other slot module shares (hex strings, skewed choices, values a line writes twice)."""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool

__all__ = ["SYSTEM_FILLERS", "hex_string", "skewed"]

_HEX: Final = "0123456789abcdef"
_ZONES: Final = make_pool(
    86, 10, lambda rng: f"{make_name(rng)}.{rng.choice(('com', 'org', 'net'))}"
)
_QTYPES: Final = ("A", "A", "A", "AAAA", "AAAA", "HTTPS", "PTR", "MX", "TXT", "SRV", "NS", "DS")
_QFLAGS: Final = ("+", "+E(0)K", "-E(0)DC", "+E(0)", "-", "+ET", "+E(0)DV", "-EDC")
_RESULTS: Final = (
    "timed out",
    "timed out",
    "network unreachable",
    "host unreachable",
    "broken trust chain",
    "no valid RRSIG",
    "insecurity proof failed",
)
_CONTAINERS: Final = ("coredns", "kube-proxy", "nginx", "app", "istio-proxy", "postgres")
_NAMESPACES: Final = ("default", "kube-system", "payments", "monitoring")
_IMAGES: Final = (
    "registry.k8s.io/pause:3.9",
    "docker.io/library/nginx:1.25.3",
    "ghcr.io/example/app:v2.4.1",
    "quay.io/prometheus/node-exporter:v1.7.0",
)
_CNI_ERRORS: Final = (
    "error getting ClusterInformation: connection is unauthorized: Unauthorized",
    'failed to find plugin \\"calico\\" in path [/opt/cni/bin]',
    "context deadline exceeded",
)
_EXEC_CMDS: Final = (
    "pg_isready -U postgres",
    "/bin/grpc_health_probe -addr=:8080",
    "cat /tmp/healthy",
)
_COMMS: Final = ("sudo", "sshd", "bash", "cron", "python3", "systemd", "httpd")
_UNITS: Final = ("nginx", "sshd", "user@1000", "systemd-tmpfiles-clean", "dnf-makecache", "cron")
_ACCTS: Final = ("root", "root", "bob", "deploy", "admin", "test")
_PERMS: Final = ("read", "write", "open", "getattr", "execute", "name_connect", "connectto")
_TCTX: Final = ("var_run_t", "httpd_sys_content_t", "user_home_t", "unreserved_port_t", "tmp_t")
_ARGS: Final = ("ls", "-la", "/tmp", "systemctl", "restart", "nginx", "grep", "-r", "TODO", "src")
_LAST: Final[dict[str, str]] = {}
"""The last value of each remembered slot (a name written twice in one line)."""


def _hex(rng: random.Random, length: int, digits: str = _HEX) -> str:
    return "".join(rng.choice(digits) for _ in range(length))


def _skewed(rng: random.Random, pool: tuple[str, ...]) -> str:
    """The first value in about half the lines, the others evenly."""
    return pool[0] if rng.random() < 0.5 else rng.choice(pool)


def _bind(rng: random.Random, kind: str) -> str | None:
    if kind == "ptr":
        return "0x7f" + _hex(rng, 10)
    if kind == "qname":
        zone = rng.choice(_ZONES)
        _LAST["q"] = rng.choice(
            (f"www.{zone}", zone, f"{make_name(rng)}.{zone}", f"_ldap._tcp.{zone}")
        )
        return _LAST["q"]
    if kind == "qsame":
        return _LAST.get("q", "example.com")
    if kind == "zone":
        _LAST["z"] = rng.choice(_ZONES)
        return _LAST["z"]
    if kind == "zsame":
        return _LAST.get("z", "example.com")
    if kind == "qclass":
        return "CH" if rng.random() < 0.05 else "IN"
    if kind == "qtype":
        return rng.choice(_QTYPES)
    if kind == "qflags":
        return rng.choice(_QFLAGS)
    if kind == "serial":
        return f"202612{rng.randrange(1, 5):02d}{rng.randrange(100):02d}"
    if kind == "secs":
        return f"{rng.random() * 2:.3f}"
    if kind == "hex8":
        return _hex(rng, 8)
    if kind == "rcode":
        return rng.choice(("SERVFAIL", "REFUSED", "FORMERR", "NOTIMP"))
    if kind == "dnsresult":
        return rng.choice(_RESULTS)
    if kind == "rndc":
        return rng.choice(
            (
                "reload",
                "reload",
                "reconfig",
                "flush",
                "stats",
                f"reload {rng.choice(_ZONES)}",
                "status",
            )
        )
    if kind == "xfr":
        return rng.choice(("AXFR", "IXFR"))
    if kind == "senderr":
        return rng.choice(("host unreachable", "connection refused", "not enough free resources"))
    if kind == "qfail":
        return rng.choice(("SERVFAIL", "SERVFAIL", "timed out", "failure"))
    return None


def _containerd(rng: random.Random, kind: str) -> str | None:
    if kind == "ctime":
        return f'"2026-12-04T{base_slot(rng, "time")}.{rng.randrange(10**9):09d}Z"'
    if kind == "cid":
        return _hex(rng, 64)
    if kind == "cname":
        return rng.choice(_CONTAINERS)
    if kind == "pod":
        digits = "bcdfghjklmnpqrstvwxz2456789"
        return f"{rng.choice(_CONTAINERS)}-{_hex(rng, 10, digits)}-{_hex(rng, 5, digits)}"
    if kind == "ns":
        return rng.choice(_NAMESPACES)
    if kind == "attempt":
        return rng.choice(("0", "0", "0", "1", "3"))
    if kind == "image":
        return _skewed(rng, _IMAGES)
    if kind == "sha64":
        return _hex(rng, 64)
    if kind == "godur":
        return rng.choice(
            (
                f"{rng.random() * 9:.9f}s",
                f"{rng.random() * 900:.6f}ms",
                f"1m{rng.random() * 60:.6f}s",
            )
        )
    if kind == "signal":
        return rng.choice(("terminated", "terminated", "killed", "quit"))
    if kind == "cni":
        return rng.choice(("calico", "calico", "cilium-cni", "bridge"))
    if kind == "cnierr":
        return rng.choice(_CNI_ERRORS)
    if kind == "exitstatus":
        return "" if rng.random() < 0.6 else f"exit_status:{rng.choice((1, 2, 137, 143))} "
    if kind == "epoch":
        return str(rng.randrange(1764800000, 1764900000))
    if kind == "execcmd":
        return rng.choice(_EXEC_CMDS)
    if kind == "ptype":
        return f"io.containerd.{rng.choice(('snapshotter', 'content', 'grpc', 'runtime'))}.v1"
    if kind == "plugin":
        kind_name = rng.choice(("snapshotter", "content", "grpc", "runtime"))
        return f"io.containerd.{kind_name}.v1.{make_name(rng)}"
    return None


def _audit(rng: random.Random, kind: str) -> str | None:
    if kind == "aid":
        stamp = rng.randrange(1764800000, 1764900000)
        return f"{stamp}.{rng.randrange(1000):03d}:{rng.randrange(1, 10**6)}"
    if kind == "auid":
        return rng.choice(("1000", "1000", "4294967295", "1001", "0"))
    if kind == "ses":
        return rng.choice(("4294967295", str(rng.randrange(1, 400))))
    if kind == "comm":
        return rng.choice(_COMMS)
    if kind == "unit":
        return rng.choice(_UNITS)
    if kind == "acct":
        return _skewed(rng, _ACCTS)
    if kind == "res":
        return rng.choice(("success", "success", "success", "failed"))
    if kind == "success":
        _LAST["exit"] = rng.choice(("0", "0", "3", "-2", "-13"))
        return "yes" if _LAST["exit"][0] != "-" else "no"
    if kind == "exit":
        return _LAST.get("exit", "0")
    if kind == "grantors":
        _LAST["res"] = rng.choice(("success", "success", "success", "failed"))
        return "pam_unix" if _LAST["res"] == "success" else "?"
    if kind == "pamres":
        return _LAST.get("res", "success")
    if kind == "argc":
        args = [rng.choice(_ARGS) for _ in range(rng.randrange(1, 6))]
        _LAST["argv"] = " ".join(f'a{i}="{arg}"' for i, arg in enumerate(args))
        return str(len(args))
    if kind == "argv":
        return _LAST.get("argv", 'a0="ls"')
    if kind == "bpfop":
        return rng.choice(("LOAD", "UNLOAD"))
    if kind == "perms":
        return " ".join(rng.sample(_PERMS, rng.randrange(1, 3)))
    if kind == "tctx":
        return rng.choice(_TCTX)
    if kind == "sctx":
        return rng.choice(("sshd_t", "sshd_t", "init_t", "unconfined_t", "crond_t", "auditd_t"))
    if kind == "akey":
        return rng.choice(('"priv_esc"', '"time-change"', "(null)", "(null)", '"identity"'))
    if kind == "aname":
        return rng.choice(
            ('"/usr/bin/sudo"', '"/etc/shadow"', "(null)", '"/tmp/x.sh"', '"/home/bob/.ssh"')
        )
    if kind == "nametype":
        return rng.choice(("NORMAL", "NORMAL", "PARENT", "CREATE", "DELETE"))
    if kind == "proctitle":
        return rng.choice(
            (
                '"bash"',
                _hex(rng, 2 * rng.randrange(6, 30), "0123456789ABCDEF"),
                "2F7573722F7362696E2F73736864002D44",
            )
        )
    if kind == "fp":
        return "SHA256:" + ":".join(_hex(rng, 2) for _ in range(32))
    return None


SYSTEM_FILLERS: Final = (_bind, _containerd, _audit)
"""The fillers of the bind, containerd and auditd styles (``None``: not a kind of theirs)."""
hex_string = _hex
"""``length`` characters drawn from ``digits`` (lower-case hex by default)."""
skewed = _skewed
"""The first value of a pool in about half the lines, the others evenly."""
