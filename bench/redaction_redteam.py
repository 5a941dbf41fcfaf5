r"""Blind red-team measure of the log redactor: ``tests/data/redaction/redteam_blind.jsonl``.

    python bench/redaction_redteam.py

The corpus (written by ``tests/data/redaction/make_redteam_blind.py``, seeded) holds secret and
personal values in lines modelled on real logs of real software, and must-keep values that
look like secrets but are not. It was written without reading the redactor, its rules or its
tests, is measured as it stands and is not edited to fit the redactor. It is in no corpus test
and no figures command: a held-out measure only.

Each line is redacted as ``tests/support/redaction_corpus.py`` does
(``Redactor().redact(line)``), and judged with that module's ``leaked`` (a piece of six
characters of a secret value, or the whole of a shorter one, found in the redacted line and
nowhere else in the original) and ``kept`` (every must-keep value intact). Printed: the secret
formats leaking, with the redacted line, and the keep rows broken.

First run (2026-12-04, redactor at commit afa468e; ``python bench/redaction_redteam.py``)::

    secret formats 322 in 24 families; leaking 27
    keep rows 185; broken 15; intact 91.9%

One row was then found wrong by its own shape, not by the redactor: ``vendor_tokens/age_secret``
had ``-`` and letters outside Bech32 in the key body (it leaked ``-SQSNUS``, the part after a
``-`` that no real age key holds). With that row fixed, the same redactor gives 26 leaking
formats of 322 and the same 15 broken keeps (91.9% intact).

Leaking (26): credentials in a key the rules do not know or in a nested JSON value
(``spring_env_dump``, ``snmp_community``, ``recovery_code``), a token in a URL path
(``auth_in_path``), vendor keys with no labelled prefix (Twilio auth token as a positional
argument, Mailchimp ``…-us21``; Discord bot token: the user-id and timestamp segments are kept,
only the HMAC part goes), a phone with its country code apart (``+44 20 7326 1373``), a
national form with ``00`` (``0049…``), an e-mail with ``\u0040``, a lower-case ``c:\users\``
home, MAC addresses bare (``C0F9C64D1C8D``) and inside iptables' ``MAC=`` field, a dotted German
date of birth, passport numbers (JSON key, MRZ lines 1 and 2), GPS fixes (JSON, pair, ``geo:``,
NMEA), license plates (UK, DE), an IDFA, an IMSI and an ICCID.

Broken keeps (15): public values taken for secrets (.NET ``PublicKeyToken``, a ``tz`` cookie,
a multipart ``boundary``, npm ``sha512-`` integrity, a ``go.sum`` ``h1:`` hash, Stripe
``ch_`` / ``evt_`` object ids, ``api_key_header=X-API-Key``, ``SecretId=prod/db/main`` and the
word ``GetSecretValue``, ``otp_digits=6`` / ``otp_period=30``, the word ``signature`` in
``jwt: signature is invalid``), and values the redactor replaces with a typed placeholder
(``pid=48213`` and ``sshd[22114]`` → ``<PID>``, a pod name → ``<POD>``, a SQL literal and the
``1`` of a SQL comment → ``<SQL_LITERAL>``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from factledger.domain.logs.redaction import Redactor  # noqa: E402
from tests.support.redaction_corpus import Row, kept, leaked  # noqa: E402

CORPUS: Final = ROOT / "tests" / "data" / "redaction" / "redteam_blind.jsonl"


def load(path: Path = CORPUS) -> list[Row]:
    rows: list[Row] = []
    for text in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(text)
        rows.append(
            {
                "family": str(raw["family"]),
                "format": str(raw["format"]),
                "kind": str(raw["kind"]),
                "line": str(raw["line"]),
                "values": [str(value) for value in raw["values"]],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    arguments = parser.parse_args()
    rows = load(arguments.corpus)
    secrets = [row for row in rows if row["kind"] == "secret"]
    keeps = [row for row in rows if row["kind"] == "keep"]
    leaks: list[tuple[Row, str, list[str]]] = []
    for row in secrets:
        redacted = Redactor().redact(row["line"])
        pieces = leaked(row, redacted)
        if pieces:
            leaks.append((row, redacted, pieces))
    broken: list[tuple[Row, str, list[str]]] = []
    for row in keeps:
        redacted = Redactor().redact(row["line"])
        if not kept(row, redacted):
            lost = [value for value in row["values"] if value not in redacted]
            broken.append((row, redacted, lost))
    families = {row["family"] for row in secrets}
    leaking_formats = {row["format"] for row, _, _ in leaks}
    print(
        f"secret formats {len({row['format'] for row in secrets})} in {len(families)} families;"
        f" leaking {len(leaking_formats)}"
    )
    intact = len(keeps) - len(broken)
    print(f"keep rows {len(keeps)}; broken {len(broken)}; intact {intact / max(len(keeps), 1):.1%}")
    if leaks:
        print("\nleaks (format: pieces found)")
        for row, redacted, pieces in leaks:
            print(f"  {row['format']}: {', '.join(sorted(set(pieces))[:4])}")
            print(f"    line:     {row['line']}")
            print(f"    redacted: {redacted}")
    if broken:
        print("\nbroken keeps (format: values lost)")
        for row, redacted, lost in broken:
            print(f"  {row['format']}: {', '.join(lost)}")
            print(f"    line:     {row['line']}")
            print(f"    redacted: {redacted}")


if __name__ == "__main__":
    main()
