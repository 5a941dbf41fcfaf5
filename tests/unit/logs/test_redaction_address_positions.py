"""Addresses written as one number away from the word that names them (a few words after it,
before a port, after ``user@``, in a list of addresses) and IPv4 addresses inside IPv6 ones go;
numbers of the same shape that are no address stay."""

from __future__ import annotations

import pytest

from factledger.domain.logs.redaction import Redactor

GOES = [
    # a decimal or hexadecimal address a few words after the word naming it, before a port,
    # after a user and `@`, in a list after another address
    ("connection from host 167772161 closed", "connection from host <IP> closed"),
    ("peer 10.0.0.1 and backup 167772161", "peer <IP> and backup <IP>"),
    ("peer address is 167772161", "peer address is <IP>"),
    ("connecting to server at 167772161:5432", "connecting to server at <IP>:5432"),
    ("dial tcp 3232235777:443: i/o timeout", "dial tcp <IP>:443: i/o timeout"),
    (
        "Accepted publickey for bob from 167772161 port 22",
        "Accepted publickey for bob from <IP> port 22",
    ),
    ("ssh root@167772161", "ssh root@<IP>"),
    ("Host: 167772161", "Host: <IP>"),
    ("X-Forwarded-For: 167772161, 3232235778", "X-Forwarded-For: <IP>, <IP>"),
    ("forwarded_for=167772161", "forwarded_for=<IP>"),
    ("nameserver 134744072", "nameserver <IP>"),
    ("route add 167772161 gw 3232235777", "route add <IP> gw <IP>"),
    ("resolved api.example.org to 167772161", "resolved <HOST> to <IP>"),
    ("ping 167772161", "ping <IP>"),
    ("whitelisted 167772161, 3232235778 and 3232235779", "whitelisted <IP>, <IP> and <IP>"),
    ("fail2ban: Ban 3232235777", "fail2ban: Ban <IP>"),
    ("gateway_ip 167772161", "gateway_ip <IP>"),
    ("src=0xa000001", "src=<IP>"),
    ("[3232235777] connected", "[<IP>] connected"),
    ("0xc0a80101 connected from gw", "<IP> connected from gw"),
    ("ssh to bob@0xc0a80101 refused", "ssh to bob@<IP> refused"),
    ("GET http://017700000001/", "GET http://<IP>/"),
]

KEPT = [
    # numbers of the address's shape that are no address
    "server started at 1717243200 took 12345678 ns",
    "from 1717243200 to 1717246800 client=web",
    "client error 2147942405 (HRESULT)",
    "peer 127.0.0.1 sent 167772161 bytes",
    "host cpu_ns=167772161",
    "clusterfilesystem.no_server 1074279038 1 ClusterFileSystem: There is no server",
    "server_id 1074279038 upstream_response_time 1074279038",
    "client connected at 1717243200",
    "job 12345678:12:30 done",
    # a unit after the number makes it a quantity
    "max allowed 67108864 bytes",
    "blocked 16777216 requests in 60s",
    "route 167772161 packets",
    "total 3232235777 connected clients",
]


@pytest.mark.parametrize(("line", "expected"), GOES)
def test_the_value_goes_and_its_name_stays(line: str, expected: str) -> None:
    assert Redactor().redact(line) == expected


@pytest.mark.parametrize("line", KEPT)
def test_look_alikes_stay_intact(line: str) -> None:
    assert Redactor().redact(line) == line
