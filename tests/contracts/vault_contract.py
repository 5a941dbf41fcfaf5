"""One contract suite for the PayloadVault port, purge included.

Each adapter subclasses ``VaultContract`` in a few lines, providing ``vault``, ``clock``,
``wait`` (move time on: a manual clock, or a real sleep of a fraction of a second) and
``leftovers``: every byte the store keeps where someone with the machine could read it (the
store's files for SQLite and a Redis with an append-only file, the process's bodies for the
in-memory vault). ``EXPIRES_ITSELF`` is True for a store whose server removes expired bodies
on its own (a purge then deletes none itself).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta
from typing import ClassVar

import pytest
from returns.result import Success

from factledger.ports.clock import Clock
from factledger.ports.payload_vault import PayloadKey, PayloadPart, PayloadVault, PayloadWrite

Leftovers = Callable[[], bytes]


def _key(call: str, part: PayloadPart = PayloadPart.RAW) -> PayloadKey:
    return PayloadKey("run-a", call, part)


def _secret(label: str) -> bytes:
    return f"sk_live_{label}_{os.urandom(6).hex()}".encode()


class VaultContract:
    """Every adapter of the vault port must pass these."""

    EXPIRES_ITSELF: ClassVar[bool] = False

    @pytest.fixture
    def clock(self) -> Clock:
        raise NotImplementedError

    @pytest.fixture
    def vault(self) -> PayloadVault:
        raise NotImplementedError

    @pytest.fixture
    def wait(self) -> Callable[[float], None]:
        raise NotImplementedError

    @pytest.fixture
    def leftovers(self) -> Leftovers:
        raise NotImplementedError

    # -- reading and expiry -------------------------------------------------------------

    def test_get_many_answers_in_order_with_none_for_absent_bodies(
        self, vault: PayloadVault, clock: Clock
    ) -> None:
        later = clock.now() + timedelta(hours=1)
        keys = [_key(f"call-{i}", PayloadPart.REQUEST) for i in range(3)]
        vault.put([PayloadWrite(keys[0], b"zero", later), PayloadWrite(keys[2], b"two", later)])
        assert vault.get_many(keys) == Success((b"zero", None, b"two"))
        assert vault.get_many([]) == Success(())

    def test_a_body_written_already_expired_is_never_readable(
        self, vault: PayloadVault, clock: Clock
    ) -> None:
        key = _key("call-1", PayloadPart.RESULT)
        vault.put([PayloadWrite(key, b"old", clock.now() - timedelta(seconds=1))])
        assert vault.get_many([key]) == Success((None,))

    def test_reading_never_renews_a_body_and_it_expires_on_time(
        self, vault: PayloadVault, clock: Clock, wait: Callable[[float], None]
    ) -> None:
        key = _key("call-1")
        vault.put([PayloadWrite(key, b"body", clock.now() + timedelta(milliseconds=600))])
        first = vault.remaining_ttl_ms(key)
        assert isinstance(first, Success)
        assert first.unwrap() is not None
        wait(0.3)
        assert vault.get_many([key]) == Success((b"body",))
        second = vault.remaining_ttl_ms(key)
        assert isinstance(second, Success)
        assert second.unwrap() is not None
        assert second.unwrap() < first.unwrap() - 200
        wait(0.4)
        assert vault.get_many([key]) == Success((None,))
        assert vault.remaining_ttl_ms(key) == Success(None)

    def test_rewriting_a_body_with_the_same_expiry_keeps_the_remaining_time(
        self, vault: PayloadVault, clock: Clock, wait: Callable[[float], None]
    ) -> None:
        key = _key("call-1")
        expires_at = clock.now() + timedelta(seconds=5)
        vault.put([PayloadWrite(key, b"one", expires_at)])
        wait(0.3)
        vault.put([PayloadWrite(key, b"two", expires_at)])
        remaining = vault.remaining_ttl_ms(key)
        assert isinstance(remaining, Success)
        assert remaining.unwrap() is not None
        assert remaining.unwrap() <= 4800

    # -- purge --------------------------------------------------------------------------

    def test_a_purge_deletes_expired_bodies_and_keeps_live_ones(
        self, vault: PayloadVault, clock: Clock, wait: Callable[[float], None]
    ) -> None:
        soon = clock.now() + timedelta(milliseconds=200)
        later = clock.now() + timedelta(hours=1)
        vault.put(
            [
                PayloadWrite(_key("gone-1"), b"first", soon),
                PayloadWrite(_key("gone-2"), b"second", soon),
                PayloadWrite(_key("kept"), b"kept", later),
            ]
        )
        wait(0.4)
        purged = vault.purge_expired()
        assert isinstance(purged, Success)
        assert purged.unwrap().bodies == (0 if self.EXPIRES_ITSELF else 2)
        assert purged.unwrap().compacted
        keys = [_key("gone-1"), _key("gone-2"), _key("kept")]
        assert vault.get_many(keys) == Success((None, None, b"kept"))
        again = vault.purge_expired()
        assert isinstance(again, Success)
        assert again.unwrap().bodies == 0

    def test_a_purge_of_an_empty_vault_deletes_nothing(self, vault: PayloadVault) -> None:
        purged = vault.purge_expired()
        assert isinstance(purged, Success)
        assert purged.unwrap().bodies == 0

    def test_after_a_purge_no_byte_of_an_expired_body_is_left_anywhere(
        self,
        vault: PayloadVault,
        clock: Clock,
        wait: Callable[[float], None],
        leftovers: Leftovers,
    ) -> None:
        soon = clock.now() + timedelta(milliseconds=300)
        later = clock.now() + timedelta(hours=1)
        expired = [_secret(f"gone{i}") for i in range(40)]
        rewritten = _secret("rewritten")
        kept = _secret("kept")
        writes = [
            # Bodies of many sizes, so some share pages and some overflow them.
            PayloadWrite(_key(f"gone-{i}"), secret + b"." * (37 * i * i), soon)
            for i, secret in enumerate(expired)
        ]
        writes.append(PayloadWrite(_key("kept"), b"live " + kept, later))
        writes.append(PayloadWrite(_key("rewritten"), b"first " + rewritten, later))
        vault.put(writes)
        # The live body is rewritten: its first content must not survive either.
        vault.put([PayloadWrite(_key("rewritten"), b"second version", later)])
        before = leftovers()
        assert expired[0] in before, "the check sees where the store keeps bodies"
        wait(0.5)
        purged = vault.purge_expired()
        assert isinstance(purged, Success)
        assert purged.unwrap().compacted
        after = leftovers()
        assert [secret for secret in expired if secret in after] == []
        assert rewritten not in after
        assert kept in after, "live bodies are kept"
