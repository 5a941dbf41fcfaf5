"""Passwords named in other languages than English: ``Passwort: …``, ``Kennwort=…``, ``mot de
passe : …``, ``contraseña es …``, ``senha=…``, ``wachtwoord is …``, ``hasło: …``, ``lösenord``,
``salasana``, ``パスワード：…``, ``密码=…``, ``비밀번호: …``, ``пароль: …``, ``şifre=…``,
``κωδικός: …`` and the other labels of ``_LABELS``, also inside a longer word that ends with
one (``Datenbankpasswort:``, ``新密码=``), as a JSON key (``"Kennwort": "…"``) and as an XML
element (``<Kennwort>…``).

Right after ``:`` or ``=`` the value goes whatever its shape, as under an English credential
key. After a word that joins it (``est``, ``ist``, ``es``, ``is``, ``jest``, ``är`` …), after a
participle of change and its preposition (``geändert auf``, ``changé en``, ``cambiada a``), or
after up to three words that qualify the label before the separator (``Passwort für Benutzer
max: …``, ``contraseña nueva = …``), only a quoted value goes, or a bare one shaped like a
password with a digit or a symbol: ``le mot de passe est incorrect``, ``mot de passe oublié:
demande envoyée`` and ``Passwort geändert auf Anfrage`` stay (nouns are capitalised in some of
these languages). A mask or a reference stays. In Chinese and Japanese
the joining word and the quote follow the label without a space (``密码是…``, ``パスワード「…」``).
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.placeholders import Placeholder
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["PASSWORD_LABELS"]

_SECRET: Final = Placeholder.SECRET.value
_LABELS: Final = (
    "passwort|kennwort|mot de passe|mot-de-passe|contraseña|contrasena|contrasenya|contrasinal"
    "|senha|palavra-passe|wachtwoord|hasło|haslo|heslo|lösenord|losenord|salasana|passord"
    "|adgangskode|kodeord|lykilorð|jelszó|jelszo|geslo|lozinka|slaptažodis|parool|parola|parolă"
    "|şifre|şifresi|sifre|sifresi|κωδικός|κωδικος|κωδικός πρόσβασης|συνθηματικό|пароль|пароля"
    "|парола|лозинка|סיסמה|סיסמא|كلمة المرور|كلمة السر|رمز عبور|पासवर्ड|รหัสผ่าน|mật khẩu"
    "|mat khau|kata sandi|kata laluan|パスワード|暗証番号|密码|密碼|口令|비밀번호|암호"
)
_STEMS: Final = re.compile(
    r"passwort|kennwort|passe|contrase|contrasinal|senha|wachtwoord|has[łl]o|heslo|l[öo]senord"
    r"|salasana|passord|adgangskode|kodeord|lykilor|jelsz|geslo|lozinka|slapta|parool|parol"
    r"|[şs]i\u0307?fre|κωδικ|συνθηματικ|парол|лозинк|סיסמ|المرور|السر|عبور|पासवर्ड|รหัสผ่าน|khẩu|khau"
    r"|sandi|laluan|パスワード|暗証番号|密码|密碼|口令|비밀번호|암호"
).search
"""A piece of every label, for the gate (one word of a label written in several) and the
probe (both read lower-cased words: ``ŞİFRE`` lower-cases with a combining dot)."""
_ASCII_STEMS: Final = re.compile(
    r"p(?:asswort|asse|assord|arool|arol)|k(?:ennwort|odeord|hau)|contras|senha|wachtwoord"
    r"|h(?:aslo|eslo)|losenord|s(?:alasana|ifre|andi|lapta)|adgangskode|lykilor|jelsz|geslo"
    r"|lozinka|laluan"
).search
"""The pieces of ``_STEMS`` in ASCII, grouped by their first letter: most words are ASCII,
and this search is a quarter of the cost of the whole one."""


def _has_stem(lowered: str) -> bool:
    if lowered.isascii():
        return _ASCII_STEMS(lowered) is not None
    return _STEMS(lowered) is not None


_JOINING: Final = (
    r"is|est|ist|es|é|e|er|on|jest|je|är|è|είναι|是|は|wordt|was|war|era|foi|était|lautet|ble"
    r"|là|adalah|ialah|это|wynosi"
)
_INTO: Final = r"auf|in|zu|en|a|para|naar|na|till|til|på|to|на|в|olarak|ni|に"
"""Prepositions after a participle of change (``geändert auf``, ``changé en``, ``cambiada a``,
``gewijzigd in``, ``zmienione na``, ``изменён на``)."""
_QUOTES: Final = {"'": "'", '"': '"', "「": "」", "`": "`", "«": "»", "“": "”", "„": "“"}
"""Opening quotes and their closing ones, in the languages of the labels."""
_VALUE: Final = (
    r"'[^'\n]*'|\"[^\"\n]*\"|「[^」\n]*」|`[^`\n]*`|«[^»\n]*»|“[^”\n]*”|„[^“\n]*“"
    r"|[^\s\"'`，。、；「」«»“”„<]+"
)
_LABELLED: Final = re.compile(
    r"(?i)(?P<label>(?<![\w.\-])[\w.\-]*?(?:" + _LABELS + r"))"
    r"(?P<close>\\?[\"']?)(?:(?![^\W\d_])|(?=[是为為は]))"
    r"(?P<sep>[ \t]*(?:=>|[:=＝：])[ \t]*|[ \t]+(?P<word>" + _JOINING + r")[ \t]+"
    r"|(?P<glued>[是为為は])[ \t]*|(?=[「«“„])"
    r"|[ \t]+(?P<changed>[^\W\d_]{3,20}[ \t]+(?:" + _INTO + r"))[ \t]+"
    r"|[ \t]+(?=[\"'「`«“„])|>"
    r"|(?P<qualified>(?:[ \t]+[^\s:=＝：\"'`<>]{1,24}){1,3}?[ \t]*(?:=>|[:=＝：])[ \t]*))"
    r"(?P<value>" + _VALUE + r")"
)
_TRAILING: Final = ",;.)]}"


def _shaped(value: str) -> bool:
    """A bare value that reads as a password after a word: letters with digits, or two kinds
    of character with a digit or a symbol (never a word alone, whatever its case)."""
    if any(char.isdigit() for char in value) and any(char.isalpha() for char in value):
        return True
    return not value.isalpha() and password_shaped(value)


def _labelled(match: re.Match[str]) -> str:
    value = match.group("value")
    close = _QUOTES.get(value[:1])
    quoted = close is not None and len(value) > 2 and value.endswith(close)
    core = value if quoted else value.rstrip(_TRAILING)
    bare = core[1:-1].strip() if quoted else core
    if not bare or is_stand_in(bare) or core.startswith("<"):
        return match.group(0)
    words = (
        match.group("word")
        or match.group("qualified")
        or match.group("changed")
        or match.group("glued")
    )
    if words and not quoted and not _shaped(core):
        return match.group(0)
    replaced = core[0] + _SECRET + core[-1] if quoted else _SECRET
    start = match.start("value") - match.start()
    return match.group(0)[:start] + replaced + value[len(core) :]


PASSWORD_LABELS: Final = TextFamily(
    name="passwords named in other languages",
    gate=lambda shape: _has_stem(shape.lower()),
    probe=_has_stem,
    apply=lambda text: _LABELLED.sub(_labelled, text),
)
