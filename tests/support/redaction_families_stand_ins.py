"""Corpus families of values that only look like credentials: masks and references under a
credential key, format directives after a flag, MySQL's ``(using password: YES)``, test
verdicts, SSH key fingerprints, image and package names that begin with a host, source file
lines, setting cookies and the method of an authentication. And the secrets beside them that
must still go: a reference with a default value, an unnamed cookie value, a fingerprint's
look-alike of another length."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]

_WORDS: Final = ("orders", "billing", "ledger", "payments", "search", "gateway", "worker")


def _mask(rng: random.Random) -> str:
    form = rng.randrange(4)
    if form == 0:
        return "*" * rng.randrange(3, 13)
    if form == 1:
        return make.choice(rng, ("[REDACTED]", "[hidden]", "<masked>", "(filtered)", "XXXXXX"))
    if form == 2:
        return "${" + make.text(rng, make.UPPER, rng.randrange(3, 8)) + "_PASSWORD}"
    return "{{ .Values." + make.choice(rng, _WORDS) + ".password }}"


def _test_name(rng: random.Random) -> str:
    noun = make.choice(rng, ("Token", "Password", "Secret", "Session", "Auth", "ApiKey"))
    verb = make.choice(rng, ("Refresh", "Expiry", "Rotation", "Policy", "Parse", "Store"))
    suffix = make.choice(rng, ("", "/" + make.choice(rng, _WORDS) + "_case"))
    return f"--- PASS: Test{noun}{verb}{suffix}"


def _fingerprint(rng: random.Random) -> str:
    return "SHA256:" + make.random_key(rng, 43).replace("1", "+", 1)


def _image(rng: random.Random) -> str:
    host = make.choice(rng, ("registry.gitlab.com", "ghcr.io", "quay.io", "harbor.example.org"))
    version = f"{rng.randrange(0, 9)}.{rng.randrange(0, 30)}.{rng.randrange(0, 9)}"
    return f"{host}/{make.choice(rng, _WORDS)}/{make.choice(rng, _WORDS)}:{version}"


def _source_line(rng: random.Random) -> str:
    stem = make.choice(rng, ("Token", "Password", "Secret", "Session", "Credential"))
    kind = make.choice(rng, ("Service", "Store", "Validator", "Handler"))
    extension = make.choice(rng, ("java", "kt", "go", "py", "ts", "cs"))
    return f"{stem}{kind}.{extension}:{rng.randrange(10, 900)}"


def _setting_cookie(rng: random.Random) -> str:
    settings = (
        ("theme", make.choice(rng, ("dark", "light", "auto"))),
        ("lang", make.choice(rng, ("fr", "pt-BR", "en-GB", "nl"))),
        ("tz", make.choice(rng, ("Asia/Tokyo", "America/Chicago", "Africa/Lagos"))),
        ("consent", str(rng.randrange(0, 2))),
    )
    name, value = settings[rng.randrange(len(settings))]
    return f"{name}={value}"


def _auth_method(rng: random.Random) -> str:
    key = make.choice(rng, ("auth_method", "auth_mode", "authScheme", "auth_plugin", "auth.flow"))
    value = make.choice(rng, ("password", "oauth2", "kerberos", "mysql_native_password", "pkce"))
    return f"{key}={value}"


def _defaulted_reference(rng: random.Random) -> str:
    name = make.text(rng, make.UPPER, rng.randrange(3, 7))
    return "${" + name + "_PASSWORD:-\x1f" + make.password(rng)


def _random_cookie(rng: random.Random) -> str:
    name = make.choice(rng, ("theme", "pref", "ab", "lang"))
    return name + "=\x1f" + make.random_key(rng, rng.randrange(16, 33))


def _not_a_fingerprint(rng: random.Random) -> str:
    sizes = (40, 48, 52)
    return "SHA256:\x1f" + make.random_key(rng, sizes[rng.randrange(len(sizes))])


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "password_reference_with_default": (
        _defaulted_reference,
        ("DB_PASSWORD={v}}}", "password: {v}}}", "  secret = {v}}}"),
    ),
    "cookie_random_value_any_name": (
        _random_cookie,
        ("Cookie: {v}; path=/", "Set-Cookie: {v}; HttpOnly", "> Cookie: lang=de; {v}"),
    ),
    "digest_prefix_wrong_length": (
        _not_a_fingerprint,
        ("key material {v}", "token={v}", "blob {v} stored"),
    ),
}

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "masked_or_referenced_credential": (
        _mask,
        ("password: {v}", "DB_PASSWORD={v}", '{{"api_key":"{v}"}}', "  client_secret: {v}"),
    ),
    "curl_write_out_format": (
        lambda rng: (
            "'%{"
            + make.choice(rng, ("http_code", "size_download", "remote_ip"))
            + "} %{"
            + make.choice(rng, ("time_total", "time_connect", "url_effective"))
            + "}'"
        ),
        ("curl -s -o /dev/null -w {v} https://status.{h}", "+ curl -w {v} -X POST http://{h}"),
    ),
    "mysql_using_password": (
        lambda rng: "using password: " + make.choice(rng, ("YES", "NO")),
        ("ERROR 1045 (28000): Access denied for user 'svc'@'{h}' ({v})", "denied ({v}) at {t}"),
    ),
    "go_test_verdict": (
        _test_name,
        ("{v} (0.0{n}s)", "    {v} ({n}.01s)", "{t} {v}"),
    ),
    "ssh_key_fingerprint": (
        _fingerprint,
        ("Accepted publickey for deploy from {h} port 5{n}022 ssh2: ED25519 {v}", "key {v}."),
    ),
    "image_or_package_name": (
        _image,
        ("pulling image {v}", "docker push {v}", 'image: "{v}"', "Successfully tagged {v}"),
    ),
    "source_file_line": (
        _source_line,
        ("at com.example.auth.Check({v})", "    {v} raised ValueError", "panic at {v}"),
    ),
    "setting_cookie": (
        _setting_cookie,
        ("Set-Cookie: {v}; Path=/", "Cookie: {v}", "> Cookie: {v}; Secure"),
    ),
    "authentication_method": (
        _auth_method,
        ("{v} mfa=totp", "login {v} result=ok", "configured {v}"),
    ),
}
