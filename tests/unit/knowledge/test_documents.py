"""Runbooks are split into a title, sections with heading paths, and bounded chunks."""

from __future__ import annotations

from pathlib import Path

from factledger.adapters.knowledge.corpus import read_corpus
from factledger.adapters.knowledge.documents import chunk_text, parse_markdown, parse_plain

RUNBOOK = """\
---
owner: payments
---
# Card gateway timeouts

Intro text under the title.

## Symptoms

GW-504 errors.

## Remedy

### Pool exhausted ###

Restart pods one at a time.

```bash
# not a heading: inside a fence
kubectl rollout restart deployment/card-gateway
```

## Escalation
Page the secondary.
"""


def test_the_first_level_one_heading_is_the_title_and_sections_carry_their_heading_path() -> None:
    parsed = parse_markdown(RUNBOOK)

    assert parsed.title == "Card gateway timeouts"
    assert [section.path for section in parsed.sections] == [
        (),
        ("Symptoms",),
        ("Remedy", "Pool exhausted"),
        ("Escalation",),
    ]
    assert parsed.sections[0].text == "Intro text under the title."


def test_a_hash_line_inside_a_code_fence_is_text_not_a_heading() -> None:
    remedy = parse_markdown(RUNBOOK).sections[2]

    assert "# not a heading: inside a fence" in remedy.text
    assert "kubectl rollout restart" in remedy.text


def test_front_matter_is_not_indexed() -> None:
    parsed = parse_markdown(RUNBOOK)

    assert all("owner: payments" not in section.text for section in parsed.sections)


def test_a_heading_without_a_space_after_the_hashes_is_text() -> None:
    parsed = parse_markdown("# Title\n\n#hashtag is not a heading\n")

    assert parsed.sections[0].path == ()
    assert parsed.sections[0].text == "#hashtag is not a heading"


def test_a_shallower_heading_closes_the_deeper_ones() -> None:
    parsed = parse_markdown("# T\n## A\n### B\nb\n## C\nc\n")

    assert [section.path for section in parsed.sections] == [("A", "B"), ("C",)]


def test_plain_text_is_one_section_without_a_title() -> None:
    parsed = parse_plain("\ufeffline one\r\nline two\r\n")

    assert parsed.title is None
    assert [(section.path, section.text) for section in parsed.sections] == [
        ((), "line one\nline two")
    ]


def test_a_long_section_is_cut_into_chunks_at_paragraph_and_word_boundaries() -> None:
    paragraphs = ["alpha " * 30, "beta " * 30, "gamma " * 90]
    chunks = chunk_text("\n\n".join(paragraphs), max_chars=200)

    assert all(len(chunk) <= 200 for chunk in chunks)
    assert chunks[0].startswith("alpha")
    assert any(chunk.startswith("beta") for chunk in chunks)
    assert " ".join(" ".join(chunks).split()) == " ".join(" ".join(paragraphs).split())


def test_a_single_word_longer_than_a_chunk_is_cut_inside() -> None:
    chunks = chunk_text("x" * 450, max_chars=200)

    assert [len(chunk) for chunk in chunks] == [200, 200, 50]


def test_a_folder_gives_stable_ids_titles_and_chunk_ids(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "gateway.md").write_text(RUNBOOK, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("plain runbook text", encoding="utf-8")
    (tmp_path / "untitled.md").write_text("## Only a section\nbody\n", encoding="utf-8")
    (tmp_path / "ignored.rst").write_text("not a runbook format", encoding="utf-8")
    (tmp_path / ".hidden.md").write_text("# Hidden\nsecret", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.md").write_text("# Git\ntext", encoding="utf-8")

    corpus = read_corpus(tmp_path, max_chunk_chars=1200, max_file_bytes=100_000)

    assert [chunk.document_id for chunk in corpus.chunks] == [
        "notes.txt",
        "team/gateway.md",
        "team/gateway.md",
        "team/gateway.md",
        "team/gateway.md",
        "untitled.md",
    ]
    assert corpus.chunks[0].title == "notes"
    assert corpus.chunks[1].title == "Card gateway timeouts"
    assert corpus.chunks[3].section == "Remedy > Pool exhausted"
    assert corpus.chunks[3].chunk_id == "team/gateway.md#3.1"
    assert corpus.chunks[5].title == "untitled"
    assert corpus.chunks[5].section == "Only a section"
    assert (corpus.documents, corpus.sections, corpus.skipped) == (3, 6, ())


def test_a_file_too_large_is_skipped_and_named(tmp_path: Path) -> None:
    (tmp_path / "big.md").write_text("# Big\n" + "word " * 100, encoding="utf-8")
    (tmp_path / "small.md").write_text("# Small\ntext", encoding="utf-8")

    corpus = read_corpus(tmp_path, max_chunk_chars=1200, max_file_bytes=100)

    assert corpus.skipped == ("big.md",)
    assert {chunk.document_id for chunk in corpus.chunks} == {"small.md"}


def test_bytes_that_are_not_utf8_do_not_stop_indexing(tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 pool".encode("latin-1"))

    corpus = read_corpus(tmp_path, max_chunk_chars=1200, max_file_bytes=100_000)

    assert corpus.chunks[0].text == "caf\ufffd pool"
