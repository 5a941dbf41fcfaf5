"""Writes ``redteam_blind.jsonl``: a blind red-team corpus for the log redactor.

Rows have the shape of the redaction corpus (``family``, ``format``, ``kind``, ``line``,
``values``; see ``tests/support/redaction_corpus.py``). ``secret`` rows hold one secret or
personal value (sometimes two) in a line written after a real log format of real software;
``values`` are the parts that must not survive. ``keep`` rows hold values that look like
secrets but are not; ``values`` must come out intact.

The rows were written without reading the redactor, its rules or its tests, and are not
edited to fit it: this file is a held-out measure (``bench/redaction_redteam.py``), in no
corpus test and no figures command.

Every secret is random, drawn from a seeded generator, with valid checksums where the format
has one (Luhn, IBAN mod 97, BSN 11-test, Steuer-ID ISO 7064, Verhoeff, CPF, NIR, DNI, PESEL,
resident id, codice fiscale, MRZ): nothing here is, or was copied from, a real credential or
a real person's data. ``python tests/data/redaction/make_redteam_blind.py`` rewrites the file
(the output is the same on every run).

License plates are included (two ANPR lines): under the GDPR a plate read by a parking or
toll camera is personal data, since it points at the keeper of the vehicle. GPS fixes of a
device are included: a precise position of a phone or tracker is a person's location.
"""

# ruff: noqa: E501

from __future__ import annotations

import base64
import json
import random
import string
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
OUT: Final = HERE / "redteam_blind.jsonl"
rng = random.Random(20261204)

ALNUM: Final = string.ascii_letters + string.digits
UPPER_DIGITS: Final = string.ascii_uppercase + string.digits
HEX: Final = "0123456789abcdef"
B64URL: Final = ALNUM + "-_"
BECH32: Final = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"

rows: list[dict[str, object]] = []


def secret(family: str, name: str, line: str, *values: str) -> None:
    for value in values:
        assert value in line, (family, name, value)
    rows.append(
        {
            "family": family,
            "format": f"{family}/{name}",
            "kind": "secret",
            "line": line,
            "values": list(values),
        }
    )


def keep(family: str, name: str, line: str, *values: str) -> None:
    for value in values:
        assert value in line, (family, name, value)
    rows.append(
        {
            "family": family,
            "format": f"{family}/{name}",
            "kind": "keep",
            "line": line,
            "values": list(values),
        }
    )


# --- random material -------------------------------------------------------------------------


def rand(alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def digits(size: int) -> str:
    return rand(string.digits, size)


def b64(size: int) -> str:
    return base64.b64encode(rng.randbytes(size)).decode()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def password() -> str:
    return rand(ALNUM, 6) + rng.choice("!#%&*+-.") + rand(ALNUM, 7)


def luhn_digit(body: str) -> str:
    total = 0
    for index, char in enumerate(reversed(body)):
        value = int(char)
        if index % 2 == 0:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return str((10 - total % 10) % 10)


def luhn_valid(number: str) -> bool:
    return luhn_digit(number[:-1]) == number[-1]


def card(prefix: str, size: int) -> str:
    body = prefix + digits(size - len(prefix) - 1)
    return body + luhn_digit(body)


def not_luhn(size: int) -> str:
    while True:
        number = rng.choice("123456789") + digits(size - 1)
        if not luhn_valid(number):
            return number


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    numeric = "".join(str(int(char, 36)) for char in moved)
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{bban}"


def iban_ok(value: str) -> bool:
    moved = value[4:] + value[:4]
    return int("".join(str(int(char, 36)) for char in moved)) % 97 == 1


def grouped(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def ssn() -> str:
    area = rng.choice([n for n in range(1, 666) if n != 0])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"


def nino() -> str:
    first = "ABCEGHJKLMNPRSTWXYZ"
    second = "ABCEGHJKLMNPRSTWXYZ"
    while True:
        pair = rng.choice(first) + rng.choice(second)
        if pair not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}:
            return pair + digits(6) + rng.choice("ABCD")


def bsn() -> str:
    while True:
        number = rng.choice("123456789") + digits(8)
        total = sum(int(d) * w for d, w in zip(number[:8], range(9, 1, -1), strict=True))
        if (total - int(number[8])) % 11 == 0:
            return number


def steuer_id() -> str:
    while True:
        first = [rng.choice("123456789")] + [rng.choice(string.digits) for _ in range(9)]
        counts = [first.count(d) for d in set(first)]
        if sorted(counts, reverse=True)[0] != 2 or counts.count(2) != 1:
            continue
        product = 10
        for char in first:
            total = (int(char) + product) % 10
            if total == 0:
                total = 10
            product = (total * 2) % 11
        check = 11 - product
        if check == 10:
            check = 0
        return "".join(first) + str(check)


_VD: Final = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 2, 3, 4, 0, 6, 7, 8, 9, 5),
    (2, 3, 4, 0, 1, 7, 8, 9, 5, 6),
    (3, 4, 0, 1, 2, 8, 9, 5, 6, 7),
    (4, 0, 1, 2, 3, 9, 5, 6, 7, 8),
    (5, 9, 8, 7, 6, 0, 4, 3, 2, 1),
    (6, 5, 9, 8, 7, 1, 0, 4, 3, 2),
    (7, 6, 5, 9, 8, 2, 1, 0, 4, 3),
    (8, 7, 6, 5, 9, 3, 2, 1, 0, 4),
    (9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
)
_VP: Final = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    (1, 5, 7, 6, 2, 8, 3, 0, 9, 4),
    (5, 8, 0, 3, 7, 9, 6, 1, 4, 2),
    (8, 9, 1, 6, 0, 4, 3, 5, 2, 7),
    (9, 4, 5, 3, 1, 2, 6, 8, 7, 0),
    (4, 2, 8, 6, 5, 7, 3, 9, 0, 1),
    (2, 7, 9, 3, 8, 0, 6, 4, 1, 5),
    (7, 0, 4, 6, 9, 1, 3, 2, 5, 8),
)
_VINV: Final = (0, 4, 3, 2, 1, 5, 6, 7, 8, 9)


def verhoeff_check(number: str) -> int:
    c = 0
    for i, char in enumerate(reversed(number)):
        c = _VD[c][_VP[i % 8][int(char)]]
    return c


def aadhaar() -> str:
    body = rng.choice("23456789") + digits(10)
    c = 0
    for i, char in enumerate(reversed(body)):
        c = _VD[c][_VP[(i + 1) % 8][int(char)]]
    number = body + str(_VINV[c])
    assert verhoeff_check(number) == 0
    return number


def cpf() -> str:
    base = [int(d) for d in digits(9)]
    for size in (10, 11):
        total = sum(d * w for d, w in zip(base, range(size, 1, -1), strict=False))
        base.append((total * 10 % 11) % 10)
    return "".join(map(str, base))


def nir() -> str:
    body = (
        rng.choice("12")
        + f"{rng.randrange(50, 99):02d}{rng.randrange(1, 13):02d}"
        + f"{rng.randrange(1, 96):02d}"
        + digits(3)
        + digits(3)
    )
    return body + f"{97 - int(body) % 97:02d}"


def dni() -> str:
    number = digits(8)
    return number + "TRWAGMYFPDXBNJZSQVHLCKE"[int(number) % 23]


def nie() -> str:
    lead = rng.choice("XYZ")
    number = digits(7)
    return (
        lead + number + "TRWAGMYFPDXBNJZSQVHLCKE"[int("XYZ".index(lead) * 10**7 + int(number)) % 23]
    )


def pesel() -> str:
    year = rng.randrange(60, 99)
    body = f"{year:02d}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}" + digits(4)
    weights = (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)
    total = sum(int(d) * w for d, w in zip(body, weights, strict=True))
    return body + str((10 - total % 10) % 10)


def personnummer() -> str:
    body = f"{rng.randrange(50, 99):02d}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
    body += digits(3)
    return f"{body[:6]}-{body[6:]}{luhn_digit(body)}"


def sin() -> str:
    body = rng.choice("1234567") + digits(7)
    number = body + luhn_digit(body)
    return f"{number[:3]} {number[3:6]} {number[6:]}"


def china_id() -> str:
    body = "110105" + f"19{rng.randrange(60, 99)}{rng.randrange(1, 13):02d}"
    body += f"{rng.randrange(1, 29):02d}" + digits(3)
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(body, weights, strict=True))
    return body + "10X98765432"[total % 11]


_CF_ODD: Final = dict(
    zip(
        string.digits + string.ascii_uppercase,
        (
            *(1, 0, 5, 7, 9, 13, 15, 17, 19, 21),  # digits
            *(1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10),  # A-V
            *(22, 25, 24, 23),  # W-Z
        ),
        strict=True,
    )
)


def codice_fiscale() -> str:
    body = (
        rand(string.ascii_uppercase, 6)
        + f"{rng.randrange(50, 99):02d}"
        + rng.choice("ABCDEHLMPRST")
        + f"{rng.randrange(1, 29):02d}"
        + rng.choice("ABCDEFGHILM")
        + digits(3)
    )
    total = 0
    for index, char in enumerate(body):
        if index % 2 == 0:
            total += _CF_ODD[char]
        else:
            total += int(char) if char.isdigit() else ord(char) - 65
    return body + chr(65 + total % 26)


def mrz_check(text: str) -> str:
    total = 0
    for index, char in enumerate(text):
        if char.isdigit():
            value = int(char)
        elif char == "<":
            value = 0
        else:
            value = ord(char) - 55
        total += value * (7, 3, 1)[index % 3]
    return str(total % 10)


def imei() -> str:
    body = "35" + digits(12)
    return body + luhn_digit(body)


def uuid4() -> str:
    raw = rand(HEX, 32)
    raw = raw[:12] + "4" + raw[13:16] + rng.choice("89ab") + raw[17:]
    return f"{raw[:8]}-{raw[8:12]}-{raw[12:16]}-{raw[16:20]}-{raw[20:]}"


def pub_ip() -> str:
    while True:
        first = rng.randrange(1, 224)
        if first not in {10, 100, 127, 169, 172, 192, 198, 203}:
            break
    return f"{first}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"


def mac(sep: str = ":", upper: bool = False) -> str:
    octets = [rng.randrange(256) for _ in range(6)]
    octets[0] &= 0xFC
    text = sep.join(f"{o:02x}" for o in octets)
    return text.upper() if upper else text


def jwt(claims: dict[str, object], alg: str = "HS256") -> tuple[str, str, str]:
    header = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    signature = b64url(rng.randbytes(32 if alg.startswith("HS") else 256))
    return header, payload, signature


T: Final = "2026-12-04T01:57:12.481Z"


# --- secrets: credentials in key=value and structured text -------------------------------------

F = "kv_credentials"
v = password()
secret(F, "logfmt", f'time={T} level=debug msg="db connect" user=app password={v} retries=3', v)
v = password()
secret(F, "json", f'{{"ts":"{T}","level":"DEBUG","config":{{"db_user":"svc","db_pass":"{v}"}}}}', v)
v = password()
secret(F, "yaml_dump", f"    smtp_password: {v}", v)
v = password()
secret(F, "yaml_quoted", f"    password: '{v}'", v)
v = password()
secret(F, "xml_element", f'<property name="connection"><Password>{v}</Password></property>', v)
v = password()
secret(F, "xml_attr", f'<add key="SmtpPassword" value="{v}" />', v)
v = password()
secret(F, "ini", f"passwd = {v}", v)
v = password()
secret(F, "env_export", f"+ export PGPASSWORD={v}", v)
v = password()
secret(F, "dotenv", f'MYSQL_ROOT_PASSWORD="{v}"', v)
v = password()
secret(F, "toml", f'secret_key = "{v}"', v)
v = password()
secret(F, "java_properties", f"spring.datasource.password={v}", v)
v = password()
secret(
    F, "python_repr", f"DEBUG settings: {{'USER': 'django', 'PASSWORD': '{v}', 'HOST': 'db'}}", v
)
v = password()
secret(F, "ruby_hash", f'Parameters: {{"user"=>{{"email"=>"x", "password"=>"{v}"}}}}', v)
v = password()
secret(
    F,
    "go_struct",
    f"config loaded: &{{Host:db.internal Port:5432 User:api Password:{v} SSL:true}}",
    v,
)
v = password()
secret(F, "form_body", f"POST /login body=username=mhansen&password={v}&remember=1", v)
v = password()
secret(
    F,
    "sql_identified_by",
    f"2026-12-04T01:57:12.481Z 12 Query\tALTER USER 'report'@'%' IDENTIFIED BY '{v}'",
    v,
)
v = password()
secret(F, "sql_with_password", f"LOG:  statement: CREATE ROLE etl LOGIN PASSWORD '{v}';", v)
v = password()
secret(
    F,
    "docker_inspect_env",
    f'            "Env": ["PATH=/usr/local/bin", "POSTGRES_PASSWORD={v}", "LANG=C.UTF-8"],',
    v,
)
v = password()
secret(F, "kubectl_describe_env", f"      DB_PASSWORD:         {v}", v)
v = b64(18)
secret(F, "k8s_secret_data", f"  password: {v}", v)
v = password()
secret(F, "terraform_plan", f'      + master_password        = "{v}"', v)
v = password()
secret(F, "ansible_extra_vars", f"ansible-playbook site.yml -e 'ansible_become_pass={v}'", v)
v = password()
secret(F, "php_array", f"'password' => '{v}',", v)
v = password()
secret(F, "spring_env_dump", f'"spring.mail.password": {{"value": "{v}", "origin": "env"}}', v)
v = password()
secret(F, "wpa_psk", f'wpa_supplicant[811]: network={{ ssid="HomeNet" psk="{v}" }}', v)
v = rand(ALNUM, 12)
secret(F, "snmp_community", f"snmpd[1200]: Connection from UDP: [{pub_ip()}]:161 community={v}", v)
v = rand(ALNUM, 40)
secret(
    F,
    "client_secret_json",
    f'{{"client_id":"web-app","client_secret":"{v}","grant_type":"client_credentials"}}',
    v,
)
v = rand(ALNUM, 32)
secret(F, "api_key_colon_space", f"[config] api-key: {v}", v)
v = password()
secret(F, "python_traceback_locals", f"    password = '{v}'", v)
v = password()
secret(F, "upper_case_key", f"DB_PASSWD={v} ./start.sh", v)
v = password()
secret(F, "pass_phrase", f"gpg: passphrase='{v}' used for batch signing", v)
v = password()
secret(
    F,
    "har_postdata",
    f'"postData": {{"mimeType": "application/json", "text": "{{\\"login\\":\\"kw\\",\\"password\\":\\"{v}\\"}}"}}',
    v,
)

F = "cli_flags"
v = password()
secret(F, "mysql_p_glued", f"  501  mysql -u root -p{v} -h db1 shop", v)
v = password()
secret(F, "mysql_password_eq", f"mysqldump --user=backup --password='{v}' --all-databases", v)
v = password()
secret(F, "password_space", f"+ pg_dumpall --password {v} -h 10.0.3.4", v)
v = password()
secret(F, "sqlcmd_P", f'sqlcmd -S tcp:sql01,1433 -U sa -P {v} -Q "SELECT 1"', v)
v = password()
secret(F, "msbuild_p", f"msbuild Deploy.proj /p:DeployPassword={v} /p:Configuration=Release", v)
v = password()
secret(F, "net_use", f"C:\\> net use \\\\fs01\\share /user:CORP\\svc_backup {v}", v)
v = password()
secret(F, "curl_u", f"+ curl -fsS -u deploy:{v} https://nexus.example.org/repository/", v)
v = password()
secret(F, "sshpass", f"sshpass -p '{v}' ssh admin@switch-3", v)
v = password()
secret(F, "openssl_passin", f"openssl pkcs12 -in cert.p12 -nodes -passin pass:{v}", v)
v = password()
secret(F, "docker_login", f"Running: docker login -u ci -p {v} registry.gitlab.com", v)
v = password()
secret(F, "htpasswd_b", f"htpasswd -b /etc/nginx/.htpasswd monitor {v}", v)
v = password()
secret(F, "wget_http_password", f"wget --http-user=ops --http-password={v} https://files/x.tgz", v)
v = password()
secret(F, "redis_cli_a", f"redis-cli -h cache-1 -a {v} INFO", v)
v = password()
secret(F, "az_login", f"az login --service-principal -u http://ci -p {v} --tenant corp", v)
v = rand(ALNUM, 40)
secret(F, "kubectl_token", f"kubectl --server=https://k8s:6443 --token={v} get pods", v)
v = password()
secret(
    F,
    "helm_repo_password",
    f"helm repo add internal https://charts --username ci --password {v}",
    v,
)
v = rand(ALNUM, 36)
secret(F, "npm_authtoken", f"npm config set //registry.npmjs.org/:_authToken={v}", v)
v = password()
secret(F, "java_D_property", f"java -Djavax.net.ssl.keyStorePassword={v} -jar app.jar", v)
v = password()
secret(F, "powershell_convertto", f'PS> $pw = ConvertTo-SecureString "{v}" -AsPlainText -Force', v)
v = password()
secret(F, "ldapsearch_w", f"ldapsearch -x -D cn=admin,dc=corp -w {v} -b dc=corp", v)
v = password()
secret(F, "smbclient_percent", f"smbclient //nas/backup -U backup%{v}", v)
v = password()
secret(
    F,
    "ps_aux_cmdline",
    f"root      2211  0.0  0.1 /usr/bin/mongod --auth --keyFile x --password={v}",
    v,
)

F = "connection_strings"
v = password()
secret(F, "postgres_url", f"FATAL: could not connect: postgresql://app:{v}@db1.prod:5432/orders", v)
v = password()
secret(F, "mysql_url", f"DATABASE_URL=mysql://root:{v}@127.0.0.1:3306/wp", v)
v = password()
secret(
    F,
    "mongodb_srv",
    f"MongoNetworkError: mongodb+srv://reporting:{v}@cluster0.ab1cd.mongodb.net/?retryWrites=true",
    v,
)
v = password()
secret(F, "redis_empty_user", f"Connecting to redis://:{v}@cache-2.svc:6379/0", v)
v = password()
secret(F, "amqp", f"pika: connecting to amqps://events:{v}@mq.internal:5671/%2F", v)
v = password()
secret(F, "ftp", f"lftp ftp://upload:{v}@ftp.partner.example", v)
v = password()
secret(
    F,
    "jdbc_sqlserver",
    f"jdbc:sqlserver://sql01:1433;databaseName=crm;user=sa;password={v};encrypt=true",
    v,
)
v = password()
secret(F, "adonet", f"Server=tcp:sql01,1433;Initial Catalog=crm;User ID=crm_app;Password={v};", v)
v = password()
secret(F, "odbc_pwd", f"DRIVER={{ODBC Driver 18}};SERVER=sql02;UID=etl;PWD={v};", v)
v = password()
secret(F, "oracle_ezconnect", f"sqlplus scott/{v}@//ora01:1521/ORCLPDB1", v)
v = b64(64)
secret(
    F,
    "azure_storage",
    f"DefaultEndpointsProtocol=https;AccountName=logsprod;AccountKey={v};EndpointSuffix=core.windows.net",
    v,
)
v = b64(32)
secret(
    F,
    "azure_servicebus",
    f"Endpoint=sb://bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={v}",
    v,
)
v = password()
secret(F, "http_proxy_env", f"HTTPS_PROXY=http://jsmith:{v}@proxy.corp:3128", v)
v = password()
secret(
    F,
    "git_clone_userinfo",
    f"Cloning into 'infra'... fatal: unable to access 'https://ci-bot:{v}@git.corp/infra.git/'",
    v,
)
v = password()
secret(
    F,
    "pip_index_url",
    f"Looking in indexes: https://pypi-user:{v}@artifactory.corp/api/pypi/simple",
    v,
)
v = password()
secret(F, "smtp_url", f"mailer: dsn=smtp://alerts%40corp.example:{v}@smtp.office365.com:587", v)
v = password()
secret(F, "ldap_url", f"ldap bind url=ldaps://cn=reader,dc=corp:{v}@ldap.corp:636", v)
v = password()
secret(F, "sqlalchemy_url_pct", f"sqlalchemy.url = postgresql+psycopg://etl:{v}%21@warehouse/dw", v)

F = "url_session"
v = rand(ALNUM, 32)
secret(
    F,
    "query_token",
    f'{pub_ip()} - - [04/Dec/2026:01:57:12 +0000] "GET /download?file=r.pdf&token={v} HTTP/1.1" 200 5120',
    v,
)
v = rand(ALNUM + "-_", 43)
secret(F, "query_access_token", f'"GET /api/me?access_token={v} HTTP/2.0" 200 88', v)
v = b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
secret(
    F,
    "azure_sas_sig",
    f"GET https://acct.blob.core.windows.net/c/b.zip?sv=2022-11-02&se=2026-12-05&sr=b&sp=r&sig={v}",
    v,
)
v = rand(HEX, 64)
secret(
    F,
    "aws_presigned",
    f"presigned: https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature={v}",
    v,
)
v = rand(ALNUM, 26)
secret(F, "sessionid_param", f"Redirect to https://shop.example/checkout?sessionid={v}&step=2", v)
v = rand(ALNUM + "-_", 40)
secret(F, "oauth_code", f"GET /oauth/callback?code={v}&state=xyz HTTP/1.1", v)
v = rand(ALNUM + "-_", 60)
secret(
    F,
    "fragment_token",
    f"navigated to https://app.example/#access_token={v}&token_type=Bearer&expires_in=3600",
    v,
)
v = rand(ALNUM, 32)
secret(
    F,
    "api_key_param",
    f"upstream request: GET https://maps.example.com/geocode/json?address=x&key={v}",
    v,
)
v = rand(ALNUM + "-_", 43)
secret(
    F,
    "password_reset_link",
    f"Sending mail: reset your password at https://id.example/reset?t={v}",
    v,
)
v = rand(HEX, 40)
secret(F, "sid_param_uppercase", f"GET /portal/index.do?SID={v} 302", v)
v = rand(ALNUM, 24)
secret(F, "auth_in_path", f'"POST /hooks/ingest/{v}/events HTTP/1.1" 202 0', v)

F = "cookies"
v = rand(ALNUM, 32)
secret(F, "set_cookie_session", f"< Set-Cookie: session={v}; Path=/; HttpOnly; Secure", v)
v, w = rand(ALNUM, 32), rand(ALNUM, 64)
secret(F, "cookie_django", f"> Cookie: csrftoken={w}; sessionid={v}", v, w)
v = "s%3A" + rand(ALNUM, 32) + "." + rand(ALNUM + "%", 43)
secret(F, "connect_sid", f"cookie: connect.sid={v}", v)
v = rand("abcdefghijklmnopqrstuvwxyz012345", 24)
secret(F, "aspnet_sessionid", f"Cookie: ASP.NET_SessionId={v}; lang=de", v)
v = b64(60).rstrip("=")
secret(
    F,
    "laravel_session",
    f"Set-Cookie: laravel_session={v}%3D; expires=Fri, 04-Dec-2026 03:57:12 GMT",
    v,
)
v = "admin%7C1796349432%7C" + rand(ALNUM, 43) + "%7C" + rand(HEX, 64)
secret(F, "wordpress_logged_in", f"Cookie: wordpress_logged_in_{rand(HEX, 32)}={v}", v)
v = rand(HEX, 40)
secret(
    F,
    "har_cookie_pair",
    f'{{"name": "auth_token", "value": "{v}", "path": "/", "httpOnly": true}}',
    v,
)
v = rand(ALNUM, 48)
secret(
    F,
    "haproxy_capture",
    f"haproxy[3021]: {pub_ip()}:51234 [04/Dec/2026:01:57:12.481] fe be/s1 0/0/1/2/3 200 812 {{SESS={v}}} - ----",
    v,
)
v = rand(ALNUM + "-_", 86)
secret(F, "remember_token", f"Cookie: remember_user_token={v}", v)

F = "auth_headers"
v = rand(ALNUM + "-._~", 40)
secret(F, "bearer", f"> Authorization: Bearer {v}", v)
v = rand(ALNUM, 40)
secret(F, "bearer_lowercase_h2", f"authorization: bearer {v}", v)
v = base64.b64encode(f"svc-ci:{password()}".encode()).decode()
secret(F, "basic", f"Authorization: Basic {v}", v)
v = base64.b64encode(f"admin:{password()}".encode()).decode()
secret(F, "basic_upper", f"AUTHORIZATION: BASIC {v}", v)
v = rand(HEX, 32)
secret(
    F,
    "digest",
    f'Authorization: Digest username="ops", realm="api", nonce="{rand(HEX, 16)}", uri="/x", response="{v}"',
    v,
)
v, w = rand(UPPER_DIGITS, 16), rand(HEX, 64)
secret(
    F,
    "aws_sigv4",
    f"Authorization: AWS4-HMAC-SHA256 Credential=AKIA{v}/20261204/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature={w}",
    v,
    w,
)
v = rand(ALNUM, 32)
secret(F, "token_token", f'Authorization: Token token="{v}"', v)
v = "TlRMTVNTUAADAAAA" + b64(120)
secret(F, "ntlm", f"Authorization: NTLM {v}", v[16:])
v = "YIIGhgYGKwYBBQUCoIIGejCCBnagMDAuBgkqhkiC" + b64(200)
secret(F, "negotiate", f"authorization: Negotiate {v}", v[40:])
v = rand(ALNUM + "-_", 42)
secret(F, "okta_ssws", f"Authorization: SSWS 00{v}", v)
v = b64(32)
secret(F, "azure_sharedkey", f"Authorization: SharedKey logsprod:{v}", v)
v = base64.b64encode(f"proxyuser:{password()}".encode()).decode()
secret(F, "proxy_authorization", f"Proxy-Authorization: Basic {v}", v)
v = rand(ALNUM, 32)
secret(F, "x_api_key", f"x-api-key: {v}", v)
v = rand(HEX, 32)
secret(F, "x_auth_token", f"X-Auth-Token: {v}", v)
v = "hvs." + rand(ALNUM, 24)
secret(F, "x_vault_token", f"X-Vault-Token: {v}", v[4:])
v = rand(ALNUM + "-_", 20)
secret(F, "private_token_gitlab", f"PRIVATE-TOKEN: glpat-{v}", v)
v = rand(HEX, 32)
secret(F, "ocp_apim", f"Ocp-Apim-Subscription-Key: {v}", v)
v = rand(ALNUM, 40)
secret(F, "har_header_pair", f'{{"name": "Authorization", "value": "Bearer {v}"}},', v)
v = rand(ALNUM, 40)
secret(
    F, "okhttp_logcat", f"12-04 01:57:12.481  4211  4290 D OkHttp  : Authorization: Bearer {v}", v
)
v = rand(ALNUM, 40)
secret(
    F,
    "grpc_metadata",
    f"grpc: metadata: map[:authority:[api] authorization:[Bearer {v}] user-agent:[grpc-go/1.64]]",
    v,
)
v = rand(HEX, 40)
secret(F, "apikey_scheme", f"Authorization: ApiKey {v}", v)
v = base64.b64encode(rng.randbytes(24)).decode()
secret(
    F,
    "python_requests_dict",
    f"DEBUG headers={{'User-Agent': 'python-requests/2.32', 'Authorization': 'Bearer {v}'}}",
    v,
)
v = rand(ALNUM, 40)
secret(F, "mixed_case_scheme", f"Authorization: BeArEr {v}", v)

F = "vendor_tokens"
v, w = rand(UPPER_DIGITS, 16), rand(ALNUM + "+/", 40)
secret(F, "aws_key_pair", f"aws_access_key_id = AKIA{v} aws_secret_access_key = {w}", v, w)
v = rand(UPPER_DIGITS, 16)
secret(F, "aws_sts_asia", f'"AccessKeyId": "ASIA{v}",', v)
v = rand(ALNUM + "+/", 40)
secret(F, "aws_secret_env", f"AWS_SECRET_ACCESS_KEY={v}", v)
v = rand(ALNUM, 36)
secret(F, "github_ghp", f"remote: Invalid username or token ghp_{v}", v)
v = rand(ALNUM, 36)
secret(F, "github_ghs_actions", f"##[debug]GITHUB_TOKEN=ghs_{v}", v)
v = rand(ALNUM, 22) + "_" + rand(ALNUM, 59)
secret(F, "github_fine_grained", f"token: github_pat_{v}", v)
v = rand(ALNUM, 36)
secret(F, "github_gho_oauth", f"gh: oauth_token: gho_{v}", v)
v = rand(ALNUM + "-_", 20)
secret(
    F, "gitlab_glpat", f"$ git remote set-url origin https://oauth2:glpat-{v}@gitlab.com/g/p.git", v
)
v = f"{digits(11)}-{digits(13)}-{rand(ALNUM, 24)}"
secret(F, "slack_xoxb", f"slack: posting with token xoxb-{v}", v)
v = f"{digits(11)}-{digits(11)}-{digits(13)}-{rand(HEX, 32)}"
secret(F, "slack_xoxp", f'"token": "xoxp-{v}"', v)
v = f"T{rand(UPPER_DIGITS, 8)}/B{rand(UPPER_DIGITS, 10)}/{rand(ALNUM, 24)}"
secret(F, "slack_webhook", f"POST https://hooks.slack.com/services/{v} 200", v.split("/")[2])
v = rand(ALNUM, 24)
secret(
    F, "stripe_sk_live", f"Stripe::AuthenticationError: Invalid API Key provided: sk_live_51{v}", v
)
v = rand(ALNUM, 24)
secret(F, "stripe_rk_live", f"STRIPE_KEY=rk_live_51{v}", v)
v = rand(ALNUM, 32)
secret(F, "stripe_whsec", f"webhook secret whsec_{v} loaded", v)
v, w = rand(HEX, 32), rand(HEX, 32)
secret(F, "twilio_sid_token", f'    client = Client("AC{v}", "{w}")', w)
v = f"{rand(ALNUM + '-_', 22)}.{rand(ALNUM + '-_', 43)}"
secret(F, "sendgrid", f"SENDGRID_API_KEY=SG.{v}", v)
v = rand(HEX, 32)
secret(F, "mailgun", f"mailgun api_key=key-{v}", v)
v = rand(HEX, 32)
secret(F, "mailchimp", f"mailchimp: using key {v}-us21", v)
v = rand(ALNUM + "-_", 35)
secret(F, "google_api_key", f'"apiKey": "AIza{v}",', v)
v = rand(ALNUM + "-_", 120)
secret(F, "google_oauth_ya29", f"google.auth: refreshed access token ya29.{v}", v)
v = rand(ALNUM + "-_", 100)
secret(F, "google_refresh_1slash", f'"refresh_token": "1//0{v}"', v)
v = rand(ALNUM + "~.-_", 34)
secret(F, "azure_client_secret", f"AZURE_CLIENT_SECRET={rand(ALNUM, 3)}8Q~{v}", v)
v = rand(HEX, 64)
secret(F, "digitalocean", f"doctl auth init -t dop_v1_{v}", v)
v = rand(ALNUM, 36)
secret(F, "npm_token", f"//registry.npmjs.org/:_authToken=npm_{v}", v)
v = rand(ALNUM + "-_", 150)
secret(F, "pypi_token", f"twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc{v}", v)
v = rand(ALNUM + "-_", 27)
secret(F, "docker_pat", f"echo dckr_pat_{v} | docker login -u ci --password-stdin", v)
v = rand(HEX, 32)
secret(F, "shopify_shpat", f"X-Shopify-Access-Token: shpat_{v}", v)
v = rand(HEX, 32)
secret(F, "datadog_api_key", f"DD_API_KEY={v}", v)
v = rand(HEX, 40)
secret(F, "datadog_app_key", f"datadog: dd-application-key: {v}", v)
v = rand(UPPER_DIGITS, 27)
secret(F, "newrelic_nrak", f"newrelic: api key NRAK-{v}", v)
v = rand(HEX, 32)
secret(F, "sentry_dsn", f"SENTRY_DSN=https://{v}@o{digits(6)}.ingest.sentry.io/{digits(7)}", v)
v = rand(ALNUM, 32)
secret(F, "grafana_glsa", f"GF_TOKEN=glsa_{v}_{rand(HEX, 8)}", v)
v = f"{b64url(digits(18).encode())}.{rand(ALNUM + '-_', 6)}.{rand(ALNUM + '-_', 38)}"
secret(F, "discord_bot", f"discord.errors.LoginFailure: Improper token has been passed: {v}", v)
v = f"{digits(18)}/{rand(ALNUM + '-_', 68)}"
secret(F, "discord_webhook", f"POST https://discord.com/api/webhooks/{v}", v.split("/")[1])
v = f"{digits(10)}:AA{rand(ALNUM + '-_', 33)}"
secret(F, "telegram_bot", f"GET https://api.telegram.org/bot{v}/getUpdates 409", v)
v = rand(ALNUM + "-_", 156)
secret(
    F, "openai_project", f"openai.AuthenticationError: Incorrect API key provided: sk-proj-{v}", v
)
v = rand(ALNUM + "-_", 95)
secret(F, "anthropic", f"ANTHROPIC_API_KEY=sk-ant-api03-{v}AA", v)
v = rand(ALNUM, 34)
secret(F, "huggingface", f"huggingface-cli login --token hf_{v}", v)
v = rand(ALNUM + "-_=", 180)
secret(F, "atlassian", f"JIRA_API_TOKEN=ATATT3xFfGF0{v}", v)
v = rand(ALNUM, 40)
secret(F, "linear", f"linear: Authorization: lin_api_{v}", v)
v = rand(ALNUM, 43)
secret(F, "notion", f"NOTION_TOKEN=secret_{v}", v)
v = rand(ALNUM + "-_", 22)
secret(F, "square", f"square access_token=EAAA{v}{rand(ALNUM, 38)}", v)
v = f"{rand('abcdefghijklmnopqrstuvwxyz0123456789', 16)}${rand(HEX, 32)}"
secret(F, "braintree", f"BRAINTREE_TOKEN=access_token$production${v}", v)
v = rand(ALNUM + "-_", 40)
secret(F, "cloudflare_token", f"CLOUDFLARE_API_TOKEN={v}", v)
v = rand(ALNUM, 24)
secret(F, "vault_hvs", f"vault login hvs.{v}", v)
v = f"{rand(ALNUM, 14)}.atlasv1.{rand(ALNUM, 67)}"
secret(F, "terraform_cloud", f'credentials "app.terraform.io" {{ token = "{v}" }}', v)
v = rand(HEX, 40)
secret(F, "pulumi", f"PULUMI_ACCESS_TOKEN=pul-{v}", v)
v = rand(ALNUM, 44)
secret(F, "doppler", f"DOPPLER_TOKEN=dp.st.prd.{v}", v)
v = f"{rand(HEX, 24)}-{rand(HEX, 34)}"
secret(F, "postman", f"postman: x-api-key PMAK-{v}", v)
v = rand(ALNUM + "-_", 40)
secret(F, "figma", f"figma: X-Figma-Token: figd_{v}", v)
v = rand(ALNUM + "-_", 134)
secret(F, "fcm_server_key", f"FCM legacy key=AAAA{rand(ALNUM + '-_', 7)}:APA91b{v}", v)
v = rand(ALNUM, 60) + "." + rand(ALNUM + "-_", 22)
secret(F, "mapbox_sk", f"MAPBOX_SECRET=sk.eyJ1Ijoib3BzIiwiYSI6ImNs{v}", v)
v = rand(HEX, 32)
secret(F, "databricks", f"databricks: token dapi{v}", v)
# age keys are Bech32 (no "-", "B", "I", "O", "1" in the body): the draw is mapped onto that
# alphabet so that the generator's random stream, and every later row, stays as it was.
v = "".join(BECH32[(UPPER_DIGITS + "-").index(c) % 32] for c in rand(UPPER_DIGITS + "-", 58))
secret(F, "age_secret", f"SOPS_AGE_KEY=AGE-SECRET-KEY-1{v}", v)
v = rand(HEX, 32)
secret(F, "flutterwave", f"FLW_SECRET_KEY=FLWSECK-{v}-X", v)
v, w = rand(ALNUM, 14), rand(ALNUM, 24)
secret(F, "razorpay", f"razorpay: key_id=rzp_live_{v} key_secret={w}", w)
v = rand(ALNUM, 32)
secret(F, "supabase", f"SUPABASE_ACCESS_TOKEN=sbp_{rand(HEX, 40)}{v}", v)
v = rand(ALNUM, 32)
secret(F, "planetscale", f"PLANETSCALE_PASSWORD=pscale_pw_{v}", v)
v = rand(ALNUM + "-_", 43)
secret(F, "flyio", f"FLY_API_TOKEN=fo1_{v}", v)
v = rand(ALNUM, 36)
secret(F, "netlify", f"NETLIFY_AUTH_TOKEN=nfp_{v}", v)
v = rand(ALNUM, 43)
secret(F, "contentful", f"contentful: CFPAT-{v}", v)
v = rand(ALNUM, 20)
secret(
    F,
    "alibaba_ltai",
    f"aliyun configure --access-key-id LTAI{v} --access-key-secret {rand(ALNUM, 30)}",
    v,
)
v = rand(ALNUM, 32)
secret(F, "tencent_akid", f"TENCENTCLOUD_SECRET_ID=AKID{v}", v)
v = rand(ALNUM + "-_", 44)
secret(F, "ibm_cloud", f'ibmcloud login --apikey "{v}" -r us-south', v)
v = f"{rand(ALNUM + '-_', 39)}"
secret(F, "yandex_oauth", f"yc config set token y0_AgAAAA{v}", v)
v = rand(HEX, 64)
secret(F, "dingtalk_webhook", f"POST https://oapi.dingtalk.com/robot/send?access_token={v}", v)
v = rand(ALNUM, 40)
secret(F, "circleci", f"CIRCLE_TOKEN=CCIPAT_{rand(ALNUM, 22)}_{v}", v)
v = uuid4()
secret(F, "heroku_uuid_key", f"HEROKU_API_KEY={v}", v)
v = rand(ALNUM, 30)
secret(F, "twitch_oauth", f"PASS oauth:{v}", v)
v = rand(ALNUM + "-_", 28)
secret(F, "google_oauth_client_secret", f'"client_secret": "GOCSPX-{v}",', v)
v = rand(ALNUM + "+/", 88)
secret(F, "generic_high_entropy_env", f"BACKUP_ENCRYPTION_KEY={v}", v)

F = "jwt"
h, p, s = jwt({"sub": digits(8), "name": "R Ito", "iat": 1796349432})
secret(F, "bearer", f"Authorization: Bearer {h}.{p}.{s}", p, s)
h, p, s = jwt({"sub": uuid4(), "exp": 1796353032}, "RS256")
secret(F, "json_id_token", f'{{"id_token":"{h}.{p}.{s}","expires_in":3600}}', p, s)
h, p, s = jwt({"uid": digits(6), "role": "admin"})
secret(F, "cookie", f"Cookie: jwt={h}.{p}.{s}; theme=dark", p, s)
h, p, s = jwt({"sub": "svc", "scope": "read"})
secret(F, "query", f"GET /ws?token={h}.{p}.{s} HTTP/1.1 101", p, s)
h, p, s = jwt({"email": "x", "sid": digits(10)})
secret(F, "bare_in_message", f"WARN jwt verification failed for {h}.{p}.{s}: token expired", p, s)
h, p, _ = jwt({"sub": "admin", "admin": True}, "none")
secret(F, "alg_none_trailing_dot", f"suspicious token: {h}.{p}.", p)

F = "private_keys"
v = "MIIEowIBAAKCAQEA" + b64(36)
secret(F, "rsa_middle_line_first", v, v[16:])
v = b64(48)
secret(F, "pem_middle_line", v, v)
v = b64(48)
secret(F, "pem_middle_line_ci_prefix", f"2026-12-04T01:57:12.4810000Z {v}", v)
v = b64(31)
secret(F, "pem_last_line", f"{v}", v)
v = b64(48)
secret(
    F,
    "pem_json_escaped",
    f'"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC{v}\\n-----END PRIVATE KEY-----\\n"',
    v,
)
v = b64(30)
secret(
    F, "ec_inline", f"-----BEGIN EC PRIVATE KEY----- MHcCAQEEI{v} -----END EC PRIVATE KEY-----", v
)
v = b64(52)
secret(F, "openssh_first_body", f"b3BlbnNzaC1rZXktdjEAAAAA{v[:46]}", v[:46])
v = b64(48)
secret(F, "pgp_middle", f"lQdGBF{v[:58]}", v[:58])
v = b64(24)
secret(F, "putty_private_lines", f"Private-Lines: 14 {v}", v)
v = b64(32)
secret(F, "wireguard", f"PrivateKey = {v}", v)
v = b64(48)
secret(F, "encrypted_pem_log_prefix", f"kubelet[812]: E1204 01:57:12 app.go:41] key: {v}", v)

F = "cards"
v = card("4", 16)
secret(F, "visa_plain", f"charge failed card={v} amount=19.99", v)
v = card("4", 16)
secret(F, "visa_spaced", f"Payment method: {grouped(v)} exp 09/29", grouped(v))
v = card("51", 16)
secret(F, "mastercard_dashed", f"pan: {grouped(v, sep='-')}", grouped(v, sep="-"))
v = card("2221", 16)
secret(F, "mastercard_2series_json", f'{{"pan":"{v}","brand":"mc"}}', v)
v = card("37", 15)
amex = f"{v[:4]} {v[4:10]} {v[10:]}"
secret(F, "amex_4_6_5", f"AMEX {amex} declined", amex)
v = card("6011", 16)
secret(F, "discover_dots", f"card_number={grouped(v, sep='.')}", grouped(v, sep="."))
v = card("3528", 16)
secret(F, "jcb_in_sql", f"INSERT INTO payments (pan) VALUES ('{v}')", v)
v = card("36", 14)
secret(F, "diners_14", f"Card {v[:4]} {v[4:10]} {v[10:]}", f"{v[:4]} {v[4:10]} {v[10:]}")
v = card("62", 19)
secret(F, "unionpay_19", f"unionpay pan {v} auth ok", v)
v = card("4", 16)
secret(F, "visa_no_context", f"  {v}", v)

F = "cvv"
v = digits(3)
secret(F, "cvv_kv", f"card_token=tok_x cvv={v} exp=0929", v)
v = digits(4)
secret(F, "cvc_json", f'{{"number":"tok_visa","cvc":"{v}"}}', v)
v = digits(3)
secret(F, "security_code_form", f"POST /pay security_code={v}&zip=10115", v)

F = "iban"
ibans = [
    ("de_spaced", iban("DE", digits(18)), True),
    ("gb_plain", iban("GB", "NWBK" + digits(14)), False),
    ("fr_spaced", iban("FR", digits(10) + rand(UPPER_DIGITS, 11) + digits(2)), True),
    ("nl_plain", iban("NL", "ABNA" + digits(10)), False),
    ("es_spaced", iban("ES", digits(20)), True),
    (
        "it_plain",
        iban("IT", rng.choice(string.ascii_uppercase) + digits(10) + rand(UPPER_DIGITS, 12)),
        False,
    ),
    ("be_spaced", iban("BE", digits(12)), True),
    ("ch_plain", iban("CH", digits(5) + rand(UPPER_DIGITS, 12)), False),
    ("pl_spaced", iban("PL", digits(24)), True),
]
for name, value, spaced in ibans:
    assert iban_ok(value)
    if spaced:
        shown = grouped(value)
        secret(F, name, f"SEPA transfer to IBAN {shown} ref INV-2211", shown[5:])
    else:
        secret(F, name, f'{{"debtor_iban":"{value}","amount":"120.00"}}', value)
value = iban("AT", digits(16))
secret(F, "at_lowercase", f"iban={value.lower()}", value.lower())

F = "national_ids"
v = ssn()
secret(F, "us_ssn", f"applicant ssn={v} verified", v)
v = ssn().replace("-", "")
secret(F, "us_ssn_plain", f'"ssn": "{v}"', v)
v = nino()
secret(
    F,
    "uk_nino_spaced",
    f"NI number: {v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}",
    v[2:4] + " " + v[4:6] + " " + v[6:8],
)
v = nino()
secret(F, "uk_nino", f"hmrc lookup nino={v}", v)
v = bsn()
secret(F, "nl_bsn", f"burgerservicenummer: {v}", v)
v = steuer_id()
secret(F, "de_steuer_id", f"Steuer-ID {v[:2]} {v[2:5]} {v[5:8]} {v[8:]}", v[2:5] + " " + v[5:8])
v = steuer_id()
secret(F, "de_steuer_id_plain", f"steuerid={v}", v)
v = aadhaar()
secret(
    F,
    "in_aadhaar",
    f"eKYC aadhaar {v[:4]} {v[4:8]} {v[8:]} matched",
    v[:4] + " " + v[4:8] + " " + v[8:],
)
v = cpf()
secret(
    F,
    "br_cpf",
    f"cliente CPF {v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}",
    f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}",
)
v = cpf()
secret(F, "br_cpf_plain", f'"cpf":"{v}"', v)
v = nir()
secret(
    F,
    "fr_nir",
    f"numéro de sécurité sociale {v[0]} {v[1:3]} {v[3:5]} {v[5:7]} {v[7:10]} {v[10:13]} {v[13:]}",
    f"{v[7:10]} {v[10:13]} {v[13:]}",
)
v = dni()
secret(F, "es_dni", f"DNI: {v}", v)
v = nie()
secret(F, "es_nie", f"nie={v}", v)
v = codice_fiscale()
secret(F, "it_codice_fiscale", f"codice_fiscale={v}", v)
v = pesel()
secret(F, "pl_pesel", f"PESEL {v}", v)
v = personnummer()
secret(F, "se_personnummer", f"personnummer: {v}", v)
v = sin()
secret(F, "ca_sin", f"SIN {v} on file", v)
v = china_id()
secret(F, "cn_resident_id", f"身份证号: {v}", v)

F = "phones"
v = f"+1 (415) {digits(3)}-{digits(4)}"
secret(F, "us_intl_paren", f"sms sent to {v}", v[3:])
v = f"(312) {digits(3)}-{digits(4)}"
secret(F, "us_national", f"callback number {v}", v)
v = f"+44 20 7{digits(3)} {digits(4)}"
secret(F, "uk_london", f'phone="{v}"', v[4:])
v = f"07{digits(3)} {digits(6)}"
secret(F, "uk_mobile_national", f"Customer mobile: {v}", v)
v = f"+49 30 {digits(8)}"
secret(F, "de_intl", f"Tel.: {v}", v[4:])
v = f"+33 6 {digits(2)} {digits(2)} {digits(2)} {digits(2)}"
secret(F, "fr_mobile", f"téléphone {v}", v[4:])
v = f"0049{digits(3)}{digits(7)}"
secret(F, "de_00_prefix", f"dialing {v}", v)
v = f"+91 9{digits(4)} {digits(5)}"
secret(F, "in_mobile", f"OTP requested for {v}", v[4:])
v = f"+86 13{digits(1)} {digits(4)} {digits(4)}"
secret(F, "cn_mobile", f"手机号 {v}", v[4:])
v = f"+81 90-{digits(4)}-{digits(4)}"
secret(F, "jp_mobile", f"contact: {v}", v[4:])
v = f"+55 11 9{digits(4)}-{digits(4)}"
secret(F, "br_mobile", f"WhatsApp {v}", v[4:])
v = f"+4915{digits(9)}"
secret(F, "e164_json", f'{{"msisdn":"{v}","status":"delivered"}}', v)
v = f"+1-206-{digits(3)}-{digits(4)}"
secret(F, "tel_uri", f"SIP/2.0 INVITE tel:{v};phone-context=example", v[3:])
v = f"+61 4{digits(2)} {digits(3)} {digits(3)}"
secret(F, "au_mobile", f"Twilio: To={v.replace(' ', '')}", v.replace(" ", ""))

F = "emails"
secret(F, "plain", "user signed up: jana.novakova@seznam.cz", "jana.novakova@seznam.cz")
secret(F, "plus_tag", "sent receipt to k.osei+receipts@gmail.com", "k.osei+receipts@gmail.com")
secret(F, "quoted_local", 'RCPT TO:<"ann marie"@example-mail.org>', '"ann marie"@example-mail.org')
secret(F, "uppercase", "Login failed for SVEN.LARSSON@TELIA.SE", "SVEN.LARSSON@TELIA.SE")
secret(
    F,
    "postfix_to",
    "postfix/smtp[2211]: 4F3A21C0: to=<wmartinez@outlook.com>, relay=x[1.2.3.4]:25, status=sent",
    "wmartinez@outlook.com",
)
secret(
    F,
    "url_encoded",
    "GET /unsubscribe?email=priya.raman%40yahoo.co.in HTTP/1.1",
    "priya.raman%40yahoo.co.in",
)
secret(F, "mailto", '<a href="mailto:o.brien@eircom.net">', "o.brien@eircom.net")
secret(F, "git_author", "Author: Tomasz Wójcik <tomasz.wojcik@wp.pl>", "tomasz.wojcik@wp.pl")
secret(
    F,
    "subdomain",
    "dovecot: imap-login: Login: user=<h.mueller@mail.uni-hamburg.de>, method=PLAIN",
    "h.mueller@mail.uni-hamburg.de",
)
secret(F, "apostrophe", "lookup user d'angelo@libero.it", "d'angelo@libero.it")
secret(F, "json_escaped_at", '{"email":"chen.wei\\u0040qq.com"}', "chen.wei\\u0040qq.com")

F = "home_paths"
secret(F, "linux", 'Traceback: File "/home/mkowalski/projects/etl/run.py", line 12', "mkowalski")
secret(
    F,
    "macos",
    "Thread 0 Crashed: /Users/ayumi.tanaka/Library/Developer/Xcode/DerivedData/App",
    "ayumi.tanaka",
)
secret(
    F,
    "windows",
    r"at App.Main() in C:\Users\fgonzalez\source\repos\App\Program.cs:line 42",
    "fgonzalez",
)
secret(F, "windows_forward", "npm ERR! path C:/Users/olumide/AppData/Roaming/npm", "olumide")
secret(F, "windows_json_escaped", '{"cwd":"C:\\\\Users\\\\ivanova\\\\Desktop"}', "ivanova")
secret(F, "wsl", "bash: /mnt/c/Users/thibault/Downloads/x.sh: Permission denied", "thibault")
secret(F, "unc", r"copying \\fileserver01\home$\rpatel\Documents\q4.xlsx", "rpatel")
secret(F, "tilde_user", "cd ~bjornsen/work && make", "bjornsen")
secret(F, "solaris_export", "/export/home/dlindqvist/.profile: line 3: syntax error", "dlindqvist")
secret(F, "windows_lowercase_drive", r"loading c:\users\nkhumalo\.aws\credentials", "nkhumalo")

F = "ip_addresses"
v = pub_ip()
secret(F, "v4_access_log", f'{v} - - [04/Dec/2026:01:57:12 +0000] "GET / HTTP/1.1" 200 612', v)
v = pub_ip()
secret(F, "v4_port", f"sshd[2211]: Failed password for root from {v} port 52211 ssh2", v)
v = pub_ip()
secret(F, "v4_colon_port", f"upstream connect error to {v}:8443", v)
v = "2a02:810d:" + ":".join(rand(HEX, 4) for _ in range(6))
secret(F, "v6_full", f"client={v} method=GET", v)
v = "2001:4860:" + rand(HEX, 4) + "::" + rand(HEX, 3)
secret(F, "v6_compressed", f"Accepted publickey for deploy from {v} port 40022", v)
v = "fe80::" + rand(HEX, 4) + ":" + rand(HEX, 4) + ":" + rand(HEX, 4) + ":" + rand(HEX, 4)
secret(F, "v6_zone", f"dhcp6: received reply from {v}%eth0", v)
v = "2a01:4f8:" + rand(HEX, 3) + ":" + rand(HEX, 4) + "::2"
secret(F, "v6_bracket_port", f"GET http://[{v}]:8080/health 200", v)
v = pub_ip()
secret(F, "v4_mapped_v6", f"remote_addr=::ffff:{v}", v)
ip = pub_ip()
v = "0x" + "".join(f"{int(o):02X}" for o in ip.split("."))
secret(F, "hex", f'"GET /fetch?url=http://{v}/admin HTTP/1.1" 403', v)
ip = pub_ip()
o = [int(x) for x in ip.split(".")]
v = str((o[0] << 24) + (o[1] << 16) + (o[2] << 8) + o[3])
secret(F, "decimal", f"$ curl http://{v}/", v)
ip = pub_ip()
v = ".".join(f"{int(x):03d}" for x in ip.split("."))
secret(F, "zero_padded", f"firewall: DROP SRC={v} DST=010.000.000.005 PROTO=TCP", v)
v, w = pub_ip(), pub_ip()
secret(F, "x_forwarded_for", f"X-Forwarded-For: {v}, {w}, 10.0.0.2", v, w)
v = pub_ip()
secret(F, "json_field", f'{{"remoteIp":"{v}","status":200}}', v)
v = pub_ip()
secret(F, "cidr", f"allowlist add {v}/32", v)
v = (
    "2600:1f18:"
    + rand(HEX, 4)
    + ":"
    + rand(HEX, 4)
    + ":"
    + rand(HEX, 4)
    + ":"
    + rand(HEX, 4)
    + ":"
    + rand(HEX, 4)
    + ":"
    + rand(HEX, 4)
)
secret(F, "v6_uppercase", f"SRC={v.upper()} DPT=443", v.upper())

F = "mac_addresses"
v = mac()
secret(F, "colon", f"dhcpd: DHCPACK on 10.0.0.57 to {v} (android-phone) via eth0", v)
v = mac("-", True)
secret(F, "dash_upper", f"Physical Address. . . . . . . . . : {v}", v)
raw = mac("")
v = f"{raw[:4]}.{raw[4:8]}.{raw[8:]}"
secret(F, "cisco_dotted", f"%SW_MATM-4-MACFLAP_NOTIF: Host {v} in vlan 10 is flapping", v)
v = mac("").upper()
secret(F, "bare", f"wlan: assoc sta={v} rssi=-61", v)
v = mac(":", True)
secret(F, "colon_upper", f"kernel: IN=wlan0 OUT= MAC=ff:ff:ff:ff:ff:ff:{v}:08:00", v)

F = "dob"
secret(F, "json_iso", '{"name":"K","dob":"1987-04-23"}', "1987-04-23")
secret(F, "kv_dmy", "date_of_birth=23/04/1987", "23/04/1987")
secret(F, "us_mdy", "DOB: 04/23/1987 age 39", "04/23/1987")
secret(F, "german", "Geburtsdatum: 23.04.1987", "23.04.1987")
secret(F, "long_form", 'birthdate: "April 23, 1987"', "April 23, 1987")
secret(F, "birthday_compact", "patient birth_date=19870423 mrn=x", "19870423")

F = "passports"
v = rand(string.ascii_uppercase, 1) + digits(8)
secret(F, "kv", f"passport_number={v} nationality=IN", v)
v = digits(9)
secret(F, "us_json", f'{{"passportNo":"{v}","country":"USA"}}', v)
num = "C" + rand("CFGHJKLMNPRTVWXYZ0123456789", 8)
line2 = (
    num
    + mrz_check(num)
    + "D<<"
    + "870423"
    + mrz_check("870423")
    + "F"
    + "301123"
    + mrz_check("301123")
)
line2 = line2 + "<" * (43 - len(line2))
line2 = line2 + mrz_check(line2[:10] + line2[13:20] + line2[21:43])
secret(F, "mrz_line2", line2, num)
secret(F, "mrz_line1", "P<D<<MUSTERFRAU<<ERIKA<MARIA<<<<<<<<<<<<<<<<<", "MUSTERFRAU", "ERIKA<MARIA")

F = "gps"
v, w = f"{rng.uniform(48, 54):.6f}", f"{rng.uniform(6, 14):.6f}"
secret(F, "iot_json", f'{{"device":"tracker-7","lat":{v},"lon":{w},"battery":81}}', v, w)
v = f"{rng.uniform(35, 41):.5f},{rng.uniform(-9, -1):.5f}"
secret(F, "latlon_pair", f"location update user=88231 pos={v} acc=12m", v)
v = f"geo:{rng.uniform(40, 45):.6f},{rng.uniform(-75, -70):.6f}"
secret(F, "geo_uri", f"intent: {v}?z=17", v[4:])
v1, v2 = f"5230.{digits(4)}", f"01324.{digits(4)}"
secret(F, "nmea_gprmc", f"$GPRMC,015712.00,A,{v1},N,{v2},E,0.02,,041226,,,A*6C", v1, v2)

F = "license_plates"
secret(F, "anpr_uk", "anpr cam=gate-2 plate=LB19 XKT conf=0.97 dir=in", "LB19 XKT")
secret(F, "parking_de", 'parking: entry kennzeichen="M-KX 4821" lane=3', "M-KX 4821")

F = "device_ids"
v = imei()
secret(F, "imei", f"E/TelephonyManager: deviceId imei={v}", v)
v = uuid4().upper()
secret(F, "idfa", f"adjust: idfa={v} tracking=1", v)
v = "262" + "01" + digits(10)
secret(F, "imsi", f"MME: Attach request IMSI={v}", v)
v = "8949" + digits(15)
secret(F, "iccid", f"modem: +CCID: {v}", v)

F = "otp_secrets"
v = rand("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)
secret(F, "otpauth_uri", f"enroll: otpauth://totp/Corp:ops?secret={v}&issuer=Corp", v)
v = digits(6)
secret(F, "sms_code", f"sms body: Your verification code is {v}", v)
v = f"{rand(string.ascii_lowercase + string.digits, 5)}-{rand(string.ascii_lowercase + string.digits, 5)}"
secret(F, "recovery_code", f"2fa recovery_code={v} consumed", v)


# --- must-keep lines -----------------------------------------------------------------------------

K = "keep_counts"
keep(K, "records", "processed 4096 records in batch 17", "4096", "17")
keep(K, "retry", "retry 3/5 after backoff", "3/5")
keep(K, "rows_affected", "UPDATE 1532 rows affected", "1532")
keep(K, "queue_depth", "queue depth=48213 consumers=12", "48213", "consumers=12")
keep(
    K,
    "k8s_nodes",
    "0/3 nodes are available: 3 Insufficient memory.",
    "0/3",
    "3 Insufficient memory",
)
keep(
    K, "kafka_offset", "Committed offset 918273645 for partition orders-7", "918273645", "orders-7"
)

K = "keep_durations"
keep(K, "ms", "request completed in 1532ms", "1532ms")
keep(K, "hms", "elapsed=00:01:23.456", "00:01:23.456")
keep(K, "go_duration", "lease renewed, ttl 2h13m7s", "2h13m7s")
keep(K, "timeout", "context deadline exceeded (timeout=30s)", "timeout=30s")
keep(
    K,
    "pg_duration",
    "LOG:  duration: 12.345 ms  statement: SELECT id FROM orders WHERE id = $1",
    "12.345 ms",
    "SELECT id FROM orders WHERE id = $1",
)
keep(
    K,
    "mysql_slow",
    "# Query_time: 2.000123  Lock_time: 0.000101 Rows_sent: 1  Rows_examined: 48213",
    "2.000123",
    "0.000101",
    "48213",
)
keep(K, "p99", "latency p50=12ms p99=245ms max=1.2s", "p99=245ms", "max=1.2s")

K = "keep_sizes"
keep(K, "bytes", "Content-Length: 20971520", "20971520")
keep(K, "mib", "Compacted 4 sstables to 12.345MiB", "12.345MiB")
keep(K, "heap", "JVM -Xmx2048m -Xms512m", "-Xmx2048m", "-Xms512m")
keep(K, "disk", "/dev/nvme0n1p2  468G  407G   38G  92% /", "468G", "407G", "92%")
keep(K, "docker_pull", "sha256 layer: 31.4MB / 31.4MB Pull complete", "31.4MB")

K = "keep_versions"
keep(K, "semver", "starting api v2.14.3", "v2.14.3")
keep(K, "semver_pre_build", "version 1.2.3-rc.1+build.45", "1.2.3-rc.1+build.45")
keep(K, "python", "Python 3.11.9 (main, Apr  2 2024) [GCC 12.2.0] on linux", "3.11.9", "12.2.0")
keep(K, "openssl", "OpenSSL 3.0.13 30 Jan 2024 (Library: OpenSSL 3.0.13 30 Jan 2024)", "3.0.13")
keep(K, "kernel", "Linux version 6.8.0-45-generic (buildd@lcy02-amd64-075)", "6.8.0-45-generic")
keep(
    K,
    "user_agent",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0.6478.127 Safari/537.36",
    "Chrome/126.0.6478.127",
    "Windows NT 10.0",
)
keep(
    K,
    "dotnet_assembly_version",
    "Could not load file or assembly 'System.Runtime, Version=4.2.2.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a'",
    "Version=4.2.2.0",
    "PublicKeyToken=b03f5f7f11d50a3a",
)
keep(K, "windows_build", "OS Version: 10.0.19045 N/A Build 19045", "10.0.19045")
keep(K, "npm_package", "+ lodash@4.17.21 added 1 package", "lodash@4.17.21")
keep(
    K,
    "image_tag",
    'Successfully pulled image "registry.k8s.io/pause:3.9" in 1.204s',
    "registry.k8s.io/pause:3.9",
    "1.204s",
)
keep(
    K,
    "maven_coord",
    "Downloaded from central: org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar (658 kB at 2.1 MB/s)",
    "commons-lang3-3.14.0.jar",
    "658 kB",
)
keep(
    K,
    "android_build",
    "Build fingerprint: 'google/oriole/oriole:14/AP2A.240805.005/12025142:user/release-keys'",
    "AP2A.240805.005",
    "12025142",
)
keep(
    K,
    "snmp_oid",
    "SNMPv2-SMI::enterprises.311.1.1.3.1.2 = STRING: ok (OID 1.3.6.1.4.1.311.1.1.3.1.2)",
    "1.3.6.1.4.1.311.1.1.3.1.2",
)

K = "keep_build"
keep(K, "jenkins", "Started by timer; Build #18342 (Dec 4, 2026)", "#18342")
keep(K, "build_number_env", "BUILD_NUMBER=20261204.7", "20261204.7")
keep(
    K,
    "gha_run",
    "Run ID 7123456789, attempt 2, job build (ubuntu-22.04)",
    "7123456789",
    "ubuntu-22.04",
)
keep(
    K,
    "gradle",
    "BUILD SUCCESSFUL in 1m 32s; 47 actionable tasks: 12 executed, 35 up-to-date",
    "1m 32s",
    "47 actionable tasks",
)

K = "keep_error_codes"
keep(K, "oracle", "ORA-12541: TNS:no listener", "ORA-12541")
keep(
    K,
    "errno",
    "connect() failed (111: Connection refused) errno=111 ECONNREFUSED",
    "errno=111",
    "ECONNREFUSED",
)
keep(
    K,
    "sqlstate",
    'ERROR:  duplicate key value violates unique constraint "users_pkey" SQLSTATE 23505',
    "SQLSTATE 23505",
    "users_pkey",
)
keep(
    K,
    "hresult",
    "Access is denied. (Exception from HRESULT: 0x80070005 (E_ACCESSDENIED))",
    "0x80070005",
)
keep(K, "exit_code", "Container app terminated: exit code 137 (OOMKilled)", "exit code 137")
keep(
    K,
    "mongo",
    "E11000 duplicate key error collection: shop.users index: email_1",
    "E11000",
    "email_1",
)
keep(
    K,
    "windows_event",
    "EventID 4625 An account failed to log on. Status: 0xC000006D Sub Status: 0xC000006A",
    "4625",
    "0xC000006D",
    "0xC000006A",
)
keep(
    K, "cve", "vulnerability CVE-2024-3094 in xz-utils 5.6.1 (CVSS 10.0)", "CVE-2024-3094", "5.6.1"
)
keep(K, "ticket", "linked INC0012345 and PROJ-4821", "INC0012345", "PROJ-4821")
keep(
    K,
    "grpc_status",
    "rpc error: code = Unavailable desc = connection error (status 14)",
    "code = Unavailable",
    "status 14",
)

K = "keep_http"
keep(K, "status_line", "< HTTP/1.1 503 Service Unavailable", "503")
keep(
    K,
    "access_log_path",
    '"GET /api/v1/users/4821/orders?page=2&per_page=50 HTTP/1.1" 200 1532 "-"',
    "/api/v1/users/4821/orders?page=2&per_page=50",
    "200 1532",
)
keep(K, "cache_control", "Cache-Control: public, max-age=31536000, immutable", "max-age=31536000")
keep(
    K,
    "set_cookie_theme",
    "Set-Cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax",
    "theme=dark",
    "Max-Age=31536000",
)
keep(K, "cookie_lang", "Cookie: lang=en-US; tz=Europe%2FBerlin", "lang=en-US", "tz=Europe%2FBerlin")
keep(
    K,
    "www_authenticate",
    'WWW-Authenticate: Bearer realm="api", error="invalid_token", error_description="expired"',
    'realm="api"',
    'error="invalid_token"',
)
keep(
    K,
    "ratelimit",
    "x-ratelimit-limit: 5000 x-ratelimit-remaining: 4999 x-ratelimit-reset: 1796349432",
    "4999",
    "1796349432",
)
keep(
    K,
    "multipart_boundary",
    "Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
    "----WebKitFormBoundary7MA4YWxkTrZu0gW",
)
keep(
    K,
    "websocket_accept",
    "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
    "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
)
keep(K, "vary_accept", "Vary: Accept-Encoding, Authorization", "Accept-Encoding, Authorization")
keep(
    K,
    "token_type_param",
    "token endpoint response: token_type=Bearer expires_in=3600 scope=read",
    "token_type=Bearer",
    "expires_in=3600",
    "scope=read",
)
keep(
    K,
    "response_type",
    "GET /authorize?response_type=code&client_id=web-app&scope=openid HTTP/1.1",
    "response_type=code",
    "client_id=web-app",
)

K = "keep_trace_ids"
keep(
    K,
    "traceparent",
    "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "4bf92f3577b34da6a3ce929d0e0e4736",
    "00f067aa0ba902b7",
)
v = uuid4()
keep(K, "x_request_id", f"X-Request-Id: {v}", v)
v = uuid4()
keep(
    K,
    "aws_request_id",
    f"REPORT RequestId: {v}\tDuration: 12.34 ms\tBilled Duration: 13 ms\tMemory Size: 128 MB",
    v,
    "Billed Duration: 13 ms",
)
v = rand(HEX, 32)
keep(K, "otel_json", f'{{"trace_id":"{v}","span_id":"{rand(HEX, 16)}","severity":"INFO"}}', v)
keep(
    K,
    "amzn_trace",
    "X-Amzn-Trace-Id: Root=1-67891233-abcdef012345678912345678",
    "Root=1-67891233-abcdef012345678912345678",
)
keep(K, "cf_ray", "cf-ray: 8a1b2c3d4e5f6789-FRA", "8a1b2c3d4e5f6789-FRA")
keep(
    K,
    "gcp_trace",
    "X-Cloud-Trace-Context: 105445aa7843bc8bf206b12000100000/1;o=1",
    "105445aa7843bc8bf206b12000100000/1",
)
v = uuid4()
keep(K, "github_delivery", f"X-GitHub-Delivery: {v}", v)
v = rand(HEX, 32)
keep(K, "sentry_event", f"Sentry event {v} sent", v)
v = uuid4()
keep(K, "k8s_uid", f"  uid: {v}", v)
v = uuid4()
keep(K, "correlation_id_kv", f"level=info correlation_id={v} msg=done", v)
keep(
    K,
    "b3",
    "X-B3-TraceId: 463ac35c9f6413ad48485a3953bb6124 X-B3-SpanId: a2fb4a1d1a96d312",
    "463ac35c9f6413ad48485a3953bb6124",
    "a2fb4a1d1a96d312",
)
v = rand(UPPER_DIGITS, 26)
keep(K, "ulid", f"job {v} queued", v)
a, b = not_luhn(19), not_luhn(18)
keep(K, "snowflake", f"message_id={a} channel_id={b}", a, b)

K = "keep_hashes"
v = rand(HEX, 40)
keep(K, "git_commit", f"commit {v}", v)
v = rand(HEX, 7)
keep(K, "git_short", f"HEAD is now at {v} Merge pull request #4821 from org/feature-x", v, "#4821")
v = rand(HEX, 64)
keep(K, "docker_digest", f"Digest: sha256:{v}", v)
v = rand(HEX, 64)
keep(K, "image_at_digest", f"Pulling nginx@sha256:{v}", f"nginx@sha256:{v}")
v = rand(HEX, 40)
keep(K, "etag", f'ETag: "{v}"', v)
v = b64(64)
keep(K, "npm_integrity", f'"integrity": "sha512-{v}",', v)
keep(
    K,
    "empty_sha256",
    "sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 file=empty.txt",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
)
v = b64(32).rstrip("=")
keep(K, "ssh_host_fingerprint", f"ECDSA key fingerprint is SHA256:{v}.", v)
v = ":".join(rand("0123456789ABCDEF", 2) for _ in range(20))
keep(K, "cert_sha1_fingerprint", f"SHA1 Fingerprint={v}", v)
v = rand(HEX, 64)
keep(K, "container_id", f'StartContainer for \\"{v}\\" returns successfully', v)
v = rand(HEX, 32)
keep(K, "md5_file", f"{v}  release-2.14.3.tar.gz", v)
keep(
    K,
    "go_sum",
    "golang.org/x/net v0.24.0 h1:1PcaxkF854Fu3+lvBIx5SYn9wRlBzzcnHZSiaFFAb0w=",
    "h1:1PcaxkF854Fu3+lvBIx5SYn9wRlBzzcnHZSiaFFAb0w=",
)
v = rand(HEX, 40)
keep(K, "pip_hash", f"Collecting requests==2.32.3 --hash=sha1:{v}", v, "requests==2.32.3")

K = "keep_timestamps"
keep(K, "iso8601", "2026-12-04T01:57:12.481Z INFO started", "2026-12-04T01:57:12.481Z")
keep(K, "iso_offset", "at 2026-12-04T02:57:12+01:00", "2026-12-04T02:57:12+01:00")
keep(K, "rfc2822", "Date: Fri, 04 Dec 2026 01:57:12 GMT", "Fri, 04 Dec 2026 01:57:12 GMT")
keep(K, "epoch_s", '{"ts":1796349432,"event":"tick"}', "1796349432")
keep(K, "epoch_ms", "timestamp=1796349432481", "1796349432481")
keep(K, "epoch_ns", "time_unix_nano=1796349432481000000", "1796349432481000000")
keep(
    K,
    "syslog",
    "Dec  4 01:57:12 host cron[2211]: (root) CMD (run-parts /etc/cron.hourly)",
    "Dec  4 01:57:12",
)
keep(
    K,
    "apache",
    '[04/Dec/2026:01:57:12 +0000] "GET /healthz HTTP/1.1" 200',
    "04/Dec/2026:01:57:12 +0000",
)
keep(
    K,
    "windows_us",
    "12/4/2026 1:57:12 AM  Information  Service Control Manager",
    "12/4/2026 1:57:12 AM",
)
keep(
    K,
    "java_comma_ms",
    "2026-12-04 01:57:12,481 INFO  [main] o.a.k.Kafka - started",
    "2026-12-04 01:57:12,481",
)
keep(K, "date_only_expiry", "certificate expires 2027-01-31 (58 days)", "2027-01-31")
keep(
    K,
    "klog",
    "I1204 01:57:12.481234    1 leaderelection.go:258] successfully acquired lease",
    "I1204 01:57:12.481234",
)
keep(K, "dotted_date", "Backup vom 04.12.2026 erfolgreich", "04.12.2026")
keep(K, "compact_date", "partition dt=20261204 loaded", "dt=20261204")
keep(
    K,
    "logcat",
    "12-04 01:57:12.481  4211  4290 I ActivityManager: Start proc",
    "12-04 01:57:12.481",
)

K = "keep_ports_pids"
keep(K, "listen_port", "Listening on port 8080", "8080")
keep(K, "localhost", "Server running at http://localhost:3000/", "localhost:3000")
keep(K, "loopback", "redis: connected to 127.0.0.1:6379", "127.0.0.1:6379")
keep(
    K, "bind_any", "nginx: bind() to 0.0.0.0:443 failed (98: Address already in use)", "0.0.0.0:443"
)
keep(K, "pid", "worker pid=48213 exited with status 0", "pid=48213")
keep(K, "pid_brackets", "sshd[22114]: Server listening on :: port 22.", "[22114]", "port 22")
keep(
    K,
    "ps_row",
    "postgres  1123  0.3  1.2 215400 98304 ?  Ss   01:57   0:03 postgres: checkpointer",
    "1123",
    "215400",
    "98304",
)

K = "keep_percent"
keep(K, "cpu", "cpu=93.5% mem=71%", "93.5%", "71%")
keep(K, "progress", "Downloading 45% |████      | 4.5 kB/10 kB", "45%")
keep(K, "coverage", "TOTAL 4821 312 94%", "4821", "94%")
keep(
    K,
    "pg_checkpoint",
    "LOG:  checkpoint complete: wrote 1234 buffers (7.5%); 0 WAL file(s) added",
    "1234 buffers (7.5%)",
)

K = "keep_secret_named_config"
keep(K, "token_ttl", "token_ttl_seconds=3600", "token_ttl_seconds=3600")
keep(K, "max_tokens", '{"model":"m","max_tokens":4096,"temperature":0.2}', '"max_tokens":4096')
keep(K, "password_min_length", "password_min_length=12", "password_min_length=12")
keep(K, "password_expiry_days", '"password_expiry_days": 90,', '"password_expiry_days": 90')
keep(K, "secret_rotation", "secret_rotation_interval=24h", "secret_rotation_interval=24h")
keep(K, "api_key_header_name", "api_key_header=X-API-Key", "api_key_header=X-API-Key")
keep(K, "auth_method", 'auth_method: "oauth2"', '"oauth2"')
keep(K, "grant_type", "grant_type=client_credentials", "grant_type=client_credentials")
keep(K, "k8s_secret_ref", "          secretName: db-credentials", "db-credentials")
keep(
    K,
    "secret_key_ref",
    "        secretKeyRef: {name: api-keys, key: stripe}",
    "api-keys",
    "key: stripe",
)
keep(K, "vault_path", "vault kv get -field=url secret/data/app/prod", "secret/data/app/prod")
keep(
    K,
    "password_hashers",
    "PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
)
keep(
    K,
    "argon_params",
    "password hash: argon2id m=65536 t=3 p=4",
    "argon2id",
    "m=65536",
    "t=3",
    "p=4",
)
keep(K, "bcrypt_cost", "bcrypt cost=12 rounds", "cost=12")
keep(
    K,
    "password_policy",
    "password_policy=strong require_symbols=true",
    "password_policy=strong",
    "require_symbols=true",
)
keep(K, "token_limit", "tokens_used=1532 token_limit=8192", "tokens_used=1532", "token_limit=8192")
keep(K, "session_timeout", "session_timeout_minutes=30", "session_timeout_minutes=30")
keep(K, "key_size", "generated RSA key_size=4096 in 1.2s", "key_size=4096")
keep(K, "credential_count", "loaded 3 credentials from keyring", "3 credentials")
keep(
    K, "tls_path", "ssl_certificate_key /etc/ssl/private/server.key;", "/etc/ssl/private/server.key"
)
keep(
    K, "password_file_path", "PGPASSFILE=/var/lib/postgresql/.pgpass", "/var/lib/postgresql/.pgpass"
)
keep(
    K,
    "secret_arn_ref",
    "secretsmanager: GetSecretValue SecretId=prod/db/main VersionStage=AWSCURRENT",
    "prod/db/main",
    "AWSCURRENT",
)
keep(K, "jwt_alg", "jwt: expected alg RS256, got HS256", "RS256", "HS256")
keep(
    K,
    "token_bucket",
    "rate limiter token_bucket capacity=100 refill=10/s",
    "capacity=100",
    "refill=10/s",
)
keep(K, "env_ref", "password: ${DB_PASSWORD}", "${DB_PASSWORD}")
keep(K, "secret_none", "api_key=None (not configured)", "None (not configured)")
keep(K, "private_key_bool", "use_private_key=false", "use_private_key=false")
keep(K, "jwk_kid", '{"kid":"2024-06-key-1","alg":"RS256","use":"sig"}', "2024-06-key-1")

K = "keep_auth_messages"
keep(K, "login_ok", "auth: login ok", "auth: login ok")
keep(K, "reset_sent", "password reset email sent", "password reset email sent")
keep(
    K,
    "invalid_password",
    "Invalid password for user id 4821 (attempt 2 of 5)",
    "4821",
    "attempt 2 of 5",
)
keep(K, "token_expired", "token expired at 2026-12-04T01:00:00Z", "2026-12-04T01:00:00Z")
keep(K, "secret_updated", "Secret default/tls-cert updated", "default/tls-cert")
keep(K, "bearer_missing", "401 Unauthorized: Bearer token missing", "Bearer token missing")
keep(
    K,
    "header_missing",
    "Authorization header missing or malformed",
    "Authorization header missing or malformed",
)
keep(K, "jwt_invalid", "jwt: signature is invalid", "signature is invalid")
keep(
    K,
    "pg_auth_failed",
    'FATAL:  password authentication failed for user "app"',
    "password authentication failed",
)
keep(K, "k8s_secret_not_found", 'Error: secret "db-pass" not found', '"db-pass" not found')
keep(
    K,
    "ssh_publickey",
    "Accepted publickey for deploy: ED25519 SHA256:ofTs3zJEq2pn5vg4xAq9s1p0qOxYb6FyGfmVq8b5kR4",
    "ED25519",
)
keep(K, "mfa_enabled", "MFA enabled for 12 of 14 users", "12 of 14")
keep(K, "otp_length", "otp_digits=6 otp_period=30", "otp_digits=6", "otp_period=30")
keep(K, "key_rotated", "KMS key rotation completed for alias/app-data", "alias/app-data")

K = "keep_object_ids"
v = rand(ALNUM, 24)
keep(K, "stripe_charge", f"charge.succeeded ch_3{v}", f"ch_3{v}")
v = rand(ALNUM, 14)
keep(K, "stripe_customer", f"customer=cus_{v}", f"cus_{v}")
v = rand(ALNUM, 24)
keep(K, "stripe_event", f"webhook evt_1{v} received", f"evt_1{v}")
keep(
    K,
    "slack_channel",
    "posted to channel C024BE91L ts=1796349432.000200",
    "C024BE91L",
    "1796349432.000200",
)
keep(
    K,
    "k8s_pod",
    "Back-off restarting failed container api in pod web-7d4b9c8f6d-x2k9p",
    "web-7d4b9c8f6d-x2k9p",
)
keep(K, "aws_instance", "i-0a1b2c3d4e5f67890 state changed to running", "i-0a1b2c3d4e5f67890")
keep(
    K,
    "aws_vpc_sg",
    "vpc-0c5e7f9a1b3d2e4f6 sg-0123456789abcdef0",
    "vpc-0c5e7f9a1b3d2e4f6",
    "sg-0123456789abcdef0",
)
v = not_luhn(16)
keep(K, "order_id_16", f"order_id={v} status=shipped", v)
v = not_luhn(12)
keep(K, "invoice_12", f"invoice {v} paid", v)
keep(
    K,
    "s3_key",
    "s3://logs-prod/2026/12/04/part-00000-7c1f.parquet uploaded",
    "s3://logs-prod/2026/12/04/part-00000-7c1f.parquet",
)
keep(K, "tracking", "shipment 1Z999AA10123456784 in transit", "1Z999AA10123456784")
keep(K, "gha_sha_ref", "refs/pull/4821/merge", "refs/pull/4821/merge")
keep(K, "db_row_id", "DELETE FROM sessions WHERE id = 9182736450 -- 1 row", "9182736450")

K = "keep_paths"
keep(K, "var_log", "open /var/log/nginx/access.log: permission denied", "/var/log/nginx/access.log")
keep(
    K,
    "site_packages",
    'File "/usr/lib/python3.11/site-packages/urllib3/connectionpool.py", line 793',
    "/usr/lib/python3.11/site-packages/urllib3/connectionpool.py",
)
keep(
    K,
    "program_files",
    r"C:\Program Files\Contoso\App\app.exe exited",
    r"C:\Program Files\Contoso\App\app.exe",
)
keep(
    K,
    "system32",
    r"C:\Windows\System32\drivers\etc\hosts",
    r"C:\Windows\System32\drivers\etc\hosts",
)
keep(K, "opt_config", "loaded /opt/app/config/settings.yaml", "/opt/app/config/settings.yaml")
keep(
    K,
    "ios_container",
    "/var/mobile/Containers/Data/Application/Documents/cache.db",
    "/var/mobile/Containers/Data/Application/Documents/cache.db",
)
keep(
    K,
    "java_frame",
    "\tat com.example.auth.TokenService.refresh(TokenService.java:118)",
    "com.example.auth.TokenService.refresh(TokenService.java:118)",
)
keep(
    K,
    "go_frame",
    "\t/go/src/app/internal/auth/password.go:57 +0x1a4",
    "/go/src/app/internal/auth/password.go:57",
)

K = "keep_numbers"
keep(K, "money", "amount=1499.99 EUR fee=2.50", "1499.99", "2.50")
keep(K, "coords_grid_not_gps", "tile z=12 x=2200 y=1343", "x=2200", "y=1343")
keep(K, "ratio", "hit ratio 0.9812 (48213/49136)", "0.9812", "48213/49136")
keep(
    K,
    "float_metric",
    "gc pause 0.004512s heap_before=1048576 heap_after=524288",
    "1048576",
    "524288",
)
keep(
    K,
    "sizes_list",
    "buckets=[0.005,0.01,0.025,0.05,0.1,0.25,0.5,1,2.5,5,10]",
    "[0.005,0.01,0.025,0.05,0.1,0.25,0.5,1,2.5,5,10]",
)
keep(K, "http_bytes", '"POST /upload HTTP/1.1" 201 4155552671', "4155552671")
keep(
    K,
    "version_date",
    "schema migration 20261204015712_add_index applied",
    "20261204015712_add_index",
)
keep(
    K,
    "mac_like_time",
    "uptime 12:34:56 load average: 0.70, 0.87, 0.91",
    "12:34:56",
    "0.70, 0.87, 0.91",
)
keep(K, "temperature", "sensor t=21.5C rh=43% pressure=1013.2hPa", "t=21.5C", "1013.2hPa")
keep(
    K,
    "hex_addr",
    "segfault at 7f3a2b1c4d5e ip 00007f3a2b1c4d5e sp 00007ffd1e2f3a40 error 4",
    "00007f3a2b1c4d5e",
    "error 4",
)
keep(K, "java_hashcode", "java.lang.Object@1b6d3586", "java.lang.Object@1b6d3586")
keep(K, "region_zone", "region=eu-west-1 az=eu-west-1b", "eu-west-1", "eu-west-1b")


def main() -> None:
    formats = [str(row["format"]) for row in rows]
    assert len(formats) == len(set(formats)), "duplicate format names"
    with OUT.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    kinds = [row["kind"] for row in rows]
    print(f"wrote {len(rows)} rows ({kinds.count('secret')} secret, {kinds.count('keep')} keep)")


if __name__ == "__main__":
    main()
