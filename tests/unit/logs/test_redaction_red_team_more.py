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

IN_RECORDS = [
    ('{"headers":{"Authorization":"Token token=\\"q8Zr2LmV7xKp\\""}}', "q8Zr2LmV7xKp"),
    ('{"msg":"Passwort: Gl4sTur!9"}', "Gl4sTur!9"),
    ('{"msg":"password changed to \'Tr0ub4dor\'"}', "Tr0ub4dor"),
    ("{\"sql\":\"CREATE USER 'a'@'%' IDENTIFIED BY 'Sq1Pw'\"}", "Sq1Pw"),
    ('{"cmd":"curl -u admin:S3cret! https://x"}', "S3cret!"),
    ('{"line":"AUTH PLAIN AGFsaWNlAHB3ZDEyMw=="}', "AGFsaWNlAHB3ZDEyMw=="),
    ('{"url":"/cb?next=%2Fa%3Fpassword%253Dhunter22"}', "hunter22"),
    ('msg="Kennwort=geheim123"', "geheim123"),
    ('level=info msg="contraseña: perro123"', "perro123"),
    ('{"email":"\\"john.doe\\"@example.com"}', "john.doe"),
    ('{"tckn":"56507529100"}', "56507529100"),
    ('{"fnr":"20025757425"}', "20025757425"),
    ('{"key":"oy2pix6ea6qom66zjojyaekctbr6y3z4ixgci7nq3t2yw2"}', "pix6ea6qom"),
]
"""The same families inside JSON records and logfmt messages."""

LEAKS += IN_RECORDS
LEAKS += [
    ("password changed from sunshine to moonlight", "sunshine"),
    ("password changed from sunshine to moonlight", "moonlight"),
    ("db password reset to bluebird by admin", "bluebird"),
    ('{"user":"ana","senha":"gato azul 9"}', "gato azul 9"),
    ("<senha>gatoAzul9</senha>", "gatoAzul9"),
    ("mot_de_passe=soleil42", "soleil42"),
    ("MotDePasse: soleil42", "soleil42"),
    ("Kennwort:\tGeheim!1", "Geheim!1"),
    ("contraseña:'perro'", "perro"),
    ("パスワード「sakura77」", "sakura77"),
    ("密码是abc12345", "abc12345"),
    ("пароль: 'кот123'", "кот123"),
    ("heslo je Tajne123", "Tajne123"),
    ('wachtwoord="fiets 123"', "fiets 123"),
    ("password changed to: hunter2", "hunter2"),
    ("Password has been successfully reset to 'Xy!9'", "Xy!9"),
    ("token updated to 'tok_abc123'", "abc123"),
    ("secret key changed to s3cr3tk3y", "s3cr3tk3y"),
    ("set new password to Summer2024", "Summer2024"),
    ("GET /login?redirect=%2Fhome%3Fsession%3Dabc123def456 HTTP/1.1", "abc123def456"),
    ("Location: /cb?u=https%253A%252F%252Fh%252F%253Fpassword%25253Dpw12345", "pw12345"),
    ("body=username%3Dbob%26password%3Dhunter22", "hunter22"),
    ("b'AUTH PLAIN AGJvYgBwYXNzd29yZDEyMw=='", "AGJvYgBwYXNzd29yZDEyMw=="),
    ("smtplib: send: 'AUTH PLAIN AGFsaWNlAHNlY3JldDEyMw==\\r\\n'", "AGFsaWNlAHNlY3JldDEyMw=="),
    ("IDENTIFIED BY 'x7!'", "x7!"),
    ('ALTER USER bob IDENTIFIED BY "Bob#2024" ACCOUNT UNLOCK', "Bob#2024"),
    ("SET PASSWORD FOR 'u'@'h' = 'Pw!1'", "Pw!1"),
    ("CREATE USER app WITH PASSWORD 'app pw' CREATEDB", "app pw"),
    ("curl --user bob:'pw with space' https://x", "pw with space"),
    ("wget --password=hunter22 ftp://x", "hunter22"),
    ("wget --http-password hunter22 https://x", "hunter22"),
    ("mysql -u root -pHunter22 -h db", "Hunter22"),
    ("mysql --password=Hunter22", "Hunter22"),
    ("nir=2 49 07 84 050 075 73", "050 075"),
    ("NIR: 249078405007573", "249078405007573"),
    ("fnr: 27116194878", "27116194878"),
    ("fødselsnummer=20025757425", "20025757425"),
    ("Kimlik No: 56507529100", "56507529100"),
    ("TC: 56507529100", "56507529100"),
    ("zehut: 122330798", "122330798"),
    ('Authorization: Token token="abc"', "abc"),
    ("Authorization: Bearer abc.def.ghi", "abc.def"),
    ("Authorization:Bearer abc123", "abc123"),
    ('authorization: Digest response="abc"', "abc"),
    ("nuget setapikey oy2a7bqz3kdw4nrtxm5pu6vh2jc7e3lqhs4ifgdo5nyb6w -source x", "a7bqz3kdw"),
    ('"key": "rzp_live_9hTx2QvL8mKp3R"', "9hTx2QvL8mKp3R"),
    ("acme_test_Zk9LmP2xQv8", "Zk9LmP2xQv8"),
    ('From: "Doe, John" <john.doe@example.com>', "john.doe"),
    ('"john doe"@example.com', "john doe"),
    ("müller@example.de", "müller"),
    ("info@xn--mller-kva.de", "info@"),
    ("connection from 0XC0A80001 accepted", "0XC0A80001"),
    ("src_ip=0xc0a80001", "0xc0a80001"),
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
    ("密码是错误的", "密码是错误的"),
    ("gpio: pin set to output", "pin set to output"),
    ("token changed to state=active", "state=active"),
    ("password changed to meet policy", "to meet policy"),
    ("TC: 12345678901", "12345678901"),
    ("SET PASSWORD FOR 'u'@'h' = ?", "= ?"),
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
