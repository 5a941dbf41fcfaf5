"""Unseen log styles of a sixth set: formats no other generator of the bench writes, modelled
on real ones, true templates known by construction (deterministic: seeded).

    unseen6_corpus("kafka", 2000) → [(message, template id), ...]

They were written before the miner rules of ADR 0037 were made, measured before and after,
and are not edited to fit the miner: ``bench/logs_eval.py`` mines them with the default
setting and reports them apart; they take no part in choosing a rule or a setting.

* ``mongodb``: MongoDB's text log (``connection accepted from 10.0.0.1:51234 #812 (14
  connections now open)``, ``Slow query: ... planSummary: IXSCAN { user_id: 1 } ...``):
  values glued by ``#`` and ``:``, documents in braces, a plan summary of one or several
  words, client metadata with quoted multi-word values (``"Ubuntu 22.04"``).
* ``kafka``: Kafka broker ``server.log`` (``[GroupCoordinator 2]: Stabilized group billing
  generation 14 (__consumer_offsets-31) with 3 members (kafka.coordinator...)``): a bracketed
  component with ``key=value`` ids first, topic-partition names glued by ``-``, replica lists
  glued by ``,``, the logger class in parentheses at the end.
* ``redis``: Redis server lines (``100 changes in 300 seconds. Saving...``, a client list
  of many ``key=value`` fields some of them empty: ``name= age=3``), quoted replication ids,
  module paths.
* ``elasticsearch``: Elasticsearch node lines (``[logs-2026.12.02] creating index, cause
  [auto(bulk api)], templates [logs], shards [1]/[1]``): index names with dates, values in
  square brackets, durations written ``1.2s`` or ``845ms``, colours of a health state.
* ``postfix``: Postfix mail log (``3F2A81C0042: to=<bob@example.org>, relay=mx.example.org
  [10.0.0.1]:25, delay=1.2, delays=0.1/0/0.5/0.6, dsn=2.0.0, status=sent (250 2.0.0 OK
  ...)``): queue ids, addresses in angle brackets (sometimes empty: ``from=<>``), a remote
  reply of many words in parentheses, ``unknown[ip]`` host names.
"""

from __future__ import annotations

import random
from typing import Final

from bench.logs_styles import base_slot, make_name, make_pool, styled_corpus

__all__ = ["UNSEEN6_STYLES", "unseen6_corpus"]

_DATABASES: Final = make_pool(61, 6, make_name)
_COLLECTIONS: Final = make_pool(62, 12, make_name)
_FIELDS: Final = make_pool(63, 10, lambda rng: make_name(rng) + rng.choice(("", "_id", "At")))
_DRIVERS: Final = (
    "nodejs",
    "PyMongo",
    "mongo-java-driver",
    "mongo-go-driver",
    "NetworkInterfaceTL",
)
_OS_NAMES: Final = ("Ubuntu 22.04", "linux", "Debian GNU/Linux 12 (bookworm)", "Mac OS X", "Alpine")
_PLATFORMS: Final = (
    "Node.js v18.17.1, LE (unified)",
    "CPython 3.11.6.final.0",
    "Java/Eclipse Adoptium/17.0.9+9",
    "go1.21.4",
)
_RS_STATES: Final = ("PRIMARY", "SECONDARY", "RECOVERING", "STARTUP2", "ARBITER", "ROLLBACK")
_TOPICS: Final = make_pool(
    64,
    14,
    lambda rng: rng.choice(("", "events.", "cdc.")) + make_name(rng) + rng.choice(("", "-v2")),
)
_GROUPS: Final = make_pool(
    65, 8, lambda rng: f"{make_name(rng)}-{rng.choice(('consumer', 'sink'))}"
)
_REDIS_CMDS: Final = ("get", "set", "hgetall", "subscribe", "xread", "lrange", "mget", "eval")
_REDIS_USERS: Final = ("default", "default", "default", "app", "worker", "replicator")
_MODULES: Final = make_pool(67, 5, lambda rng: make_name(rng) + rng.choice(("", "json", "search")))
_INDICES: Final = make_pool(
    68, 10, lambda rng: rng.choice(("logs-", "metrics-", ".ds-", "")) + make_name(rng)
)
_ES_NODES: Final = make_pool(69, 6, lambda rng: f"es-{make_name(rng)}-{rng.randrange(0, 5)}")
_COLOURS: Final = ("GREEN", "YELLOW", "RED")
_TEMPLATES: Final = make_pool(70, 6, lambda rng: make_name(rng) + rng.choice(("", "-template")))
_MAIL_DOMAINS: Final = make_pool(
    71, 12, lambda rng: f"{make_name(rng)}.{rng.choice(('com', 'org', 'net', 'de'))}"
)
_MAIL_USERS: Final = make_pool(
    72, 24, lambda rng: make_name(rng) + rng.choice(("", ".", "_")) + make_name(rng, 1)
)
_REPLIES: Final = (
    "250 2.0.0 OK {stamp} {token} - gsmtp",
    "250 2.0.0 Ok: queued as {queue}",
    "250 Message received",
    "250 2.6.0 <{msgid}> [InternalId={stamp}] Queued mail for delivery",
)
_DEFERRALS: Final = (
    "connect to {mx}[{ip}]:25: Connection timed out",
    "host {mx}[{ip}] said: 421 4.7.0 Try again later, closing connection. "
    "(in reply to MAIL FROM command)",
    "host {mx}[{ip}] said: 450 4.2.1 The user you are trying to contact is receiving mail at a "
    "rate that prevents additional messages from being delivered. (in reply to RCPT TO command)",
    "lost connection with {mx}[{ip}] while receiving the initial server greeting",
)


def _hex(rng: random.Random, length: int, digits: str = "0123456789abcdef") -> str:
    return "".join(rng.choice(digits) for _ in range(length))


def _plan(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return "COLLSCAN"
    fields = rng.sample(_FIELDS, rng.randrange(1, 3))
    return "IXSCAN { " + ", ".join(f"{field}: {rng.choice((1, -1))}" for field in fields) + " }"


def _es_duration(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.randrange(1, 999)}ms"
    return f"{rng.randrange(1, 60)}.{rng.randrange(10)}s"


def _mail(rng: random.Random) -> str:
    return f"{rng.choice(_MAIL_USERS)}@{rng.choice(_MAIL_DOMAINS)}"


def _mx(rng: random.Random) -> str:
    return f"{rng.choice(('mx', 'mx1', 'smtp', 'aspmx.l'))}.{rng.choice(_MAIL_DOMAINS)}"


def _reply(rng: random.Random, shapes: tuple[str, ...]) -> str:
    return rng.choice(shapes).format(
        stamp=rng.randrange(10**9, 10**10),
        token=_hex(rng, 12, "abcdefghijklmnopqrstuvwxyz0123456789"),
        queue=_hex(rng, 11, "0123456789ABCDEF"),
        msgid=f"{_hex(rng, 14)}@{rng.choice(_MAIL_DOMAINS)}",
        mx=_mx(rng),
        ip=base_slot(rng, "ip"),
    )


def _mongo_slot(rng: random.Random, kind: str) -> str | None:
    if kind == "db":
        return rng.choice(_DATABASES)
    if kind == "coll":
        return rng.choice(_COLLECTIONS)
    if kind == "field":
        return rng.choice(_FIELDS)
    if kind == "plan":
        return _plan(rng)
    if kind == "mdriver":
        return rng.choice(_DRIVERS)
    if kind == "version":
        return f"{rng.randrange(1, 7)}.{rng.randrange(20)}.{rng.randrange(10)}"
    if kind == "osname":
        return rng.choice(_OS_NAMES)
    if kind == "platform":
        return rng.choice(_PLATFORMS)
    if kind == "rsstate":
        return rng.choice(_RS_STATES)
    if kind == "hostport":
        port = rng.choice((27017, 27018))
        return f"{make_name(rng)}-{rng.randrange(3)}.{make_name(rng, 1)}.internal:{port}"
    return None


def _kafka_slot(rng: random.Random, kind: str) -> str | None:
    if kind == "topic":
        return rng.choice(_TOPICS)
    if kind == "group":
        return rng.choice(_GROUPS)
    if kind == "part":
        return str(rng.randrange(0, 64))
    if kind == "broker":
        return str(rng.randrange(0, 6))
    if kind == "isr":
        return ",".join(str(b) for b in sorted(rng.sample(range(6), rng.randrange(1, 4))))
    if kind == "member":
        return f"{rng.choice(_GROUPS)}-{rng.randrange(1, 9)}-{base_slot(rng, 'uuid')}"
    if kind == "kdir":
        return rng.choice(("/var/lib/kafka/data", "/data/kafka-logs", "/mnt/disk1/kafka"))
    return None


def _redis_slot(rng: random.Random, kind: str) -> str | None:
    if kind == "cname":
        return "" if rng.random() < 0.6 else make_name(rng)
    if kind == "rcmd":
        return rng.choice(_REDIS_CMDS)
    if kind == "ruser":
        return rng.choice(_REDIS_USERS)
    if kind == "replid":
        return _hex(rng, 40)
    if kind == "module":
        return rng.choice(_MODULES)
    if kind == "sofile":
        return f"/usr/lib/redis/modules/{rng.choice(_MODULES)}.so"
    if kind == "changes":
        return rng.choice(("1", "100", "10000"))
    return None


def _es_slot(rng: random.Random, kind: str) -> str | None:
    if kind == "index":
        return f"{rng.choice(_INDICES)}-2026.12.{rng.randrange(1, 29):02d}"
    if kind == "esuuid":
        return _hex(rng, 22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
    if kind == "esnode":
        return rng.choice(_ES_NODES)
    if kind == "esdur":
        return _es_duration(rng)
    if kind == "colour":
        return rng.choice(_COLOURS)
    if kind == "estemplate":
        return rng.choice(_TEMPLATES)
    if kind == "size":
        return f"{rng.randrange(1, 999)}.{rng.randrange(10)}{rng.choice(('gb', 'mb', 'kb'))}"
    if kind == "pct":
        return f"{rng.random() * 20:.1f}"
    return None


def _mail_slot(rng: random.Random, kind: str) -> str | None:
    if kind == "queue":
        return _hex(rng, rng.choice((10, 11, 12)), "0123456789ABCDEF")
    if kind == "mail":
        return _mail(rng)
    if kind == "opt_mail":
        return "" if rng.random() < 0.3 else _mail(rng)
    if kind == "mx":
        return _mx(rng)
    if kind == "rhost":
        return "unknown" if rng.random() < 0.5 else f"{make_name(rng)}.{rng.choice(_MAIL_DOMAINS)}"
    if kind == "delays":
        return "/".join(rng.choice(("0", "0.01", f"{rng.random() * 5:.2g}")) for _ in range(4))
    if kind == "sent":
        return _reply(rng, _REPLIES)
    if kind == "deferred":
        return _reply(rng, _DEFERRALS)
    if kind == "msgid":
        return f"{_hex(rng, 16)}.{rng.randrange(10**6)}@{rng.choice(_MAIL_DOMAINS)}"
    return None


_FILLERS: Final = (_mongo_slot, _kafka_slot, _redis_slot, _es_slot, _mail_slot)


def _slot(rng: random.Random, kind: str) -> str:
    for filler in _FILLERS:
        value = filler(rng, kind)
        if value is not None:
            return value
    return base_slot(rng, kind)


UNSEEN6_STYLES: Final[dict[str, tuple[str, ...]]] = {
    "mongodb": (
        "connection accepted from {ip}:{port} #{int} ({int} connections now open)",
        "end connection {ip}:{port} ({int} connections now open)",
        'received client metadata from {ip}:{port} conn{int}: {{ driver: {{ name: "{mdriver}", '
        'version: "{version}" }}, os: {{ type: "Linux", name: "{osname}", architecture: '
        '"x86_64", version: "{version}" }}, platform: "{platform}" }}',
        "Successfully authenticated as principal {user} on {db} from client {ip}:{port}",
        'Slow query: command {db}.{coll} command: find {{ find: "{coll}", filter: {{ {field}: '
        "{int} }}, limit: {int} }} planSummary: {plan} keysExamined:{int} docsExamined:{int} "
        "numYields:{int} nreturned:{int} reslen:{int} {int}ms",
        "Index build: done building index {field}_1 on ns {db}.{coll}",
        "Member {hostport} is now in state {rsstate}",
        "Error in heartbeat (requestId: {int}) to {hostport}, response status: HostUnreachable: "
        "Error connecting to {hostport} ({ip}:{port}) :: caused by :: Connection refused",
        "WiredTiger message [{int}:{int}][{int}:{hex}], WT_SESSION.checkpoint: "
        "[WT_VERB_CHECKPOINT_PROGRESS] saving checkpoint snapshot min: {int}, snapshot max: "
        "{int} snapshot count: 0, oldest timestamp: (0, 0) , meta checkpoint timestamp: (0, 0)",
        "Interrupted operation as its client disconnected opId: {int}",
    ),
    "kafka": (
        "[Log partition={topic}-{part}, dir={kdir}] Rolled new log segment at offset {int} in "
        "{int} ms. (kafka.log.Log)",
        "[ReplicaFetcher replicaId={broker}, leaderId={broker}, fetcherId={int}] Truncating "
        "partition {topic}-{part} to local high watermark {int} "
        "(kafka.server.ReplicaFetcherThread)",
        "[GroupCoordinator {broker}]: Preparing to rebalance group {group} in state "
        "PreparingRebalance with old generation {int} (__consumer_offsets-{part}) (reason: "
        "Adding new member {member} with group instance id None) "
        "(kafka.coordinator.group.GroupCoordinator)",
        "[GroupCoordinator {broker}]: Stabilized group {group} generation {int} "
        "(__consumer_offsets-{part}) with {int} members "
        "(kafka.coordinator.group.GroupCoordinator)",
        "[GroupMetadataManager brokerId={broker}] Removed {int} expired offsets in {int} "
        "milliseconds. (kafka.coordinator.group.GroupMetadataManager)",
        "[Controller id={broker}] Processing automatic preferred replica leader election "
        "(kafka.controller.KafkaController)",
        "[ProducerStateManager partition={topic}-{part}] Wrote producer snapshot at offset "
        "{int} with {int} producer ids in {int} ms. (kafka.log.ProducerStateManager)",
        "[Partition {topic}-{part} broker={broker}] Shrinking ISR from {isr} to {isr}. Leader: "
        "(highWatermark: {int}, endOffset: {int}). Out of sync replicas: (brokerId: {broker}, "
        "endOffset: {int}). (kafka.cluster.Partition)",
        "[Partition {topic}-{part} broker={broker}] Expanding ISR from {isr} to {isr} "
        "(kafka.cluster.Partition)",
        "[SocketServer listenerType=ZK_BROKER, nodeId={broker}] Failed authentication with "
        "/{ip} (SSL handshake failed) (org.apache.kafka.common.network.Selector)",
        "[KafkaApi-{broker}] Auto creation of topic {topic} with {int} partitions and "
        "replication factor {int} is successful (kafka.server.KafkaApis)",
    ),
    "redis": (
        "{changes} changes in {int} seconds. Saving...",
        "Background saving started by pid {int}",
        "DB saved on disk",
        "Fork CoW for RDB: current {int} MB, peak {int} MB, average {int} MB",
        "Background saving terminated with success",
        "Client id={int} addr={ip}:{port} laddr={ip}:6379 fd={int} name={cname} age={int} "
        "idle={int} flags=N db=0 sub=0 psub=0 multi=-1 qbuf={int} qbuf-free={int} "
        "argv-mem={int} obl=0 oll={int} omem={int} tot-mem={int} events=r cmd={rcmd} "
        "user={ruser} redir=-1 closed for overcoming of output buffer limits.",
        "Connecting to MASTER {ip}:{port}",
        "MASTER <-> REPLICA sync started",
        "Error condition on socket for SYNC: Connection refused",
        "Partial resynchronization not accepted: Replication ID mismatch (Replica asked for "
        "'{replid}', my replication ID is '{replid}')",
        "Synchronization with replica {ip}:{port} succeeded",
        "Module '{module}' loaded from {sofile}",
        "Asynchronous AOF fsync is taking too long (disk is busy?). Writing the AOF buffer "
        "without waiting for fsync to complete, this may slow down Redis.",
    ),
    "elasticsearch": (
        "[{index}] creating index, cause [auto(bulk api)], templates [{estemplate}], shards "
        "[{int}]/[{int}]",
        "[{index}/{esuuid}] update_mapping [_doc]",
        "[gc][{int}] overhead, spent [{esdur}] collecting in the last [{esdur}]",
        "Cluster health status changed from [{colour}] to [{colour}] (reason: [shards started "
        "[[{index}][{int}]]]).",
        "low disk watermark [85%] exceeded on [{esuuid}][{esnode}][/var/lib/elasticsearch] "
        "free: {size}[{pct}%], replicas will not be assigned to this node",
        "[{index}][{int}] primary-replica resync completed with {int} operations",
        "publication of cluster state version [{int}] is still waiting for {{{esnode}}}"
        "{{{esuuid}}}{{{ip}:9300}} [SENT_APPLY_COMMIT] after [{esdur}]",
        'moving index [{index}] from [{{"phase":"hot","action":"rollover"}}] to '
        '[{{"phase":"warm","action":"migrate"}}] in policy [{estemplate}]',
        "node-join[{{{esnode}}}{{{esuuid}}}{{{ip}:9300}} joining], term: {int}, version: {int}",
    ),
    "postfix": (
        "connect from {rhost}[{ip}]",
        "disconnect from {rhost}[{ip}] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5",
        "{queue}: client={rhost}[{ip}]",
        "{queue}: message-id=<{msgid}>",
        "{queue}: from=<{opt_mail}>, size={int}, nrcpt={int} (queue active)",
        "{queue}: to=<{mail}>, relay={mx}[{ip}]:25, delay={float}, delays={delays}, "
        "dsn=2.0.0, status=sent ({sent})",
        "{queue}: to=<{mail}>, relay=none, delay={float}, delays={delays}, dsn=4.4.1, "
        "status=deferred ({deferred})",
        "{queue}: removed",
        "NOQUEUE: reject: RCPT from {rhost}[{ip}]: 554 5.7.1 <{mail}>: Relay access denied; "
        "from=<{opt_mail}> to=<{mail}> proto=ESMTP helo=<{rhost}>",
        "warning: hostname {rhost} does not resolve to address {ip}: Name or service not known",
        "lost connection after AUTH from {rhost}[{ip}]",
    ),
}
"""The sixth set of unseen styles; a slot in braces is a variable of the true template."""


def unseen6_corpus(style: str, lines: int, seed: int = 1) -> list[tuple[str, str]]:
    """``lines`` messages of one style of the sixth unseen set with their true template ids."""
    return styled_corpus(style + ":unseen6", lines, seed, UNSEEN6_STYLES[style], _slot)
