"""What every action shares: refusals, access, the table lock, the record, the after-commit notice.

Every change of a table goes through an action function: ``@action`` (a transaction), keyword-only
``actor``, the table row locked first, checks that refuse with a message a dealer understands (the
transaction rolls back, so a refusal changes nothing), then the change and its event row in the
same transaction, and a notice to the screens only once it has committed.

The API runs one action per request inside :func:`command`: one transaction for the whole
command (no savepoint per action), the table locked once, and the events the action recorded
collected for the answer (``Command.events``).
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.db import models, transaction

from casino import access, roles, rows
from casino.record import Head, payload_row, record_payload
from casino.roles import Actor
from tablegame.broadcast import announce_change
from tablegame.dealers import dealer_refusal
from tablegame.errors import ActionError as ActionError  # every action refuses with it
from tablegame.events import TablePayload, event_data
from tablegame.live import locked_tables
from tablegame.models import Card, Round, Shoe, Table

M = TypeVar("M", bound=models.Model)


class NotAllowed(ActionError):
    """The user's role may not do this."""


def require(actor: Actor, what: str) -> None:
    """Refuse with the policy's reason unless ``actor`` may do ``what`` (``casino.access``)."""
    decision = access.decide(actor, what)
    if not decision.allowed:
        raise NotAllowed(decision.reason)


@dataclass
class Command:
    """One command of the API in progress: its table, locked once, and the events it recorded."""

    table: Table
    head: Head | None = None
    """The table's chain head, read after the lock; kept up to date as events are appended."""
    events: list[tuple[int, TablePayload]] = field(default_factory=list)
    game: Round | None = None
    """The round in play that the action changed and saved, when it stays the one in play."""
    shoe: Shoe | None = None
    """Likewise the shoe in play."""
    cards: list[Card] | None = None
    """The round's cards, in dealing order, when the action has them all."""
    unwritten: list[models.Model] = field(default_factory=list)
    """Rows made but not yet written, the events recorded among them (``write``)."""

    def write(self, then: M | None = None) -> M | None:
        """Write the changes waiting (``rows.collecting``: rows updated ``later``) and the rows
        made (the events recorded among them), then ``then`` (the command's record), in one
        statement."""
        found, self.unwritten = self.unwritten, []
        return rows.insert_then(found, then)


_command: contextvars.ContextVar[Command | None] = contextvars.ContextVar(
    "tablegame_command", default=None
)


@contextmanager
def command(table: Table, head: Head | None = None) -> Iterator[Command]:
    """Run actions as one command on ``table``, already locked by the caller in the transaction
    this block runs in: the actions reuse the lock, make no savepoint of their own (a refusal
    aborts the whole transaction: the caller rolls it back), and collect their events.
    ``head``: the table's chain head, if the caller read it after taking the lock."""
    assert transaction.get_connection().in_atomic_block, "command() runs inside atomic()"
    current = Command(table, head)
    token = _command.set(current)
    try:
        with rows.collecting():  # the actions' writes asked ``later`` wait for ``write``
            yield current
            current.write()  # whatever the caller did not write with its record
    finally:
        _command.reset(token)


P = ParamSpec("P")
R = TypeVar("R")


def action(function: Callable[P, R]) -> Callable[P, R]:
    """An action: first the access policy (``command:<its name>``, for its keyword ``actor``),
    then its transaction: its own (a savepoint when nested), or, inside :func:`command`, the
    command's, with no savepoint (two queries fewer on every tap)."""
    what = f"command:{function.__name__}"
    access.rule(what)  # an action without its rule fails when its module is imported
    own = transaction.atomic(function)
    shared = transaction.atomic(savepoint=False)(function)

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        require(kwargs["actor"], what)  # type: ignore[arg-type]
        if args and isinstance(args[0], Table):  # a dealer works only their own table
            refusal = dealer_refusal(kwargs["actor"], args[0])  # type: ignore[arg-type]
            if refusal:
                raise NotAllowed(refusal)
        return (shared if _command.get() is not None else own)(*args, **kwargs)

    return run


def insert_later(found: Sequence[models.Model]) -> None:
    """New rows whose keys nobody reads: inside a command, written with its record (one
    statement, ``Command.write``); outside one, now."""
    current = _command.get()
    if current is not None:
        current.unwritten.extend(found)
    else:
        rows.insert_then(found)


def insert_now_or_later(obj: M) -> M:
    """A new row whose key the command does not read back: inside a command, written with its
    record (one statement, ``Command.write``; its key stays unread); outside one, now, with its
    key."""
    current = _command.get()
    if current is None:
        return rows.insert(obj)
    current.unwritten.append(obj)
    return obj


def update_later(obj: models.Model, names: Sequence[str]) -> None:
    """A row's fields changed that nothing reads back from the database before the command
    ends (the action hands the row over to the answer): inside a command, written with its
    record, as they stand then (one statement, ``Command.write``); outside one, now."""
    rows.update(obj, names, later=True)


def hand_over(
    *, game: Round | None = None, shoe: Shoe | None = None, cards: list[Card] | None = None
) -> None:
    """Inside a command, tell the answer which round and shoe in play the action changed and
    saved (and the round's cards), so that it does not read them again (outside one, nothing to
    do)."""
    current = _command.get()
    if current is not None:
        current.game, current.shoe, current.cards = game, shoe, cards


def lock_table(table: Table | int) -> Table:
    """The table row, locked until the transaction ends (the command's, when it holds it).

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then sees its result.
    """
    pk = table.pk if isinstance(table, Table) else table
    current = _command.get()
    if current is not None and current.table.pk == pk:
        return current.table
    return locked_tables().get(pk=pk)


def record(table: Table, actor: Actor | None, payload: TablePayload) -> int:
    """Write the event (its kind and typed payload, ``tablegame.events``) in this transaction and
    announce it after commit; returns its sequence."""
    current = _command.get()
    ours = current is not None and current.table.pk == table.pk
    if current is not None and ours:  # written with the command's record (``Command.write``)
        event = payload_row(
            chain_id=table.chain_id, actor=actor, payload=payload, head=current.head
        )
        current.unwritten.append(event)
        current.head = Head(event.sequence, event.hash)
        current.events.append((event.sequence, payload))  # the answer tells the screens once
        return event.sequence
    event = record_payload(chain_id=table.chain_id, actor=actor, payload=payload)
    table_id, pit_id, sequence = table.pk, table.pit_id, event.sequence
    change = {"events": [event_data(sequence, payload)]}
    kind = payload.kind.value
    transaction.on_commit(
        lambda: announce_change(table_id, sequence, kind, pit_id=pit_id, change=change)
    )
    return sequence


def check_text(value: str, *, field: str, limit: int) -> str:
    """Trimmed text that fits its column, or a refusal that says how long it may be."""
    text = value.strip()
    if len(text) > limit:
        raise ActionError(f"The {field} may be at most {limit} characters.")
    return text


def check_approver(approver: User, actor: Actor, authority: str, what: str) -> None:
    """A floorperson's approval given at the tablet: someone with ``authority``, and not the
    person asking (``what`` is asked: "the correction", "the void")."""
    approval = access.decide(approver, authority)
    if not approval.allowed:
        raise ActionError(approval.reason)
    if approver.pk == getattr(actor, "pk", None):
        raise ActionError(f"Another person approves {what}: call a floorperson.")


def supervisor_reason(actor: Actor, reason: str, doing: str) -> str:
    """The reason for an order, trimmed: a supervisor's order (from the pit console) always
    says why; the dealer's own call may not."""
    text = check_text(reason, field="reason", limit=200)
    if not text and access.floor_role(actor) != roles.DEALER:
        raise ActionError(f"Say why {doing}: the reason is recorded.")
    return text


def plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """Rule options as plain JSON for the record: numbers with a fraction become strings."""
    return {
        key: str(value) if isinstance(value, float | Decimal) else value
        for key, value in options.items()
    }
