"""Appending to a chain of the record, and checking that nobody has changed it since.

The one write path is :func:`record_event`, called by the action that makes the change, in its
transaction, holding the row lock of what owns the chain (a table's actions lock the table;
:func:`record_casino_event` and :func:`record_pit_event` lock the casino or pit row themselves).
:func:`verify_chain` recomputes a chain from its first event.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from casino.events import Payload
from casino.models import GENESIS_HASH, KIND_MAX_LENGTH, Casino, Chain, Event, Pit
from fastpath import rows

# Events are read back in chunks of this size, so a long chain is never in memory at once.
CHUNK_SIZE = 2000


@dataclass(frozen=True)
class ChainReport:
    """What :func:`verify_chain` found for one chain."""

    ok: bool
    """True when every event is present, unaltered and linked to the one before it."""
    checked: int
    """How many events were found intact, from event 1 up to the first bad one (if any)."""
    first_bad_sequence: int | None
    """The number of the first event that is altered, missing or out of line; None when ok."""
    reason: str
    """In plain words: "chain intact", or what is wrong with ``first_bad_sequence``."""


def record_event(
    *,
    chain_id: int,
    actor: User | None,
    action: str,
    data: dict[str, Any],
    head: Head | None = None,
) -> Event:
    """Append one event to the chain and return it (``event_row``, written at once)."""
    return rows.insert(
        event_row(chain_id=chain_id, actor=actor, action=action, data=data, head=head)
    )


def event_row(
    *,
    chain_id: int,
    actor: User | None,
    action: str,
    data: dict[str, Any],
    head: Head | None = None,
) -> Event:
    """The chain's next event, hashed, not yet written: ``record_event`` writes it at once; a
    command of the API writes its events with its record, in one statement.

    Call it inside ``transaction.atomic()`` holding the row lock of the chain's owner (a table's
    actions hold ``Table.objects.select_for_update()``), in the same transaction as the change it
    records. ``data`` must be plain JSON: dicts with string keys, lists, strings, integers,
    booleans and None. Money is a string (``str(amount)``); floats are refused because
    PostgreSQL's jsonb may give them back in another form (``1e16`` comes back as an integer),
    which would make an untouched event look altered.
    """
    if not connection.in_atomic_block:
        raise transaction.TransactionManagementError(
            "record_event must run inside transaction.atomic(), holding the row lock of the "
            "chain's owner (e.g. Table.objects.select_for_update()): that lock orders its events."
        )
    if actor is not None and actor.pk is None:
        raise ValueError("record_event needs a saved actor (or None for the system)")
    _check_action(action)
    if not isinstance(data, dict):
        raise TypeError(f"data must be a dict, not {type(data).__name__}")
    _check_plain_json(data, "data")

    # The caller's row lock on the chain's owner is what serialises appends per chain: a second
    # transaction appending to the same chain waits at its select_for_update until the first
    # commits, and only then reads the last event (the one the first wrote). Without the lock,
    # both would pick the same sequence and the unique (chain, sequence) constraint would refuse
    # the second: an error, never a forked chain.
    #
    # ``head``: the chain's last event (number and hash) if the caller already read it under
    # that lock (after taking it: ``head_of``), which saves a query on the hot path.
    if head is None:
        head = chain_head(chain_id)
    actor_id = actor.pk if actor is not None else None
    return _event(chain_id, actor_id, action, data, head, timezone.now())


def _event(
    chain_id: int,
    actor_id: int | None,
    action: str,
    data: dict[str, Any],
    head: Head,
    at: datetime.datetime,
) -> Event:
    """The chain's next event after ``head``, recorded ``at``, hashed."""
    sequence, prev_hash = head.sequence + 1, head.hash
    return Event(
        chain_id=chain_id,
        sequence=sequence,
        actor_id=actor_id,
        action=action,
        data=data,
        created_at=at,
        prev_hash=prev_hash,
        hash=event_hash(
            chain_id=chain_id,
            sequence=sequence,
            actor_id=actor_id,
            action=action,
            data=data,
            created_at=at,
            prev_hash=prev_hash,
        ),
    )


@lru_cache(maxsize=512)
def _check_action(action: str) -> None:
    """Refuse an action that is not a short slug (each action's name checked once a process:
    a refused one is not kept, and is refused again)."""
    try:
        validate_slug(action)
    except ValidationError as exc:
        raise ValueError(
            f"action {action!r} is not a slug: use letters, digits, _ and -, e.g. 'card_dealt'"
        ) from exc
    if len(action) > KIND_MAX_LENGTH:
        raise ValueError(f"action {action!r} is longer than {KIND_MAX_LENGTH} characters")


def record_payload(
    *, chain_id: int, actor: User | None, payload: Payload, head: Head | None = None
) -> Event:
    """Append a typed event (its kind and payload, ``casino.events``) to the chain; as
    :func:`record_event`, holding the row lock of the chain's owner."""
    return rows.insert(payload_row(chain_id=chain_id, actor=actor, payload=payload, head=head))


def payload_row(
    *, chain_id: int, actor: User | None, payload: Payload, head: Head | None = None
) -> Event:
    """A typed event as :func:`event_row` makes it: hashed, not yet written."""
    return event_row(
        chain_id=chain_id,
        actor=actor,
        action=payload.kind.value,
        data=payload.as_data(),
        head=head,
    )


def next_event(
    *,
    chain_id: int,
    actor_id: int | None,
    payload: Payload,
    head: Head,
    at: datetime.datetime,
) -> Event:
    """A typed event as the chain's next after ``head``, recorded ``at``, hashed, not yet
    written: a command's events, written with its other changes by one writer, the chain's
    owner's row locked by the command. Its payload is plain JSON already (``Payload.as_data``)."""
    action = payload.kind.value
    _check_action(action)
    return _event(chain_id, actor_id, action, payload.as_data(), head, at)


class Head(NamedTuple):
    """A chain's last event: its number and hash (0 and the genesis hash for an empty chain)."""

    sequence: int
    hash: str


def chain_head(chain_id: int) -> Head:
    """The chain's last event: its number and hash (0 and the genesis hash when empty)."""
    last = (
        Event.objects.filter(chain_id=chain_id)
        .order_by("-sequence")
        .values_list("sequence", "hash")
        .first()
    )
    return Head(*last) if last else Head(0, GENESIS_HASH)


def head_of(chain_field: str = "chain_id") -> dict[str, Subquery]:
    """Annotations that read a chain's head with the row that owns it (``chain_field`` names the
    row's chain): ``head_sequence`` and ``head_hash``, None for an empty chain."""
    last = Event.objects.filter(chain_id=OuterRef(chain_field)).order_by("-sequence")
    return {
        "head_sequence": Subquery(last.values("sequence")[:1]),
        "head_hash": Subquery(last.values("hash")[:1]),
    }


def record_casino_event(casino: Casino, *, actor: User | None, payload: Payload) -> Event:
    """Append an event to the casino's own chain (no pit, no table), locking the casino row."""
    with transaction.atomic():
        locked = Casino.objects.select_for_update().get(pk=casino.pk)
        chain = Chain.objects.of_casino(locked)
        return record_payload(chain_id=chain.pk, actor=actor, payload=payload)


def record_pit_event(pit: Pit, *, actor: User | None, payload: Payload) -> Event:
    """Append an event to the pit's own chain (at no one table), locking the pit row."""
    with transaction.atomic():
        locked = Pit.objects.select_for_update().get(pk=pit.pk)
        chain = Chain.objects.of_pit(locked)
        return record_payload(chain_id=chain.pk, actor=actor, payload=payload)


def deployment_casino() -> Casino | None:
    """The casino this deployment runs: the first by pk. Its own chain records what belongs to
    no pit or table (a user locked out, a user changed in the admin); None before any exists."""
    return Casino.objects.order_by("pk").first()


def event_hash(
    *,
    chain_id: int,
    sequence: int,
    actor_id: int | None,
    action: str,
    data: dict[str, Any],
    created_at: datetime.datetime,
    prev_hash: str,
) -> str:
    """SHA-256 (hex) of an event's canonical JSON: sorted keys, no spaces, UTF-8."""
    canonical = json.dumps(
        {
            "chain": chain_id,
            "sequence": sequence,
            "actor": actor_id,
            "action": action,
            "data": data,
            "created_at": created_at.astimezone(datetime.UTC).isoformat(timespec="microseconds"),
            "prev_hash": prev_hash,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def verify_chain(chain: Chain | int) -> ChainReport:
    """Recompute the chain from event 1 and report the first event that does not fit.

    Finds events whose contents were altered, events missing from the middle of the chain, and
    events that do not link to the one before them. Alone it cannot see events removed from the
    end, nor a chain rewritten whole with this module's own hash: the triggers of migration 0002
    and the signed checkpoints (``casino.checkpoints``) are what catch those.
    """
    checked = 0
    prev_hash = GENESIS_HASH
    chain_id = chain if isinstance(chain, int) else chain.pk
    for event in _events_in_order(chain_id):
        expected = checked + 1
        if event.sequence != expected:
            return _broken(checked, expected, f"event {expected} is missing")
        recomputed = event_hash(
            chain_id=event.chain_id,
            sequence=event.sequence,
            actor_id=event.actor_id,
            action=event.action,
            data=event.data,
            created_at=event.created_at,
            prev_hash=event.prev_hash,
        )
        if recomputed != event.hash:
            return _broken(
                checked,
                expected,
                f"event {expected} was altered: its hash does not match its contents",
            )
        if event.prev_hash != prev_hash:
            if expected == 1:
                reason = "event 1 does not start the chain: its previous hash is not all zeros"
            else:
                reason = f"event {expected} does not follow event {expected - 1}"
            return _broken(checked, expected, reason)
        prev_hash = event.hash
        checked = expected
    return ChainReport(ok=True, checked=checked, first_bad_sequence=None, reason="chain intact")


def _events_in_order(chain_id: int) -> Iterator[Event]:
    return (
        Event.objects.filter(chain_id=chain_id).order_by("sequence").iterator(chunk_size=CHUNK_SIZE)
    )


def _broken(checked: int, sequence: int, reason: str) -> ChainReport:
    return ChainReport(ok=False, checked=checked, first_bad_sequence=sequence, reason=reason)


def _check_plain_json(value: object, path: str) -> None:
    """Raise TypeError naming the first value under ``path`` that is not plain JSON."""
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, str):
        _check_string(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{path} has a key {key!r} that is not a string")
            _check_string(key, f"{path} key {key!r}")
            _check_plain_json(item, f"{path}[{key!r}]")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_plain_json(item, f"{path}[{index}]")
    elif isinstance(value, float):
        kind = "a float" if math.isfinite(value) else "not a number JSON can hold"
        raise TypeError(
            f"{path} is {kind} ({value!r}): record it as a string, e.g. str(Decimal(...)), "
            "so that it reads back exactly as hashed"
        )
    else:
        hint = " (money is recorded as a string: str(amount))" if isinstance(value, Decimal) else ""
        raise TypeError(f"{path} is a {type(value).__name__}, which is not plain JSON{hint}")


def _check_string(value: str, path: str) -> None:
    if "\x00" in value:
        raise TypeError(f"{path} holds a NUL character, which PostgreSQL's JSON cannot store")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise TypeError(f"{path} is not valid Unicode text (a lone surrogate)") from exc
