"""Passwords named in other languages than English: ``Passwort: …``, ``Kennwort=…``, ``mot de
passe : …``, ``contraseña es …``, ``senha=…``, ``wachtwoord is …``, ``hasło: …``, ``lösenord``,
``salasana``, ``パスワード：…``, ``密码=…``, ``비밀번호: …``, ``пароль: …``, ``şifre=…``,
``κωδικός: …`` and the other labels of ``_LABELS``, also inside a longer word that ends with
one (``Datenbankpasswort:``, ``新密码=``) and as a JSON key (``"Kennwort": "…"``).

After ``:`` or ``=`` the value goes whatever its shape, as under an English credential key;
after a word that joins it (``est``, ``ist``, ``es``, ``is``, ``jest``, ``är`` …) only a quoted
value or one shaped like a password does (``le mot de passe est incorrect`` stays). A mask or
a reference stays.
"""

from __future__ import annotations

import re
from typing import Final

from factledger.domain.logs.redaction.credential_phrases import password_shaped, replaced_value
from factledger.domain.logs.redaction.family import TextFamily
from factledger.domain.logs.redaction.value_shapes import is_stand_in

__all__ = ["PASSWORD_LABELS"]

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
    r"|[şs]ifre|κωδικ|συνθηματικ|парол|лозинк|סיסמ|المرور|السر|عبور|पासवर्ड|รหัสผ่าน|khẩu|khau"
    r"|sandi|laluan|パスワード|暗証番号|密码|密碼|口令|비밀번호|암호"
).search
"""A piece of every label, for the gate (one word of a label written in several) and the
probe."""
_JOINING: Final = (
    r"is|est|ist|es|é|e|er|on|jest|je|är|è|είναι|是|は|wordt|was|war|era|foi|était|lautet|ble"
)
_VALUE: Final = r"'[^'\n]*'|\"[^\"\n]*\"|「[^」\n]*」|`[^`\n]*`|[^\s\"'`，。、；「」<]+"
_LABELLED: Final = re.compile(
    r"(?i)(?P<label>(?<![\w.\-])[\w.\-]*?(?:" + _LABELS + r"))"
    r"(?P<close>\\?[\"']?)(?![^\W\d_])"
    r"(?P<sep>[ \t]*(?:=>|[:=＝：])[ \t]*|[ \t]+(?P<word>" + _JOINING + r")[ \t]+"
    r"|[ \t]+(?=[\"'「`])|>)"
    r"(?P<value>" + _VALUE + r")"
)
_TRAILING: Final = ",;.)]}"


def _labelled(match: re.Match[str]) -> str:
    value = match.group("value")
    core = value.rstrip(_TRAILING) if value[:1] not in "'\"「`" else value
    bare = core.strip("'\"「」`")
    if not bare or is_stand_in(bare) or core.startswith("<"):
        return match.group(0)
    quoted = core != bare
    if match.group("word") is not None and not quoted and not password_shaped(core):
        return match.group(0)
    replaced = "「<SECRET>」" if core[:1] == "「" else replaced_value(core)
    start = match.start("value") - match.start()
    return match.group(0)[:start] + replaced + value[len(core) :]


PASSWORD_LABELS: Final = TextFamily(
    name="passwords named in other languages",
    gate=lambda shape: _STEMS(shape.lower()) is not None,
    probe=lambda lowered: _STEMS(lowered) is not None,
    apply=lambda text: _LABELLED.sub(_labelled, text),
)
