"""More spellings of the red-team families: the verb before the credential, the old value of a
change, participles of change in other languages, SMTP dialogues, quoted parts of
``user:password`` and staged keys without digits; and their near misses."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("changed root password to sunshine", "sunshine"),
    ("set the admin password to 'Secret#1'", "Secret#1"),
    ("reset user password to welcome1", "welcome1"),
    ("updated API key to ak_live_9f8e7d", "9f8e7d"),
    ("Password reset to: Welcome2024!", "Welcome2024"),
    ("password was changed from 'old1' to 'new2'", "new2"),
    ("password was changed from 'old1' to 'new2'", "old1"),
    ("Passwort geändert auf 'Sommer24'", "Sommer24"),
    ("mot de passe changé en 'soleil42'", "soleil42"),
    ("contraseña cambiada a 'gato2024'", "gato2024"),
    ("wachtwoord gewijzigd in Fiets2024", "Fiets2024"),
    ("EHLO x\\r\\nAUTH PLAIN AGFsaWNlAHB3\\r\\n", "AGFsaWNlAHB3"),
    ("smtp.login: AUTH LOGIN YWxpY2U= cGFzc3dvcmQ=", "cGFzc3dvcmQ="),
    ("< 334 VXNlcm5hbWU6\\n> YWxpY2U=\\n< 334 UGFzc3dvcmQ6\\n> cGFzc3dvcmQxMjM=", "cGFzc3dvcmQx"),
    ("S: 334 UGFzc3dvcmQ6\nC: c2VjcmV0UHc=", "c2VjcmV0UHc="),
    ("mysql> CREATE USER 'u'@'%' IDENTIFIED BY PASSWORD '*6BB4837EB74329105EE4568D'", "6BB48"),
    ("ALTER USER 'x'@'y' IDENTIFIED VIA ed25519 USING PASSWORD('pw123')", "pw123"),
    ("CREATE USER foo PASSWORD 'foopw'", "foopw"),
    ("curl -x http://proxyuser:proxypw@proxy:3128 https://x", "proxypw"),
    ("curl --proxy-user 'p:pw 1' https://x", "pw 1"),
    ('curl -k -u admin:"P@ss w0rd" https://x', "P@ss"),
    ("wget -q --http-passwd=oldpw https://x", "oldpw"),
    ("mysqldump --password='dump pw' db", "dump pw"),
    ("Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a", "ghp_16C7e42F"),
    ("Authorization: ApiKey a1b2c3", "a1b2c3"),
    ("Authorization: SSWS 00abcdef", "00abcdef"),
    ("proxy-authorization: basic dXNlcjpwYXNzd29yZA==", "dXNlcjpw"),
    ("headers: {'authorization': 'Token 0123456789abcdef'}", "0123456789abcdef"),
    ("rzp_live_ILgsfZCZoFIKMb", "ILgsfZCZoFIKMb"),
    ("key_id=rzp_test_1DP5mmOlF5G5ag", "1DP5mmOlF5G5ag"),
    ("ck_live_a8f3b2c1d9e7", "a8f3b2c1d9e7"),
    ('mail from "john..doe"@example.com', "john..doe"),
    ('<"jane.doe+tag"@mail.example.co.uk>', "jane.doe+tag"),
    ("email=josé@correo.es", "josé"),
    ("to=用户@例子.中国", "用户"),
    ("user=ivan@почта.рф", "ivan"),
    ("addr=0xC0A8000A", "0xC0A8000A"),
    ("client 0xac100a01 connected", "0xac100a01"),
    ("peer 0xC6336417:22 closed", "0xC6336417"),
]

KEEPS = [
    ("250-AUTH PLAIN LOGIN XOAUTH2", "250-AUTH PLAIN LOGIN XOAUTH2"),
    ("S: 334 UGFzc3dvcmQ6", "334 UGFzc3dvcmQ6"),
    ("svc_prod_replication lag=3", "svc_prod_replication"),
    ("app_live_reload enabled", "app_live_reload"),
    ("changed token expiry to 30d", "changed token expiry to 30d"),
    ("set pin length to 6", "set pin length to 6"),
    ("rotated secret to version 5", "rotated secret to version 5"),
    ("updated api key to v2", "updated api key to v2"),
    ("Passwort geändert auf Anfrage", "Passwort geändert auf Anfrage"),
    ("sudo -u app:www-data id", "app:www-data"),
    ("curl -u ci: https://h", "curl -u ci: https://h"),
    (
        "Accepted publickey for bob ED25519 SHA256:YAgZ4EDOsUH7aSZVUkrAOeBNvRARgR8Xov4VMMHUm8P",
        "SHA256:YAgZ4EDOsUH7aSZVUkrAOeBNvRARgR8Xov4VMMHUm8P",
    ),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS, ids=[line for line, _ in LEAKS])
@pytest.mark.parametrize("prefix", ["", "x\t"])
def test_the_value_is_replaced(line: str, secret: str, prefix: str) -> None:
    assert secret not in Redactor().redact(prefix + line)


@pytest.mark.parametrize(("line", "kept"), KEEPS, ids=[line for line, _ in KEEPS])
@pytest.mark.parametrize("prefix", ["", "x\t"])
def test_the_value_stays(line: str, kept: str, prefix: str) -> None:
    assert kept in Redactor().redact(prefix + line)
