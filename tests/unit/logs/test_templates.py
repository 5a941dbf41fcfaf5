"""Template mining: the template of known lines, generalisation to words never seen, and
what a batch merge may and may not do."""

from __future__ import annotations

import random

import pytest

from factledger.domain.logs.mining import mine_templates, template_of
from factledger.domain.logs.template_merge import MergeSettings, merge_templates
from factledger.domain.logs.templates import fingerprint, mask_word, template_of_masked


@pytest.mark.parametrize(
    ("message", "template"),
    [
        (
            "PacketResponder 1 for block blk_-695229586 terminating",
            "PacketResponder <*> for block blk_<*> terminating",
        ),
        ("session opened for user root by (uid=0)", "session opened for user root by (uid=<*>)"),
        ("Component state (HWID=1973)", "Component state (HWID=<*>)"),
        ("delete blk_1 blk_2 blk_3 blk_4", "delete blk_<*>"),
        ("nodes n1 ok n2 ok n3 ok", "nodes <*> ok"),
        ("loading /etc/app/config.yaml now", "loading <*> now"),
        ("connected to <IP>:5432 as app", "connected to <*> as app"),
        ("synchronized to LOCAL(0), stratum 10", "synchronized to <*>, stratum <*>"),
        ("auxiliary processor.........0", "auxiliary processor.........<*>"),
        ("generating core.2275", "generating core.<*>"),
        ("open through proxy gw.example.org:8080 HTTPS", "open through proxy <*> HTTPS"),
        ("status=M Thu Aug 04 15:29:45 PDT 2005", "status=M <*> PDT <*>"),
        ("plain words only", "plain words only"),
    ],
)
def test_the_template_of_a_known_line(message: str, template: str) -> None:
    assert template_of(message) == template


def test_a_word_without_digits_or_path_stays_as_it_is() -> None:
    assert mask_word("Connection") == "Connection"
    assert mask_word("(root)") == "(root)"


def test_a_key_value_word_is_masked_as_its_key_and_its_masked_value() -> None:
    assert template_of("cache hit key=orders:123 ttl=30s") == "cache hit key=orders:<*> ttl=<*>"


_SERVICES = ("echo", "time", "chargen", "day", "discard", "finger", "ident")


def test_words_of_one_position_with_many_values_merge_into_a_variable() -> None:
    templates = [f"removing service {name} now" for name in _SERVICES]
    assert set(merge_templates(templates).values()) == {"removing service <*> now"}


def test_a_few_words_of_one_position_that_stand_elsewhere_too_merge_into_a_variable() -> None:
    templates = [f"removing service {name} now" for name in _SERVICES[:4]]
    templates += [f"adding {name} at <*>" for name in _SERVICES[:4]]
    assert set(merge_templates(templates).values()) == {
        "removing service <*> now",
        "adding <*> at <*>",
    }


def test_two_values_of_a_constant_word_stay_two_templates() -> None:
    templates = ["connection opened to peer", "connection closed to peer"]
    assert merge_templates(templates) == {template: template for template in templates}


def test_a_program_name_in_first_position_is_a_variable_when_it_takes_many_values() -> None:
    programs = ("Alpha.exe", "beta.exe", "Gamma.exe", "delta.exe", "eps.exe", "Zeta.exe", "eta.exe")
    messages = [f"{name} - <*> open through proxy <*> HTTPS" for name in programs]
    assert set(merge_templates(messages).values()) == {"<*> - <*> open through proxy <*> HTTPS"}


def test_a_single_word_message_never_merges_with_another() -> None:
    words = ["running", "blocked", "active", "idle", "stopped"]
    assert merge_templates(words) == {word: word for word in words}


def test_a_word_beside_a_number_in_some_siblings_is_a_variable() -> None:
    merged = merge_templates(["user <*> logged in", "user root logged in"])
    assert set(merged.values()) == {"user <*> logged in"}


def test_a_unit_that_changes_belongs_to_its_value() -> None:
    merged = merge_templates(
        ["stored block (size <*> KB, free <*> MB)", "stored block (size <*> B, free <*> MB)"]
    )
    assert set(merged.values()) == {"stored block (size <*>, free <*> MB)"}


def test_a_quoted_word_after_a_variable_is_no_unit() -> None:
    templates = ['<*> "GET <*>" status: <*>', '<*> "POST <*>" status: <*>']
    assert merge_templates(templates) == {template: template for template in templates}


def test_values_of_one_key_merge_from_three_values_on() -> None:
    two = [f"job done state={state} in <*>" for state in ("ok", "failed")]
    three = [*two, "job done state=lost in <*>"]
    assert merge_templates(two) == {template: template for template in two}
    assert set(merge_templates(three).values()) == {"job done state=<*> in <*>"}


def test_a_merge_that_joins_two_variables_continues_at_the_shorter_length() -> None:
    names = ("ann", "bob", "cyd", "dan")
    messages = [f"login {name} <*> from <*> ok" for name in names] + ["login <*> from <*> ok"]
    assert set(merge_templates(messages).values()) == {"login <*> from <*> ok"}


def test_a_rule_switched_off_by_its_setting_no_longer_merges() -> None:
    templates = [f"job done state={state} in <*>" for state in ("ok", "failed", "lost")]
    off = MergeSettings(keyed_values=99, min_values=4)
    assert merge_templates(templates, off) == {template: template for template in templates}


def test_unseen_vocabulary_is_mined_like_seen_vocabulary() -> None:
    rng = random.Random(5)

    def name() -> str:
        return "".join(rng.choice("bcdfgklmnprstvz") + rng.choice("aeiou") for _ in range(3))

    messages = [
        f"Failed password for {name()} from 10.0.{i}.1 port {4000 + i} ssh2" for i in range(12)
    ]
    messages += [
        f"Accepted key for {name()} from 10.1.{i}.2 port {5000 + i} ssh2" for i in range(6)
    ]
    assert set(mine_templates(messages)) == {
        "Failed password for <*> from <*> port <*>",  # ssh2 holds a digit: a value
        "Accepted key for <*> from <*> port <*>",
    }


def test_the_batch_templates_do_not_depend_on_the_order_of_the_messages() -> None:
    rng = random.Random(11)
    messages = [
        f"worker {rng.choice('abcdefgh')}x started job {i} on {rng.choice('pqrs')}z"
        for i in range(40)
    ]
    messages += [f"worker {i} stopped" for i in range(5)] + ["disk full on /dev/sda1"] * 3
    shuffled = list(messages)
    rng.shuffle(shuffled)
    forward = dict(zip(messages, mine_templates(messages), strict=True))
    backward = dict(zip(shuffled, mine_templates(shuffled), strict=True))
    assert forward == backward


def test_a_fingerprint_is_stable_and_short() -> None:
    assert fingerprint("request <*> took <*>") == "03e9edc4863e"  # the same id in every run
    assert fingerprint("a") != fingerprint("b")
    assert len(fingerprint("a")) == 12


def test_a_list_of_values_apart_by_commas_is_one_variable_however_long() -> None:
    for count in (2, 3, 7):
        message = "ids [" + ", ".join(str(10 + item) for item in range(count)) + "] done"
        assert template_of_masked([mask_word(word) for word in message.split()]) == (
            "ids [<*>] done"
        )


def test_merged_lists_of_words_of_any_length_are_one_template() -> None:
    names = ("riko", "maso", "tule", "bapi", "nove", "sade")
    templates = [
        "moved [" + ", ".join(names[start : start + count]) + "] now"
        for count in (1, 2, 3, 4)
        for start in range(len(names) - count + 1)
    ]
    assert set(merge_templates(templates).values()) == {"moved [<*>] now"}
