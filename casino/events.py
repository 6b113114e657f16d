"""The kinds of event in the record: an enum per layer, and one typed payload class per kind.

A payload is a frozen dataclass registered with :func:`event_kind`. It says what the event holds
(its fields), how it is stored (:meth:`Payload.as_data`: plain JSON, money as strings) and read
back (:meth:`Payload.from_data`, which refuses a key it does not define or a missing one), and how
the review tells it (:attr:`Payload.title`, :meth:`Payload.describe`). The actions that write an
event and the screens that read it use the same class, so renaming a field changes both, and a
stored event that no longer fits its class fails a test instead of degrading a review.

The base layer defines the casino's own kinds (:class:`CasinoEvent`); ``tablegame.events`` defines
the table's. Layers above register theirs the same way.
"""

from __future__ import annotations

import dataclasses
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
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Self:
        """The payload of a stored event; :class:`PayloadMismatch` when the keys differ."""
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - set(fields))
        required = {
            name
            for name, f in fields.items()
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        missing = sorted(required - set(data))
        if unknown or missing:
            raise PayloadMismatch(
                f"{cls.kind.value}: "
                + "; ".join(
                    part
                    for part in (
                        f"keys not in {cls.__name__}: {', '.join(unknown)}" if unknown else "",
                        f"missing: {', '.join(missing)}" if missing else "",
                    )
                    if part
                )
            )
        hints = typing.get_type_hints(cls)
        return cls(**{name: _typed(value, hints[name]) for name, value in data.items()})


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


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, StrEnum):
        return value.value
    return value


def _typed(value: Any, hint: Any) -> Any:
    """``value`` as read from JSON, turned back into the field's type where that differs."""
    if value is None:
        return None
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if Decimal in options and isinstance(value, str | int):
        return Decimal(str(value))
    origin = typing.get_origin(hint)
    if origin is tuple and isinstance(value, list):
        return tuple(value)
    return value


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
