"""Corpus families of credentials given in passing: an ``echo`` answering a password prompt,
a here-string into a command that reads a password, a pre-shared key in a sentence, a login
pair after ``with``/``as``, one-time codes in a URL's query, cards with underscores, card
codes under a key in words, passport numbers in digit groups, a URL password after an
encoded e-mail user, a key ending in ``pw`` before a spaced ``=``, a here-string after a
password flag, a query's ``u=…&p=…``, ZooKeeper's ``addauth digest``, ``ssh-keygen -N``,
SSSD's ``authtok``, a grouped card after a key; and their look-alikes that stay (among them
times under credential keys, ``nsswitch.conf`` sources, a page after a query's user)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]


def _code(rng: random.Random) -> str:
    form = rng.randrange(3)
    if form == 0:
        return make.random_key(rng, rng.randrange(16, 40))
    if form == 1:
        return "4/0" + make.random_key(rng, 30)
    return "ST-" + str(rng.randrange(1000, 99999)) + "-" + make.random_key(rng, 20)


def _underscore_card(rng: random.Random) -> str:
    return make.grouped_card(rng, "_")


def _grouped_card_any(rng: random.Random) -> str:
    return make.grouped_card(rng, " ")


def _passport(rng: random.Random) -> str:
    return " ".join(str(rng.randrange(100, 999)) for _ in range(3))


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "echo_answers_password_prompt": (
        make.password,
        (
            "runas /user:CORP\\deploy setup.exe & echo {v}",
            "su - postgres && echo {v}",
            "echo {v} | runas /user:adm cmd",
        ),
    ),
    "here_string_password": (
        make.password,
        (
            "rsync --password-file=/dev/stdin <<< '{v}' rsync://u@{h}/m",
            "kinit svc@CORP <<< {v}",
            "docker login -u ci --password-stdin <<<'{v}'",
        ),
    ),
    "psk_in_sentence": (
        make.password,
        ("station joined with psk {v} on ssid Lab", "psk is {v}", "IKE pre-shared key {v} ok"),
    ),
    "login_with_pair": (
        make.password,
        ("login with deploy / {v}", "log in as root : {v}", "signed in as ops / {v} at {t}"),
    ),
    "url_query_one_time_code": (
        _code,
        (
            "GET /oauth/callback?state=s{n}&code={v} 302",
            "redirect https://{h}/cb?code={v}&scope=openid",
            "GET /app?ticket={v} HTTP/1.1",
            "POST /device?device_code={v}",
        ),
    ),
    "card_with_underscores": (
        _underscore_card,
        ("pan={v}", "card {v} declined", '{{"card":"{v}"}}'),
    ),
    "card_code_key_in_words": (
        lambda rng: str(rng.randrange(100, 9999)),
        (
            "card_verification_code={v}",
            '{{"cardSecurityCode":"{v}"}}',
            "card verification value: {v}",
        ),
    ),
    "passport_digit_groups": (
        _passport,
        ("passport number {v} expires 2031", "passport no. {v} scanned", "passport {v} verified"),
    ),
    "url_password_after_encoded_email": (
        make.password,
        ("smtp://alerts%40{h}:{v}@smtp.{h}:587", "imaps://ops%40example.org:{v}@mail:993/INBOX"),
    ),
    "short_credential_key_spaced": (
        make.password,
        ("bind_pw = {v}", "ldap.admin_pw : {v}", "vpn_psk = {v}"),
    ),
}

SECRET_FAMILIES.update(
    {
        "here_string_after_password_flag": (
            make.password,
            ("trino --server https://{h}:8443 --user etl --password <<< '{v}'", "tool -p <<<{v}"),
        ),
        "query_user_then_password": (
            lambda rng: make.random_key(rng, rng.randrange(10, 20)),
            ("GET /query?u=admin&p={v}&q=SHOW+DATABASES", "http://{h}:8086/write?db=m&u=w&p={v}"),
        ),
        "zookeeper_digest_auth": (
            make.password,
            ("zkCli: addauth digest super:{v}", "addauth digest app:{v}"),
        ),
        "ssh_keygen_passphrase": (
            make.password,
            ("ssh-keygen -t rsa -b 4096 -N '{v}' -f key", "ssh-keygen -p -P '{v}' -N '' -f k"),
        ),
        "sssd_authtok": (
            make.password,
            ("ldap_default_authtok = {v}", "krb5_authtok: {v}"),
        ),
        "grouped_card_after_key": (
            _grouped_card_any,
            ("amex={v}", "pan={v} exp 09/27", "card_number={v}"),
        ),
    }
)

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "echo_beside_prompt_plain_word": (
        lambda rng: make.choice(rng, ("done", "finished", "ok", "restarting")),
        ("runas /user:x app.exe & echo {v}", "su - svc && echo {v}"),
    ),
    "url_query_status_code": (
        lambda rng: make.choice(
            rng, (str(rng.randrange(100, 599)), f"E{rng.randrange(1000, 9999)}", "invalid_grant")
        ),
        ("GET /status?code={v} 200", "redirect /cb?error=access_denied&code={v}"),
    ),
    "psk_status_phrase": (
        lambda rng: make.choice(rng, ("psk mismatch for peer", "auth using psk", "psk rotated")),
        ("{t} {v}", "ike: {v}"),
    ),
    "login_as_status": (
        lambda rng: make.choice(rng, ("login as admin: success", "logged in as ops / 2 sessions")),
        ("{t} {v}", "audit {v}"),
    ),
    "time_under_credential_key": (
        lambda rng: str(rng.randrange(1_600_000_000, 1_800_000_000)),
        ("auth_time={v} iat={v}", '{{"session_timestamp":{v}}}', "token_issued_at={v}"),
    ),
    "nsswitch_sources": (
        lambda rng: make.choice(rng, ("files", "sss", "systemd", "ldap", "compat")),
        ("passwd:         {v} systemd", "shadow: {v}", "passwd: {v} winbind"),
    ),
    "page_after_query_user": (
        lambda rng: str(rng.randrange(1, 99)),
        ("GET /search?u=bob&p={v} 200", "GET /list?u=ann&p={v}&sort=asc"),
    ),
    "underscored_number_groups": (
        lambda rng: "_".join(str(rng.randrange(1000, 9999)) for _ in range(4)),
        ("batch_{v} done", "file part_{v}.log"),
    ),
}
