"""Values for the redaction corpus, made from a seeded random generator: passwords, keys,
checksummed numbers (Luhn cards, mod-97 IBANs, Luhn SINs, DNI letters), addresses, names.

Nothing here is, or was copied from, a real credential or a real person's data: every value
is drawn from ``random.Random`` with the corpus seed.
"""

from __future__ import annotations

import random
import string
from typing import Final

LOWER: Final = string.ascii_lowercase
UPPER: Final = string.ascii_uppercase
DIGITS: Final = string.digits
BASE62: Final = LOWER + UPPER + DIGITS
BASE64: Final = BASE62 + "+/"
USERS: Final = ("alice", "bob", "carol", "dmitri", "eve.sato", "f.muller", "gwen_o", "hiro")
HOSTS: Final = ("db1.prod.internal", "cache-2.svc", "api.example.org", "10.20.30.40")


def choice(rng: random.Random, items: tuple[str, ...] | str) -> str:
    return items[rng.randrange(len(items))]


def text(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(choice(rng, alphabet) for _ in range(size))


def password(rng: random.Random) -> str:
    """A password of 10 to 16 characters with every kind of character."""
    size = rng.randrange(10, 17)
    chars = [choice(rng, LOWER), choice(rng, UPPER), choice(rng, DIGITS), choice(rng, "!#%&*+-?@^")]
    chars += [choice(rng, BASE62 + "!#%*-_") for _ in range(size - 4)]
    rng.shuffle(chars)
    first = next(index for index, char in enumerate(chars) if char.isalnum())
    chars[0], chars[first] = chars[first], chars[0]
    return "".join(chars)


def random_key(rng: random.Random, size: int) -> str:
    """Base62 with at least two digits, two upper- and two lower-case letters."""
    while True:
        body = text(rng, BASE62, size)
        if (
            sum(c.isdigit() for c in body) >= 3
            and sum(c.isupper() for c in body) >= 2
            and sum(c.islower() for c in body) >= 2
        ):
            return body


def luhn_complete(prefix: str, size: int, rng: random.Random) -> str:
    """A number of ``size`` digits starting with ``prefix`` whose last digit makes Luhn pass."""
    body = prefix + text(rng, DIGITS, size - len(prefix) - 1)
    for last in DIGITS:
        if luhn_ok(body + last):
            return body + last
    raise AssertionError("unreachable")


def luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return luhn_complete("4", 16, rng)
    if kind == 1:
        return luhn_complete(choice(rng, ("51", "52", "53", "54", "55")), 16, rng)
    if kind == 2:
        return luhn_complete(choice(rng, ("34", "37")), 15, rng)
    return luhn_complete("6011", 16, rng)


def grouped_card(rng: random.Random, separator: str) -> str:
    number = card(rng)
    if len(number) == 15:
        return separator.join((number[:4], number[4:10], number[10:]))
    return separator.join(number[i : i + 4] for i in range(0, 16, 4))


_IBAN_LENGTHS: Final = {
    "DE": 22,
    "GB": 22,
    "FR": 27,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "BE": 16,
    "CH": 21,
    "AT": 20,
    "PL": 28,
}


def iban(rng: random.Random) -> str:
    country = choice(rng, tuple(_IBAN_LENGTHS))
    size = _IBAN_LENGTHS[country]
    if country in ("GB", "NL"):
        bban = text(rng, UPPER, 4) + text(rng, DIGITS, size - 8)
    else:
        bban = text(rng, DIGITS, size - 4)
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    check = 98 - int(numeric) % 97
    return f"{country}{check:02d}{bban}"


def grouped_iban(rng: random.Random) -> str:
    compact = iban(rng)
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def ssn(rng: random.Random) -> str:
    area = rng.choice([n for n in range(1, 900) if n != 666])
    return f"{area:03d}-{rng.randrange(1, 100):02d}-{rng.randrange(1, 10000):04d}"


def nino(rng: random.Random) -> str:
    first = choice(rng, "ABCEGHJKLMPRSTWXYZ")
    second = choice(rng, "ABCEGHJKLMNPRSTWXYZ")
    return first + second + text(rng, DIGITS, 6) + choice(rng, "ABCD")


def sin(rng: random.Random) -> str:
    number = luhn_complete(choice(rng, "1234567"), 9, rng)
    return f"{number[:3]}-{number[3:6]}-{number[6:]}"


def dni(rng: random.Random) -> str:
    number = rng.randrange(10_000_000, 99_999_999)
    return f"{number}{'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}"


def fiscal_code(rng: random.Random) -> str:
    return (
        text(rng, UPPER, 6)
        + text(rng, DIGITS, 2)
        + choice(rng, "ABCDEHLMPRST")
        + text(rng, DIGITS, 2)
        + choice(rng, UPPER)
        + text(rng, DIGITS, 3)
        + choice(rng, UPPER)
    )


def pan(rng: random.Random) -> str:
    return (
        text(rng, UPPER, 3)
        + choice(rng, "ABCFGHLJPT")
        + choice(rng, UPPER)
        + (text(rng, DIGITS, 4) + choice(rng, UPPER))
    )


def ipv4(rng: random.Random) -> tuple[int, int, int, int]:
    return (rng.randrange(1, 224), rng.randrange(256), rng.randrange(256), rng.randrange(1, 255))


def ipv6(rng: random.Random) -> str:
    groups = [f"{rng.randrange(65536):x}" for _ in range(8)]
    groups[0] = choice(rng, ("2001", "2a02", "fd12", "2600"))
    return ":".join(groups)


def mac(rng: random.Random, separator: str) -> str:
    return separator.join(f"{rng.randrange(256):02x}" for _ in range(6))


def user(rng: random.Random) -> str:
    return choice(rng, USERS) + str(rng.randrange(10, 99))


def uuid(rng: random.Random) -> str:
    """A random version-4 UUID in lower case."""
    digits = "".join(rng.choice("0123456789abcdef") for _ in range(32))
    return f"{digits[:8]}-{digits[8:12]}-4{digits[13:16]}-a{digits[17:20]}-{digits[20:]}"
