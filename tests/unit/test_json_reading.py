"""Reading decoded JSON of an expected shape: strict readers inside one reading, lenient
members for texts that only name what they find."""

from __future__ import annotations

import pytest

from factledger.domain.json_reading import ShapeMismatch, as_dict, as_list, as_text, read_strict
from factledger.domain.json_types import JsonValue, first_object, list_or_empty, object_or_empty


def _names(value: object) -> list[str]:
    return [as_text(item) for item in as_list(as_dict(value)["names"])]


def test_a_reading_of_the_expected_shape_gives_its_value() -> None:
    assert read_strict('{"names": ["a", "b"]}', _names) == ["a", "b"]


@pytest.mark.parametrize(
    "text",
    [
        '{"names": ["a", 1]}',  # a number where a string is read
        '{"names": "a"}',  # a string where an array is read
        '["a"]',  # an array where an object is read
        '{"names": ["a"], "names": ["b"]}',  # a key given twice
        '{"names": [NaN]}',  # a constant JSON does not have
        "not json",
        "[" * 100_000,  # nested deeper than the interpreter allows
    ],
)
def test_a_text_not_json_or_not_of_the_shape_reads_as_none(text: str) -> None:
    assert read_strict(text, _names) is None


def test_each_reader_raises_the_one_mismatch_for_another_shape() -> None:
    for reader, value in ((as_dict, []), (as_list, {}), (as_text, 1)):
        with pytest.raises(ShapeMismatch):
            reader(value)


@pytest.mark.parametrize(
    ("value", "as_object", "as_array", "first"),
    [
        ({"a": 1}, {"a": 1}, [], {}),
        ([{"a": 1}, {"b": 2}], {}, [{"a": 1}, {"b": 2}], {"a": 1}),
        (["a"], {}, ["a"], {}),
        ([], {}, [], {}),
        (None, {}, [], {}),
        ("text", {}, [], {}),
    ],
)
def test_an_optional_member_is_read_leniently_as_empty_when_it_is_of_another_shape(
    value: JsonValue, as_object: JsonValue, as_array: JsonValue, first: JsonValue
) -> None:
    assert object_or_empty(value) == as_object
    assert list_or_empty(value) == as_array
    assert first_object(value) == first
