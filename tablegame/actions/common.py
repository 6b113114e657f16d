"""What every action shares: refusals, access, the table lock, the record, the after-commit notice.

Every change of a table goes through an action function: ``@action`` (a transaction), keyword-only
``actor``, the table row locked first, checks that refuse with a message a dealer understands (the
transaction rolls back, so a refusal changes nothing), then the change and its event row in the
same transaction, and a notice to the screens only once it has committed.

The API runs one action per request inside :func:`command`: one transaction for the whole
command (no savepoint per action), the table locked once, the events the action recorded
collected for the answer (``Command.events``), and the command's unit of work
(``tablegame.work``), through which every action writes.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.db import models, transaction

from casino import access, roles
from casino.record import Head, payload_row, record_payload
from casino.roles import Actor
from tablegame.broadcast import announce_change, notice_change
from tablegame.dealers import dealer_refusal
from tablegame.errors import ActionError as ActionError  # every action refuses with it
from tablegame.errors import NotAllowed as NotAllowed
from tablegame.events import TablePayload, event_data
from tablegame.live import locked_tables
from tablegame.models import Table
from tablegame.work import Work, unit

M = TypeVar("M", bound=models.Model)


def require(actor: Actor, what: str) -> None:
    """Refuse with the policy's reason unless ``actor`` may do ``what`` (``casino.access``)."""
    decision = access.decide(actor, what)
    if not decision.allowed:
        raise NotAllowed(decision.reason)


@dataclass
class Command:
    """One command of the API in progress: its table, locked once, the events it recorded, and
    its unit of work (``tablegame.work``), which holds its writes until its record is written."""

    table: Table
    work: Work
    head: Head | None = None
    """The table's chain head, read after the lock; kept up to date as events are appended."""
    events: list[tuple[int, TablePayload]] = field(default_factory=list)


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
    with unit() as writes:  # the actions' writes wait for its flush
        current = Command(table, writes, head)
        token = _command.set(current)
        try:
            yield current
        finally:
            _command.reset(token)


P = ParamSpec("P")
R = TypeVar("R")


def action(function: Callable[P, R]) -> Callable[P, R]:
    """An action: first the access policy (``command:<its name>``, for its keyword ``actor``),
    then its transaction: its own (a savepoint when nested), or, inside :func:`command`, the
    command's, with no savepoint to make and release on every tap."""
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
    if current is not None and ours:  # written with the command's record (its unit's flush)
        event = payload_row(
            chain_id=table.chain_id, actor=actor, payload=payload, head=current.head
        )
        current.work.add(event)
        current.head = Head(event.sequence, event.hash)
        current.events.append((event.sequence, payload))  # the answer tells the screens once
        return event.sequence
    event = record_payload(chain_id=table.chain_id, actor=actor, payload=payload)
    sequence = event.sequence
    announce(table, sequence, payload.kind.value, {"events": [event_data(sequence, payload)]})
    return sequence


def announce(
    table: Table, sequence: int, action: str, change: dict[str, Any], text: str | None = None
) -> None:
    """Once the transaction commits, tell the screens of ``table`` (``broadcast.announce_change``:
    its, its pit's and surveillance's groups) that its chain reached ``sequence`` by ``action``,
    and what changed: ``change`` (an action's event, or a command's answer, whose JSON ``text``
    is written already), less what ``broadcast.WITHHELD`` names. The one way a table's change is
    told: an action outside a command (``record``), and a command's answer (``api.commands``)."""
    table_id, pit_id = table.pk, table.pit_id
    told: dict[str, Any] | None = change
    if text is not None:  # the answer's text as written, less what is withheld: no second dump
        told, text = None, notice_change(change, text)
    transaction.on_commit(
        lambda: announce_change(
            table_id, sequence, action, pit_id=pit_id, change=told, change_text=text
        )
    )


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
