"""Who works the table, as functions of the state in play: a dealer assigned and relieved by
the floor (who deals each round is recorded), and surveillance's acknowledgement of a notice of
a change of procedure.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from casino import roles
from tablegame import events
from tablegame.errors import ActionError
from tablegame.models import DealerAssignment, ProcedureNotice
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command
from tablegame.play.rows import AssignmentRow, NoticeRow, from_model
from tablegame.play.state import InPlay


def name_of(user: User) -> str:
    return user.get_full_name() or user.username


def assignments(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before the floor assigns or relieves a dealer: the table's dealer now, and the dealer's
    table now (read after the table's lock), each with the dealer's name."""
    current = (
        DealerAssignment.objects.current()
        .filter(table_id=state.table.id or 0)
        .select_related("dealer")
        .first()
    )
    dealer = inputs.get("dealer")
    elsewhere = None
    if isinstance(dealer, User):
        elsewhere = (
            DealerAssignment.objects.current().filter(dealer=dealer).select_related("table").first()
        )
    return {
        "current": (
            from_model(AssignmentRow, current),
            name_of(current.dealer),
            current.dealer.username,
        )
        if current
        else None,
        "elsewhere": elsewhere.table.name if elsewhere else None,
        "is_dealer": roles.role_of(dealer) == roles.DEALER if isinstance(dealer, User) else False,
    }


def assign_dealer(
    state: InPlay,
    command: Command,
    *,
    dealer: User,
    current: tuple[AssignmentRow, str, str] | None = None,
    elsewhere: str | None = None,
    is_dealer: bool = False,
) -> Changes:
    """``dealer`` deals this table from now on; a dealer works one table at a time."""
    table = state.table
    if not is_dealer:
        raise ActionError(f"{dealer.username} is not a dealer.")
    if current is not None:
        if current[0].dealer_id == dealer.pk:
            raise ActionError(f"{name_of(dealer)} deals {table.name} already.")
        raise ActionError(f"Relieve {current[1]} at {table.name} first.")
    if elsewhere is not None:
        raise ActionError(f"{name_of(dealer)} deals {elsewhere}: relieve them there first.")
    assert table.id is not None
    done = c.insert(
        AssignmentRow(
            table_id=table.id,
            dealer_id=dealer.pk,
            assigned_at=command.at,
            assigned_by_id=command.actor_id,
        )
    )
    return done + c.event(
        command.actor_id, events.DealerAssigned(dealer=dealer.username, name=name_of(dealer))
    )


def relieve_dealer(
    state: InPlay,
    command: Command,
    *,
    current: tuple[AssignmentRow, str, str] | None = None,
    elsewhere: str | None = None,
    is_dealer: bool = False,
) -> Changes:
    """The table's dealer is relieved (a break, the end of a shift)."""
    if current is None:
        raise ActionError(f"{state.table.name} has no dealer assigned.")
    assignment, name, username = current
    _, done = c.update(assignment, relieved_at=command.at, relieved_by_id=command.actor_id)
    return done + c.event(command.actor_id, events.DealerRelieved(dealer=username, name=name))


def notice_of(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a notice is acknowledged: the notice, and who acknowledged it if anyone (read
    after the table's lock)."""
    notice = (
        ProcedureNotice.objects.filter(
            pk=int(inputs.get("notice_id") or 0), table_id=state.table.id or 0
        )
        .select_related("acknowledged_by")
        .first()
    )
    who = notice.acknowledged_by if notice is not None else None
    return {
        "notice": from_model(NoticeRow, notice) if notice is not None else None,
        "acknowledged_by": (who.get_full_name() or who.username) if who else "surveillance",
    }


def acknowledge_procedure_notice(
    state: InPlay,
    command: Command,
    *,
    notice_id: int,
    notice: NoticeRow | None = None,
    acknowledged_by: str = "",
) -> Changes:
    """Surveillance has read the notice of a change of shuffle, commission or settlement
    procedure: who and when are kept on the notice and in the table's record. Race: two officers
    acknowledge the same notice at once; the table's lock orders them and the second is refused."""
    if notice is None:
        raise ActionError(f"{state.table.name} has no notice {notice_id}.")
    if notice.acknowledged_at is not None:
        local = notice.acknowledged_at.astimezone(zoneinfo.ZoneInfo(state.casino.time_zone))
        raise ActionError(
            f"{acknowledged_by} acknowledged this notice already, at {local:%H:%M %Z}."
        )
    _, done = c.update(notice, acknowledged_by_id=command.actor_id, acknowledged_at=command.at)
    return done + c.event(
        command.actor_id,
        events.NoticeAcknowledged(
            notice=notice_id,
            changes=notice.changes,
            effective_at=notice.effective_at.isoformat(),
        ),
    )
