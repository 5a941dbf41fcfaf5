"""Values given to commands that store a secret or a variable, whatever the value's name.

A command that sets a secret says by itself that its value is one, so the value goes whatever
its name and shape: ``gh secret set NAME --body …`` (``-b…``, ``--body=…``), ``gh variable
set``, ``vault kv put path k=…``, ``vault write``, ``kubectl create secret …
--from-literal=k=…``, ``heroku``/``dokku config:set K=…``, ``doppler``/``flyctl``/``fly``
``secrets set K=…``, ``railway variables set K=…``, ``firebase functions:config:set k=…``,
``eb setenv K=…``, ``aws ssm put-parameter --value …``, ``aws secretsmanager …
--secret-string …``, ``az keyvault secret set --value …``, ``docker``/``podman``/``nerdctl``/
``helm registry`` ``login -p …``, ``netlify env:set K …``, ``cf set-env app K …``.

A reference or a prompt stays (``$VAR``, ``-``, ``*``), and so does a number, a duration, a
size or a boolean when its name names no credential (``WEB_CONCURRENCY=3``, ``--value 3``).
"""

from __future__ import annotations

from typing import Final

from factledger.domain.logs.redaction.command_arguments import (
    command_name,
    secret_value,
    shell_segments,
)
from factledger.domain.logs.redaction.credential_phrases import replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.secret_keys import is_secret_key
from factledger.domain.logs.redaction.value_shapes import is_quantity

__all__ = ["SECRET_SETTERS"]

Token = tuple[int, int, str]
Rule = tuple[tuple[str, ...], frozenset[str], bool, int]
"""Subcommand words, flags whose value is the secret, whether ``K=V`` arguments are, and the
secret's position among the plain arguments (``-1``: none)."""

_NONE: Final[frozenset[str]] = frozenset()
_LOGIN: Final[tuple[Rule, ...]] = ((("login",), frozenset({"-p", "--password"}), False, -1),)
_SECRETS_SET: Final[tuple[Rule, ...]] = ((("secrets", "set"), _NONE, True, -1),)
_RULES: Final[dict[str, tuple[Rule, ...]]] = {
    "gh": (
        (("secret", "set"), frozenset({"-b", "--body"}), False, -1),
        (("variable", "set"), frozenset({"-b", "--body"}), False, -1),
    ),
    "vault": (
        (("kv", "put"), _NONE, True, -1),
        (("kv", "patch"), _NONE, True, -1),
        (("write",), _NONE, True, -1),
    ),
    "kubectl": ((("create", "secret"), frozenset({"--from-literal"}), False, -1),),
    "heroku": ((("config:set",), _NONE, True, -1),),
    "dokku": ((("config:set",), _NONE, True, -1),),
    "doppler": _SECRETS_SET,
    "flyctl": _SECRETS_SET,
    "fly": _SECRETS_SET,
    "railway": ((("variables", "set"), _NONE, True, -1),),
    "firebase": ((("functions:config:set",), _NONE, True, -1),),
    "eb": ((("setenv",), _NONE, True, -1),),
    "aws": (
        (("ssm", "put-parameter"), frozenset({"--value"}), False, -1),
        (("secretsmanager",), frozenset({"--secret-string"}), False, -1),
    ),
    "az": ((("keyvault", "secret", "set"), frozenset({"--value"}), False, -1),),
    "docker": _LOGIN,
    "podman": _LOGIN,
    "nerdctl": _LOGIN,
    "helm": ((("registry", "login"), frozenset({"-p", "--password"}), False, -1),),
    "netlify": ((("env:set",), _NONE, False, 1),),
    "cf": ((("set-env",), _NONE, False, 2),),
}


def _pair_value(token: Token) -> tuple[Token, str] | None:
    """The value of a ``K=V`` argument, with its name."""
    start, end, word = token
    name, equals, value = word.partition("=")
    if not equals or not name or not value or name.startswith("-"):
        return None
    return (start + len(name) + 1, end, value), name


def _flag_values(args: list[Token], flags: frozenset[str]) -> list[tuple[Token, str]]:
    found: list[tuple[Token, str]] = []
    for index, (start, end, word) in enumerate(args):
        flag, equals, _ = word.partition("=")
        if flag in flags and equals:
            found.append(((start + len(flag) + 1, end, word[len(flag) + 1 :]), flag))
        elif word in flags and index + 1 < len(args):
            found.append((args[index + 1], word))
        elif len(word) > 2 and word[:2] in flags and word[1] != "-":
            found.append(((start + 2, end, word[2:]), word[:2]))
    return found


def _subcommand_at(words: list[str], subcommand: tuple[str, ...]) -> int:
    """Where the subcommand starts among the first plain words (after the values of global
    flags, ``kubectl -n prod create secret``), or -1."""
    for offset in range(3):
        if tuple(words[offset : offset + len(subcommand)]) == subcommand:
            return offset
    return -1


def _values(name: str, args: list[Token]) -> list[tuple[Token, str]]:
    plain = [token for token in args if not token[2].startswith("-")]
    words = [token[2].lower() for token in plain]
    for subcommand, flags, pairs, position in _RULES.get(name, ()):
        offset = _subcommand_at(words, subcommand)
        if offset < 0:
            continue
        found = _flag_values(args, flags)
        rest = plain[offset + len(subcommand) :]
        if pairs:
            found.extend(pair for token in rest if (pair := _pair_value(token)) is not None)
        if position >= 0 and position < len(rest):
            found.append((rest[position], rest[position - 1][2] if position else ""))
        literal = [_pair_value(token) for token, flag in found if flag == "--from-literal"]
        found = [item for item in found if item[1] != "--from-literal"]
        return found + [pair for pair in literal if pair is not None]
    return []


def _kept(value: str, name: str) -> bool:
    bare = value.strip("'\"")
    if not secret_value(value) or bare.startswith("<"):
        return True
    return is_quantity(bare) and not is_secret_key(name)


def _apply(text: str) -> str:
    spans: set[Token] = set()
    for segment, _ in shell_segments(text):
        for index, (_, _, word) in enumerate(segment[:3]):
            name = command_name(word)
            if name in _RULES:
                values = _values(name, segment[index + 1 :])
                spans.update(token for token, key in values if not _kept(token[2], key))
                break
    for start, end, value in sorted(spans, reverse=True):
        text = text[:start] + replaced_value(value) + text[end:]
    return text


_HEX_NAMED: Final = frozenset(
    rule[0][0] for name, rules in _RULES.items() if not name.strip("abcdef") for rule in rules
)
"""The first subcommand words of commands named with hex letters only (``cf set-env``): the
redactor reads such a word as a hex id, so the family is gated on the word after it."""


SECRET_SETTERS: Final = TextFamily(
    name="values given to commands that store a secret or a variable",
    gate=lambda shape: command_name(shape) in _RULES or shape in _HEX_NAMED,
    probe=lambda lowered: " " in lowered,
    apply=_apply,
)
