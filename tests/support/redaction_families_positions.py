"""Corpus families of values found by where they stand: an address written as one number a
few words after the word naming it, before a port, after ``user@`` or in a list; an IPv4
address inside an IPv6 one; a MAC address of twelve hex digits after its name; dates of birth
after labels of several languages; what a getter call returned; a password passed by position
to a login or connect call named by its last word, after a handle or around a port; a
password key joining a qualifier to ``pass``; key material in hex after a qualified name; and
their look-alikes that stay (numbers before a unit, keys that only end in ``server``, ordinary
dates, a getter's arguments, calls in code under a credential key)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]


def _octets(rng: random.Random) -> tuple[int, int, int, int]:
    first = rng.randrange(1, 224)
    return (first if first != 127 else 10, *make.ipv4(rng)[1:])


def _decimal_address(rng: random.Random) -> str:
    a, b, c, d = _octets(rng)
    return str((a << 24) | (b << 16) | (c << 8) | d)


def _mapped(rng: random.Random) -> str:
    return "::ffff:" + ".".join(str(part) for part in _octets(rng))


def _bare_mac(rng: random.Random) -> str:
    while True:
        found = make.text(rng, "0123456789abcdef", 12)
        if any(char.isdigit() for char in found) and any(char.isalpha() for char in found):
            return found if rng.randrange(2) else found.upper()


def _birth_date(rng: random.Random) -> str:
    day, month, year = rng.randrange(1, 29), rng.randrange(1, 13), rng.randrange(1940, 2006)
    form = rng.randrange(4)
    if form == 0:
        return f"{day:02d}.{month:02d}.{year}"
    if form == 1:
        return f"{year}-{month:02d}-{day:02d}"
    if form == 2:
        return f"{day:02d}/{month:02d}/{year}"
    return f"{day} " + make.choice(rng, ("März", "février", "marzo", "July", "Dez.")) + f" {year}"


def _hex_key(rng: random.Random) -> str:
    return make.text(rng, "0123456789abcdef", rng.choice((32, 64)))


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "decimal_address_words_after_cue": (
        _decimal_address,
        (
            "connection from host {v} closed",
            "peer address is {v}",
            "resolved {h} to {v}",
            "X-Forwarded-For: 10.1.2.3, {v}",
            "route add {v} gw 10.0.0.1",
        ),
    ),
    "decimal_address_before_port_or_after_user": (
        _decimal_address,
        (
            "dial tcp {v}:443: i/o timeout",
            "Accepted publickey for deploy from {v} port 52114 ssh2",
            "ssh root@{v}",
            "connecting to server at {v}:5432",
        ),
    ),
    "ipv4_mapped_in_ipv6": (
        _mapped,
        ("client [{v}]:443 closed", "remote_addr {v} blocked", "from {v} port 22"),
    ),
    "mac_twelve_hex_after_name": (
        _bare_mac,
        ("mac={v}", "MAC address {v} joined", '{{"client_mac":"{v}"}}', "bssid: {v}"),
    ),
    "birth_date_labels_of_languages": (
        _birth_date,
        (
            "Patient Weber geb. {v}",
            "geboren am {v} in Köln",
            "Jean Martin, né le {v}",
            "fecha de nacimiento: {v}",
            "data di nascita {v}",
            "DOB (DD/MM/YYYY): {v}",
            '{{"Geburtsdatum": "{v}"}}',
        ),
    ),
    "getter_result_shown": (
        make.password,
        (
            'keyring.get_password("smtp", "ops") returned "{v}"',
            "get_secret('db/main') -> '{v}'",
        ),
    ),
    "login_call_by_last_word": (
        make.password,
        (
            'ftp_login($c, "deploy", "{v}")',
            "ldap_bind($conn, 'cn=admin,dc=example,dc=org', '{v}')",
            "mysqli_connect('{h}', 'app', '{v}', 'shop')",
            'DriverManager.getConnection(url, "app", "{v}")',
            "ssh.connect(host, 22, 'ops', '{v}')",
            "requests.get(url, auth=('ci', '{v}'))",
            "pymysql.connect(cfg['host'], 'app', '{v}')",
        ),
    ),
    "joined_pass_key": (
        make.password,
        ("redis-server --requirepass {v}", "rootpass={v}", "smtppass: {v}"),
    ),
    "hex_key_after_qualified_name": (
        _hex_key,
        ("encryption key: {v}", "master key is {v}", "hmac key {v} loaded"),
    ),
}

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "address_shaped_quantities": (
        _decimal_address,
        (
            "max allowed {v} bytes",
            "route {v} packets dropped",
            "clusterfilesystem.no_server {v} 1 There is no server",
            "server_id {v} upstream_response_time 3",
            "client connected at {v}",
        ),
    ),
    "ordinary_dates_beside_birth_words": (
        _birth_date,
        ("Backup vom {v} erstellt", "le {v} job terminé", "born-again pool restarted {v}"),
    ),
    "getter_arguments": (
        lambda rng: make.choice(rng, ("alias", "smtp", "db/main", "orders-api", "prod")),
        ('get_password("{v}")', "getSecret('{v}') returned None", 'fetch_token("{v}") ok'),
    ),
    "code_under_credential_key": (
        lambda rng: make.choice(rng, ("get_key()", "vault.read(path)", 'fetch_token("svc")')),
        ("api_key={v}", "secret = {v}", "token = {v}"),
    ),
    "hex_ids_after_plain_key_nouns": (
        _hex_key,
        ("cache key {v}", "commit key {v}", "hmac 001122334455 for {v}"),
    ),
}
