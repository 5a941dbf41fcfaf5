"""The canonical encoding of events, fixed once.

An event is recorded as UTF-8 JSON with sorted keys and no insignificant white space: the
envelope ``run_id``, ``sequence``, ``type``, ``schema_version``, ``occurred_at``, ``payload``
and ``prev_hash`` (the event without its hash). Those exact bytes are stored, and
``hash = SHA-256(prev_hash ‖ bytes)`` with ``prev_hash`` taken as its 32 raw bytes.

Payloads are encoded from the attrs fields of the event class; decoding is driven by the
same field types, so a datetime, an enum or a nested value object round-trips exactly.
"""

from __future__ import annotations

import hashlib
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from enum import Enum
from typing import Literal, TypeAlias, TypeVar, Union, get_args, get_origin

import attrs
from attrs import frozen
from returns.result import Failure, Result, Success

from factledger.domain.events import Event, RecordedEvent
from factledger.domain.json_types import JsonObject, JsonValue

__all__ = [
    "DecodeError",
    "EventCodec",
    "SCHEMA_VERSION",
    "canonical_json",
    "chain_hash",
    "encode_datetime",
    "sha256_hex",
]

SCHEMA_VERSION = 1
"""The version of the envelope and payload encoding this code writes."""

_Decoder: TypeAlias = Callable[[object], object]
_Encoder: TypeAlias = Callable[[object], JsonValue]
T = TypeVar("T")


@frozen
class DecodeError:
    """Stored bytes that are not an event this code understands."""

    reason: Literal["NOT_JSON", "BAD_ENVELOPE", "UNKNOWN_TYPE", "BAD_PAYLOAD"]
    """Not JSON, not an event envelope, an unknown event type, or a payload off its type."""


class _PayloadError(ValueError):
    """A payload field that does not match its declared type (internal to decoding)."""


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)

# The C encoder behind ``_CANONICAL``, built once instead of on every ``encode`` call (it is on
# the path of every event). Without the circular-reference table a cycle ends in a
# RecursionError, reported as the ValueError ``json`` raises for one.
_MAKE_C_ENCODER: typing.Any = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODER: typing.Any = (
    None
    if _MAKE_C_ENCODER is None
    else _MAKE_C_ENCODER(
        None,  # no circular-reference table
        _CANONICAL.default,
        json.encoder.encode_basestring,  # ensure_ascii=False
        None,  # no indent
        ":",
        ",",
        True,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan, as _CANONICAL
    )
)


def canonical_json(value: JsonValue) -> bytes:
    """UTF-8 JSON, sorted keys, no insignificant white space."""
    if _C_ENCODER is None or isinstance(value, str):
        return _CANONICAL.encode(value).encode()
    try:
        return "".join(_C_ENCODER(value, 0)).encode()
    except RecursionError:
        raise ValueError("the value is nested too deeply or refers to itself") from None


def sha256_hex(data: bytes) -> str:
    """The SHA-256 digest of ``data`` in lower-case hex."""
    return hashlib.sha256(data).hexdigest()


def chain_hash(prev_hash: str, data: bytes) -> str:
    """``SHA-256(prev_hash ‖ data)`` with the previous hash as its 32 raw bytes."""
    return hashlib.sha256(bytes.fromhex(prev_hash) + data).hexdigest()


def encode_datetime(value: datetime) -> str:
    """An aware datetime as ISO-8601 UTC with microseconds and a ``Z``."""
    if value.tzinfo is None:
        raise ValueError("event datetimes must be timezone-aware")
    if value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    # isoformat ends with "+00:00" for UTC; it is several times faster than strftime, and
    # faster still without ``timespec`` (which only matters when the microseconds are zero).
    if value.microsecond:
        return value.isoformat()[:-6] + "Z"
    return value.isoformat(timespec="microseconds")[:-6] + "Z"


def _decode_datetime(value: object) -> datetime:
    if not isinstance(value, str):
        raise _PayloadError("datetime")
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        raise _PayloadError("naive datetime")
    return parsed


def _scalar(kind: type[T]) -> Callable[[object], T]:
    def decode(value: object) -> T:
        # bool is an int in Python: refuse it where an int is declared, and the reverse.
        if type(value) is not kind:
            raise _PayloadError(kind.__name__)
        return value

    return decode


def _optional(inner: _Decoder) -> _Decoder:
    def decode(value: object) -> object:
        return None if value is None else inner(value)

    return decode


def _sequence_of(inner: _Decoder) -> _Decoder:
    def decode(value: object) -> object:
        if not isinstance(value, list):
            raise _PayloadError("list")
        return tuple(inner(item) for item in value)

    return decode


def _enum_of(kind: type[Enum], allowed: frozenset[Enum] | None = None) -> _Decoder:
    # A dictionary of the members by value: calling the enum class is several times slower.
    members = {member.value: member for member in kind if allowed is None or member in allowed}

    def decode(value: object) -> object:
        try:
            return members[value]
        except (KeyError, TypeError):  # TypeError: an unhashable value
            kind(value)  # raises ValueError for a value that names no member
            raise _PayloadError(f"{kind.__name__} member not allowed") from None

    return decode


class _Compiler:
    """Builds and caches an encoder and a decoder per attrs class."""

    def __init__(self) -> None:
        self._decoders: dict[type, _Decoder] = {}

    def decoder_for(self, annotation: object) -> _Decoder:
        origin = get_origin(annotation)
        args = get_args(annotation)
        if origin in (Union, types.UnionType):
            members = [arg for arg in args if arg is not type(None)]
            if len(members) != 1:
                raise TypeError(f"unsupported union {annotation!r}")
            inner = self.decoder_for(members[0])
            return _optional(inner) if len(members) < len(args) else inner
        if origin is Literal:
            kinds = {type(arg) for arg in args}
            kind = kinds.pop()
            if kinds or not issubclass(kind, Enum):
                raise TypeError(f"unsupported literal {annotation!r}")
            return _enum_of(kind, frozenset(args))
        if origin is tuple:
            return _sequence_of(self.decoder_for(args[0]))
        if isinstance(annotation, type):
            if annotation is datetime:
                return _decode_datetime
            if issubclass(annotation, Enum):
                return _enum_of(annotation)
            if annotation in (str, int, bool, float):
                return _scalar(annotation)
            if attrs.has(annotation):
                return self.class_decoder(annotation)
        raise TypeError(f"unsupported field type {annotation!r}")

    def class_decoder(self, cls: type) -> _Decoder:
        cached = self._decoders.get(cls)
        if cached is not None:
            return cached
        hints = typing.get_type_hints(cls)
        fields = [(f.name, self.decoder_for(hints[f.name])) for f in attrs.fields(cls)]
        names = frozenset(name for name, _ in fields)
        # A field added later with a default may be absent from events recorded before it.
        defaulted = frozenset(f.name for f in attrs.fields(cls) if f.default is not attrs.NOTHING)

        def decode(value: object) -> object:
            if not isinstance(value, dict):
                raise _PayloadError(f"{cls.__name__} fields")
            if value.keys() != names:
                keys = value.keys()
                if not (keys <= names and names - keys <= defaulted):
                    raise _PayloadError(f"{cls.__name__} fields")
                given = {name: convert(value[name]) for name, convert in fields if name in keys}
                return cls(**given)
            return cls(**{name: convert(value[name]) for name, convert in fields})

        self._decoders[cls] = decode
        return decode


def _encode_value(value: object) -> JsonValue:
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, Enum):
        return typing.cast("JsonValue", value.value)
    if isinstance(value, datetime):
        return encode_datetime(value)
    if isinstance(value, tuple):
        return [_encode_value(item) for item in value]
    if attrs.has(type(value)):
        return _encode_attrs(value)
    raise TypeError(f"cannot encode {type(value).__name__} in an event")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _encode_attrs(value: object) -> JsonObject:
    cls = type(value)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        fields = attrs.fields(typing.cast("type[attrs.AttrsInstance]", cls))
        names = _FIELD_NAMES[cls] = tuple(field.name for field in fields)
    encoded: JsonObject = {}
    for name in names:
        item = getattr(value, name)
        # Most fields are plain text and numbers: kept as they are, without a call.
        encoded[name] = item if type(item) in _PLAIN_TYPES else _encode_value(item)
    return encoded


_PLAIN_TYPES: frozenset[type] = frozenset({str, int, bool, type(None)})


class EventCodec:
    """Encodes events into their canonical bytes and decodes stored bytes back."""

    def __init__(self, event_classes: Iterable[type]) -> None:
        self._compiler = _Compiler()
        self._by_type: dict[str, tuple[type, _Decoder]] = {}
        for cls in event_classes:
            type_name: str = cls.TYPE  # type: ignore[attr-defined]  # every event class has one
            if type_name in self._by_type:
                raise ValueError(f"two event classes share the type {type_name!r}")
            self._by_type[type_name] = (cls, self._compiler.class_decoder(cls))

    def type_of(self, event: Event) -> str:
        """The stable type name of an event."""
        return event.TYPE

    def encode_payload(self, event: Event) -> JsonObject:
        """The JSON payload of an event."""
        return _encode_attrs(event)

    def seal(
        self,
        run_id: str,
        first_sequence: int,
        prev_hash: str,
        occurred_at: datetime,
        events: Sequence[Event],
    ) -> tuple[RecordedEvent, ...]:
        """Number, encode and chain events after the head ``(first_sequence - 1, prev_hash)``."""
        recorded: list[RecordedEvent] = []
        stamp = encode_datetime(occurred_at)
        # A plain run id needs no escaping: only the payload is serialised, the batch's common
        # parts once, and the bytes equal canonical_json of the whole envelope.
        plain = _PLAIN.fullmatch(run_id) is not None
        head = b'{"occurred_at":"' + stamp.encode() + b'","payload":'
        middle = (
            b'","run_id":"'
            + run_id.encode()
            + b'","schema_version":'
            + str(SCHEMA_VERSION).encode()
            + b',"sequence":'
        )
        prev_digest = bytes.fromhex(prev_hash)
        for offset, event in enumerate(events):
            sequence = first_sequence + offset
            payload = _encode_attrs(event)
            if plain:
                data = _plain_envelope(head, middle, payload, prev_hash, sequence, event.TYPE)
            else:
                envelope: JsonObject = {
                    "run_id": run_id,
                    "sequence": sequence,
                    "type": event.TYPE,
                    "schema_version": SCHEMA_VERSION,
                    "occurred_at": stamp,
                    "payload": payload,
                    "prev_hash": prev_hash,
                }
                data = canonical_json(envelope)
            # chain_hash(prev_hash, data), without converting the previous digest back from hex
            prev_digest = hashlib.sha256(prev_digest + data).digest()
            digest = prev_digest.hex()
            # positional, in field order: this runs for every event written
            recorded.append(
                RecordedEvent(run_id, sequence, occurred_at, event, prev_hash, digest, data)
            )
            prev_hash = digest
        return tuple(recorded)

    def decode(self, data: bytes, stored_hash: str) -> Result[RecordedEvent, DecodeError]:
        """Decode stored bytes into a recorded event (the hash is the stored one, unchecked)."""
        try:
            envelope = _read_json(data)
        except (ValueError, RecursionError):
            return Failure(DecodeError("NOT_JSON"))
        if not isinstance(envelope, dict) or envelope.keys() != _ENVELOPE_KEYS:
            return Failure(DecodeError("BAD_ENVELOPE"))
        entry = self._by_type.get(envelope["type"])
        if entry is None:
            return Failure(DecodeError("UNKNOWN_TYPE"))
        _, decode_payload = entry
        try:
            event = decode_payload(envelope["payload"])
            run_id = _decode_str(envelope["run_id"])
            sequence = _decode_int(envelope["sequence"])
            prev_hash = _decode_str(envelope["prev_hash"])
            occurred_at = _decode_datetime(envelope["occurred_at"])
        except (ValueError, TypeError):
            return Failure(DecodeError("BAD_PAYLOAD"))
        return Success(
            RecordedEvent(
                run_id=run_id,
                sequence=sequence,
                occurred_at=occurred_at,
                event=typing.cast("Event", event),
                prev_hash=prev_hash,
                hash=stored_hash,
                data=data,
            )
        )


_PLAIN = re.compile(r"[A-Za-z0-9_.\-]+")
_JSON = json.JSONDecoder()


def _read_json(data: bytes) -> object:
    """``json.loads(data)`` for stored bytes, which are canonical (UTF-8, no white space
    around the value): read directly, with ``json.loads`` only for anything else."""
    text = data.decode("utf-8")  # UnicodeDecodeError is a ValueError
    try:
        value, end = _JSON.raw_decode(text)
    except ValueError:
        return json.loads(text)  # leading white space, or the same error again
    return value if end == len(text) else json.loads(text)


_decode_str = _scalar(str)
_decode_int = _scalar(int)

_ENVELOPE_KEYS = frozenset(
    {"run_id", "sequence", "type", "schema_version", "occurred_at", "payload", "prev_hash"}
)


def _plain_envelope(
    head: bytes, middle: bytes, payload: JsonObject, prev_hash: str, sequence: int, type_name: str
) -> bytes:
    """The canonical envelope of one event, from the batch's pre-encoded parts."""
    return b"".join(
        (
            head,
            canonical_json(payload),
            b',"prev_hash":"',
            prev_hash.encode(),
            middle,
            str(sequence).encode(),
            b',"type":"',
            type_name.encode(),
            b'"}',
        )
    )
