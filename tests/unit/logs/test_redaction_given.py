"""Credentials given in passing: an ``echo`` answering a password prompt, here-strings into a
command that reads a password, pre-shared keys in a sentence, login pairs after ``with``/
``as``, one-time codes in a URL's query, cards with underscores, card codes under keys in
words, passport numbers in digit groups, a URL password after an encoded e-mail user, a key
ending in ``pw`` before a spaced separator; and the look-alikes that stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("runas /user:LAB\\ops tool.exe & echo Mv6#qLz2Ta", "Mv6#qLz2Ta"),
    ("echo Rk2!pWq8Zs | runas /user:adm cmd", "Rk2!pWq8Zs"),
    ("su - app ; echo Lq4$nB7xWe", "Lq4$nB7xWe"),
    ("rsync --password-file=- <<< 'Tz8&mKq1Vb' rsync://u@nas/m", "Tz8&mKq1Vb"),
    ("kinit svc <<<Pe5!rTq9Lm", "Pe5!rTq9Lm"),
    ("client associated using psk Hq3@zLm8Wr (WPA2)", "Hq3@zLm8Wr"),
    ("tunnel up, pre-shared key is Gv7!kQ2mZx", "Gv7!kQ2mZx"),
    ("login with backup / Wd5%pLq7Nz", "Wd5%pLq7Nz"),
    ("log in as svc_etl: Ys2^mKw9Qa", "Ys2^mKw9Qa"),
    ("GET /cb?code=8JxQ2vLm7PzK4wRt9sNb&state=q1 302", "8JxQ2vLm7PzK4wRt9sNb"),
    ("GET /login?ticket=ST-881-Qm7vXz2LpK9wNt4R HTTP/1.1", "Qm7vXz2LpK9wNt4R"),
    ("POST /token?device_code=Gd8kLm2Qz7Vx4Nw9Rt", "Gd8kLm2Qz7Vx4Nw9Rt"),
    ("charge 5500_0000_0000_0004 failed", "5500_0000_0000_0004"),
    ("card_security_code=7731", "7731"),
    ("card verification value: 604", "604"),
    ("passport number 552 817 390 on file", "552 817 390"),
    ("smtp://noreply%40example.net:Fj3!xQm8Lz@smtp.example.net:587", "Fj3!xQm8Lz"),
    ("bind_pw = Vt6*qLm2Xp", "Vt6*qLm2Xp"),
    ("vpn.psk : Cw9#zKq4Lm", "Cw9#zKq4Lm"),
    ("presto --user bi --password <<< 'Nq4!vZm8Lp'", "Nq4!vZm8Lp"),
    ("curl 'http://influx:8086/query?u=ro&p=Hd7kQm2Zx9&q=x'", "Hd7kQm2Zx9"),
    ("zk: addauth digest ops:Jr5^mLq2Wz", "Jr5^mLq2Wz"),
    ("ssh-keygen -p -P 'Bx3!qLm9Zs' -N '' -f id", "Bx3!qLm9Zs"),
    ("ldap_default_authtok = Fz6&kLq1Vm", "&kLq1Vm"),
    ("password: Aa1&bB2(cC3", "bB2(cC3"),
    ("pan=3782 822463 10005 exp 11/28", "822463"),
]

KEEPS = [
    ("runas /user:x app.exe & echo finished", "echo finished"),
    ("GET /status?code=404 200", "code=404"),
    ("GET /cb?error=access_denied&code=E2041", "code=E2041"),
    ("redirect /cb?error_description=invalid_scope&code=invalid_request", "code=invalid_request"),
    ("psk mismatch for peer 7", "psk mismatch for peer 7"),
    ("login as admin: success", "login as admin: success"),
    ("logged in as ops / 2 sessions", "logged in as ops / 2 sessions"),
    ("batch_4111_1111_1111_1112 closed", "4111_1111_1111_1112"),
    ("passport service 2 3 started", "passport service 2 3 started"),
    ("the pin is set", "the pin is set"),
    ("cat <<< hello", "cat <<< hello"),
    ("auth_time=1714550401 iat=1714550401", "auth_time=1714550401"),
    ("passwd:         files systemd", "files systemd"),
    ("GET /search?u=bob&p=2 200", "p=2"),
    ("mysqldump -p -e --single-transaction db", "-p -e"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS)
def test_given_credentials_are_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS)
def test_look_alikes_stay(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)
