"""Values given to commands that store a secret, hex vendor keys after a prefix (digest and id
lengths kept), and Chilean RUT and South African identity numbers with their checks."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor
from factledger.domain.logs.redaction.checked_numbers import rut_valid, sa_id_valid

SETTER_LEAKS = [
    ("gh secret set DEPLOY_KEY --body 'aPlainWord'", "aPlainWord"),
    ("gh secret set NPM_TOKEN -b plainvalue --repo org/app", "plainvalue"),
    ("gh secret set SLACK_URL --body=hooksecret1", "hooksecret1"),
    ("gh variable set REGION_PW -bsunnyday", "sunnyday"),
    ("vault kv put secret/app db_pass=riverstone api=Zk29xQ", "riverstone"),
    ("vault kv put secret/app db_pass=riverstone api=Zk29xQ", "Zk29xQ"),
    ("vault write auth/approle/role/x secret_id=lowerword", "lowerword"),
    ("kubectl create secret generic db --from-literal=password=quietlake", "quietlake"),
    ("kubectl -n prod create secret generic x --from-literal=KEY=abc9f2", "abc9f2"),
    ("heroku config:set STRIPE_KEY=plainkeyvalue -a shop", "plainkeyvalue"),
    ("dokku config:set web SESSION_SALT=saltword", "saltword"),
    ("doppler secrets set DB_URL=postgres-pw-here", "postgres-pw-here"),
    ("fly secrets set SMTP_PASS=mailword DATABASE_URL=dbword", "mailword"),
    ("flyctl secrets set API_TOKEN=tokword", "tokword"),
    ("aws ssm put-parameter --name /app/pw --value 'green apple' --overwrite", "green apple"),
    ("aws secretsmanager create-secret --name x --secret-string plainsecret", "plainsecret"),
    ("az keyvault secret set --vault-name kv --name db --value bluewhale", "bluewhale"),
    ("docker login -u ci -p registrypw registry.example.org", "registrypw"),
    ("podman login --password podpw quay.io", "podpw"),
    ("helm registry login ghcr.io -u bot -p helmword", "helmword"),
    ("eb setenv SECRET_KEY_BASE=railsword", "railsword"),
    ("railway variables set OPENAI=plainopenai", "plainopenai"),
    ("netlify env:set API_SECRET plainnetlify", "plainnetlify"),
    ("cf set-env myapp DB_PASSWORD cfword", "cfword"),
]

SETTER_KEEPS = [
    ("gh secret set DEPLOY_KEY < key.txt", "gh secret set DEPLOY_KEY < key.txt"),
    ("gh secret list --repo org/app", "gh secret list --repo org/app"),
    ("heroku config:set WEB_CONCURRENCY=3 -a shop", "WEB_CONCURRENCY=3"),
    ("fly secrets list", "fly secrets list"),
    ("vault kv get secret/app", "vault kv get secret/app"),
    ("kubectl create secret generic db --from-file=./creds", "--from-file=./creds"),
    ("aws ssm put-parameter --name /app/replicas --value 3", "--value 3"),
    ("docker login -u ci --password-stdin registry.example.org", "--password-stdin"),
    ("gh secret set TOKEN --body $TOKEN", "--body $TOKEN"),
    ("echo set the secret later", "echo set the secret later"),
]

HEX = "eee65f53e9421ce50211670eae679f02e8d28a79023c39c2"
HEX64 = "00661fccd268a29a0d347301ef56e64dc3cd6089065c3146e80a9c222670bbe4"
HEX40 = "f4c54977656cf2d133187c8df95247f2866028de"
HEX32 = "2d0f0cc022238daceee2092f073ff80b"

HEX_LEAKS = [
    (f"using pplx-{HEX} for search", HEX),
    (f"key acme_{HEX[:36]} loaded", HEX[:36]),
    (f"api wx-{HEX}", HEX),
    (f"auth token-{HEX64}", HEX64),
    (f"secret_{HEX32} rotated", HEX32),
]

HEX_KEEPS = [
    (f"integrity sha256-{HEX64}", HEX64),
    (f"request req-{HEX32} done", HEX32),
    (f"deployed release-{HEX40}", HEX40),
    (f"commit git-{HEX40} built", HEX40),
    (f"object oid_{HEX[:24]} saved", HEX[:24]),
]

NUMBER_LEAKS = [
    ("RUT 12.345.678-5 registrado", "12.345.678-5"),
    ("rut: 7654321-6", "7654321-6"),
    ("cliente rut=15879456-K ok", "15879456-K"),
    ("RUN 9.101.112-3", "9.101.112-3"),
    ("SA ID number 8705125009080 verified", "8705125009080"),
    ("south african id 9202204720083", "9202204720083"),
    ("identity 0101015000082 on file", "0101015000082"),
]

NUMBER_KEEPS = [
    ("RUT check failed for batch 12.345.678-4", "12.345.678-4"),
    ("run 7654321-6 finished", "7654321-6"),
    ("order 8705125009080 shipped", "8705125009080"),
    ("SA export: batch 8705125009081 written", "8705125009081"),
    ("identity lookup took 12ms for request 8713125009080", "8713125009080"),
]

LEAKS = SETTER_LEAKS + HEX_LEAKS + NUMBER_LEAKS
KEEPS = SETTER_KEEPS + HEX_KEEPS + NUMBER_KEEPS


@pytest.mark.parametrize(("line", "secret"), LEAKS, ids=[line for line, _ in LEAKS])
def test_the_value_is_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS, ids=[line for line, _ in KEEPS])
def test_the_value_stays(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("12.345.678-5", True),
        ("12345678-5", True),
        ("7654321-6", True),
        ("15879456-k", True),
        ("12.345.678-4", False),
        ("123456-0", False),
        ("15879456-0", False),
    ],
)
def test_a_rut_is_valid_only_with_its_check_character(value: str, valid: bool) -> None:
    assert rut_valid(value) is valid


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        ("8705125009080", True),
        ("9202204720083", True),
        ("0101015000082", True),
        ("8705125009081", False),
        ("8713125009080", False),
        ("8705125009280", False),
    ],
)
def test_a_south_african_id_needs_a_date_its_citizenship_digit_and_luhn(
    value: str, valid: bool
) -> None:
    assert sa_id_valid(value) is valid
