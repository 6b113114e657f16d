"""What the pit's own actions share: refusals, access, the table lock, the record, the notice.

A table's commands run the one way (``tablegame.commands``). The pit's own actions (forms,
must-hit meters, alerts, who supervises a pit) are functions under ``@action``: the access
policy, a transaction, the rows they lock first, checks that refuse with a message a person
understands (the transaction rolls back, so a refusal changes nothing), then the change and its
event in the same transaction, and a notice to the screens only once it has committed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.contrib.auth.models import User
from django.db import models, transaction

from casino import access, roles
from casino.record import record_payload
from casino.roles import Actor
from tablegame.broadcast import announce_change, notice_change
from tablegame.dealers import dealer_refusal
from tablegame.errors import ActionError as ActionError  # every action refuses with it
from tablegame.errors import NotAllowed as NotAllowed
from tablegame.events import TablePayload, event_data
from tablegame.models import Table
from tablegame.procedures import plain_options as plain_options

M = TypeVar("M", bound=models.Model)


def require(actor: Actor, what: str) -> None:
    """Refuse with the policy's reason unless ``actor`` may do ``what`` (``casino.access``)."""
    decision = access.decide(actor, what)
    if not decision.allowed:
        raise NotAllowed(decision.reason)


P = ParamSpec("P")
R = TypeVar("R")


def action(function: Callable[P, R]) -> Callable[P, R]:
    """An action of the pit's own (a form, a must-hit meter, an alert, who supervises a pit):
    first the access policy (``command:<its name>``, for its keyword ``actor``), then its own
    transaction (a savepoint when nested). A table's commands run the one way instead
    (``tablegame.commands``)."""
    what = f"command:{function.__name__}"
    access.rule(what)  # an action without its rule fails when its module is imported
    own = transaction.atomic(function)

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        require(kwargs["actor"], what)  # type: ignore[arg-type]
        if args and isinstance(args[0], Table):  # a dealer works only their own table
            refusal = dealer_refusal(kwargs["actor"], args[0])  # type: ignore[arg-type]
            if refusal:
                raise NotAllowed(refusal)
        return own(*args, **kwargs)

    return run


def lock_table(table: Table | int) -> Table:
    """The table row, locked until the transaction ends (the command's, when it holds it).

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then sees its result.
    """
    pk = table.pk if isinstance(table, Table) else table
    return (
        Table.objects.select_for_update(of=("self",), no_key=True).select_related("pit").get(pk=pk)
    )


def record(table: Table, actor: Actor | None, payload: TablePayload) -> int:
    """Write the event (its kind and typed payload, ``tablegame.events``) in this transaction and
    announce it after commit; returns its sequence."""
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
