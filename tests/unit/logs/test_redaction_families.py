"""Each rule family catches the forms it names, and the values that only look alike stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

LEAKS = [
    ("_:'REDIS_PASS='B7bwkPwla0!qb3Iz'", "B7bwkPwla0!qb3Iz"),
    ("mysql -u root -p Xk9mQ2vLp7 -h db1", "Xk9mQ2vLp7"),
    ("redis-cli -h cache1 -a Xk9mQ2vLp7 ping", "Xk9mQ2vLp7"),
    ("ldapsearch -x -w Xk9mQ2vLp7 -D cn=admin", "Xk9mQ2vLp7"),
    ("sshpass -p 'Xk9mQ2vLp7' ssh deploy@h1", "Xk9mQ2vLp7"),
    ("psql --password Xk9mQ2vLp7", "Xk9mQ2vLp7"),
    ("app --password=Xk9mQ2vLp7 --verbose", "Xk9mQ2vLp7"),
    ("machine api.example.org login bob password Xk9mQ2vLp7", "Xk9mQ2vLp7"),
    ("machine api.example.org login bob password hunter", "hunter"),
    ("changed password to 'Xk9mQ2vLp7' for user bob", "Xk9mQ2vLp7"),
    ('set the password to "correct horse" for bob', "correct horse"),
    ("GET /index.php?PHPSESSID=a8f5f167f44f4964e6c998dee827110c HTTP/1.1", "a8f5f167f44f4964"),
    ("GET /app/cart;jsessionid=0AAB6C8DE415E2E5F1A0B3C8D9E7F612 HTTP/1.1", "0AAB6C8DE415E2"),
    ("payment card_cvv=123 exp=12/27", "=123"),
    ("cvv: 123 accepted", "123"),
    ("CVC 4567 sent", "4567"),
    ("using zxq_9fK2mP7vQ8rL3tW6yB1nD4hJ0sX5cA for upload", "9fK2mP7vQ8rL3tW6yB1n"),
    ("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "b3BlbnNzaC1r"),
    ("transfer to DE89370400440532013000 ok", "370400440532013000"),
    ("iban GB82 WEST 1234 5698 7654 32 booked", "5698 7654"),
    ("ssn 078-05-1120 verified", "078-05-1120"),
    ("NI number AB123456C", "AB123456C"),
    ("call +44 20 7946 0958 now", "7946 0958"),
    ("phone 020 7946 0958", "7946 0958"),
    ("card 4111.1111.1111.1111 declined", "4111.1111"),
    ("open /home/alice/.ssh/config", "alice"),
    ("open /Users/alice/Library/x", "alice"),
    (r"open C:\Users\alice\AppData\x", "alice"),
    (r"open C:\Documents and Settings\alice\Desktop\a.txt", "alice"),
    ("cd ~alice/src", "alice"),
    ("mail to jane.doe&#64;corp.example.org queued", "jane.doe"),
    ("reply-to bob&#x40;example.com", "bob"),
    ("notify mary.o'neil+ops@corp.example.co.uk done", "mary"),
    ("sms sent to 1-312-555-0187 ok", "312-555-0187"),
    ("en0: ether 8:0:27:c4:1e:5 media autoselect", "8:0:27:c4:1e:5"),
    ('{"user": 7, "msisdn": "491701234567"}', "491701234567"),
    ("contact phone=3125550187 saved", "3125550187"),
    ("Telefonnummer 0891234567 hinterlegt", "0891234567"),
    ("cc dan.o'brien@mail.example.org", "dan.o"),
    ("connection from 0x0A000001 accepted", "0x0A000001"),
    ("connection from 167772161 accepted", "167772161"),
    ("from 010.000.000.001 connected", "010.000.000.001"),
    ("from fe80::1ff:fe23:4567:890a%eth0 connected", "fe23:4567"),
]

DIGEST = "9b2c7e1f0a3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b"

KEEPS = [
    ("phone_id=12345678 ok", "phone_id=12345678"),
    ("tel 42 retries", "tel 42"),
    ("started 12:30:45 ratio 1:2:3", "12:30:45 ratio 1:2:3"),
    ("mobile app 2.14.1 build 20261203", "2.14.1 build 20261203"),
    ("token_ttl_seconds=3600", "token_ttl_seconds=3600"),
    ("max_tokens=4096", "max_tokens=4096"),
    (
        "pull ghcr.io/acme/api@sha256:" + DIGEST,
        "acme/api@sha256",
    ),
    (
        "image registry.example.com/app:1.4.2@sha256:" + DIGEST,
        "app:1.4.2@sha256",
    ),
    (r"HKCU\Software\Settings\Foo\Bar", r"Settings\Foo"),
    (r"C:\Documents and Settings\All Users\x", "All Users"),
    ("usage prompt_tokens=812 completion_tokens=77", "completion_tokens=77"),
    ("auth: login ok", "auth: login ok"),
    ("session_count=42", "session_count=42"),
    ("password expired for user bob", "password expired"),
    ("ssh -p 2222 deploy@h1", "-p 2222"),
    ("mkdir -p /var/lib/app", "-p /var/lib/app"),
    ("docker run -p 8080:80 web", "-p 8080:80"),
    ("curl -w 5 http", "-w 5"),
    ("took 350ms size=4096 status=503", "took 350ms size=4096 status=503"),
    ("error 0x80070005 access denied", "0x80070005"),
    ("trace_id=4bf92f3577b34da6a3ce929d0e0e4736", "4bf92f3577b34da6a3ce929d0e0e4736"),
    ("request 3f2b1c4e-8a9d-4b7e-9c1a-2d3e4f5a6b7c", "3f2b1c4e-8a9d-4b7e-9c1a-2d3e4f5a6b7c"),
    ("window from 1717243200 to 1717246800", "1717243200"),
    ("Jun 01 12:00:01 started", "Jun 01 12:00:01"),
    ("upgraded to 1.10.0-rc.1 on 2024-06-01", "2024-06-01"),
]


@pytest.mark.parametrize(("line", "secret"), LEAKS, ids=[line for line, _ in LEAKS])
def test_a_sensitive_value_of_every_family_is_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(("line", "kept"), KEEPS, ids=[line for line, _ in KEEPS])
def test_a_value_that_only_looks_sensitive_stays(line: str, kept: str) -> None:
    assert kept in Redactor().redact(line)


def test_every_line_of_a_private_key_is_replaced_also_without_its_first_line() -> None:
    body = [
        "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
        "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
        "LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo",
        "-----END RSA PRIVATE KEY-----",
    ]
    redacted = Redactor().redact("\n".join(body))
    for line in body[:3]:
        assert line[:16] not in redacted
    assert "-----END RSA PRIVATE KEY-----" in redacted


def test_a_pgp_block_is_replaced_line_by_line() -> None:
    block = [
        "-----BEGIN PGP PRIVATE KEY BLOCK-----",
        "Version: GnuPG v2",
        "",
        "lQOYBF0bZ2kBCADJ3Q9w3Zx1jdEoOqvT9cK2kqQzX4hG7pB1sDfUy8nV0aLmRt5c",
        "=Xk9m",
        "-----END PGP PRIVATE KEY BLOCK-----",
    ]
    redacted = Redactor().redact("\n".join(block))
    assert "lQOYBF0bZ2kB" not in redacted
    assert "=Xk9m" not in redacted


NATIONAL_PHONES = [
    ("call 030/1234567", "1234567"),
    ("call 030/123 4567 now", "123 4567"),
    ("tel 030-1234567", "1234567"),
    ("tel 0221-9876543 office", "9876543"),
    ("fax (030)1234567", "1234567"),
    ("fax (030) 1234567", "1234567"),
    ("mobile 06.12.34.56.78 reachable", "12.34.56"),
    ("mobile 06-12-34-56-78 reachable", "12-34-56"),
    ("contact [030/1234567]", "1234567"),
    ('"phone":"030/1234567"', "1234567"),
    ("phone=0221/9876543", "9876543"),
]
NOT_PHONES = [
    ("ratio 030/120 held", "030/120"),
    ("on 12/05/2026 at noon", "12/05/2026"),
    ("date 01/05/2026 10:00", "01/05/2026"),
    ("GET /api/v1 HTTP/1.1 200", "HTTP/1.1"),
    ("read /var/lib/0123/4567890 ok", "/var/lib/0123/4567890"),
    ("requires >=1.0.0,<2.0.0 and 0.10-0.12", "0.10-0.12"),
    ("range 010-020 used", "010-020"),
    ("build 2024.06.01-1234 ok", "2024.06.01-1234"),
    ("took 0.25/0.50 s", "0.25/0.50"),
]


def _both_ways(line: str) -> list[str]:
    """The line redacted alone, by the projector's word pass, and inside a text with a tab
    (which reads every text family)."""
    from factledger.domain.logs.templates import mask_word

    return [
        Redactor().redact(line),
        Redactor(word_hook=mask_word).redact_words(line)[0],
        Redactor().redact("x\t" + line),
    ]


@pytest.mark.parametrize(("line", "number"), NATIONAL_PHONES, ids=[n for n, _ in NATIONAL_PHONES])
def test_a_national_phone_number_is_replaced_whatever_its_separators(
    line: str, number: str
) -> None:
    for redacted in _both_ways(line):
        assert number not in redacted
        assert "<PHONE>" in redacted


@pytest.mark.parametrize(("line", "kept"), NOT_PHONES, ids=[n for n, _ in NOT_PHONES])
def test_a_number_with_separators_that_is_no_phone_stays(line: str, kept: str) -> None:
    for redacted in _both_ways(line):
        assert kept in redacted


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("password for svc-reports set to Lq8#vNw2Tz", "Lq8#vNw2Tz"),
        ("password of the user mhansen is 'plain words too'", "plain words too"),
        ("issued access token Pq7Rm2Xk9Lw4Tz8Vb3Nc to worker", "Pq7Rm2Xk9Lw4Tz8Vb3Nc"),
        ("signing_key: Hb6Tq1Zm8Wr3Lp5Nx2Vc", "Hb6Tq1Zm8Wr3Lp5Nx2Vc"),
        ("api key 7d444840-9dc0-11d1-b245-5ffdce74fad2 rejected", "7d444840-9dc0"),
        ("logon ops/Zz9!kLmq2 from console", "Zz9!kLmq2"),
        ("vault.setSecret('Yv3Lp8Qm1Tr6Wk') ok", "Yv3Lp8Qm1Tr6Wk"),
        ('db open "etl:Pw4-Etl!x@unix(/run/mysqld.sock)/dw"', "Pw4-Etl!x"),
        ("beneficiary fr14 2004 1010 0505 0001 3m02 606 added", "0505 0001"),
        ("refund nl91abna0417164300 issued", "nl91abna0417164300"),
        ("date of birth: 7 March 1990 confirmed", "March 1990"),
        ("DOB 03/07/1990 on file", "03/07/1990"),
        ("passport #: K7719034 checked", "K7719034"),
        ("drivers-license 4471-2039-88 captured", "4471-2039-88"),
        ("reach him on 0044 7911 123456", "7911 123456"),
    ],
)
def test_a_value_named_by_the_words_before_it_is_replaced(line: str, secret: str) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("password for user mhansen expired after 90 days", "mhansen"),
        ("access token issued to worker-12 in 35ms", "worker-12"),
        ("api key lookup took 12ms for tenant acme-eu", "acme-eu"),
        ("login ops/console from bastion", "ops/console"),
        ("login db-replica:5432 timed out", "db-replica:5432"),
        ("Worker:RequestHandler@1187 started", "RequestHandler@1187"),
        ("pool main:HikariPool$Proxy@5f3a2b1c closed", "HikariPool$Proxy@5f3a2b1c"),
        ("token.verify('header') failed", "header"),
        ("digest de12c4a9b8e7f6a5d4c3b2a1 stored", "de12c4a9b8e7f6a5d4c3b2a1"),
        ("shard zz12 3456 7890 1234 rebuilt", "zz12 3456 7890 1234"),
        ("passport service build 20261201 deployed", "20261201"),
        ("licence seats 12345 of 20000 used", "12345"),
        ("born-again cluster 2026-12-01 restart", "2026-12-01"),
    ],
)
def test_words_after_a_credential_or_document_noun_that_are_no_value_stay(
    line: str, kept: str
) -> None:
    assert kept in Redactor().redact(line)


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("applicant bsn: 123456782 stored", "123456782"),
        ("klient PESEL 90090515836 zweryfikowany", "90090515836"),
        ("id check cpf=529.982.247-25 passed", "982.247"),
        ("kyc: aadhaar no. 4998 1234 5678 uploaded", "1234 5678"),
        ('{"holder":"x","hetu":"010594Y9032"}', "010594Y9032"),
        ("refund to account no 987654321012 scheduled", "987654321012"),
        ("Kontonummer: 1234567890 gespeichert", "1234567890"),
        ("reach the owner at r.ahmed%40mail.example.org today", "r.ahmed"),
        ("owner s.ng (at) shop (dot) example for billing", "s.ng"),
        ('cmd="AUTH" "app" "Kz8!mq2Lw" from 10.1.1.1', "Kz8!mq2Lw"),
        ("replica.example:6432:*:stream:Strm-9qLw entry read", "Strm-9qLw"),
        ("keytool -list -keystore ca.p12 -storepass Tr4st-St0re", "Tr4st-St0re"),
        ("Authorization: GenieKey 8f3Kq2LmW9zPx7RtVb4Nc6Yd", "8f3Kq2LmW9zPx7RtVb4Nc6Yd"),
        ("stored hash $apr1$abCD1234$Qq9Ww8Ee7Rr6Tt5Yy4Uu3/", "Qq9Ww8Ee7Rr6Tt5Yy4Uu3"),
        (r"profile at \\corp-fs\profiles$\t.nguyen\ntuser.dat", "t.nguyen"),
        ('chpasswd <<< "svc_backup:Bk-9wQz!4"', "Bk-9wQz!4"),
    ],
)
def test_a_value_named_by_a_country_id_word_a_protocol_or_a_record_is_replaced(
    line: str, secret: str
) -> None:
    assert secret not in Redactor().redact(line)


@pytest.mark.parametrize(
    ("line", "kept"),
    [
        ("bsn check took 45ms", "45ms"),
        ("account 812 suspended for 30 days", "812"),
        ("account opened 2026-01-31 by ops", "2026-01-31"),
        ("identity sync v3.2.1 done", "v3.2.1"),
        ("AUTH rejected for client 42", "rejected"),
        ("run 7654321 ended", "7654321"),
        ("url /q?term=a%2Cb%40c returned 200", "200"),
        ("CAUGHT AT org.acme.Main line 12", "org.acme.Main"),
        ("api_token_expires_in=900 password_latency=20ms", "=900"),
        ("wal 00:11:22:33:44 flushed", "00:11:22:33:44"),
        ("tar -x -f dump.tar -C /srv", "dump.tar"),
        ('- name: REPLICAS value: "5"', '"5"'),
        ("idleTimeout.......600000", "600000"),
        ("LOGIN attempt(3) rejected: bad input", "rejected:"),
        ("createdb -U owner_app shop_2026", "owner_app"),
    ],
)
def test_words_around_ids_protocols_and_records_that_are_no_value_stay(
    line: str, kept: str
) -> None:
    assert kept in Redactor().redact(line)
