"""Corpus families of numbers confirmed by their own check and a word near them (US routing
numbers, UK sort codes, Aadhaar, US tax numbers, Medicare MBIs) or by their shape and check
digits alone (CPF, CNPJ, dashed MBIs), with the keys payment gateways name after a merchant
or a transaction; and the numbers of the same shapes that must stay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from factledger.domain.logs.redaction.checked_numbers import aba_valid, verhoeff_valid
from tests.support import redaction_values as make

Maker = Callable[[random.Random], str]

_MBI_LETTERS: Final = "ACDEFGHJKMNPQRTUVWXY"


def _digits(rng: random.Random, size: int) -> str:
    return make.text(rng, make.DIGITS, size)


def _routing(rng: random.Random) -> str:
    while True:
        value = make.choice(rng, ("01", "02", "04", "11", "12", "22", "26", "31", "63", "71"))
        value += _digits(rng, 7)
        if aba_valid(value):
            return value


def _routing_free(rng: random.Random) -> str:
    return _routing(rng)


def _sort_code(rng: random.Random) -> str:
    code = "-".join(_digits(rng, 2) for _ in range(3))
    return code if rng.randrange(3) else code.replace("-", "")


def _aadhaar(rng: random.Random) -> str:
    while True:
        value = make.choice(rng, "23456789") + _digits(rng, 11)
        if verhoeff_valid(value):
            separator = make.choice(rng, (" ", "-", ""))
            return separator.join((value[:4], value[4:8], value[8:]))


def _tax_number(rng: random.Random) -> str:
    form = rng.randrange(3)
    if form == 0:
        return f"{rng.randrange(10, 99)}-{_digits(rng, 7)}"
    if form == 1:
        return f"9{_digits(rng, 2)}-{rng.randrange(70, 99)}-{_digits(rng, 4)}"
    return _digits(rng, 9)


def _mbi(rng: random.Random, dashed: bool) -> str:
    def letter() -> str:
        return make.choice(rng, _MBI_LETTERS)

    def either() -> str:
        return make.choice(rng, _MBI_LETTERS + make.DIGITS)

    parts = (
        str(rng.randrange(1, 10)) + letter() + either() + _digits(rng, 1),
        letter() + either() + _digits(rng, 1),
        letter() + letter() + _digits(rng, 2),
    )
    return ("-" if dashed else "").join(parts)


def _cpf(rng: random.Random) -> str:
    numbers = [int(d) for d in _digits(rng, 9)]
    for size in (9, 10):
        total = sum(n * (size + 1 - i) for i, n in enumerate(numbers[:size]))
        numbers.append(total * 10 % 11 % 10)
    s = "".join(map(str, numbers))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


def _cnpj(rng: random.Random) -> str:
    numbers = [int(d) for d in _digits(rng, 8)] + [0, 0, 0, 1]
    weights = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
    for size in (12, 13):
        check = 11 - sum(n * w for n, w in zip(numbers, weights[13 - size :], strict=False)) % 11
        numbers.append(0 if check >= 10 else check)
    s = "".join(map(str, numbers))
    return f"{s[:2]}.{s[2:5]}.{s[5:8]}/{s[8:12]}-{s[12:]}"


def _bad_mbi(rng: random.Random) -> str:
    good = _mbi(rng, True)
    return good[:4] + "-" + make.choice(rng, "SLOIBZ") + good[6:]


SECRET_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "us_routing_number_near_name": (
        _routing,
        (
            "ACH transfer routing {v} acct ****1234",
            "aba={v}",
            '{{"routing_number":"{v}"}}',
            "wire via Fedwire RTN {v}",
        ),
    ),
    "uk_sort_code_near_name": (
        _sort_code,
        ("BACS sort code {v} account 4{n}112233", "sort_code={v}", "Sort Code: {v} ok"),
    ),
    "aadhaar_near_name": (
        _aadhaar,
        ("aadhaar e-KYC done for {v}", "uidai auth request uid {v}", '{{"aadhaar":"{v}"}}'),
    ),
    "us_tax_number_upper_name": (
        _tax_number,
        ("vendor EIN {v} verified", "W-9 received, TIN: {v}", "payee ITIN {v}", "tax id {v}"),
    ),
    "medicare_beneficiary_identifier": (
        lambda rng: _mbi(rng, rng.randrange(2) == 0),
        ("eligibility check MBI {v} active", "medicare id: {v}", "beneficiary {v} enrolled"),
    ),
    "medicare_mbi_dashed_alone": (
        lambda rng: _mbi(rng, True),
        ("claim for {v} submitted", "270 inquiry {v}", '{{"member":"{v}"}}'),
    ),
    "merchant_transaction_key": (
        lambda rng: make.random_key(rng, rng.randrange(12, 33)),
        (
            "merchant_key={v}",
            '{{"transactionKey":"{v}"}}',
            "partner-key: {v}",
            "integrationKey={v}",
        ),
    ),
    "brazil_cpf_cnpj_checked": (
        lambda rng: _cpf(rng) if rng.randrange(2) else _cnpj(rng),
        ("titular {v} cadastrado", "nota fiscal emitida para {v}", "documento={v}"),
    ),
}

KEEP_FAMILIES: Final[dict[str, tuple[Maker, tuple[str, ...]]]] = {
    "nine_digit_number_without_name": (
        _routing_free,
        ("order {v} shipped", "seq={v} committed", "offset {v} for partition {n}"),
    ),
    "lower_case_ein_tin": (
        lambda rng: f"{rng.randrange(10, 99)}-{_digits(rng, 7)}",
        ("Es gab ein Problem mit Auftrag {v}", "tin can batch {v} packed"),
    ),
    "mbi_shaped_forbidden_letter": (
        _bad_mbi,
        ("part {v} in stock", "claim ref {v}"),
    ),
}
