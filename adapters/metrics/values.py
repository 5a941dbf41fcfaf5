"""A series' values as the metrics port carries them: packed float64, NaN for no sample.

Thousands of values per series as JSON numbers cost more to parse than everything else a
projection does; packed little-endian float64 in base64 decodes in one step into an array.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["decode_values", "encode_values"]


def encode_values(values: Sequence[float | None]) -> str:
    """The values packed (``None`` and values that are not finite become NaN)."""
    packed = np.array(
        [math.nan if v is None or not math.isfinite(v) else v for v in values], dtype="<f8"
    )
    return base64.b64encode(packed.tobytes()).decode("ascii")


def decode_values(text: str) -> NDArray[np.float64] | None:
    """The packed values (read-only), or None when the text is not a packed float64 array."""
    try:
        raw = binascii.a2b_base64(text)
    except (binascii.Error, ValueError):
        return None
    if len(raw) % 8:
        return None
    values = np.frombuffer(raw, dtype="<f8")
    if np.isinf(values).any():
        values = np.where(np.isinf(values), np.nan, values)
    return values
