"""The format families of the redaction corpus: for each, how a value is made and the lines it
is written in. A secret family's values must not survive redaction; a keep family's values
must come out intact. ``{v}`` is the value in a template (a value made as
``shown\x1fsecret`` is written whole, and only its secret part is checked), ``{t}`` a
timestamp, ``{n}`` a small count, ``{h}`` a host name that stays (never a sensitive value
of the line).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_families_checked as checked
from tests.support import redaction_families_commands as commands
from tests.support import redaction_families_given as given
from tests.support import redaction_families_phrases as phrases
from tests.support import redaction_families_positions as positions
from tests.support import redaction_families_records as records
from tests.support import redaction_families_stand_ins as stand_ins
from tests.support import redaction_families_words as words
from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]

_R = random.Random


def _addr(rng: _R) -> str:
    return ".".join(str(part) for part in make.ipv4(rng))


def _padded(rng: _R) -> str:
    return ".".join(f"{part:03d}" for part in make.ipv4(rng))


def _hex_dotted(rng: _R) -> str:
    return ".".join(f"0x{part:02x}" for part in make.ipv4(rng))


def _hex_bare(rng: _R) -> str:
    a, b, c, d = make.ipv4(rng)
    return f"0x{a:02X}{b:02X}{c:02X}{d:02X}"


def _decimal(rng: _R) -> str:
    a, b, c, d = make.ipv4(rng)
    return str(((a * 256 + b) * 256 + c) * 256 + d)


def _jwt(rng: _R) -> str:
    return "eyJhbGciOiJIUzI1NiJ9." + make.random_key(rng, 40) + "." + make.random_key(rng, 43)


def _vendor(rng: _R) -> str:
    prefix = make.text(rng, make.LOWER, rng.randrange(2, 6))
    middle = make.choice(rng, ("_", "-", "_live_", "-prod-", "_test_", "-v2-"))
    return prefix + middle + "\x1f" + make.random_key(rng, rng.randrange(24, 41))


def _b64_line(rng: _R) -> str:
    return make.random_key(rng, 64)


def _phone_national(rng: _R) -> str:
    form = rng.randrange(4)
    if form == 0:
        return f"020 {rng.randrange(7000, 8999)} {rng.randrange(1000, 9999)}"
    if form == 1:
        return (
            "0" + str(rng.randrange(1, 8)) + "".join(f" {rng.randrange(10, 99)}" for _ in range(4))
        )
    if form == 2:
        return f"030 {rng.randrange(1000000, 9999999)}"
    return f"(0{rng.randrange(20, 99)}) {rng.randrange(10000000, 99999999)}"


def _phone_national_separated(rng: _R) -> str:
    """A trunk ``0`` and an area code, then the subscriber number, joined by a slash, a dash,
    dots or brackets, sometimes split in two: 10 or 11 digits in all."""
    area = str(rng.randrange(1, 10)) + "".join(
        str(rng.randrange(10)) for _ in range(rng.randrange(1, 4))
    )
    rest = "".join(str(rng.randrange(10)) for _ in range(rng.randrange(10, 12) - 1 - len(area)))
    form = rng.randrange(6)
    if form == 0:
        return f"0{area}/{rest}"
    if form == 1:
        return f"0{area}-{rest}"
    if form == 2:
        return f"(0{area}){rest}"
    if form == 3:
        return f"0{area}/{rest[:3]} {rest[3:]}"
    digits = "0" + str(rng.randrange(1, 10)) + "".join(str(rng.randrange(10)) for _ in range(8))
    separator = "." if form == 4 else "-"
    return separator.join(digits[index : index + 2] for index in range(0, 10, 2))


def _phone_intl(rng: _R) -> str:
    form = rng.randrange(3)
    if form == 0:
        return f"+44 20 {rng.randrange(7000, 8999)} {rng.randrange(1000, 9999)}"
    if form == 1:
        return "+33 6" + "".join(f" {rng.randrange(10, 99)}" for _ in range(4))
    return f"+49 30 {rng.randrange(1000000, 9999999)}"


def _phone_us(rng: _R) -> str:
    a, b, c = rng.randrange(201, 989), rng.randrange(200, 999), rng.randrange(1000, 9999)
    return make.choice(rng, (f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"+1{a}{b}{c}"))


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "password_key_value": (
        make.password,
        (
            "db connect password={v} user=app",
            '{{"user":"svc","password":"{v}"}}',
            "export REDIS_PASS='{v}'",
            "_:'REDIS_PASS='{v}'",
            "mysql_root_password: {v}",
            "adminPassword={v}; retry={n}",
            "<password>{v}</password>",
            "PGPASSWORD={v} psql -h {h}",
        ),
    ),
    "password_long_flag": (
        make.password,
        (
            "exec: psql --password {v} --host {h}",
            "starting app --password={v} --verbose",
            "run --db-password '{v}' --port 5432",
            "cmd: vault login -method=userpass password={v}",
        ),
    ),
    "password_short_flag": (
        make.password,
        (
            "exec: mysql -u root -p {v} -h {h}",
            "sshpass -p '{v}' ssh deploy@{h}",
            "ldapsearch -x -w {v} -D cn=admin",
            "redis-cli -h {h} -a {v} ping",
            "mysqldump -uroot -p{v} shop",
        ),
    ),
    "netrc": (
        make.password,
        (
            "machine {h} login deploy password {v}",
            "default login anonymous password {v}",
            "netrc: machine {h} login ci password {v}",
        ),
    ),
    "password_phrase": (
        make.password,
        (
            "changed password to '{v}' for user",
            'set the password to "{v}" on first login',
            "temporary password is {v} (expires in 24h)",
            "Password reset to {v} by admin",
        ),
    ),
    "session_in_url": (
        lambda rng: make.random_key(rng, 32),
        (
            "GET /index.php?PHPSESSID={v} HTTP/1.1",
            "GET /app/cart;jsessionid={v} HTTP/1.1",
            "redirect to /login?next=/home&sid={v}",
            "GET /api?session_id={v}&page=2",
            "ASP.NET_SessionId={v}; path=/",
        ),
    ),
    "cookie_header": (
        lambda rng: make.random_key(rng, 26),
        (
            "Cookie: theme=dark; sess={v}",
            "Set-Cookie: session={v}; Path=/; HttpOnly; Secure",
            '{{"headers":{{"cookie":"_ga=GA1.2.3; token={v}"}}}}',
        ),
    ),
    "auth_header": (
        lambda rng: make.random_key(rng, 36),
        (
            "Authorization: Bearer {v}",
            "Proxy-Authorization: Basic {v}",
            '{{"Authorization":"Token {v}"}}',
            "authorization=Bearer {v} path=/v1",
        ),
    ),
    "card_security_code": (
        lambda rng: str(rng.randrange(100, 9999)),
        (
            "payment card_cvv={v} exp=12/27",
            "cvv: {v} accepted",
            "CVC {v} sent to gateway",
            '{{"cvc":"{v}","brand":"visa"}}',
            "security code {v} rejected",
        ),
    ),
    "vendor_key_unknown_prefix": (
        _vendor,
        (
            "using {v} for upload",
            "configured client with {v}",
            '{{"value":"{v}","scope":"read"}}',
            "loaded credential {v} from vault",
        ),
    ),
    "jwt": (_jwt, ("id token {v} verified", '{{"jwt":"{v}"}}', "x-id: {v}")),
    "key_material_line": (
        _b64_line,
        ("{v}", "  {v}", '"{v}",'),
    ),
    "iban_compact": (make.iban, ("transfer to {v} booked", '{{"to":"{v}"}}', "payee={v} ok")),
    "iban_grouped": (make.grouped_iban, ("iban {v} booked", "beneficiary account: {v}")),
    "us_ssn": (make.ssn, ("ssn {v} verified", "applicant {v} matched", '{{"tax":"{v}"}}')),
    "uk_nino": (make.nino, ("NI number {v}", "holder {v} checked", "record nino={v}")),
    "ca_sin": (make.sin, ("sin {v} on file", "employee {v} added")),
    "es_dni": (make.dni, ("dni {v} validado", "cliente {v} ok")),
    "it_fiscal_code": (make.fiscal_code, ("codice fiscale {v}", "cf={v} ok")),
    "in_pan": (make.pan, ("pan {v} linked", "kyc id {v} done")),
    "phone_national": (_phone_national, ("call {v} now", "contact phone {v}", "tel: {v}")),
    "phone_international": (_phone_intl, ("call {v} now", "sms sent to {v}")),
    "phone_north_america": (_phone_us, ("callback {v} queued", "phone={v}")),
    "card_plain": (make.card, ("card {v} declined", '{{"pan":"{v}"}}', "charge {v} ok")),
    "card_spaced": (lambda rng: make.grouped_card(rng, " "), ("card {v} declined",)),
    "card_dashed": (lambda rng: make.grouped_card(rng, "-"), ("card {v} declined",)),
    "card_dotted": (lambda rng: make.grouped_card(rng, "."), ("card {v} declined",)),
    "home_linux": (make.user, ("open /home/{v}/.ssh/config", "cwd=/home/{v}/src")),
    "home_mac": (make.user, ("open /Users/{v}/Library/Caches", "reading /Users/{v}/x.txt")),
    "home_windows": (
        make.user,
        (r"open C:\Users\{v}\AppData\Local", r'{{"path":"C:\\Users\\{v}\\Desktop"}}'),
    ),
    "home_tilde": (make.user, ("cd ~{v}/src", "cp ~{v}/.bashrc /tmp/")),
    "ipv4_dotted": (_addr, ("from {v} connected", "client={v}:443", "peer [{v}] reset")),
    "ipv4_zero_padded": (_padded, ("from {v} connected", "src={v}")),
    "ipv4_hex_dotted": (_hex_dotted, ("from {v} connected",)),
    "ipv4_hex_number": (_hex_bare, ("connection from {v} accepted", "remote_addr={v}")),
    "ipv4_decimal_number": (_decimal, ("connection from {v} accepted", "client_ip={v}")),
    "ipv6_full": (make.ipv6, ("from {v} connected", "listening on [{v}]:8443")),
    "ipv6_zone": (lambda rng: "fe80::" + make.ipv6(rng).split(":", 4)[4] + "%eth0", ("via {v}",)),
    "mac_address": (
        lambda rng: make.mac(rng, make.choice(rng, (":", "-"))),
        ("dhcp ack for {v}", "hwaddr {v} up"),
    ),
    "email": (
        lambda rng: (
            make.user(rng).replace("_", ".") + "+tag@" + make.choice(rng, ("ex.org", "mail.co"))
        ),
        ("mail to {v} queued", "user <{v}> logged in", "mailto:{v}"),
    ),
    "url_userinfo": (
        lambda rng: make.random_key(rng, 14),
        ("dsn postgres://app:{v}@{h}:5432/db", "fetch https://ci:{v}@git.example.org/r.git"),
    ),
    "phone_national_separated": (
        _phone_national_separated,
        ("call {v} now", "fax {v}", '{{"phone":"{v}"}}', "contact [{v}]", "phone={v} saved"),
    ),
}


def _uuid(rng: _R) -> str:
    raw = make.text(rng, "0123456789abcdef", 32)
    return f"{raw[:8]}-{raw[8:12]}-4{raw[13:16]}-a{raw[17:20]}-{raw[20:]}"


def _hex(size: int) -> Maker:
    return lambda rng: make.text(rng, "0123456789abcdef", size)


def _number(low: int, high: int, unit: str = "") -> Maker:
    return lambda rng: f"{rng.randrange(low, high)}{unit}"


def _version(rng: _R) -> str:
    return make.choice(rng, ("", "v")) + ".".join(str(rng.randrange(0, 20)) for _ in range(3))


def _iso(rng: _R) -> str:
    day = f"2024-0{rng.randrange(1, 9)}-1{rng.randrange(0, 9)}"
    return f"{day}T0{rng.randrange(10)}:{rng.randrange(10, 59)}:{rng.randrange(10, 59)}Z"


KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "count": (_number(1, 100000), ("processed {v} items", "rows={v} done", '{{"count":{v}}}')),
    "duration": (
        lambda rng: make.choice(
            rng,
            (
                f"{rng.randrange(1, 999)}ms",
                f"{rng.randrange(1, 90)}s",
                f"{rng.randrange(1, 9)}.{rng.randrange(10, 99)}s",
            ),
        ),
        ("took {v}", "latency={v} p99", "request completed in {v}"),
    ),
    "size": (
        lambda rng: make.choice(
            rng,
            (
                f"{rng.randrange(1, 9999)} bytes",
                f"{rng.randrange(1, 999)}MB",
                f"{rng.randrange(1, 64)}GiB",
            ),
        ),
        ("wrote {v} to disk", "heap {v} used"),
    ),
    "version": (_version, ("upgraded to {v}", "agent {v} started", "client_version={v}")),
    "error_code": (
        lambda rng: make.choice(
            rng,
            (
                f"E{rng.randrange(1000, 9999)}",
                f"ORA-{rng.randrange(10000, 99999):05d}",
                f"0x8007{rng.randrange(4096, 65535):04X}",
                "ERR_CONNECTION_REFUSED",
                f"errno={rng.randrange(1, 130)}",
            ),
        ),
        ("failed with {v}", "error {v} access denied", "code={v}"),
    ),
    "http_status": (
        lambda rng: str(make.choice(rng, ("200", "201", "204", "301", "404", "429", "500", "503"))),
        ('"GET /api/v1/orders HTTP/1.1" {v} 512', "status={v}", "upstream returned {v}"),
    ),
    "request_id_uuid": (_uuid, ("request {v} done", "request_id={v}", '{{"req":"{v}"}}')),
    "trace_id_hex": (_hex(32), ("trace_id={v}", "traceparent: 00-{v}-00f067aa0ba902b7-01")),
    "span_id_hex": (_hex(16), ("span_id={v} parent=none", "span {v} ended")),
    "commit_hash": (_hex(40), ("deployed commit {v}", "git rev={v}")),
    "timestamp": (_iso, ("at {v} started", "ts={v} level=info")),
    "epoch": (_number(1600000000, 1799999999), ("window from {v} to now", "ts={v} tick")),
    "port": (_number(1024, 65535), ("listening on port {v}", "bind :{v}", "port={v}")),
    "quantity_under_credential_key": (
        _number(1, 90000),
        (
            "token_ttl_seconds={v}",
            "max_tokens={v}",
            "usage prompt_tokens={v} completion_tokens=7",
            "password_min_length={v}",
            "session_count={v}",
            "secret_rotation_days={v}",
            "auth_retries={v}",
            '{{"max_tokens":{v}}}',
        ),
    ),
    "subsystem_word_under_credential_key": (
        lambda rng: make.choice(rng, ("login", "logout", "refresh", "started", "ready", "denied")),
        ("auth: {v} ok", "session: {v}", "cookie: {v}"),
    ),
    "credential_noun_in_prose": (
        lambda rng: make.choice(rng, ("expired", "incorrect", "changed", "required", "accepted")),
        ("password {v} for user", "token {v}", "session {v} after idle"),
    ),
    "port_and_path_flags": (
        lambda rng: make.choice(rng, ("2222", "8080:80", "/var/lib/app", "5", "tcp", "0.5")),
        ("ssh -p {v} deploy", "docker run -p {v} web", "mkdir -p {v}", "curl -w {v} http"),
    ),
    "system_path": (
        lambda rng: make.choice(
            rng,
            (
                "/var/lib/app",
                "/etc/nginx/nginx.conf",
                "/usr/local/bin/app",
                "/opt/app/conf",
                "/tmp/upload-42",
            ),
        ),
        ("open {v}", "config={v}", "reading {v} failed"),
    ),
    "percentage": (_number(0, 100, "%"), ("cpu {v} mem 41%", "disk usage={v}")),
    "date": (
        lambda rng: f"2024-{rng.randrange(1, 12):02d}-{rng.randrange(1, 28):02d}",
        ("rollover on {v}", "backup {v} kept"),
    ),
    "log_level_and_class": (
        lambda rng: make.choice(
            rng,
            (
                "org.apache.kafka.clients.NetworkClient",
                "com.acme.orders.OrderService",
                "io.netty.channel.DefaultChannelPipeline",
            ),
        ),
        ("WARN [{v}] retrying", "logger={v}"),
    ),
    "syslog_clock": (
        lambda rng: (
            f"Jun 0{rng.randrange(1, 9)} {rng.randrange(10, 23)}:"
            f"{rng.randrange(10, 59)}:0{rng.randrange(10)}"
        ),
        ("{v} started",),
    ),
    "hex_pointer_and_offsets": (
        lambda rng: make.choice(
            rng, (f"0x{rng.randrange(1 << 28, 1 << 32):08x}", f"+0x{rng.randrange(16, 4096):x}")
        ),
        ("segfault at {v} ip 0000", "frame {v}"),
    ),
    "ratio_slashed": (
        lambda rng: f"{rng.randrange(0, 100):03d}/{rng.randrange(10, 999)}",
        ("ratio {v} held", "hits/misses={v}", "scored {v} points"),
    ),
    "date_slashed": (
        lambda rng: (
            f"{rng.randrange(1, 28):02d}/{rng.randrange(1, 12):02d}/20{rng.randrange(10, 30)}"
        ),
        ("on {v} at noon", "expires {v}", "date={v} 10:00"),
    ),
    "http_version": (
        lambda rng: make.choice(rng, ("HTTP/1.0", "HTTP/1.1", "HTTP/2.0", "HTTP/2", "HTTP/3")),
        ('"GET /api/v1/items {v}" 200 512', "proto={v}"),
    ),
    "version_range": (
        lambda rng: make.choice(
            rng,
            (
                f">={rng.randrange(0, 9)}.{rng.randrange(0, 20)}.0,<{rng.randrange(10, 20)}.0.0",
                f"0.{rng.randrange(10, 50)}-0.{rng.randrange(50, 99)}",
                f"{rng.randrange(1, 9)}.{rng.randrange(9)}/{rng.randrange(2, 9)}.x",
            ),
        ),
        ("requires {v}", "compatible with {v} only"),
    ),
    "numbered_path": (
        lambda rng: f"/var/lib/0{rng.randrange(100, 999)}/{rng.randrange(1000000, 9999999)}",
        ("read {v} ok", "open({v}) failed"),
    ),
}

SECRET_FAMILIES.update(commands.SECRET_FAMILIES)
KEEP_FAMILIES.update(commands.KEEP_FAMILIES)
SECRET_FAMILIES.update(phrases.SECRET_FAMILIES)
KEEP_FAMILIES.update(phrases.KEEP_FAMILIES)
SECRET_FAMILIES.update(words.SECRET_FAMILIES)
KEEP_FAMILIES.update(words.KEEP_FAMILIES)
SECRET_FAMILIES.update(stand_ins.SECRET_FAMILIES)
KEEP_FAMILIES.update(stand_ins.KEEP_FAMILIES)
SECRET_FAMILIES.update(checked.SECRET_FAMILIES)
KEEP_FAMILIES.update(checked.KEEP_FAMILIES)
SECRET_FAMILIES.update(records.SECRET_FAMILIES)
KEEP_FAMILIES.update(records.KEEP_FAMILIES)
SECRET_FAMILIES.update(given.SECRET_FAMILIES)
KEEP_FAMILIES.update(given.KEEP_FAMILIES)
SECRET_FAMILIES.update(positions.SECRET_FAMILIES)
KEEP_FAMILIES.update(positions.KEEP_FAMILIES)
