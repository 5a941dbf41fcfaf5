"""Template mining: masking rules, merging and fingerprints."""

from __future__ import annotations

import pytest

from factledger.domain.logs.mining import mine_templates, template_of
from factledger.domain.logs.templates import fingerprint, mask_word, merge_templates


@pytest.mark.parametrize(
    ("message", "template"),
    [
        (
            "PacketResponder 1 for block blk_-695229586 terminating",
            "PacketResponder <*> for block <*> terminating",
        ),
        ("session opened for user root by (uid=0)", "session opened for user root by (uid=<*>)"),
        ("Component state (HWID=1973)", "Component state (HWID=<*>)"),
        ("estimated size 24.2 KB, free 317.1 KB)", "estimated size <*>, free <*>)"),
        ("Release Date: Fri Dec 12 10:00:00 EST 2005", "Release Date: <*> EST <*>"),
        ("delete blk_1 blk_2 blk_3 blk_4", "delete <*>"),
        ("loading /etc/app/config.yaml now", "loading <*> now"),
        ("connected to <IP>:5432 as app", "connected to <*> as app"),
        ("synchronized to LOCAL(0), stratum 10", "synchronized to <*>, stratum <*>"),
        ("plain words only", "plain words only"),
    ],
)
def test_variable_parts_of_a_message_become_wildcards(message: str, template: str) -> None:
    assert template_of(message) == template


def test_a_word_without_digits_or_path_stays_as_it_is() -> None:
    assert mask_word("Connection") == "Connection"
    assert mask_word("(root)") == "(root)"


def test_templates_differing_in_one_word_with_many_values_merge() -> None:
    templates = [f"removing service {name} now" for name in ("echo", "time", "chargen", "daytime")]
    merged = merge_templates(templates)
    assert set(merged.values()) == {"removing service <*> now"}


def test_templates_differing_in_one_word_with_few_values_stay_apart() -> None:
    templates = ["connection opened to peer", "connection closed to peer"]
    merged = merge_templates(templates)
    assert merged == {template: template for template in templates}


def test_the_first_word_never_becomes_a_wildcard_by_merging() -> None:
    templates = [f"{verb} the cache entry" for verb in ("evict", "insert", "update", "touch")]
    merged = merge_templates(templates)
    assert merged == {template: template for template in templates}


def test_a_fingerprint_is_stable_and_short() -> None:
    assert fingerprint("request <*> took <*>") == fingerprint("request <*> took <*>")
    assert fingerprint("a") != fingerprint("b")
    assert len(fingerprint("a")) == 12


def test_a_key_value_word_is_masked_as_its_key_and_its_masked_value() -> None:
    assert template_of("cache hit key=orders:123 ttl=30s") == "cache hit key=orders:<*> ttl=<*>"


def test_a_batch_is_redacted_mined_and_merged_in_order() -> None:
    messages = [f"removing service {name} now" for name in ("echo", "time", "chargen", "day")]
    messages.append("login from 10.0.0.1 ok")
    assert mine_templates(messages) == ["removing service <*> now"] * 4 + ["login from <*> ok"]
