"""Leaks a red-team set found, one family each, in spellings, languages and contexts of its own:
password labels in other languages, credentials in words (``changed to …``), credentials URL
-encoded more than once, SMTP ``AUTH PLAIN``, SQL user statements, ``user:password`` command
arguments, national ids with their checks, auth schemes, vendor keys by shape and e-mail and
address spellings."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LABELS = [
    ("Passwort: Gl4sTur!9 gesetzt", "Gl4sTur!9"),
    ("user=hans Passwort='blau Himmel'", "blau Himmel"),
    ("Kennwort=blauerHimmel7", "blauerHimmel7"),
    ('{"Kennwort": "blauerhimmel"}', "blauerhimmel"),
    ("mot de passe : chatnoir", "chatnoir"),
    ("le mot de passe est 'chat noir 42'", "chat noir 42"),
    ("contraseña: perroRojo88", "perroRojo88"),
    ("la contraseña es perroRojo88", "perroRojo88"),
    ("contrasena=perrorojo", "perrorojo"),
    ("senha=gatoAzul31 usuario=joao", "gatoAzul31"),
    ("a senha é gatoAzul7", "gatoAzul7"),
    ("wachtwoord is fietsBel56", "fietsBel56"),
    ("hasło: zielonyLas3", "zielonyLas3"),
    ("haslo=zielonylas", "zielonylas"),
    ('heslo "modryPes7"', "modryPes7"),
    ("lösenord: snöboll", "snöboll"),
    ("salasana=kissaKoira9", "kissaKoira9"),
    ("パスワード: sakuraHana77", "sakuraHana77"),
    ("パスワード＝sakurahana", "sakurahana"),
    ("ユーザー: tanaka パスワード：さくら花", "さくら花"),
    ("密码: longMen2024", "longMen2024"),
    ("密碼=longmen", "longmen"),
    ("登录失败 用户名=wang 密码=abc12345", "abc12345"),
    ("비밀번호: hangang55", "hangang55"),
    ("пароль: medved1917", "medved1917"),
    ("Пароль = 'Медведь'", "Медведь"),
    ("parola: pisica77x", "pisica77x"),
    ("şifre=kedi1234x", "kedi1234x"),
    ("Şifre: kedicik", "kedicik"),
    ("κωδικός: gataki99", "gataki99"),
    ("jelszó: cicaMica1", "cicaMica1"),
    ("passord=hemmelig9", "hemmelig9"),
    ("adgangskode: hemmelig9", "hemmelig9"),
    ("lozinka: tajna123", "tajna123"),
    ("mật khẩu: bimat123", "bimat123"),
    ("kata sandi: rahasia99", "rahasia99"),
]

PHRASES = [
    ("passphrase reset to winter2024 by ops", "winter2024"),
    ("the api key was changed to 'k3yV4lue99'", "k3yV4lue99"),
    ("user bob: password has been reset to `Spring#2025`", "Spring#2025"),
    ("PIN set to 4821 for card ending 1111", "4821"),
    ("root password updated to: qwerty123", "qwerty123"),
    ("admin token rotated to tk9f8e7d6c5b", "tk9f8e7d6c5b"),
    ('secret changed to "lower case words"', "lower case words"),
    ("db password was set to sunshine", "sunshine"),
]

URL_ENCODED = [
    ("GET /cb?next=%2Flogin%3Fpassword%253Dhunter2%2526u%253Dbob HTTP/1.1", "hunter2"),
    ("redirect=https%3A%2F%2Fx%2Fa%3Ftoken%253Dabcd1234efgh", "abcd1234efgh"),
    ("url=http%253A%252F%252Fbob%253As3cr3tPw%2540host%252Fx", "s3cr3tPw"),
    ("url=https%3A%2F%2Fbob%3AplainPw77%40db.example.org%2F", "plainPw77"),
    ("q=pass%3Dhunter2x&lang=de", "hunter2x"),
    ("return_to=%2Fx%3Fapi_key%25253DZx81Lm93Qp%252526y%25253D1", "Zx81Lm93Qp"),
    ("state=a%26client_secret%253DcS-9qLw2xZ%2526b%253D2", "cS-9qLw2xZ"),
]

SMTP = [
    ("C: AUTH PLAIN AGFsaWNlAHMzY3IzdFB3", "AGFsaWNlAHMzY3IzdFB3"),
    ("send: b'AUTH PLAIN AGJvYgBodW50ZXIy\\r\\n'", "AGJvYgBodW50ZXIy"),
    ("smtp> auth plain dXNlcgB1c2VyAHBhc3N3b3Jk", "dXNlcgB1c2VyAHBhc3N3b3Jk"),
    ("reply: send: 'AUTH PLAIN AGFsaWNlAHMzY3IzdFB3'", "AGFsaWNlAHMzY3IzdFB3"),
    ('>>> "AUTH PLAIN AHUAcA=="', "AHUAcA=="),
    ("a001 AUTHENTICATE XOAUTH2 dXNlcj1ib2JAeC5vcmcBYXV0aD1CZWFyZXIgeHl6AQE=", "dXNlcj1ib2JA"),
    ("AUTH LOGIN Ym9i", "Ym9i"),
]

SQL = [
    ("CREATE USER 'app'@'%' IDENTIFIED BY 'Sq1Pass!x';", "Sq1Pass!x"),
    ('ALTER USER app IDENTIFIED BY "lowerpw"', "lowerpw"),
    ("GRANT ALL ON db.* TO 'u'@'h' IDENTIFIED BY 'grantpw9'", "grantpw9"),
    ("create user bob identified with mysql_native_password by 'natpw77'", "natpw77"),
    ("CREATE ROLE app LOGIN PASSWORD 'pgPw1234'", "pgPw1234"),
    ("ALTER ROLE app WITH PASSWORD 'pg pw'", "pg pw"),
    ("CREATE USER app WITH ENCRYPTED PASSWORD 'encPw55'", "encPw55"),
    ("SET PASSWORD = PASSWORD('setpw88')", "setpw88"),
    ("SET PASSWORD FOR 'bob'@'localhost' = PASSWORD('setpw88')", "setpw88"),
    ("SET PASSWORD FOR bob = 'plainset1'", "plainset1"),
    ("statement: alter user postgres password 'pgpass'", "pgpass"),
    ("CREATE USER u IDENTIFIED BY Oracle_Pw1 DEFAULT TABLESPACE users", "Oracle_Pw1"),
]

COMMANDS = [
    ('curl --user "deploy:CurlPw!1" https://h/x', "CurlPw!1"),
    ("curl -sS -u 'ci:Xy9z8W7v' -X POST https://h", "Xy9z8W7v"),
    ("curl --proxy-user proxyu:proxPw77 -x http://p:3128 https://h", "proxPw77"),
    ("curl -U pu:proxPw78 https://h", "proxPw78"),
    ("curl --user=deploy:eqPw999 https://h", "eqPw999"),
    ("curl -u admin:plainlower https://h", "plainlower"),
    ("wget --http-password=wgetPw55 --http-user=bob https://h", "wgetPw55"),
    ("wget --ftp-password='ftp pw' ftp://h", "ftp pw"),
    ("wget --proxy-password plainproxy https://h", "plainproxy"),
    ("mysql -h db -u root -pS3cretRoot shop", "S3cretRoot"),
    ("mariadb -uroot -plowerpw shop", "lowerpw"),
]

NATIONAL_IDS = [
    ("NIR 2 49 07 84 050 075 73 ok", "050 075"),
    ("nir=163100893252046", "163100893252046"),
    ("numéro de sécurité sociale 142025642907257", "142025642907257"),
    ("n° sécu: 1 45 09 55 061 847 32", "061 847"),
    ("fødselsnummer 27116194878 verified", "27116194878"),
    ("fnr=02106381944", "02106381944"),
    ("personnummer: 081039 47543", "47543"),
    ("tc kimlik no: 96252760120", "96252760120"),
    ("TCKN=99555979794", "99555979794"),
    ("T.C. Kimlik No 21471049794", "21471049794"),
    ("teudat zehut 703423665", "703423665"),
    ("israeli id 712768423 checked", "712768423"),
    ("zehut=684656325", "684656325"),
]

SCHEMES = [
    ('Authorization: Token token="q8Zr2LmV7xKp"', "q8Zr2LmV7xKp"),
    ('Authorization: Token token="lowerletters", email="a@b.c"', "lowerletters"),
    ("authorization: token lowercasetoken", "lowercasetoken"),
    ('Authorization: Digest username="bob", response="6629fae49393a05397450978507c4"', "6629fae4"),
    ("Authorization: SSWS 00QCjAl4MlV-WPXM-ABCDEFGHIJKLMNOP", "00QCjAl4MlV"),
    ("Authorization: Splunk 8f2b7c1e-3a4d-4e5f-9a6b-7c8d9e0f1a2b", "8f2b7c1e-3a4d"),
    ("Authorization: GenieKey 8f2b7c1e-3a4d-4e5f-9a6b-7c8d9e0f1a2b", "8f2b7c1e-3a4d"),
]

VENDOR_KEYS = [
    ("nuget push pkg.nupkg -k oy2lmtqazbcdefghijklmnopqrstuvwxyz234567abcdef", "oy2lmtqazb"),
    ("api key oy2pix6ea6qom66zjojyaekctbr6y3z4ixgci7nq3t2yw2 set", "oy2pix6ea6qom"),
    (
        "dotnet nuget push a.nupkg --api-key oy2a7bqz3kdw4nrtxm5pu6vh2jc7e3lqhs4ifgdo5nyb6w",
        "a7bqz3kdw",
    ),
    ("using rzp_test_Ab3dE5fG7hJ9kL", "Ab3dE5fG7hJ9kL"),
    ("razorpay rzp_live_9hTx2QvL8mKp3R", "9hTx2QvL8mKp3R"),
    ("charge via acme_live_7fK2pQ9xLm3vR8tW", "7fK2pQ9xLm3vR8tW"),
    ("shop_prod_Qm8vX2kP9sL4 configured", "Qm8vX2kP9sL4"),
    ("key xkp4Hf8sLq2Zr9Wm3Tn7Vb5Yc1Dg6 in use", "xkp4Hf8sLq2Zr9Wm3Tn7"),
]

ADDRESSES = [
    ('mail from "john.doe"@example.com', "john.doe"),
    ('to: "jane smith"@corp.example.org', "jane smith"),
    ("rcpt user@bücher.de", "user@"),
    ("login hans.müller@bücher.de ok", "hans.müller"),
    ("rcpt anna@xn--bcher-kva.de", "anna"),
    ("from 0xC6336417 connected", "0xC6336417"),
    ("peer=0xc0a80001:443", "0xc0a80001"),
    ("upstream 0x0A0B0C0D:8080 timed out", "0x0A0B0C0D"),
]

MORE = [
    ('Kennwort: "Sommer 2024!"', "Sommer 2024"),
    ("Benutzer=max Kennwort=geheim123 Rolle=admin", "geheim123"),
    ("[auth] Passwort für Benutzer max: Sommer24", "Sommer24"),
    ("mot de passe=azerty123", "azerty123"),
    ("Mot de passe : « soleil42 »", "soleil42"),
    ("nouveau mot de passe: soleil42", "soleil42"),
    ("contraseña nueva = 'gato#2024'", "gato#2024"),
    ("senha do usuário: Brasil2024", "Brasil2024"),
    ("SENHA=Brasil2024", "Brasil2024"),
    ("wachtwoord: Fiets!2024", "Fiets!2024"),
    ("Hasło użytkownika: Zaq12wsx", "Zaq12wsx"),
    ("heslo: Tajne123", "Tajne123"),
    ("lösenord=Sommar2024", "Sommar2024"),
    ("salasana: Kesä2024", "Kesä2024"),
    ("ログイン パスワード: Abc12345", "Abc12345"),
    ("用户密码：Abc12345", "Abc12345"),
    ("비밀번호=Abc12345", "Abc12345"),
    ("пароль пользователя: Qwerty123", "Qwerty123"),
    ("Пароль: Qwerty123", "Qwerty123"),
    ("şifre: Ankara06", "Ankara06"),
    ("ŞİFRE=Ankara06", "Ankara06"),
    ("κωδικός πρόσβασης: Athina2024", "Athina2024"),
    ('{"senha":"Brasil2024","usuario":"ana"}', "Brasil2024"),
    ("passwort => 'x9Yz!'", "x9Yz!"),
    ("PASSWORT: x9Yz!", "x9Yz!"),
    ("parolă: Bucuresti1", "Bucuresti1"),
    ("jelszó=Budapest1", "Budapest1"),
    ("adgangskode er Kobenhavn1", "Kobenhavn1"),
    ("passord: Oslo2024", "Oslo2024"),
    ("kata sandi=Jakarta1", "Jakarta1"),
    ("mật khẩu là Hanoi2024", "Hanoi2024"),
    ("Password for bob changed to Tr0ub4dor", "Tr0ub4dor"),
    ("password successfully changed to 'x'", "'x'"),
    ("the password is now 'Summer2024'", "Summer2024"),
    ("new password: Summer2024", "Summer2024"),
    ("API key regenerated to ak_9f8e7d6c", "ak_9f8e7d6c"),
    ("Client secret was rotated to cs-Abc123xyz", "Abc123xyz"),
    ("pin has been changed to 0000", "0000"),
    ("passcode set to 998877", "998877"),
    (
        "/oauth/cb?redirect_uri=https%3A%2F%2Fapp%2Fcb%3Faccess_token%3Dya29.a0AfH6SM",
        "ya29.a0AfH6SM",
    ),
    ("next=%2Fapi%3Fsecret%3Ds3cr3tValue%26x%3D1", "s3cr3tValue"),
    ("r=%252Fv1%253Fapikey%253DAbC123xYz", "AbC123xYz"),
    ("u=ftp%3A%2F%2Fadmin%3Ahunter22%40ftp.example.org", "hunter22"),
    ("PASSWORD%3Dhunter22", "hunter22"),
    ("smtplib send: 'AUTH PLAIN AHRlc3QAdGVzdDEyMw==\\r\\n'", "AHRlc3QAdGVzdDEyMw=="),
    ("C: AUTH CRAM-MD5 dGltIGI5MTNhNjAyYzdlZGE3YTQ5NWI0ZTZlNzMzNGQzODkw", "dGltIGI5MTNh"),
    ("-> AUTH XOAUTH2 dXNlcj1zb21ldXNlckBleGFtcGxlLmNvbQFhdXRoPUJlYXJlciB5YTI5", "dXNlcj1zb21l"),
    (
        "ALTER USER 'root'@'localhost' IDENTIFIED WITH caching_sha2_password BY 'N3wRoot!';",
        "N3wRoot!",
    ),
    ("CREATE USER IF NOT EXISTS 'svc'@'10.%' IDENTIFIED BY 'svcpw';", "svcpw"),
    ("psql: ALTER USER app WITH PASSWORD 'x y z';", "x y z"),
    ("CREATE ROLE reader WITH LOGIN PASSWORD 'r3ader' VALID UNTIL 'infinity'", "r3ader"),
    ("ALTER LOGIN sa WITH PASSWORD = 'MsSql!2024'", "MsSql!2024"),
    ("CREATE LOGIN app WITH PASSWORD = N'MsSql!2024', CHECK_POLICY=OFF", "MsSql!2024"),
    ("db.createUser({user: 'app', pwd: 'mongoPw1', roles: []})", "mongoPw1"),
    ("curl -fsSL --user 'admin:S3cr3t!' https://x", "S3cr3t!"),
    ('curl -u "bob:hunter2" https://api', "hunter2"),
    ("http -a bob:hunter22 GET https://api", "hunter22"),
    ("git clone https://bob:ghp_abc123@github.com/x/y", "ghp_abc123"),
    ("wget --user=bob --password=hunter22 https://x", "hunter22"),
    ("mysql --user=root --password=rootpw db", "rootpw"),
    ('mysql -uroot -p"My Pw" db', "My Pw"),
    ('psql "postgresql://app:pgpw@db/app"', "pgpw"),
    ("PGPASSWORD=pgpw psql -h db", "pgpw"),
    ("smbclient //srv/share -U bob%hunter22", "hunter22"),
    ("NIR: 2 49 07 84 050 075 73", "050 075"),
    ("numero INSEE 163100893252046", "163100893252046"),
    ("n° de sécurité sociale : 1 63 10 08 932 520 46", "932 520"),
    ("Fødselsnummer: 271161 94878", "94878"),
    ("f.nr. 27116194878", "27116194878"),
    ("TC Kimlik Numarası: 96252760120", "96252760120"),
    ("tc_kimlik_no=99555979794", "99555979794"),
    ('{"tckn": "21471049794"}', "21471049794"),
    ("מספר תעודת זהות 703423665", "703423665"),
    ("ת.ז. 712768423", "712768423"),
    ("teudat_zehut=684656325", "684656325"),
    ("Authorization: Token token=abc123def456ghi", "abc123def456ghi"),
    ("Authorization: Splunk abcd-1234", "abcd-1234"),
    ("Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", "MTk4NjIy"),
    ("authorization=Basic%20dXNlcjpwYXNz", "dXNlcjpwYXNz"),
    ("X-API-Key: 9f8e7d6c5b4a", "9f8e7d6c5b4a"),
    ("X-Auth-Token: abcdefgh12345", "abcdefgh12345"),
    ("key=rzp_live_AbCdEf123456", "AbCdEf123456"),
    ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    ("pk_live_51H8xyzABC123", "51H8xyzABC123"),
    ("whsec_1234567890abcdefABCDEF", "1234567890abcdefABCDEF"),
    ("NUGET_API_KEY: oy2pix6ea6qom66zjojyaekctbr6y3z4ixgci7nq3t2yw2", "pix6ea6qom"),
    ('"o\'brien"@example.ie', "o'brien"),
    ('from=<"ops team"@example.com>', "ops team"),
    ("jürgen@beispiel.de", "jürgen"),
    ("用户@例子.广告", "用户"),
    ("user@пример.рф", "user@"),
    ("connect to 0xC0A80001", "0xC0A80001"),
    ("ip=0xc0a80001", "0xc0a80001"),
    ("src=0x0a000001:5353", "0x0a000001"),
]

LEAKS = MORE + LABELS + PHRASES + URL_ENCODED + SMTP + SQL + COMMANDS + NATIONAL_IDS + SCHEMES
LEAKS += VENDOR_KEYS + ADDRESSES


@pytest.mark.parametrize(("line", "secret"), LEAKS, ids=[line for line, _ in LEAKS])
def test_a_value_of_every_red_team_family_is_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "secret"), LEAKS, ids=[line for line, _ in LEAKS])
def test_the_value_is_replaced_in_a_line_with_a_tab_too(line: str, secret: str) -> None:
    assert secret not in Redactor().redact("x\t" + line)


@pytest.mark.parametrize(
    "key", ["Kennwort", "db_passwort", "mot_de_passe", "contraseña", "hasło", "пароль", "密码"]
)
def test_a_structured_field_named_by_a_label_of_another_language_is_replaced(key: str) -> None:
    assert Redactor().redact_value(key, "blue horse 7") == "<SECRET>"


@pytest.mark.parametrize(("key", "value"), [("Kennwort_Laenge", 12), ("senha_tentativas", 3)])
def test_a_count_under_such_a_label_stays(key: str, value: int) -> None:
    assert Redactor().redact_value(key, value) == value


def test_an_xml_element_named_by_such_a_label_is_replaced() -> None:
    assert "lemon" not in Redactor().redact("<user>bob</user><Kennwort>lemon</Kennwort>")
