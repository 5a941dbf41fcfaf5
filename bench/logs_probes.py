"""Probe styles: formats of common system logs no other generator of the bench writes,
modelled on real ones with invented names, true templates known by construction
(deterministic: seeded).

    probe_corpus("firewall", 2000) → [(message, template id), ...]

They were written after the rules of ADR 0037's update were made (so they do not measure
those rules on unseen data); ``bench/logs_eval.py`` mines them with the default setting and
reports them apart, and they take no part in choosing a rule or a setting. Two of them show
what is still open: ``firewall`` (an optional flag word and flag sets of one or two words in
one record) and ``syslog`` (a command's arguments after ``COMMAND=``, four commands each seen
many times).

* ``firewall``: netfilter lines (``IN=eth0 OUT= MAC=... SRC=... LEN=60 ... DF PROTO=TCP
  ... SYN URGP=0``): empty values, an optional ``DF``, flag words; link up/down lines.
* ``syslog``: PAM sessions, sudo's ``TTY=... ; PWD=... ; COMMAND=...``, cron's ``(user) CMD
  (...)``, a unit's failures, a daemon's signal.
* ``mysql``: server error-log notes with quoted names, ``'user'@'host'`` and reasons in
  parentheses.
* ``rabbit``: AMQP broker lines with Erlang pids (``<0.812.0>``), ``a:1 -> b:5672``
  connections, quoted queue and vhost names.
* ``squid``: proxy access lines (``1712.345 120 10.0.0.1 TCP_MISS/200 512 GET http://...
  - HIER_DIRECT/10.0.0.2 text/html``).
* ``tomcat``: servlet-container lines with dotted logger names and values in brackets.
* ``dhcp``: DHCP server lines (``DHCPACK on 10.0.0.5 to aa:bb:... (name) via eth0``).
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["PROBE_STYLES", "probe_corpus"]

_IFACES: Final = ("eth0", "eth1", "wlp2s0", "ens33", "br-lan")
_PROTOS: Final = ("TCP", "UDP", "ICMP")
_TCP_FLAGS: Final = ("SYN", "ACK", "ACK PSH", "FIN ACK", "RST")
_USERS: Final = make_pool(101, 20, make_name)
_UNITS: Final = make_pool(
    102, 12, lambda rng: make_name(rng) + rng.choice((".service", ".timer", ".socket"))
)
_DATABASES: Final = make_pool(103, 8, make_name)
_TABLES: Final = make_pool(104, 15, make_name)
_QUEUES: Final = make_pool(105, 10, lambda rng: make_name(rng) + "." + make_name(rng, 1))
_VHOSTS: Final = ("/", "/prod", "/staging")
_APPS: Final = make_pool(106, 8, lambda rng: "/" + make_name(rng))
_CLIENTS: Final = make_pool(107, 12, lambda rng: make_name(rng) + "-" + make_name(rng, 1))
_HOSTS: Final = make_pool(108, 12, lambda rng: f"{make_name(rng)}.{make_name(rng, 1)}.lan")
_COMMANDS: Final = (
    "/usr/bin/rsync -a /srv/a /srv/b",
    "/bin/systemctl restart nolo",
    "/usr/sbin/tune -q",
    "/opt/kiva/bin/sweep --all",
)
_METHODS: Final = ("GET", "POST", "CONNECT", "HEAD")
_CODES: Final = ("TCP_MISS/200", "TCP_HIT/200", "TCP_TUNNEL/200", "TCP_DENIED/403", "TCP_MISS/504")
_HIERARCHY: Final = ("HIER_DIRECT", "HIER_NONE", "FIRSTUP_PARENT")
_MIMES: Final = ("text/html", "application/json", "-", "image/png")
_SIGNALS: Final = ("SIGTERM", "SIGHUP", "SIGUSR1")
_TTYS: Final = ("pts/0", "pts/3", "unknown", "tty1")
_CHOICES: Final = {
    "iface": _IFACES,
    "proto": _PROTOS,
    "tcpflags": _TCP_FLAGS,
    "puser": _USERS,
    "unit": _UNITS,
    "db": _DATABASES,
    "table": _TABLES,
    "queue": _QUEUES,
    "vhost": _VHOSTS,
    "app": _APPS,
    "client": _CLIENTS,
    "host": _HOSTS,
    "cmd": _COMMANDS,
    "meth": _METHODS,
    "scode": _CODES,
    "mime": _MIMES,
    "sig": _SIGNALS,
    "tty": _TTYS,
}


def _slot(rng: random.Random, kind: str) -> str:
    choices = _CHOICES.get(kind)
    if choices is not None:
        return rng.choice(choices)
    if kind == "oiface":
        return "" if rng.random() < 0.6 else rng.choice(_IFACES)
    if kind == "df":
        return "DF " if rng.random() < 0.5 else ""
    if kind == "hier":
        return rng.choice(_HIERARCHY) + "/" + base_slot(rng, "ip")
    if kind == "url":
        return "http://" + rng.choice(_HOSTS) + base_slot(rng, "path")
    if kind == "small":
        return str(rng.randrange(0, 9))
    if kind == "erl":
        return f"<0.{rng.randrange(100, 9999)}.{rng.randrange(0, 9)}>"
    if kind == "tstamp":
        day = rng.randrange(1, 28)
        return f"{day:02d}-Mar-2027 {base_slot(rng, 'time')}.{rng.randrange(1000):03d}"
    return base_slot(rng, kind)


_WEBAPPS: Final = "[/opt/tc/webapps{app}]"
PROBE_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "firewall": (
        "[UFW BLOCK] IN={iface} OUT={oiface} MAC={mac}:08:00 SRC={ip} DST={ip} LEN={int} "
        "TOS=0x00 PREC=0x00 TTL={small}4 ID={int} {df}PROTO={proto} SPT={port} DPT={port} "
        "WINDOW={int} RES=0x00 {tcpflags} URGP=0",
        "[UFW ALLOW] IN={iface} OUT= MAC={mac}:08:00 SRC={ip} DST={ip} LEN={int} TOS=0x00 "
        "PREC=0x00 TTL=64 ID={int} PROTO=UDP SPT={port} DPT=53 LEN={int}",
        "nf_conntrack: table full, dropping packet",
        "{iface}: link up, {int}Mbps, full-duplex, lpa 0x{small}DE1",
        "{iface}: link down",
    ),
    "syslog": (
        "pam_unix(sudo:session): session opened for user root by {puser}(uid={int})",
        "pam_unix(sudo:session): session closed for user root",
        "{puser} : TTY={tty} ; PWD=/home/{puser} ; USER=root ; COMMAND={cmd}",
        "({puser}) CMD ({cmd})",
        "pam_unix(sshd:auth): check pass; user unknown",
        "{unit}: start request repeated too quickly.",
        "{unit}: Unit entered failed state.",
        "Received {sig}, shutting down.",
    ),
    "mysql": (
        "[Note] Aborted connection {int} to db: '{db}' user: '{puser}' host: '{ip}' (Got "
        "timeout reading communication packets)",
        "[Note] Aborted connection {int} to db: '{db}' user: '{puser}' host: '{ip}' (Got an "
        "error reading communication packets)",
        "[Warning] IP address '{ip}' could not be resolved: Name or service not known",
        "[ERROR] Table '{db}.{table}' is marked as crashed and should be repaired",
        "[Note] InnoDB: page_cleaner: 1000ms intended loop took {int}ms. The settings might "
        "not be optimal. (flushed={int} and evicted={small}, during the time.)",
        "[Warning] Access denied for user '{puser}'@'{ip}' (using password: YES)",
        "[Note] Event Scheduler: Loaded {small} events",
    ),
    "rabbit": (
        "accepting AMQP connection {erl} ({ip}:{port} -> {ip}:5672)",
        "connection {erl} ({ip}:{port} -> {ip}:5672): user '{puser}' authenticated and granted "
        "access to vhost '{vhost}'",
        "closing AMQP connection {erl} ({ip}:{port} -> {ip}:5672, vhost: '{vhost}', user: "
        "'{puser}')",
        "Mirrored queue '{queue}' in vhost '{vhost}': Adding mirror on node rabbit@{client}: {erl}",
        "Queue '{queue}' in vhost '{vhost}' has its master node down and no mirrors available "
        "or eligible for promotion.",
        "memory resource limit alarm set on node rabbit@{client}.",
    ),
    "squid": (
        "{float} {int} {ip} {scode} {int} {meth} {url} - {hier} {mime}",
        "{float} {int} {ip} {scode} {int} CONNECT {host}:443 {puser} {hier} -",
    ),
    "tomcat": (
        "{tstamp} INFO [main] org.apache.catalina.startup.HostConfig.deployDirectory Deploying "
        f"web application directory {_WEBAPPS}",
        "{tstamp} INFO [main] org.apache.catalina.startup.HostConfig.deployDirectory Deployment "
        f"of web application directory {_WEBAPPS} has finished in [{{int}}] ms",
        "{tstamp} WARNING [http-nio-8080-exec-{small}] org.apache.catalina.loader."
        "WebappClassLoaderBase.clearReferencesThreads The web application [{app}] appears to "
        "have started a thread named [{client}-{small}] but has failed to stop it.",
        "{tstamp} INFO [main] org.apache.catalina.startup.Catalina.start Server startup in "
        "[{int}] milliseconds",
        "{tstamp} SEVERE [http-nio-8080-exec-{small}] org.apache.catalina.core."
        "StandardWrapperValve.invoke Servlet.service() for servlet [{client}] in context with "
        "path [{app}] threw exception",
    ),
    "dhcp": (
        "DHCPDISCOVER from {mac} via {iface}",
        "DHCPOFFER on {ip} to {mac} ({client}) via {iface}",
        "DHCPREQUEST for {ip} ({ip}) from {mac} ({client}) via {iface}",
        "DHCPACK on {ip} to {mac} ({client}) via {iface}",
        "DHCPRELEASE of {ip} from {mac} ({client}) via {iface} (found)",
        "no free leases on network {iface} ({ip}/24)",
    ),
}


def probe_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one probe style with their true template ids."""
    return styled_corpus(style + ":probe", lines, seed, PROBE_STYLES[style], _slot)
