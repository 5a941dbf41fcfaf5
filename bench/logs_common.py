"""Shared pieces of the logs measurements: the Loghub samples and Drain3 set-ups."""

from __future__ import annotations

import csv
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from attrs import frozen

from factledger.domain.json_types import JsonObject
from factledger.domain.logs.line_format import assemble_records
from factledger.domain.logs.query import LogQuery
from factledger.domain.logs.raw_format import UNKNOWN_LEVEL, RawHeader, encode_raw, query_header

__all__ = [
    "DATASETS",
    "DEFAULT_LOGHUB",
    "DRAIN3_EXAMPLE_MASKS",
    "DRAIN3_PER_DATASET",
    "OPEN_QUERY",
    "LoghubSample",
    "drain3_miner",
    "load_sample",
    "raw_for",
    "require_directory",
]

DEFAULT_LOGHUB: Final = Path("/work/shared/data/loghub")
OPEN_QUERY: Final = LogQuery(service=None, text=None, start=None, end=None, limit=1)
"""The query a raw made by ``raw_for`` answers (no filter)."""
DATASETS: Final = (
    "BGL",
    "HDFS",
    "HPC",
    "Hadoop",
    "Spark",
    "Thunderbird",
    "Windows",
    "Zookeeper",
)

DRAIN3_EXAMPLE_MASKS: Final = (
    (r"((?<=[^A-Za-z0-9])|^)(([0-9a-f]{2,}:){3,}([0-9a-f]{2,}))((?=[^A-Za-z0-9])|$)", "ID"),
    (r"((?<=[^A-Za-z0-9])|^)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})((?=[^A-Za-z0-9])|$)", "IP"),
    (r"((?<=[^A-Za-z0-9])|^)([0-9a-f]{6,} ?){3,}((?=[^A-Za-z0-9])|$)", "SEQ"),
    (r"((?<=[^A-Za-z0-9])|^)([0-9A-F]{4} ?){4,}((?=[^A-Za-z0-9])|$)", "SEQ"),
    (r"((?<=[^A-Za-z0-9])|^)(0x[a-f0-9A-F]+)((?=[^A-Za-z0-9])|$)", "HEX"),
    (r"((?<=[^A-Za-z0-9])|^)([\-\+]?\d+)((?=[^A-Za-z0-9])|$)", "NUM"),
    (r"(?<=executed cmd )(\".+?\")", "CMD"),
)
"""The masks of Drain3's example configuration (``examples/drain3.ini``)."""


@frozen
class DrainSetting:
    """Drain's benchmark setting for one Loghub dataset (logparser's Drain benchmark)."""

    masks: tuple[str, ...]
    """Regular expressions replaced by ``<*>`` before mining."""
    similarity: float
    """Similarity threshold."""
    depth: int
    """Parse tree depth."""


DRAIN3_PER_DATASET: Final = {
    "HDFS": DrainSetting((r"blk_-?\d+", r"(\d+\.){3}\d+(:\d+)?"), 0.5, 4),
    "Hadoop": DrainSetting((r"(\d+\.){3}\d+",), 0.5, 4),
    "Spark": DrainSetting((r"(\d+\.){3}\d+", r"\b[KGTM]?B\b", r"([\w-]+\.){2,}[\w-]+"), 0.5, 4),
    "Zookeeper": DrainSetting((r"(/|)(\d+\.){3}\d+(:\d+)?",), 0.5, 4),
    "BGL": DrainSetting((r"core\.\d+",), 0.5, 4),
    "HPC": DrainSetting((r"=\d+",), 0.5, 4),
    "Thunderbird": DrainSetting((r"(\d+\.){3}\d+",), 0.5, 4),
    "Windows": DrainSetting((r"0x.*?\s",), 0.7, 5),
}
"""Drain's hand-tuned per-dataset settings from the Loghub benchmark (logpai/logparser)."""


@frozen
class LoghubSample:
    """One Loghub 2k sample: the raw lines and the ground truth of the Content column."""

    name: str
    """Dataset name."""
    raw_lines: tuple[str, ...]
    """The ``*_2k.log`` lines, envelopes included."""
    contents: tuple[str, ...]
    """The ``Content`` column of the ground truth."""
    event_ids: tuple[str, ...]
    """The ground-truth template id of each content."""
    truth_file: str
    """Which ground truth file was read."""


def require_directory(path: Path) -> Path:
    """The path, or exit with a clear message when it is not a directory."""
    if not path.is_dir():
        sys.exit(f"Loghub data directory not found: {path} (pass --data DIR)")
    return path


def load_sample(root: Path, name: str) -> LoghubSample:
    """A dataset's sample, the corrected ground truth when there is one."""
    folder = root / name
    corrected = folder / f"{name}_2k.log_structured_corrected.csv"
    plain = folder / f"{name}_2k.log_structured.csv"
    truth = corrected if corrected.is_file() else plain
    log_file = folder / f"{name}_2k.log"
    if not truth.is_file() or not log_file.is_file():
        sys.exit(f"missing Loghub files for {name} in {folder}")
    with truth.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    raw = log_file.read_text(encoding="utf-8", errors="replace").splitlines()
    return LoghubSample(
        name=name,
        raw_lines=tuple(raw),
        contents=tuple(row["Content"] for row in rows),
        event_ids=tuple(row["EventId"] for row in rows),
        truth_file=truth.name,
    )


def drain3_miner(
    masks: tuple[tuple[str, str], ...],
    similarity: float = 0.4,
    depth: int = 4,
    extra_delimiters: tuple[str, ...] = (),
    max_clusters: int | None = None,
) -> object:
    """A Drain3 ``TemplateMiner`` with the given masks (profiling off, no persistence)."""
    from drain3 import TemplateMiner
    from drain3.masking import MaskingInstruction
    from drain3.template_miner_config import TemplateMinerConfig

    config = TemplateMinerConfig()
    config.masking_instructions = [MaskingInstruction(pattern, name) for pattern, name in masks]
    config.mask_prefix = "<"
    config.mask_suffix = ">"
    config.drain_sim_th = similarity
    config.drain_depth = depth
    config.drain_max_children = 100
    config.drain_max_clusters = max_clusters
    config.drain_extra_delimiters = list(extra_delimiters)
    config.profiling_enabled = False
    return TemplateMiner(config=config)


def raw_for(lines: Sequence[str], service: str) -> str:
    """The raw result the file backend's reader makes of these lines (every record)."""
    records: list[JsonObject] = []
    levels: dict[str, int] = {}
    first: str | None = None
    last: str | None = None
    for record in assemble_records(lines):
        records.append(
            {
                "ts": record.ts,
                "service": record.service or service,
                "level": record.level,
                "message": record.message,
                "fields": record.fields,
                "stack": list(record.stack),
                "source": f"{service}.log",
                "line": record.first_line,
            }
        )
        name = record.level or UNKNOWN_LEVEL
        levels[name] = levels.get(name, 0) + 1
        if record.ts is not None:
            first = record.ts if first is None or record.ts < first else first
            last = record.ts if last is None or record.ts > last else last
    header = RawHeader(
        query=query_header(OPEN_QUERY),
        window_start=first,
        window_end=last,
        matched_count=len(records),
        returned_count=len(records),
        limit_reached=False,
        level_counts=levels,
    )
    return encode_raw(header, records)
