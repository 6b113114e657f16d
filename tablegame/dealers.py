"""A dealer works the table the floor assigned them to (``tablegame.actions.dealers``).

:func:`dealer_refusal` is asked by every action (``tablegame.actions.common.action``) for a dealer
acting at a table: a dealer assigned to a table acts only there, and a table with its dealer
assigned takes no other dealer's commands. With ``settings.DEALERS_ACT_ONLY_WHERE_ASSIGNED`` (the
default), a dealer with no assignment acts nowhere (the floor must assign them first). Floorpersons
and pit bosses act at any table of their pit, as before.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.db.models import Q

from casino import access, roles
from casino.roles import Actor
from tablegame.models import DealerAssignment, Table


def dealer_refusal(actor: Actor, table: Table | int | None) -> str | None:
    """Why ``actor`` (if a dealer) may not act at ``table`` now; None when they may."""
    if table is None or access.floor_role(actor) != roles.DEALER:
        return None
    table_id = table.pk if isinstance(table, Table) else table
    rows = list(
        DealerAssignment.objects.current()
        .filter(Q(dealer_id=actor.pk) | Q(table_id=table_id))
        .values_list("dealer_id", "table_id", "table__name", "dealer__username")
    )
    return refusal_among(actor.pk, table_id, rows)


def refusal_among(
    dealer_id: int, table_id: int, rows: Sequence[tuple[int, int, str, str]]
) -> str | None:
    """Why the dealer ``dealer_id`` may not act at ``table_id``, given the assignments in force
    that concern them or the table (``(dealer, table, table's name, dealer's username)``)."""
    for dealer, at_table, table_name, _ in rows:  # their own table first: where to go
        if dealer == dealer_id and at_table != table_id:
            return f"You are assigned to {table_name}: a dealer acts only at their own table."
    for dealer, at_table, _, username in rows:
        if at_table == table_id and dealer != dealer_id:
            return f"{username} deals this table: ask the floor to assign you here first."
    if not rows and settings.DEALERS_ACT_ONLY_WHERE_ASSIGNED:
        return "The floor has not assigned you to this table: ask a floorperson."
    return None


def assigned_table(dealer: Actor) -> Table | None:
    """The table ``dealer`` is assigned to now, if any."""
    return Table.objects.filter(
        dealer_assignments__dealer=dealer.pk, dealer_assignments__relieved_at__isnull=True
    ).first()


def dealers_since(table_id: int, moment: datetime.datetime) -> dict[int, str]:
    """The dealers assigned to the table at ``moment`` or at any time since, by id: username."""
    return dict(
        DealerAssignment.objects.filter(table_id=table_id)
        .filter(Q(relieved_at__isnull=True) | Q(relieved_at__gt=moment))
        .values_list("dealer_id", "dealer__username")
    )


def dealer_of(table: Table) -> str:
    """The username of the dealer assigned to ``table`` now, or blank."""
    name: str | None = (
        DealerAssignment.objects.current()
        .filter(table=table)
        .values_list("dealer__username", flat=True)
        .first()
    )
    return name or ""


def dealer_dealing(table: Table, actor: Actor) -> str:
    """Who deals the round ``actor`` opens: the dealer themself, else the table's assigned
    dealer (a supervisor opening it), else blank."""
    if access.floor_role(actor) == roles.DEALER:
        return actor.username
    return dealer_of(table)
