"""Passwords a command takes as an argument, where no key, flag name or phrase says so.

A command line is read as shell words (quotes kept, ``|``, ``;``, ``&`` and line breaks
ending a command). For the commands of one table, the value goes whatever its shape:

* **after a flag that command gives a password** (``sshpass -p``, ``ipmitool -P``, ``redis-cli -a``,
  ``snmpwalk -A``/``-X``/``-c``, ``sqlcmd -P``, ``zip -P``, ``openssl enc -k``, ``plink -pw``,
  ``schtasks /rp``), or **glued to it** (``7z -p…``, ``unrar -p…``, ``mysql -p…``,
  ``xfreerdp /p:…``, ``lftp -u user,…``);
* **by position** (``htpasswd -b file user …``, ``net use \\\\host\\share …``,
  ``net user name …``, ``wpa_passphrase ssid …``, ``mc alias set name url access …``,
  ``vault login …``, ``rabbitmqctl add_user name …``, ``mysqladmin password …``,
  ``openssl passwd …``, ``ConvertTo-SecureString "…" -AsPlainText``);
* **piped into a command that reads a password** (``echo … | sudo -S``, ``| chpasswd``
  after ``user:``, ``| docker login --password-stdin``, ``| passwd --stdin``, ``| runas``),
  or **given as a here-string** to one (``rsync --password-file=/dev/stdin <<< '…'``);
* **echoed next to a command that prompts for one** (``runas /user:… app & echo …``,
  ``su - svc && echo …``), when shaped like a password.

A prompt or a reference stays: ``*``, ``-``, ``$VAR``, ``${VAR}``, ``%VAR%``, a placeholder.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped, replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.secret_keys import is_secret_key

__all__ = ["COMMAND_ARGUMENTS", "command_name", "secret_value", "shell_segments"]

_SECRET: Final = Placeholder.SECRET.value
_SNMP: Final = frozenset({"-A", "-X", "-c"})
_FLAGS: Final[dict[str, frozenset[str]]] = {
    "sshpass": frozenset({"-p"}),
    "ssh-keygen": frozenset({"-N", "-P"}),
    "ipmitool": frozenset({"-P"}),
    "sqlcmd": frozenset({"-P"}),
    "bcp": frozenset({"-P"}),
    "osql": frozenset({"-P"}),
    "isql": frozenset({"-P"}),
    "tsql": frozenset({"-P"}),
    "mosquitto_pub": frozenset({"-P"}),
    "mosquitto_sub": frozenset({"-P"}),
    "mosquitto_rr": frozenset({"-P"}),
    "zip": frozenset({"-P"}),
    "unzip": frozenset({"-P"}),
    "openssl": frozenset({"-k"}),
    "plink": frozenset({"-pw"}),
    "pscp": frozenset({"-pw"}),
    "psftp": frozenset({"-pw"}),
    "schtasks": frozenset({"/rp", "/p"}),
    "dsadd": frozenset({"-pwd"}),
    "dsmod": frozenset({"-pwd"}),
    "kadmin": frozenset({"-w"}),
    "ldappasswd": frozenset({"-s", "-w"}),
    "rdesktop": frozenset({"-p"}),
    **dict.fromkeys(("redis-cli", "keydb-cli", "valkey-cli", "redis-benchmark"), frozenset({"-a"})),
    "convertto-securestring": frozenset({"-string"}),
    **dict.fromkeys(("snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpgetnext"), _SNMP),
    **dict.fromkeys(("snmpbulkget", "snmptable", "snmptrap", "snmpinform"), _SNMP),
}
"""Per command: the flags whose next argument is a password."""
_GLUED: Final[dict[str, tuple[str, ...]]] = {
    "7z": ("-p",),
    "7za": ("-p",),
    "7zr": ("-p",),
    "rar": ("-p",),
    "unrar": ("-p",),
    "mysql": ("-p",),
    "mysqldump": ("-p",),
    "mysqladmin": ("-p",),
    "mysqlimport": ("-p",),
    "mysqlcheck": ("-p",),
    "mariadb": ("-p",),
    "xfreerdp": ("/p:",),
    "wfreerdp": ("/p:",),
    "netdom": ("/passwordd:", "/passwordo:"),
}
"""Per command: the flags a password is glued to."""
_POSITIONS: Final[dict[str, tuple[tuple[tuple[str, ...], int], ...]]] = {
    "net": ((("use",), -1), (("user",), 1)),
    "wpa_passphrase": (((), 1),),
    "mc": ((("alias", "set"), 3), (("config", "host", "add"), 3)),
    "vault": ((("login",), 0),),
    "rabbitmqctl": ((("add_user",), 1), (("change_password",), 1)),
    "mysqladmin": ((("password",), 0),),
    "openssl": ((("passwd",), 0),),
    "rclone": ((("obscure",), 0),),
    "convertto-securestring": (((), 0),),
}
"""Per command: its subcommand words, and the password's index among the arguments after
them that are not flags (``-1``: ``net use``'s first argument that is not a device)."""
_FLAG_ARGUMENTS: Final = frozenset({"-u", "-U", "-h", "-H", "-P", "-n", "-salt", "-in", "-address"})
"""Flags that take an argument which is not a password (skipped when counting positions)."""
_HTPASSWD_ARGUMENTS: Final = frozenset({"-C", "-r"})
_WINDOWS: Final = frozenset(
    {"net", "schtasks", "dsadd", "dsmod", "netdom", "xfreerdp", "convertto-securestring"}
)
_STDIN_READERS: Final = frozenset({"chpasswd", "kinit", "runas", "su", "smbpasswd", "vncpasswd"})
_WRITERS: Final = frozenset({"echo", "printf"})
_STDIN_FILES: Final = ("--password-file=/dev/stdin", "--password-file=-", "--passwd-file=-")
_PROMPT_FLAGS: Final = frozenset({"-p", "-P", "-w", "-W"})
"""Short flags that, right before a here-string, ask for the password it gives."""
_PROMPTERS: Final = frozenset({"runas", "su", "sudo", "kinit", "passwd", "smbpasswd", "ssh"})
"""Commands that prompt for a password: an ``echo`` run beside one answers the prompt."""
_COMMANDS: Final = frozenset({*_FLAGS, *_GLUED, *_POSITIONS, "htpasswd", "lftp", "echo", "printf"})
_GATE_NAMES: Final = frozenset(name.replace("7", "0") for name in _COMMANDS)
_TOKEN: Final = re.compile(r"(?:[^\s'\"|;]+|'[^'\n]*'|\"[^\"\n]*\")+|\|\|?|;|\n")
_SEPARATORS: Final = frozenset({"|", "||", "&", "&&", ";", "\n"})
_REFERENCE: Final = re.compile(r"[*\-]|\$\w+|\$\{[^}]*\}|%\w+%|<[A-Z_]+>.*|\$\(.*").fullmatch

_HAS_DIGIT: Final = re.compile(r"\d").search
_FORMAT: Final = re.compile(r"['\"]?(?:%[a-z]|\\[nt])+['\"]?").fullmatch
"""A ``printf`` format (``'%s\\n'``), not the value it writes."""

Token = tuple[int, int, str]


def _name(word: str) -> str:
    """The command a word names: its last path part, lower case, without ``.exe``."""
    name = word.lower().lstrip("([{")
    if "/" in name or "\\" in name:
        name = re.split(r"[/\\]", name)[-1]
    return name[:-4] if name.endswith(".exe") else name


def _secret_value(value: str) -> bool:
    bare = value.strip("'\"") if len(value) >= 2 and value[0] == value[-1] else value
    return bare != "" and _REFERENCE(bare) is None and not bare.startswith("<")


def _is_flag(word: str, windows: bool) -> bool:
    return word[:1] == "-" or (windows and word[:1] == "/")


def _flagged(name: str, args: list[Token], windows: bool) -> list[Token]:
    """The arguments that follow a password flag of the command, or are glued to one."""
    flags, glued = _FLAGS.get(name, frozenset()), _GLUED.get(name, ())
    found: list[Token] = []
    for index, (start, end, word) in enumerate(args):
        flag = word.lower() if windows else word
        if flag in flags and index + 1 < len(args):
            found.append(args[index + 1])
            continue
        for prefix in glued:
            if len(flag) > len(prefix) and flag.startswith(prefix):
                found.append((start + len(prefix), end, word[len(prefix) :]))
        if name == "lftp" and word == "-u" and index + 1 < len(args):
            user_start, user_end, pair = args[index + 1]
            if "," in pair:
                cut = pair.index(",") + 1
                found.append((user_start + cut, user_end, pair[cut:]))
    return found


def _plain_arguments(
    args: list[Token], windows: bool, taking: frozenset[str] = _FLAG_ARGUMENTS
) -> list[Token]:
    """The arguments that are not flags nor the argument of a flag that takes one."""
    plain: list[Token] = []
    skip = False
    for token in args:
        word = token[2]
        if skip:
            skip = False
        elif _is_flag(word, windows):
            skip = word in taking
        else:
            plain.append(token)
    return plain


def _htpasswd(args: list[Token]) -> list[Token]:
    letters = "".join(word[1:] for _, _, word in args if word[:1] == "-" and word[1:].isalpha())
    if "b" not in letters:
        return []
    plain = _plain_arguments(args, False, _HTPASSWD_ARGUMENTS)
    index = 1 if "n" in letters else 2
    return plain[index : index + 1]


def _positional(name: str, args: list[Token], windows: bool) -> list[Token]:
    """The argument at the password's position after the command's subcommand words."""
    if name == "htpasswd":
        return _htpasswd(args)
    plain = _plain_arguments(args, windows)
    words = [word.lower() for _, _, word in plain]
    for subcommand, wanted in _POSITIONS.get(name, ()):
        if tuple(words[: len(subcommand)]) != subcommand:
            continue
        rest = plain[len(subcommand) :]
        position = max(wanted, 0)
        if wanted == -1:
            rest = [t for t in rest if not t[2].startswith("\\") and not t[2].endswith(":")]
        if name == "vault" and rest and ("=" in rest[0][2] or not _HAS_DIGIT(rest[0][2])):
            return []  # ``vault login -method=… role=…``; ``vault login failed`` (no token)
        if name == "convertto-securestring" and not any(
            word.lower() == "-asplaintext" for _, _, word in args
        ):
            return []
        return rest[position : position + 1]
    return []


def _reads_password(tokens: list[Token]) -> bool:
    """True when a command reads a password on its standard input (wherever it starts in the
    line: a log's prefix may come first)."""
    words = [word for _, _, word in tokens]
    names = {_name(word) for word in words}
    if not names.isdisjoint(_STDIN_READERS) or "--password-stdin" in words or "--stdin" in words:
        return True
    if any(word.startswith(_STDIN_FILES) for word in words):
        return True
    return "sudo" in names and "-S" in words


def _echoed(segment: list[Token]) -> list[Token]:
    """The value an ``echo`` or ``printf`` command writes (its last argument, not a format)."""
    at = next((i for i, token in enumerate(segment) if _name(token[2]) in _WRITERS), -1)
    if at < 0:
        return []
    values = [t for t in segment[at + 1 :] if not t[2].startswith("-") and _FORMAT(t[2]) is None]
    return values[-1:]


def _here_string(segment: list[Token]) -> list[Token]:
    """The value of a here-string (``<<< '…'``) given to a command that reads a password."""
    for index, (start, end, word) in enumerate(segment):
        if word.startswith("<<<") and (_reads_password(segment) or _password_flag(segment)):
            if len(word) > 3:
                return [(start + 3, end, word[3:])]
            return list(segment[index + 1 : index + 2])
    return []


_FROM_STDIN: Final = ("=-", "=/dev/stdin")
"""A flag's value that makes the command read standard input."""


def _secret_from_stdin(words: list[str]) -> bool:
    """True when a command told to read standard input stores a secret (``gcloud secrets
    versions add db --data-file=-``, ``vault kv put secret/db password=-``)."""
    return any(word.endswith(_FROM_STDIN) for word in words) and any(map(is_secret_key, words))


def _password_flag(segment: list[Token]) -> bool:
    """True when a command is given a password flag without a value (``--password`` then a
    here-string: the command prompts and reads the answer)."""
    words = [word for _, _, word in segment]
    if any(word[:1] == "-" and "=" not in word and is_secret_key(word) for word in words):
        return True
    if _secret_from_stdin(words):
        return True
    here = next((index for index, word in enumerate(words) if word.startswith("<<<")), 0)
    return here > 0 and words[here - 1] in _PROMPT_FLAGS


def _answered(previous: list[Token], separator: str, segment: list[Token]) -> list[Token]:
    """The password an ``echo`` writes beside a command that prompts for one."""
    if separator not in ("&", "&&", ";") or not any(
        _name(word) in _PROMPTERS for _, _, word in previous[:3]
    ):
        return []
    return [t for t in _echoed(segment) if password_shaped(t[2].strip("'\""))]


def _piped(segment: list[Token], following: list[Token]) -> list[Token]:
    """The value an ``echo`` or ``printf`` writes into a command that reads a password."""
    if not _reads_password(following) and not _secret_from_stdin([t[2] for t in following]):
        return []
    values = _echoed(segment)
    if not values:
        return []
    start, end, word = values[-1]
    if following and _name(following[0][2]) == "chpasswd":
        bare = word.strip("'\"")
        if ":" not in bare:
            return []
        cut = word.index(":") + 1
        return [(start + cut, end - (len(word) - len(word.rstrip("'\""))), bare.split(":", 1)[1])]
    return [(start, end, word)]


def _segments(text: str) -> list[tuple[list[Token], str]]:
    """The commands of a text as shell words, each with the separator after it."""
    segments: list[tuple[list[Token], str]] = []
    current: list[Token] = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        if word in _SEPARATORS:
            segments.append((current, word))
            current = []
        else:
            current.append((match.start(), match.end(), word))
    segments.append((current, ""))
    return segments


def _values(segment: list[Token]) -> list[Token]:
    for index, (_, _, word) in enumerate(segment):
        name = _name(word)
        if name in _COMMANDS and name not in ("echo", "printf"):
            args = segment[index + 1 :]
            windows = name in _WINDOWS
            return _flagged(name, args, windows) + _positional(name, args, windows)
    return []


def _apply(text: str) -> str:
    segments = _segments(text)
    spans: list[Token] = []
    for index, (segment, separator) in enumerate(segments):
        spans.extend(_values(segment))
        spans.extend(_here_string(segment))
        if separator == "|" and index + 1 < len(segments):
            spans.extend(_piped(segment, segments[index + 1][0]))
        if index > 0:
            spans.extend(_answered(segments[index - 1][0], segments[index - 1][1], segment))
    spans = sorted({span for span in spans if _secret_value(span[2])}, reverse=True)
    for start, end, value in spans:
        text = text[:start] + replaced_value(value) + text[end:]
    return text


def _gate(shape: str) -> bool:
    return _name(shape) in _GATE_NAMES or shape.startswith("<<<")


COMMAND_ARGUMENTS: Final = TextFamily(
    name="passwords given to known commands by flag, by position or through a pipe",
    gate=_gate,
    probe=lambda lowered: " " in lowered,
    apply=_apply,
)


shell_segments: Final = _segments
"""The commands of a text as shell words (``(start, end, word)``), each with its separator."""
command_name: Final = _name
"""The command a word names: its last path part, lower case, without ``.exe``."""
secret_value: Final = _secret_value
"""True when an argument is a value, not a prompt or a reference (``*``, ``-``, ``$VAR``)."""
