"""The floor assigns dealers to tables and relieves them (who deals each round is recorded)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils import timezone

from casino import roles
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import ActionError, action, lock_table, record
from tablegame.models import DealerAssignment, Table
from tablegame.work import work


def _name(user: User) -> str:
    return user.get_full_name() or user.username


@action
def assign_dealer(table: Table, *, dealer: User, actor: Actor) -> DealerAssignment:
    """``dealer`` deals this table from now on; a dealer works one table at a time."""
    table = lock_table(table)
    if roles.role_of(dealer) != roles.DEALER:
        raise ActionError(f"{dealer.username} is not a dealer.")
    current = DealerAssignment.objects.current().filter(table=table).first()
    if current is not None:
        if current.dealer_id == dealer.pk:
            raise ActionError(f"{_name(dealer)} deals {table} already.")
        raise ActionError(f"Relieve {_name(current.dealer)} at {table} first.")
    elsewhere = DealerAssignment.objects.current().filter(dealer=dealer).first()
    if elsewhere is not None:
        raise ActionError(f"{_name(dealer)} deals {elsewhere.table}: relieve them there first.")
    assignment = work().add_now(DealerAssignment(table=table, dealer=dealer, assigned_by=actor))
    record(table, actor, events.DealerAssigned(dealer=dealer.username, name=_name(dealer)))
    return assignment


@action
def relieve_dealer(table: Table, *, actor: Actor) -> DealerAssignment:
    """The table's dealer is relieved (a break, the end of a shift)."""
    table = lock_table(table)
    current = DealerAssignment.objects.current().filter(table=table).select_related("dealer")
    assignment = current.first()
    if assignment is None:
        raise ActionError(f"{table} has no dealer assigned.")
    assignment.relieved_at, assignment.relieved_by = timezone.now(), actor
    work().save_now(assignment, ["relieved_at", "relieved_by"])
    name = _name(assignment.dealer)
    record(table, actor, events.DealerRelieved(dealer=assignment.dealer.username, name=name))
    return assignment
