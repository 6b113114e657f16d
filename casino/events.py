"""The kinds of event in the record: an enum per layer, and one typed payload class per kind.

A payload is a frozen dataclass registered with :func:`event_kind`. It says what the event holds
(its fields), how it is stored (:meth:`Payload.as_data`: plain JSON, money as strings) and read
back (:meth:`Payload.from_data`, which refuses a key it does not define, a missing one, or a
value of another type), and how the review tells it (:attr:`Payload.title`,
:meth:`Payload.describe`). The actions that write an event and the screens that read it use the
same class, so renaming a field changes both, and a stored event that no longer fits its class
fails a test instead of degrading a review. Queries on the stored JSON take their key names from
the classes too (:func:`event_lookup`).

A field may be a plain value (``int``, ``str``, ``bool``), ``Decimal`` (stored as a string), an
enum (stored as its value), a frozen dataclass of such fields (stored as an object, read back as
strictly), or a tuple, list or dict of these; ``X | None`` allows null. A field is stored under its
name, or under ``metadata={"key": ...}`` where the name is taken (``kind`` is the event's kind).
A field added to a kind after events of it were recorded defaults to None and says
``metadata=OPTIONAL``: it is left out of the stored data while None, so an event without it is
stored (and hashed) as before the field existed, and one recorded before reads back as stored.

The base layer defines the casino's own kinds (:class:`CasinoEvent`); ``tablegame.events`` defines
the table's. Layers above register theirs the same way.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar, Self, TypeVar


class PayloadMismatch(ValueError):
    """A stored event's data does not fit its kind's payload class."""


class Payload:
    """Base of every payload class (subclasses are frozen dataclasses)."""

    kind: ClassVar[StrEnum]
    """The event kind, stored as ``Event.action``."""
    title: ClassVar[str]
    """The kind in a few words, for the review: "Card dealt"."""

    def describe(self) -> str:
        """The event in one sentence, for the review."""
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.as_data().items() if v)

    def as_data(self) -> dict[str, Any]:
        """The payload as plain JSON for the record: Decimals as strings, tuples as lists."""
        return _plain(self)  # type: ignore[no-any-return]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        """The payload of a stored event; :class:`PayloadMismatch` when the keys differ or a value
        is not of its field's type."""
        return _from_fields(cls, data, cls.kind.value)  # type: ignore[no-any-return]

    @classmethod
    def lookup(cls, **fields: Any) -> dict[str, Any]:
        """``Event.objects.filter`` arguments for events of this kind with these field values."""
        return event_lookup(cls, **fields)


P = TypeVar("P", bound=type[Payload])

#: Every registered kind, by its stored name.
KINDS: dict[str, type[Payload]] = {}


def event_kind(cls: P) -> P:
    """Register a payload class under its ``kind`` (once: two classes may not share a kind)."""
    name = cls.kind.value
    if name in KINDS and KINDS[name] is not cls:
        raise ValueError(f"event kind {name!r} is registered twice")
    KINDS[name] = cls
    return cls


def payload_of(action: str, data: dict[str, Any]) -> Payload:
    """A stored event's typed payload; :class:`PayloadMismatch` for an unknown kind or data."""
    cls = KINDS.get(action)
    if cls is None:
        raise PayloadMismatch(f"{action!r} is not a kind of event")
    return cls.from_data(data)


def event_lookup(*kinds: type[Payload], **fields: Any) -> dict[str, Any]:
    """Keyword arguments for ``Event.objects.filter``: events of one of ``kinds`` whose data holds
    ``fields`` (as stored: an enum by its value, money as a string).

    ``event_lookup(CardDealt, round=3)`` is ``{"action": "card_dealt", "data__round": 3}``. A
    field that one of the kinds does not define raises ValueError, so renaming a field fails
    here, loudly, instead of leaving a query that matches nothing.
    """
    if not kinds:
        raise ValueError("event_lookup needs at least one kind")
    keys: dict[str, str] = {}
    for cls in kinds:
        stored = {f.name: _key(f) for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(fields) - set(stored))
        if unknown:
            raise ValueError(f"{cls.__name__} has no field {', '.join(unknown)}")
        for name in fields:
            if keys.setdefault(name, stored[name]) != stored[name]:
                raise ValueError(f"{cls.__name__} stores {name} under another key")
    names = [cls.kind.value for cls in kinds]
    which: dict[str, Any] = {"action": names[0]} if len(names) == 1 else {"action__in": names}
    return which | {f"data__{keys[name]}": _plain(value) for name, value in fields.items()}


#: The metadata of a field added to a kind later: left out of the stored data while None.
OPTIONAL: types.MappingProxyType[str, bool] = types.MappingProxyType({"optional": True})


def _key(f: dataclasses.Field[Any]) -> str:
    """The key a field is stored under: its name, unless its metadata names another."""
    return str(f.metadata.get("key", f.name))


def _stored(f: dataclasses.Field[Any], value: Any) -> bool:
    """Whether a field's value is stored: always, but for an optional field while None."""
    return value is not None or not f.metadata.get("optional", False)


def _plain(value: Any) -> Any:
    """``value`` as plain JSON: Decimals as strings, enums by value, dataclasses as objects."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            _key(f): _plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if _stored(f, getattr(value, f.name))
        }
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _from_fields(cls: type, data: Any, where: str) -> Any:
    """An instance of the dataclass ``cls`` from its stored object, refusing what does not fit."""
    if not isinstance(data, dict):
        raise PayloadMismatch(f"{where}: not an object but {type(data).__name__}")
    fields = {_key(f): f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    required = {
        name
        for name, f in fields.items()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    missing = sorted(required - set(data))
    if unknown or missing:
        raise PayloadMismatch(
            f"{where}: "
            + "; ".join(
                part
                for part in (
                    f"keys not in {cls.__name__}: {', '.join(unknown)}" if unknown else "",
                    f"missing: {', '.join(missing)}" if missing else "",
                )
                if part
            )
        )
    hints = _hints(cls)
    return cls(
        **{
            fields[key].name: _typed(value, hints[fields[key].name], f"{where}.{key}")
            for key, value in data.items()
        }
    )


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


_NO_FIT = object()


def _typed(value: Any, hint: Any, where: str) -> Any:
    """``value`` as read from JSON, as the field's type; :class:`PayloadMismatch` if it is none."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None:
        if hint is Any or type(None) in options:
            return None
        raise PayloadMismatch(f"{where} is null, which its field does not allow")
    for option in options:
        fitted = _fit(value, option, where)
        if fitted is not _NO_FIT:
            return fitted
    raise PayloadMismatch(f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}")


def _fit(value: Any, option: Any, where: str) -> Any:
    """``value`` as ``option`` (one member of a union), or ``_NO_FIT``."""
    if option is Any:
        return value
    origin, args = typing.get_origin(option), typing.get_args(option)
    if origin in (tuple, list):
        if not isinstance(value, list):
            return _NO_FIT
        item = args[0] if args else Any
        items = [_typed(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        if not isinstance(value, dict):
            return _NO_FIT
        item = args[1] if len(args) == 2 else Any
        return {k: _typed(v, item, f"{where}[{k!r}]") for k, v in value.items()}
    if not isinstance(option, type) or option is type(None):
        return _NO_FIT
    if dataclasses.is_dataclass(option):
        return _from_fields(option, value, where) if isinstance(value, dict) else _NO_FIT
    if issubclass(option, enum.Enum):
        try:
            return option(value)
        except ValueError:
            return _NO_FIT
    if option is Decimal:
        if isinstance(value, bool) or not isinstance(value, str | int):
            return _NO_FIT
        try:
            return Decimal(str(value))
        except ArithmeticError:
            return _NO_FIT
    if option is int and isinstance(value, bool):
        return _NO_FIT
    return value if isinstance(value, option) else _NO_FIT


class CasinoEvent(StrEnum):
    """Kinds of event of the casino itself, at no table."""

    ADMIN_CHANGE = "admin_change"
    USER_LOCKED_OUT = "user_locked_out"


@event_kind
@dataclasses.dataclass(frozen=True)
class UserLockedOut(Payload):
    """Sign-in refused for a while after too many failed attempts."""

    kind = CasinoEvent.USER_LOCKED_OUT
    title = "User locked out"

    username: str
    failures: int
    until: str
    """ISO 8601 instant (UTC) at which sign-in is allowed again."""

    def describe(self) -> str:
        return f"{self.username}: {self.failures} failed sign-ins; locked until {self.until}"


@event_kind
@dataclasses.dataclass(frozen=True)
class AdminChange(Payload):
    """A row added, changed or deleted through the admin site."""

    kind = CasinoEvent.ADMIN_CHANGE
    title = "Changed in the admin"

    model: str
    """``app_label.model``, e.g. ``tablegame.table``."""
    object_id: str
    change: str
    """``added``, ``changed`` or ``deleted``."""
    fields: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Each changed field: ``{"name": [old, new]}`` (old is None when added)."""

    def describe(self) -> str:
        changed = "; ".join(f"{k}: {v[0]} → {v[1]}" for k, v in self.fields.items())
        return f"{self.model} {self.object_id} {self.change}" + (f" ({changed})" if changed else "")
