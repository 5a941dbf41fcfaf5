"""Public values the blind red-team set found masked: a digest written after its algorithm's
name at exactly that digest's length (Subresource Integrity's ``sha512-…``, go.sum's
``h1:…=``), a multipart ``boundary=``, and a cookie that holds a setting such as a time zone
percent-encoded (``tz=Europe%2FBerlin``)."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

_SHA512 = "N//KWVcnH1e4LNFOVoJ0gbmGw1lZi7H7nIgzf/IOkx/R+NsyVGSjpq6M17EgXnZ1Gbn3k/bm1GFdx+jvUEso1A=="
_SHA384 = "oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"

KEPT = [
    f'"integrity": "sha512-{_SHA512}",',
    f'<script src="x.js" integrity="sha384-{_SHA384}" crossorigin="anonymous">',
    f"resolved sha512-{_SHA512}",
    "golang.org/x/net v0.24.0 h1:1PcaxkF854Fu3+lvBIx5SYn9wRlBzzcnHZSiaFFAb0w=",
    "golang.org/x/net v0.24.0/go.mod h1:Zq9x8LmP2vR7tW3kLq0yN1bV4cX5zA6sD7fG8hJ9kLm=",
    "Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
    'Content-Type: multipart/mixed; boundary="Zq9x8LmP2vR7tW3kLq0yN1bV4cX5zA6sD7fG"',
    "Cookie: lang=en-US; tz=Europe%2FBerlin",
    "Cookie: tz=America%2FArgentina%2FBuenos_Aires; currency=EUR",
]

MASKED = [
    (
        "token=sha512-Zq9x8LmP2vR7tW3kLq0yN1bV4cX5zA6sD7fG8hJ9kLm",
        "Zq9x8LmP2vR7tW3kLq0yN1bV4cX5zA6sD7fG",
    ),
    ("Cookie: session=Europe%2FBerlinZx8q7Lm2", "Zx8q7Lm2"),
]


@pytest.mark.parametrize("line", KEPT)
def test_a_public_digest_boundary_or_setting_stays(line: str) -> None:
    assert Redactor().redact(line) == line


@pytest.mark.parametrize(("line", "secret"), MASKED)
def test_a_digest_of_the_wrong_length_or_a_session_cookie_goes(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)
