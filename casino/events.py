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
    """An instance of the dataclass ``cls`` from its stored object, refusing what does not fit
    (:class:`PayloadMismatch`, naming where: ``round_settled.steps[0].seat``)."""
    try:
        return _read_object(cls, data)
    except _Misfit as misfit:
        place = where + "".join(reversed(misfit.path))
        raise PayloadMismatch(misfit.template.replace("{where}", place, 1)) from None


class _Misfit(Exception):
    """A stored value that does not fit its field. Raised up through the fields it sits in, each
    adding its name to ``path``, so that where it is is spelt out only when something is wrong
    (reading the record is on the day's close and every review)."""

    def __init__(self, template: str) -> None:
        super().__init__(template)
        self.template = template
        self.path: list[str] = []


@functools.cache
def _layout(cls: type) -> tuple[dict[str, tuple[str, Any]], frozenset[str]]:
    """A dataclass's fields by stored key (name and type), and the keys it requires."""
    hints = typing.get_type_hints(cls)
    fields = {_key(f): (f.name, hints[f.name]) for f in dataclasses.fields(cls)}
    required = frozenset(
        _key(f)
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    return fields, required


def _read_object(cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise _Misfit(f"{{where}}: not an object but {type(data).__name__}")
    fields, required = _layout(cls)
    unknown = sorted(set(data) - set(fields))
    missing = sorted(required - set(data))
    if unknown or missing:
        raise _Misfit(
            "{where}: "
            + "; ".join(
                part
                for part in (
                    f"keys not in {cls.__name__}: {', '.join(unknown)}" if unknown else "",
                    f"missing: {', '.join(missing)}" if missing else "",
                )
                if part
            )
        )
    values = {}
    for key, value in data.items():
        name, hint = fields[key]
        try:
            values[name] = _typed(value, hint)
        except _Misfit as misfit:
            misfit.path.append(f".{key}")
            raise
    return cls(**values)


@functools.cache
def _options(hint: Any) -> tuple[tuple[Any, ...], bool]:
    """The types a field's value may have, and whether it may be null."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    return options, hint is Any or type(None) in options


_NO_FIT = object()


def _typed(value: Any, hint: Any) -> Any:
    """``value`` as read from JSON, as the field's type; :class:`_Misfit` if it is none."""
    options, nullable = _options(hint)
    if value is None:
        if nullable:
            return None
        raise _Misfit("{where} is null, which its field does not allow")
    for option in options:
        fitted = _fit(value, option)
        if fitted is not _NO_FIT:
            return fitted
    raise _Misfit(f"{{where}}: {value!r} is not {getattr(hint, '__name__', hint)}")


# What reading a value as a type takes (plain ints: compared on every value read).
_ANY, _LIST, _TUPLE, _DICT, _NOTHING, _DATACLASS, _ENUM, _DECIMAL, _INT, _PLAIN = range(10)


@functools.cache
def _shape(option: Any) -> tuple[int, Any]:
    """What reading a value as ``option`` (one member of a union) takes: its shape, and the type
    of its items (lists, tuples, dicts)."""
    if option is Any:
        return _ANY, None
    origin, args = typing.get_origin(option), typing.get_args(option)
    if origin in (tuple, list):
        return (_TUPLE if origin is tuple else _LIST), args[0] if args else Any
    if origin is dict:
        return _DICT, args[1] if len(args) == 2 else Any
    if not isinstance(option, type) or option is type(None):
        return _NOTHING, None
    if dataclasses.is_dataclass(option):
        return _DATACLASS, None
    if issubclass(option, enum.Enum):
        return _ENUM, None
    if option is Decimal:
        return _DECIMAL, None
    if option is int:
        return _INT, None
    return _PLAIN, None


def _fit(value: Any, option: Any) -> Any:
    """``value`` as ``option`` (one member of a union), or ``_NO_FIT``."""
    shape, item = _shape(option)
    if shape == _ANY:
        return value
    if shape in (_LIST, _TUPLE):
        if not isinstance(value, list):
            return _NO_FIT
        items = []
        for i, v in enumerate(value):
            try:
                items.append(_typed(v, item))
            except _Misfit as misfit:
                misfit.path.append(f"[{i}]")
                raise
        return tuple(items) if shape == _TUPLE else items
    if shape == _DICT:
        if not isinstance(value, dict):
            return _NO_FIT
        read = {}
        for k, v in value.items():
            try:
                read[k] = _typed(v, item)
            except _Misfit as misfit:
                misfit.path.append(f"[{k!r}]")
                raise
        return read
    if shape == _NOTHING:
        return _NO_FIT
    if shape == _DATACLASS:
        return _read_object(option, value) if isinstance(value, dict) else _NO_FIT
    if shape == _ENUM:
        try:
            return option(value)
        except ValueError:
            return _NO_FIT
    if shape == _DECIMAL:
        if isinstance(value, bool) or not isinstance(value, str | int):
            return _NO_FIT
        try:
            return Decimal(str(value))
        except ArithmeticError:
            return _NO_FIT
    if shape == _INT and isinstance(value, bool):
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
    """The username whose failure locked it out (an address's lock: the last one tried)."""
    failures: int
    until: str
    """ISO 8601 instant (UTC) at which sign-in is allowed again."""
    address: str | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """An address locked out, whatever the username (too many failures from it); None: the
    username alone, at its address."""
    usernames: tuple[str, ...] | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """An address's lock: every username tried from it within the window, in order."""

    def describe(self) -> str:
        if self.address is not None:
            tried = ", ".join(self.usernames or (self.username,))
            return (
                f"address {self.address}: {self.failures} failed sign-ins ({tried}); locked "
                f"until {self.until}"
            )
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
