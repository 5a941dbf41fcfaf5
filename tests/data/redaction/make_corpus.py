"""Writes the redaction corpus: ``corpus.jsonl`` (lines holding sensitive values, each with
the values and the placeholder expected) and ``must_not_redact.jsonl`` (lines whose listed
values must come out unchanged).

Every secret is a random string of the right shape, drawn from a seeded generator: nothing
here is, or was copied from, a real credential. Run ``python tests/data/redaction/make_corpus.py``
to rewrite the two files (the output is the same on every run).
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
rng = random.Random(20240601)

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
ALNUM = UPPER + LOWER + DIGITS
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
HEX = "0123456789abcdef"
BASE32 = UPPER + "234567"
POD_HASH = "bcdfghjklmnpqrstvwxz2456789"


def pick(alphabet: str, length: int) -> str:
    """A random string from an alphabet, with at least one digit, one upper and one lower
    case letter when the alphabet has them (so every drawn secret really looks random)."""
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(length))
        needs = [set(DIGITS), set(UPPER), set(LOWER)]
        if all(not (need & set(alphabet)) or need & set(value) for need in needs):
            return value


def b64(raw_bytes: int) -> str:
    return base64.b64encode(bytes(rng.randrange(256) for _ in range(raw_bytes))).decode()


def b64url(raw_bytes: int) -> str:
    encoded = base64.urlsafe_b64encode(bytes(rng.randrange(256) for _ in range(raw_bytes)))
    return encoded.decode().rstrip("=")


def password() -> str:
    return pick(ALNUM, 10) + rng.choice("!#%^*") + pick(ALNUM, 5)


def jwt() -> str:
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    subject = pick(LOWER + DIGITS, 12)
    body = json.dumps({"sub": subject, "iat": rng.randrange(1_600_000_000, 1_800_000_000)})
    payload = base64.urlsafe_b64encode(body.encode()).decode().rstrip("=")
    return f"{header}.{payload}.{b64url(32)}"


def pem_body(lines: int) -> list[str]:
    return [b64(48) for _ in range(lines)]


def pem(kind: str, escaped: bool) -> tuple[str, list[str]]:
    body = pem_body(4)
    label = f"{kind} PRIVATE KEY" if kind else "PRIVATE KEY"
    newline = "\\n" if escaped else "\n"
    block = newline.join([f"-----BEGIN {label}-----", *body, f"-----END {label}-----"])
    return block, body


def luhn_complete(prefix: str, length: int) -> str:
    digits = prefix + "".join(rng.choice(DIGITS) for _ in range(length - len(prefix) - 1))
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 0:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return digits + str((10 - total % 10) % 10)


def ipv4() -> str:
    return ".".join(str(rng.randrange(1, 255)) for _ in range(4))


def ipv6_full() -> str:
    return ":".join(format(rng.randrange(1, 0xFFFF), "x") for _ in range(8))


def ipv6_short() -> str:
    return (
        "2001:db8:"
        + format(rng.randrange(1, 0xFFFF), "x")
        + "::"
        + format(rng.randrange(1, 0xFFFF), "x")
    )


Case = tuple[str, list[str], str]
"""A line, the sensitive values in it, and the placeholder expected."""
CASES: list[tuple[str, str, Callable[[], Case]]] = []


def case(name: str, category: str) -> Callable[[Callable[[], Case]], Callable[[], Case]]:
    def register(build: Callable[[], Case]) -> Callable[[], Case]:
        CASES.append((name, category, build))
        return build

    return register


S = "<SECRET>"

# --- cloud providers -------------------------------------------------------------------


@case("aws_access_key_id", "cloud")
def _aws_access_key_id() -> Case:
    key = "AKIA" + pick(BASE32, 16)
    return f"boto3 client created with access key {key} for region eu-west-1", [key], S


@case("aws_temporary_access_key_id", "cloud")
def _aws_temporary() -> Case:
    key = "ASIA" + pick(BASE32, 16)
    return f'{{"event":"assume_role","AccessKeyId":"{key}","ttl":3600}}', [key], S


@case("aws_secret_access_key_env", "cloud")
def _aws_secret() -> Case:
    secret = pick(B64, 40)
    return f"export AWS_SECRET_ACCESS_KEY={secret}", [secret], S


@case("aws_secret_access_key_ini", "cloud")
def _aws_secret_ini() -> Case:
    secret = pick(B64, 40)
    return f"loaded profile: aws_secret_access_key = {secret}", [secret], S


@case("aws_session_token_header", "cloud")
def _aws_session_token() -> Case:
    token = "IQoJb3JpZ2luX2Vj" + b64(180)
    return f"request headers: X-Amz-Security-Token: {token}", [token], S


@case("aws_presigned_url", "cloud")
def _aws_presigned() -> Case:
    key = "AKIA" + pick(BASE32, 16)
    signature = "".join(rng.choice(HEX) for _ in range(64))
    line = (
        "GET https://bucket.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        f"&X-Amz-Credential={key}%2F20240601%2Fus-east-1%2Fs3%2Faws4_request"
        f"&X-Amz-Date=20240601T120000Z&X-Amz-Signature={signature} 200"
    )
    return line, [key, signature], S


@case("gcp_api_key", "cloud")
def _gcp_api_key() -> Case:
    key = "AIza" + pick(ALNUM + "-_", 35)
    return f"maps geocode failed key={key} status=OVER_QUERY_LIMIT", [key], S


@case("gcp_oauth_access_token", "cloud")
def _gcp_oauth() -> Case:
    token = "ya29." + pick(ALNUM + "-_", 120)
    return f"refreshed credentials, token {token} expires in 3599s", [token], S


@case("gcp_oauth_client_secret", "cloud")
def _gcp_client_secret() -> Case:
    secret = "GOCSPX-" + pick(ALNUM + "-_", 28)
    return f"oauth client configured client_id=1234.apps client_secret={secret}", [secret], S


@case("gcp_service_account_json", "cloud")
def _gcp_service_account() -> Case:
    key_id = "".join(rng.choice(HEX) for _ in range(40))
    block, body = pem("", escaped=True)
    line = (
        '{"type": "service_account", "project_id": "shop-prod", '
        f'"private_key_id": "{key_id}", "private_key": "{block}\\n"}}'
    )
    return line, [key_id, *body], S


@case("azure_storage_connection_string", "cloud")
def _azure_storage() -> Case:
    key = b64(64)
    line = (
        "blob client: DefaultEndpointsProtocol=https;AccountName=shopdata;"
        f"AccountKey={key};EndpointSuffix=core.windows.net"
    )
    return line, [key], S


@case("azure_sas_token", "cloud")
def _azure_sas() -> Case:
    signature = b64(32).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
    line = (
        "upload to https://shopdata.blob.core.windows.net/exports/a.csv"
        f"?sv=2022-11-02&ss=b&srt=o&sp=rw&se=2024-06-02T00:00:00Z&sig={signature} failed"
    )
    return line, [signature], S


@case("azure_ad_client_secret", "cloud")
def _azure_client_secret() -> Case:
    secret = pick(ALNUM, 3) + str(rng.randrange(10)) + "Q~" + pick(ALNUM + "-_.~", 34)
    return f"MSAL confidential client created with secret {secret}", [secret], S


@case("azure_service_bus_connection_string", "cloud")
def _azure_service_bus() -> Case:
    key = b64(32)
    line = (
        "Endpoint=sb://orders.servicebus.windows.net/;"
        f"SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={key}"
    )
    return line, [key], S


# --- version control and CI --------------------------------------------------------------


@case("github_classic_token", "vcs")
def _github_classic() -> Case:
    token = "ghp_" + pick(ALNUM, 36)
    return f"git clone failed using token {token}: 403", [token], S


@case("github_oauth_token", "vcs")
def _github_oauth() -> Case:
    token = "gho_" + pick(ALNUM, 36)
    return f"oauth exchange ok access={token} scope=repo", [token], S


@case("github_app_token", "vcs")
def _github_app() -> Case:
    token = "ghs_" + pick(ALNUM, 36)
    return f"installation token {token} issued for app 12345", [token], S


@case("github_fine_grained_token", "vcs")
def _github_fine_grained() -> Case:
    token = "github_pat_" + pick(ALNUM, 22) + "_" + pick(ALNUM, 59)
    return f"GITHUB_TOKEN={token}", [token], S


@case("gitlab_personal_token", "vcs")
def _gitlab_personal() -> Case:
    token = "glpat-" + pick(ALNUM + "-_", 20)
    return f"curl --header 'PRIVATE-TOKEN: {token}' https://gitlab.example.com/api/v4", [token], S


@case("gitlab_runner_token", "vcs")
def _gitlab_runner() -> Case:
    token = "glrt-" + pick(ALNUM + "-_", 20)
    return f"registering runner with token {token}", [token], S


@case("npm_token", "vcs")
def _npm() -> Case:
    token = "npm_" + pick(ALNUM, 36)
    return f"//registry.npmjs.org/:_authToken={token}", [token], S


@case("pypi_token", "vcs")
def _pypi() -> Case:
    token = "pypi-AgEIcHlwaS5vcmc" + pick(B64URL, 70)
    return f"twine upload --password {token} dist/*", [token], S


@case("ci_env_token_hex", "vcs")
def _ci_token() -> Case:
    token = "".join(rng.choice(HEX) for _ in range(40))
    return f"CIRCLE_TOKEN={token} CIRCLE_BRANCH=main", [token], S


@case("jenkins_url_credentials", "vcs")
def _jenkins() -> Case:
    token = "11" + "".join(rng.choice(HEX) for _ in range(32))
    line = f"POST https://deploy:{token}@jenkins.example.com/job/build/buildWithParameters"
    return line, [token], S


# --- chat and SaaS -------------------------------------------------------------------------


@case("slack_bot_token", "saas")
def _slack_bot() -> Case:
    token = f"xoxb-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**12, 10**13)}-" + pick(
        ALNUM, 24
    )
    return f"slack notifier ready token={token}", [token], S


@case("slack_user_token", "saas")
def _slack_user() -> Case:
    token = f"xoxp-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**11, 10**12)}-" + pick(HEX, 32)
    return f"using slack user token {token}", [token], S


@case("slack_webhook_url", "saas")
def _slack_webhook() -> Case:
    path = "T" + pick(UPPER + DIGITS, 10) + "/B" + pick(UPPER + DIGITS, 10) + "/" + pick(ALNUM, 24)
    return f"posting alert to https://hooks.slack.com/services/{path}", [path], S


@case("discord_webhook_url", "saas")
def _discord_webhook() -> Case:
    secret = str(rng.randrange(10**17, 10**18)) + "/" + pick(ALNUM + "-_", 68)
    return f"webhook=https://discord.com/api/webhooks/{secret}", [secret], S


@case("stripe_secret_key", "saas")
def _stripe_secret() -> Case:
    key = "sk_live_" + pick(ALNUM, 24)
    return f"stripe.api_key set: {key}", [key], S


@case("stripe_restricted_key", "saas")
def _stripe_restricted() -> Case:
    key = "rk_live_" + pick(ALNUM, 24)
    return f"charge failed (key {key}): card_declined", [key], S


@case("stripe_webhook_secret", "saas")
def _stripe_webhook() -> Case:
    secret = "whsec_" + pick(ALNUM, 32)
    return f"STRIPE_WEBHOOK_SECRET={secret}", [secret], S


@case("openai_project_key", "saas")
def _openai() -> Case:
    key = "sk-proj-" + pick(ALNUM + "-_", 48)
    return f"openai request failed with key {key}: 429 rate limited", [key], S


@case("anthropic_api_key", "saas")
def _anthropic() -> Case:
    key = "sk-ant-api03-" + pick(ALNUM + "-_", 93) + "AA"
    return f'{{"provider":"anthropic","x-api-key":"{key}"}}', [key], S


@case("sendgrid_api_key", "saas")
def _sendgrid() -> Case:
    key = "SG." + pick(ALNUM + "-_", 22) + "." + pick(ALNUM + "-_", 43)
    return f"mailer configured: SENDGRID_API_KEY={key}", [key], S


@case("twilio_api_key_sid", "saas")
def _twilio_sid() -> Case:
    key = "SK" + "".join(rng.choice(HEX) for _ in range(32))
    return f"twilio client key {key} created", [key], S


@case("twilio_auth_token", "saas")
def _twilio_auth() -> Case:
    token = "".join(rng.choice(HEX) for _ in range(32))
    return f"TWILIO_AUTH_TOKEN={token}", [token], S


@case("datadog_api_key", "saas")
def _datadog_api() -> Case:
    key = "".join(rng.choice(HEX) for _ in range(32))
    return f"DD_API_KEY={key} DD_SITE=datadoghq.eu", [key], S


@case("datadog_application_key_header", "saas")
def _datadog_app() -> Case:
    key = "".join(rng.choice(HEX) for _ in range(40))
    return f"headers: DD-APPLICATION-KEY: {key}", [key], S


@case("huggingface_token", "saas")
def _huggingface() -> Case:
    token = "hf_" + pick(ALNUM, 34)
    return f"downloading model with HF token {token}", [token], S


@case("vault_service_token", "saas")
def _vault_service() -> Case:
    token = "hvs." + pick(ALNUM + "_-", 90)
    return f"vault login ok: X-Vault-Token={token}", [token], S


@case("vault_batch_token", "saas")
def _vault_batch() -> Case:
    token = "hvb." + pick(ALNUM + "_-", 120)
    return f"issued batch token {token}", [token], S


@case("mailgun_api_key", "saas")
def _mailgun() -> Case:
    key = "key-" + pick(LOWER + DIGITS, 32)
    return f"mailgun send using {key}", [key], S


@case("shopify_access_token", "saas")
def _shopify() -> Case:
    token = "shpat_" + "".join(rng.choice(HEX) for _ in range(32))
    return f"shopify admin api token {token}", [token], S


@case("digitalocean_token", "saas")
def _digitalocean() -> Case:
    token = "dop_v1_" + "".join(rng.choice(HEX) for _ in range(64))
    return f"doctl auth init --access-token {token}", [token], S


@case("newrelic_user_key", "saas")
def _newrelic() -> Case:
    key = "NRAK-" + pick(UPPER + DIGITS, 27)
    return f"newrelic: using key {key}", [key], S


@case("telegram_bot_token", "saas")
def _telegram() -> Case:
    token = f"{rng.randrange(10**8, 10**9)}:AA" + pick(ALNUM + "-_", 33)
    return f"bot started with {token}", [token], S


@case("grafana_service_account_token", "saas")
def _grafana() -> Case:
    token = "glsa_" + pick(ALNUM, 32) + "_" + pick(HEX, 8)
    return f"grafana provisioning token={token}", [token], S


# --- tokens, keys and hashes ------------------------------------------------------------------


@case("jwt_bare", "token")
def _jwt_bare() -> Case:
    token = jwt()
    return f"validated session {token} for user", [token], S


@case("jwt_bearer_header", "token")
def _jwt_bearer() -> Case:
    token = jwt()
    return f"Authorization: Bearer {token}", [token], S


@case("jwt_query_string", "token")
def _jwt_query() -> Case:
    token = jwt()
    return f"GET /callback?state=xyz&id_token={token} 302", [token], S


@case("pem_rsa_private_key_multiline", "key")
def _pem_rsa() -> Case:
    block, body = pem("RSA", escaped=False)
    return f"loaded key:\n{block}\nfrom vault", body, S


@case("pem_pkcs8_private_key_escaped", "key")
def _pem_pkcs8() -> Case:
    block, body = pem("", escaped=True)
    return f'{{"msg":"tls config","key":"{block}"}}', body, S


@case("pem_openssh_private_key_multiline", "key")
def _pem_openssh() -> Case:
    block, body = pem("OPENSSH", escaped=False)
    return f"deploy key written\n{block}", body, S


@case("pem_ec_private_key_escaped", "key")
def _pem_ec() -> Case:
    block, body = pem("EC", escaped=True)
    return f"config dump: tls.key={block}", body, S


@case("pem_encrypted_private_key_unterminated", "key")
def _pem_encrypted() -> Case:
    body = pem_body(3)
    return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + "\n".join(body), body, S


@case("bcrypt_hash", "hash")
def _bcrypt() -> Case:
    value = "$2b$12$" + pick(ALNUM + "./", 53)
    return f"user created hash={value}", [value], S


@case("argon2_hash", "hash")
def _argon2() -> Case:
    value = "$argon2id$v=19$m=65536,t=3,p=4$" + b64(16).rstrip("=") + "$" + b64(32).rstrip("=")
    return f"stored credential {value}", [value], S


@case("sha512crypt_hash", "hash")
def _sha512crypt() -> Case:
    value = "$6$" + pick(ALNUM + "./", 16) + "$" + pick(ALNUM + "./", 86)
    return f"shadow entry deploy:{value}:19000:0:99999:7:::", [value], S


# --- credentials in structured text -------------------------------------------------------------


@case("key_value_password", "pair")
def _kv_password() -> Case:
    value = password()
    return f"db connect user=app password={value} host_count=3", [value], S


@case("key_value_quoted_password_with_spaces", "pair")
def _kv_quoted() -> Case:
    value = pick(ALNUM, 6) + " " + pick(ALNUM, 7) + " " + pick(ALNUM, 5)
    return f'login attempt user="bob" password="{value}" ok=false', [value], S


@case("json_password", "pair")
def _json_password() -> Case:
    value = password()
    return f'{{"user": "bob", "password": "{value}", "remember": true}}', [value], S


@case("json_escaped_in_string", "pair")
def _json_escaped() -> Case:
    value = password()
    return f'payload="{{\\"username\\":\\"bob\\",\\"password\\":\\"{value}\\"}}"', [value], S


@case("yaml_password", "pair")
def _yaml_password() -> Case:
    value = password()
    return f"datasource:\n  url: jdbc:postgresql://db/app\n  password: {value}\n", [value], S


@case("logfmt_secret", "pair")
def _logfmt() -> Case:
    value = pick(ALNUM, 24)
    return f'level=info msg="webhook verified" client_secret={value} latency=12ms', [value], S


@case("python_dict_repr", "pair")
def _python_dict() -> Case:
    value = pick(ALNUM, 32)
    return f"settings loaded: {{'api_key': '{value}', 'debug': False}}", [value], S


@case("xml_password_element", "pair")
def _xml() -> Case:
    value = password()
    return f"<datasource><user>app</user><password>{value}</password></datasource>", [value], S


@case("ruby_hash_rocket", "pair")
def _ruby() -> Case:
    value = password()
    return f'Parameters: {{"user"=>"bob", "password"=>"{value}"}}', [value], S


@case("camel_case_access_token", "pair")
def _camel() -> Case:
    value = pick(ALNUM, 40)
    return f'{{"accessToken":"{value}","expiresIn":3600}}', [value], S


@case("header_x_api_key", "http")
def _x_api_key() -> Case:
    value = pick(ALNUM, 32)
    return f"outgoing request X-Api-Key: {value} Accept: application/json", [value], S


@case("header_api_key_azure_openai", "http")
def _api_key_header() -> Case:
    value = "".join(rng.choice(HEX) for _ in range(32))
    return f"api-key: {value}", [value], S


@case("header_x_auth_token", "http")
def _x_auth_token() -> Case:
    value = pick(ALNUM, 28)
    return f"X-Auth-Token: {value}", [value], S


@case("env_dump_db_password", "env")
def _env_db() -> Case:
    value = password()
    return f"PATH=/usr/bin HOME=/root DB_PASSWORD={value} LANG=C.UTF-8", [value], S


@case("env_dump_mysql_root_password", "env")
def _env_mysql() -> Case:
    value = password()
    return f"environment: MYSQL_ROOT_PASSWORD={value}", [value], S


@case("env_dump_redis_pass", "env")
def _env_redis() -> Case:
    value = password()
    return f"REDIS_PASS='{value}'", [value], S


@case("env_dump_pgpassword", "env")
def _env_pg() -> Case:
    value = password()
    return f"running psql with PGPASSWORD={value} PGUSER=app", [value], S


@case("kubernetes_secret_json_data", "kubernetes")
def _k8s_json() -> Case:
    first = b64(12)
    second = b64(700)
    line = (
        '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db-creds"},'
        f'"data":{{"username":"{first}","tls.crt":"{second}"}}}}'
    )
    return line, [first, second], S


@case("kubernetes_secret_yaml_data", "kubernetes")
def _k8s_yaml() -> Case:
    first = b64(9)
    second = b64(15)
    line = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: api-creds\ntype: Opaque\ndata:\n"
        f"  user: {first}\n  config.json: {second}\n"
    )
    return line, [first, second], S


@case("docker_config_auth", "kubernetes")
def _docker_auth() -> Case:
    value = base64.b64encode(f"deploy:{password()}".encode()).decode()
    return f'{{"auths":{{"registry.example.com":{{"auth":"{value}"}}}}}}', [value], S


@case("cli_flag_password_equals", "cli")
def _flag_equals() -> Case:
    value = password()
    return f"exec: pg_dump --host=db --password={value} app", [value], S


@case("cli_flag_token_space", "cli")
def _flag_space() -> Case:
    value = pick(ALNUM, 30)
    return f"running: deploy-tool --token {value} --env prod", [value], S


@case("cli_mysql_inline_password", "cli")
def _mysql_inline() -> Case:
    value = password().replace("!", "x").replace("#", "y")
    return f"cron: mysqldump -uroot -p{value} shop > /backup/shop.sql", [value], S


@case("cli_curl_user", "cli")
def _curl_user() -> Case:
    value = password()
    return f"curl -u admin:{value} https://registry.example.com/v2/_catalog", [value], S


# --- connection strings and URLs ------------------------------------------------------------


def url_case(scheme: str, tail: str) -> Case:
    value = password().replace("#", "x")
    return f"connecting to {scheme}://app:{value}@{tail}", [value], S


@case("url_postgres", "url")
def _url_postgres() -> Case:
    return url_case("postgres", "db.prod.internal:5432/shop")


@case("url_postgresql_driver", "url")
def _url_postgresql_driver() -> Case:
    return url_case("postgresql+psycopg2", "10.0.3.7/shop?sslmode=require")


@case("url_mysql", "url")
def _url_mysql() -> Case:
    return url_case("mysql", "mysql.shop.svc.cluster.local:3306/orders")


@case("url_mongodb_srv", "url")
def _url_mongodb() -> Case:
    return url_case("mongodb+srv", "cluster0.ab1cd.mongodb.net/app?retryWrites=true")


@case("url_redis_password_only", "url")
def _url_redis() -> Case:
    value = password().replace("#", "x")
    return f"redis connection redis://:{value}@cache.internal:6379/0 established", [value], S


@case("url_rediss_default_user", "url")
def _url_rediss() -> Case:
    return url_case("rediss", "cache-prod.example.com:6380")


@case("url_amqp", "url")
def _url_amqp() -> Case:
    return url_case("amqp", "rabbit.internal:5672/vhost")


@case("url_ftp", "url")
def _url_ftp() -> Case:
    return url_case("ftp", "files.example.org/incoming")


@case("url_smtp", "url")
def _url_smtp() -> Case:
    return url_case("smtp", "smtp.example.com:587")


@case("url_https_git_token", "url")
def _url_https() -> Case:
    return url_case("https", "github.com/acme/private-repo.git")


@case("jdbc_mysql_query_password", "url")
def _jdbc_mysql() -> Case:
    value = password().replace("&", "x").replace("#", "y")
    line = f"jdbc:mysql://db:3306/shop?user=app&password={value}&useSSL=true"
    return line, [value], S


@case("jdbc_postgresql_query_password", "url")
def _jdbc_pg() -> Case:
    value = password().replace("&", "x").replace("#", "y")
    return f"url=jdbc:postgresql://db/shop?user=app&password={value}&ssl=true", [value], S


@case("jdbc_sqlserver_semicolon_password", "url")
def _jdbc_mssql() -> Case:
    value = password().replace(";", "x")
    line = f"jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password={value};encrypt=true"
    return line, [value], S


@case("ado_net_connection_string", "url")
def _ado() -> Case:
    value = password().replace(";", "x")
    line = f"Server=tcp:db,1433;Database=shop;User ID=sa;Password={value};Encrypt=True;"
    return line, [value], S


@case("odbc_pwd", "url")
def _odbc() -> Case:
    value = password().replace(";", "x")
    return f"DRIVER={{ODBC Driver 18}};SERVER=db;UID=sa;PWD={value};", [value], S


@case("oracle_ezconnect", "url")
def _oracle() -> Case:
    value = pick(ALNUM, 12)
    return f"sqlplus scott/{value}@//db.example.com:1521/orcl", [value], S


@case("sentry_dsn", "url")
def _sentry() -> Case:
    key = "".join(rng.choice(HEX) for _ in range(32))
    return f"SENTRY_DSN=https://{key}@o123456.ingest.sentry.io/42", [key], S


# --- HTTP --------------------------------------------------------------------------------------


@case("authorization_bearer_opaque", "http")
def _bearer() -> Case:
    value = pick(ALNUM + "-._~", 40)
    return f'upstream call headers={{"Authorization": "Bearer {value}"}}', [value], S


@case("authorization_basic", "http")
def _basic() -> Case:
    value = base64.b64encode(f"admin:{password()}".encode()).decode()
    return f"Authorization: Basic {value}", [value], S


@case("authorization_digest", "http")
def _digest() -> Case:
    response = "".join(rng.choice(HEX) for _ in range(32))
    nonce = b64(16)
    line = (
        f'Authorization: Digest username="bob", realm="api", nonce="{nonce}", uri="/x", '
        f'response="{response}"'
    )
    return line, [response, nonce], S


@case("proxy_authorization_basic", "http")
def _proxy_basic() -> Case:
    value = base64.b64encode(f"proxy:{password()}".encode()).decode()
    return f"Proxy-Authorization: Basic {value}", [value], S


@case("cookie_header", "http")
def _cookie() -> Case:
    session = pick(ALNUM, 32)
    csrf = pick(ALNUM, 24)
    return f"Cookie: sessionid={session}; csrftoken={csrf}", [session, csrf], S


@case("set_cookie_header", "http")
def _set_cookie() -> Case:
    value = pick(ALNUM, 40)
    return f"Set-Cookie: auth={value}; Path=/; HttpOnly; Secure", [value], S


@case("query_access_token", "http")
def _query_access() -> Case:
    value = pick(ALNUM, 40)
    return f"GET /api/v1/me?access_token={value} HTTP/1.1 200", [value], S


@case("query_api_key", "http")
def _query_api_key() -> Case:
    value = pick(ALNUM, 32)
    return f"GET /forecast?city=Paris&api_key={value}&units=metric 200 12ms", [value], S


@case("query_client_secret", "http")
def _query_client_secret() -> Case:
    value = pick(ALNUM + "-_", 36)
    return f"POST /oauth/token?grant_type=client_credentials&client_secret={value}", [value], S


@case("query_token", "http")
def _query_token() -> Case:
    value = pick(ALNUM, 20)
    return f"ws upgrade /socket?token={value}", [value], S


# --- identifiers ----------------------------------------------------------------------------


@case("ipv4", "identifier")
def _ipv4() -> Case:
    value = ipv4()
    return f"connection from {value} refused", [value], "<IP>"


@case("ipv4_with_port", "identifier")
def _ipv4_port() -> Case:
    value = ipv4()
    return f"upstream {value}:8443 timed out", [value], "<IP>"


@case("ipv6_full", "identifier")
def _ipv6_full() -> Case:
    value = ipv6_full()
    return f"client {value} connected", [value], "<IP>"


@case("ipv6_compressed", "identifier")
def _ipv6_short() -> Case:
    value = ipv6_short()
    return f"peer={value} handshake failed", [value], "<IP>"


@case("ipv6_bracketed_with_port", "identifier")
def _ipv6_bracketed() -> Case:
    value = ipv6_short()
    return f"listening on [{value}]:8080", [value], "<IP>"


@case("ipv4_mapped_ipv6", "identifier")
def _ipv4_mapped() -> Case:
    value = "::ffff:" + ipv4()
    return f"remote_addr {value} blocked", [value], "<IP>"


@case("email", "identifier")
def _email() -> Case:
    value = pick(LOWER, 6) + "." + pick(LOWER, 5) + "@" + pick(LOWER, 7) + ".com"
    return f"password reset sent to {value}", [value], "<EMAIL>"


@case("host_fqdn", "identifier")
def _host_fqdn() -> Case:
    value = "api-" + pick(LOWER + DIGITS, 5) + ".prod.example.com"
    return f"TLS handshake with {value} failed", [value], "<HOST>"


@case("host_cluster_service", "identifier")
def _host_cluster() -> Case:
    value = "orders-" + pick(LOWER, 4) + ".shop.svc.cluster.local"
    return f"dial tcp {value}:8080: connect: connection refused", [value], "<HOST>"


@case("host_aws_internal", "identifier")
def _host_aws() -> Case:
    value = "ip-10-" + "-".join(str(rng.randrange(1, 255)) for _ in range(3)) + ".ec2.internal"
    return f"node {value} not ready", [value], "<HOST>"


@case("host_key_context", "identifier")
def _host_context() -> Case:
    value = "db" + pick(LOWER, 4) + "-primary"
    return f"replication lag high host={value} lag_ms=1200", [value], "<HOST>"


@case("pod_deployment", "identifier")
def _pod_deployment() -> Case:
    value = "payments-api-" + "".join(rng.choice(POD_HASH) for _ in range(9)) + "-"
    value += "".join(rng.choice(POD_HASH) for _ in range(5))
    return f"Back-off restarting failed container in pod {value}", [value], "<POD>"


@case("pod_daemonset", "identifier")
def _pod_daemonset() -> Case:
    value = "fluent-bit-" + "".join(rng.choice(POD_HASH) for _ in range(4)) + "7"
    return f"{value} evicted: node has memory pressure", [value], "<POD>"


@case("pod_statefulset_context", "identifier")
def _pod_statefulset() -> Case:
    value = "kafka-" + str(rng.randrange(0, 9))
    return f"pod={value} status=CrashLoopBackOff", [value], "<POD>"


@case("pid_key_value", "identifier")
def _pid_kv() -> Case:
    value = str(rng.randrange(1000, 99999))
    return f"worker exited pid={value} code=137", [value], "<PID>"


@case("pid_syslog", "identifier")
def _pid_syslog() -> Case:
    value = str(rng.randrange(1000, 99999))
    return f"sshd[{value}]: Accepted publickey for deploy", [value], "<PID>"


@case("mac_colon", "identifier")
def _mac_colon() -> Case:
    value = ":".join(format(rng.randrange(256), "02x") for _ in range(6))
    return f"DHCPACK to {value} via eth0", [value], "<MAC>"


@case("mac_dash", "identifier")
def _mac_dash() -> Case:
    value = "-".join(format(rng.randrange(256), "02X") for _ in range(6))
    return f"adapter MAC {value} registered", [value], "<MAC>"


@case("card_visa_contiguous", "identifier")
def _card_visa() -> Case:
    value = luhn_complete("4", 16)
    return f"payment declined card={value} reason=insufficient_funds", [value], "<CARD>"


@case("card_mastercard_spaced", "identifier")
def _card_mc() -> Case:
    value = luhn_complete("5" + str(rng.randrange(1, 6)), 16)
    spaced = " ".join(value[i : i + 4] for i in range(0, 16, 4))
    return f"charging card {spaced} amount=12.50", [spaced], "<CARD>"


@case("card_amex_dashed", "identifier")
def _card_amex() -> Case:
    value = luhn_complete("37", 15)
    dashed = f"{value[:4]}-{value[4:10]}-{value[10:]}"
    return f"customer card {dashed} expired", [dashed], "<CARD>"


@case("phone_e164", "identifier")
def _phone_e164() -> Case:
    value = "+4915" + "".join(rng.choice(DIGITS) for _ in range(9))
    return f"SMS sent to {value}", [value], "<PHONE>"


@case("phone_international_spaced", "identifier")
def _phone_spaced() -> Case:
    value = f"+1 {rng.randrange(201, 989)} {rng.randrange(200, 999)} {rng.randrange(1000, 9999)}"
    return f"callback number {value} registered", [value], "<PHONE>"


@case("phone_us_formatted", "identifier")
def _phone_us() -> Case:
    value = f"({rng.randrange(201, 989)}) {rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}"
    return f"contact phone {value}", [value], "<PHONE>"


@case("phone_dashed", "identifier")
def _phone_dashed() -> Case:
    value = f"{rng.randrange(201, 989)}-{rng.randrange(200, 999)}-{rng.randrange(1000, 9999)}"
    return f"verification call to {value} failed", [value], "<PHONE>"


@case("sql_string_literal", "sql")
def _sql_string() -> Case:
    value = pick(LOWER, 8) + "@" + pick(LOWER, 6) + ".org"
    return (
        f"slow query 1200ms: SELECT id FROM users WHERE email = '{value}'",
        [value],
        ("<SQL_LITERAL>"),
    )


@case("sql_numeric_literal", "sql")
def _sql_number() -> Case:
    value = str(rng.randrange(10**8, 10**9))
    return (
        f"executing: UPDATE accounts SET balance = 0 WHERE account_no = {value}",
        [value],
        ("<SQL_LITERAL>"),
    )


@case("sql_insert_values", "sql")
def _sql_insert() -> Case:
    name = pick(LOWER, 9)
    ssn = f"{rng.randrange(100, 899)}-{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}"
    line = f"INSERT INTO customers (name, ssn) VALUES ('{name}', '{ssn}')"
    return line, [name, ssn], "<SQL_LITERAL>"


# --- values that must stay -------------------------------------------------------------------

KEEP: list[tuple[str, str, list[str]]] = [
    ("semver", "upgraded payments-api from 1.2.3 to 1.10.0-rc.1", ["1.2.3", "1.10.0-rc.1"]),
    ("prefixed_version", "agent v2.14.7 build v6.1.7601.23505 started", ["v2.14.7"]),
    ("windows_version", "Loaded Servicing Stack 6.1.7601.23505", ["6.1.7601.23505"]),
    ("epoch_millis", "event ts=1717243200123 processed", ["1717243200123"]),
    ("epoch_seconds", "checkpoint at 1717243200", ["1717243200"]),
    ("epoch_micros", "span start 1717243200123456", ["1717243200123456"]),
    ("duration_ms", "request took 1500ms (p99 2300ms)", ["1500ms", "2300ms"]),
    ("duration_seconds", "retrying in 2.5s after 3m20s", ["2.5s", "3m20s"]),
    ("duration_iso", "timeout PT30S exceeded", ["PT30S"]),
    (
        "hdfs_block_id_negative",
        "Deleting block blk_-6952295868487656571 file",
        ["blk_-6952295868487656571"],
    ),
    ("hdfs_block_id", "Receiving block blk_38865049064139660 src", ["blk_38865049064139660"]),
    (
        "git_sha",
        "deployed commit 3f786850e387550fdab836ed7e6dc881de23001b",
        ["3f786850e387550fdab836ed7e6dc881de23001b"],
    ),
    ("git_short_sha", "build 9fceb02 passed", ["9fceb02"]),
    (
        "iso_timestamp_z",
        "window end 2024-06-01T12:00:00.123Z reached",
        ["2024-06-01T12:00:00.123Z"],
    ),
    (
        "iso_timestamp_offset",
        "scheduled for 2024-06-01T12:00:00+02:00",
        ["2024-06-01T12:00:00+02:00"],
    ),
    (
        "timestamp_space_comma",
        "since 2015-10-18 18:01:47,978 no heartbeat",
        ["2015-10-18 18:01:47,978"],
    ),
    ("time_of_day", "backup window 02:30:00 to 04:00:00", ["02:30:00", "04:00:00"]),
    (
        "uuid_request_id",
        "request_id=550e8400-e29b-41d4-a716-446655440000 done",
        ["550e8400-e29b-41d4-a716-446655440000"],
    ),
    (
        "uuid_upper",
        "correlation 9B2A3C4D-1E2F-4A5B-8C7D-0E1F2A3B4C5D",
        ["9B2A3C4D-1E2F-4A5B-8C7D-0E1F2A3B4C5D"],
    ),
    (
        "trace_id",
        "trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7",
        [
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "00f067aa0ba902b7",
        ],
    ),
    (
        "container_id",
        "container 9c1f0b3a7e2d4c5b8a6f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b",
        ["9c1f0b3a7e2d4c5b8a6f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b"],
    ),
    ("image_digest", "pulled image@sha256:" + "ab" * 32, ["sha256:" + "ab" * 32]),
    ("http_status", "GET /api/orders 503 Service Unavailable", ["503"]),
    ("port_number", "listening on port 8080", ["8080"]),
    ("percentage", "disk usage 97.5% on /var", ["97.5%"]),
    ("size", "heap 512MB of 2GB used", ["512MB", "2GB"]),
    ("hex_address", "segfault at 0x7f3a2c1b0040 ip 0x00005555", ["0x7f3a2c1b0040"]),
    (
        "java_class",
        "java.net.SocketTimeoutException: Read timed out",
        ["java.net.SocketTimeoutException"],
    ),
    ("java_frame", "at com.acme.pay.Repo.save(Repo.java:42)", ["com.acme.pay.Repo.save"]),
    (
        "python_module",
        "File /usr/lib/python3.11/site-packages/app/db.py line 88",
        ["/usr/lib/python3.11/site-packages/app/db.py"],
    ),
    (
        "windows_path",
        "C:\\Windows\\System32\\drivers\\etc\\hosts loaded",
        ["C:\\Windows\\System32\\drivers\\etc\\hosts"],
    ),
    ("thread_name", "[pool-1-thread-3] task done", ["pool-1-thread-3"]),
    (
        "k8s_names",
        "deployment payments-api in namespace kube-system scaled",
        [
            "payments-api",
            "kube-system",
        ],
    ),
    (
        "token_count_field",
        "completion tokens_used=1234 password_length=12 secret_name=db-creds",
        [
            "tokens_used=1234",
            "password_length=12",
            "secret_name=db-creds",
        ],
    ),
    (
        "loghub_session",
        "session opened for user root by (uid=0)",
        ["session opened for user root by (uid=0)"],
    ),
    ("loghub_tokens", "Executing with tokens:", ["Executing with tokens:"]),
    ("basic_word", "basic authentication failed for user bob", ["basic authentication"]),
    ("token_word", "Token expired for user bob", ["Token expired"]),
    ("date", "report for 2024-06-01 ready", ["2024-06-01"]),
    ("money", "refund of $12.50 issued", ["$12.50"]),
    ("localhost", "bound to localhost:9090", ["localhost:9090"]),
    ("file_name", "reading config.yaml and app.log", ["config.yaml", "app.log"]),
    ("log_level", "WARN retry budget low", ["WARN"]),
]


def main() -> None:
    names = [name for name, _, _ in CASES]
    assert len(names) == len(set(names)), "duplicate case name"
    with (HERE / "corpus.jsonl").open("w", encoding="utf-8") as corpus:
        for name, category, build in CASES:
            line, values, placeholder = build()
            row = {
                "format": name,
                "category": category,
                "line": line,
                "values": values,
                "placeholder": placeholder,
            }
            corpus.write(json.dumps(row, ensure_ascii=False) + "\n")
    with (HERE / "must_not_redact.jsonl").open("w", encoding="utf-8") as keep:
        for name, line, values in KEEP:
            row = {"format": name, "line": line, "values": values}
            keep.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
