"""Corpus families of passwords given to commands as arguments (by position, after a flag
only that command gives a password, glued to a flag, piped into a command that reads one),
and of command arguments that are no password."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]


def _any_password(rng: random.Random) -> str:
    """A password of any shape: mixed, or plain lower-case letters with or without digits."""
    form = rng.randrange(3)
    if form == 0:
        return make.password(rng)
    word = make.text(rng, make.LOWER, rng.randrange(7, 12))
    return word if form == 1 else word + str(rng.randrange(10, 9999))


def _word(rng: random.Random) -> str:
    return make.text(rng, make.LOWER, rng.randrange(5, 10))


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "password_by_position": (
        _any_password,
        (
            "+ htpasswd -b /etc/httpd/users deploy {v}",
            "htpasswd -Bbc .htpasswd ops {v}",
            r"net use \\{h}\backup {v} /user:CORP\svc_backup",
            r"NET USE Y: \\{h}\d$ {v} /USER:admin /PERSISTENT:NO",
            "net user svc_{n} {v} /add",
            "wpa_passphrase office-wifi {v} > /etc/wpa.conf",
            "mc alias set store https://{h}:9000 AKIAMINIO{n} {v}",
            "rabbitmqctl change_password app {v}",
            "mysqladmin -u root -h {h} password {v}",
            "openssl passwd -apr1 {v}",
        ),
    ),
    "password_command_flag": (
        _any_password,
        (
            "sshpass -p {v} rsync -a /srv deploy@{h}:/srv",
            "ipmitool -I lanplus -H {h} -U root -P {v} power status",
            "snmpget -v3 -l authPriv -u mon -a SHA -A {v} -x AES -X {v} {h} sysName.0",
            "snmpwalk -v2c -c {v} {h} ifTable",
            "sqlcmd -S {h} -U sa -P {v} -i init.sql",
            "zip -q -P {v} export.zip report.csv",
            "openssl enc -d -aes256 -k {v} -in b.enc",
            "plink -batch -pw {v} admin@{h} uptime",
            "schtasks /Create /TN nightly /TR run.cmd /RU svc /RP {v}",
            "mosquitto_sub -h {h} -u dev -P {v} -t sensors/#",
        ),
    ),
    "password_glued_flag": (
        _any_password,
        (
            "7z x -p{v} -o/tmp/in archive.7z",
            "unrar e -p{v} parts.rar",
            "/usr/bin/mysql -h {h} -uapp -p{v} -e 'select 1'",
            "xfreerdp /v:{h} /u:ops /p:{v} /cert:ignore",
            "lftp -u ops,{v} sftp://{h}",
        ),
    ),
    "password_piped": (
        _any_password,
        (
            "echo '{v}' | sudo -S systemctl restart app",
            "echo 'deploy:{v}' | chpasswd",
            "echo {v} | docker login -u ci --password-stdin {h}",
            "printf '%s\\n' '{v}' | passwd --stdin svc",
        ),
    ),
}

SECRET_FAMILIES["protocol_pass_command"] = (
    _any_password,
    ("ftp> PASS {v}", "<-- PASS {v}", "---> PASS {v}", "C: PASS {v}", "(000042) > PASS {v}"),
)

SECRET_FAMILIES["credential_directive"] = (
    _any_password,
    (
        "requirepass {v}",
        "bind 127.0.0.1\nmasterauth {v}\nport 6379",
        "CONFIG SET requirepass {v}",
        "  rootpw {v}",
        "bindpw {v}",
    ),
)
SECRET_FAMILIES["quoted_key_and_value"] = (
    _any_password,
    (
        "define( 'DB_PASSWORD', '{v}' );",
        'os.environ["API_TOKEN"] = "{v}"',
        "ENV['SMTP_PASSWORD'] = '{v}'",
        "  'password' => '{v}',",
        'config.set("ldap.bind_password", "{v}")',
    ),
)

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "directive_and_pair_look_alikes": (
        lambda rng: str(rng.randrange(1, 100000)),
        (
            "password_min_length {v}",
            "token_ttl {v}",
            "'password_timeout' => {v},",
            "define('DB_PORT', '{v}');",
            "maxclients {v}",
        ),
    ),
    "test_runner_verdicts": (
        lambda rng: (
            "src/" + make.text(rng, make.LOWER, 6) + "/App" + str(rng.randrange(9)) + ".test.js"
        ),
        ("PASS {v}", "PASS  {v} (1.2 s)", "FAIL {v}"),
    ),
    "command_arguments_not_passwords": (
        _word,
        (
            "htpasswd -D /etc/httpd/users {v}",
            "net user {v} /delete",
            "echo {v} | sudo tee /etc/hostname",
            "zip -r {v}.zip build/",
            "snmpwalk -v2c -c $COMMUNITY {v}",
            "vault login -method=oidc role={v}",
            "echo {v} | wc -c",
            "mc alias remove {v}",
        ),
    ),
}
