"""Which field names hold credentials (``password``, ``apiKey``, ``AWS_SECRET_ACCESS_KEY``…).

A key is split into words at ``_ . -`` and lower-to-upper case changes; it names a credential
when one of its words is a credential word, ``key`` follows a word such as ``api``, ``access``
or ``tls``, or its letters contain a long credential word, and its last word does not say the
value is only about a credential (``token_count``, ``password_file``, ``secret_name``,
``auth_method``). A bare ``key`` (a cache or partition key) is not a credential, nor is a
source file's name (``TokenService.java``, before a line number).
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["is_secret_key", "is_switch"]

_WORDS: Final = frozenset(
    {
        "pass",
        "passwd",
        "authtok",
        "password",
        "passphrase",
        "pwd",
        "pw",
        "pin",
        "secret",
        "secrets",
        "token",
        "tokens",
        "apikey",
        "privkey",
        "auth",
        "authorization",
        "cred",
        "creds",
        "credential",
        "credentials",
        "sig",
        "signature",
        "sas",
        "otp",
        "totp",
        "salt",
        "sid",
        "session",
        "sessionid",
        "jwt",
        "psk",
        "cookie",
        "bearer",
        "accountkey",
        "cvv",
        "cvv2",
        "cvc",
        "cvc2",
        "csc",
        "sessid",
        "phpsessid",
        "jsessionid",
        "ssn",
        "nino",
        "passport",
        "dob",
        "birth",
        "birthdate",
        "birthday",
        # a date of birth in other languages (``fecha_nacimiento``, ``Geburtsdatum``)
        "nacimiento",
        "naissance",
        "nascita",
        "nascimento",
        "geburtsdatum",
        "geboortedatum",
        "fødselsdato",
        "födelsedatum",
        "urodzenia",
        "syntymäaika",
        # SNMP's community string is its password
        "community",
    }
)
_ENGLISH_LONG_WORDS: Final = (
    "password",
    "passwd",
    "passphrase",
    "storepass",
    "keypass",
    "macaroon",
    "secret",
    "token",
    "credential",
    "apikey",
    "accesskey",
    "privatekey",
    "signature",
    "sessionid",
    "sessid",
    "sessiontoken",
    "accountkey",
    "secretkey",
    "signingkey",
    "masterkey",
    "licensekey",
    "clientkey",
    "driverlicen",
    "driverslicen",
    "drivinglicen",
)
_OTHER_LANGUAGES: Final = (
    "passwort",
    "kennwort",
    "motdepasse",
    "contraseña",
    "contrasena",
    "contrasenya",
    "senha",
    "palavrapasse",
    "wachtwoord",
    "hasło",
    "haslo",
    "heslo",
    "lösenord",
    "losenord",
    "salasana",
    "passord",
    "adgangskode",
    "jelszó",
    "jelszo",
    "lozinka",
    "parola",
    "parolă",
    "parool",
    "şifre",
    "sifre",
    "κωδικός",
    "пароль",
    "парола",
    "лозинка",
    "パスワード",
    "密码",
    "密碼",
    "비밀번호",
)
_LONG_WORDS: Final = _ENGLISH_LONG_WORDS + _OTHER_LANGUAGES
"""Besides English, the single-word labels of ``password_labels`` (a key is read without its
separators, ``mot_de_passe`` as ``motdepasse``)."""
_KEY_QUALIFIERS: Final = frozenset(
    {
        "api",
        "access",
        "secret",
        "private",
        "priv",
        "signing",
        "encryption",
        "enc",
        "client",
        "account",
        "master",
        "license",
        "auth",
        "ssh",
        "gpg",
        "pgp",
        "tls",
        "ssl",
        "shared",
        "storage",
        "app",
        "application",
        "consumer",
        "subscription",
        "webhook",
        "service",
        "admin",
        "root",
        "hmac",
        "jwt",
        "session",
        "x",
        "merchant",
        "transaction",
        "partner",
        "integration",
    }
)
"""A ``key`` word names a credential only after one of these (``api_key``, ``tls.key``,
``merchant_key``, ``transactionKey``)."""
_NOT_THE_VALUE: Final = frozenset(
    {
        "count",
        "counts",
        "len",
        "length",
        "size",
        "ttl",
        "type",
        "types",
        "name",
        "names",
        "file",
        "path",
        "dir",
        "expiry",
        "expires",
        "expiration",
        "exp",
        "url",
        "uri",
        "endpoint",
        "policy",
        "format",
        "version",
        "enabled",
        "required",
        "hint",
        "age",
        "rotation",
        "algorithm",
        "alg",
        "algo",
        "strength",
        "provider",
        "source",
        "status",
        "valid",
        "validated",
        "used",
        "method",
        "methods",
        "mode",
        "scheme",
        "plugin",
        "backend",
        "mechanism",
        "mechanisms",
        "flow",
        "strategy",
        "realm",
        "result",
        "header",
        "headers",
        "field",
        "param",
        "parameter",
        "label",
        "digest",
        "fingerprint",
    }
    | {"richtlinie", "regel", "regeln", "politique", "politica", "política", "beleid", "polityka"}
    | {"datei", "fichier", "archivo", "arquivo", "pfad", "chemin", "ruta", "caminho", "nom"}
    | {"nombre", "nome", "typ", "tipo", "ablauf", "statut", "estado", "hinweis", "indice"}
)
_SOURCE_FILES: Final = frozenset(
    {"java", "kt", "scala", "groovy", "py", "go", "rb", "js", "mjs", "ts", "tsx", "jsx", "cs"}
    | {"c", "cc", "cpp", "h", "hpp", "rs", "php", "swift", "ex", "exs", "erl", "clj", "lua"}
)
"""The extensions of source files: ``TokenService.java:118`` is a file and a line number."""
_SPLIT: Final = re.compile(r"[_.\-\s/]+|(?<=[a-z0-9])(?=[A-Z])")


def is_secret_key(key: str) -> bool:
    """True when a field of this name holds a credential that must not be shown."""
    stripped = key.strip("-.\"'\\ ")
    if not stripped:
        return False
    words = [word.lower() for word in _SPLIT.split(stripped) if word]
    if not words or words[-1] in _NOT_THE_VALUE:
        return False
    if len(words) > 1 and words[-1] in _SOURCE_FILES and stripped[-len(words[-1]) - 1] == ".":
        return False
    if _public_key_part(words):
        return False
    if any(word in _WORDS for word in words):
        return True
    for index, word in enumerate(words):
        if index == 0:
            continue
        if word in ("key", "keys") and words[index - 1] in _KEY_QUALIFIERS:
            return True
        if word in ("code", "codes") and words[index - 1] in _CODE_QUALIFIERS:
            return True
    letters = "".join(words)
    return any(long_word in letters for long_word in _LONG_WORDS) or _joined_pass(words[-1])


_CODE_QUALIFIERS: Final = frozenset(
    {"recovery", "backup", "verification", "verify", "auth", "authorization", "otp", "mfa"}
    | {"2fa", "sms", "reset", "activation", "confirmation", "security", "access", "login"}
    | {"unlock", "puk", "scratch", "emergency", "invite", "invitation", "magic", "one"}
)
"""A ``code`` word names a credential only after one of these (``recovery_code``,
``verification_code``, ``backup_codes``); ``exit_code``, ``status_code``, ``country_code``
name none."""


def _public_key_part(words: list[str]) -> bool:
    """True for a key naming a part of a public key (``PublicKeyToken``, .NET's short digest
    of an assembly's public key; ``public_key_digest``): public by its name."""
    for index, word in enumerate(words[:-1]):
        if word in ("public", "pub") and words[index + 1] in ("key", "keys"):
            return True
    return False


_NOT_PASSWORDS: Final = frozenset(
    {"bypass", "compass", "encompass", "overpass", "underpass", "surpass", "trespass"}
    | {"multipass", "onepass", "twopass", "singlepass", "firstpass", "secondpass", "highpass"}
    | {"lowpass", "bandpass", "allpass", "subpass", "renderpass", "mainpass"}
)


def _joined_pass(word: str) -> bool:
    """True for a word that joins a qualifier to ``pass`` or ``pwd`` without a separator
    (``requirepass``, ``rootpass``, ``smtppass``, ``adminpwd``, ``dbpasswd``), as
    configurations and flags name a password; ``bypass``, ``compass`` and a filter's
    ``lowpass`` are words of their own."""
    return (
        len(word) > 5
        and word.endswith(("pass", "pwd", "passwd"))
        and word.isalpha()
        and word not in _NOT_PASSWORDS
    )


_SWITCH_PREFIXES: Final = ("no-", "no_", "skip-", "disable-", "enable-", "without-", "allow-")
_SWITCH_SUFFIXES: Final = ("-warning", "-warnings", "-prompt", "-check")


def is_switch(flag: str) -> bool:
    """True for a command-line flag that takes no separate value: one that turns something
    on or off (``--no-auth-warning``, ``--skip-auth``, ``--disable-password-prompt``), or a
    short option with its value attached (``-pS3cretPw``, ``-n50``: one dash, then a letter
    and right after it a digit, or a capital after a small letter, which no option name
    does; ``-keyPassword`` is a name). The word after it is an argument of its own, not a
    credential."""
    name = flag.lstrip("-/")
    if flag[:1] == "-" and flag[1:2] != "-" and _attached_value(name):
        return True
    name = name.lower()
    return name.startswith(_SWITCH_PREFIXES) or name.endswith(_SWITCH_SUFFIXES)


def _attached_value(name: str) -> bool:
    if len(name) < 3 or not name[0].isalpha():
        return False
    return name[1].isdigit() or (name[0].islower() and name[1].isupper())
