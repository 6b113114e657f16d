"""Deferred vigorish: collect a marker, or turn it into a Complimentary Vigorish Form request.

000 §12(d)(2), 002 (c)(3)(ii)-(iv): marked vigorish is collected before the reshuffle or when the
player leaves, or documented on a Complimentary Vigorish Form prepared by the pit clerk.
"""

from __future__ import annotations

from django.utils import timezone

from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    action,
    check_text,
    lock_table,
    record,
)
from tablegame.models import Table, VigorishMarker
from tablegame.work import work


def _open_marker(table: Table, marker_id: int) -> VigorishMarker:
    marker = table.markers.filter(pk=marker_id).first()
    if marker is None:
        raise ActionError(f"{table} has no vigorish marker {marker_id}.")
    if marker.status != VigorishMarker.Status.OPEN:
        raise ActionError(
            f"The marker at seat {marker.seat} is already {marker.get_status_display().lower()}."
        )
    return marker


@action
def collect_marker(table: Table, *, marker_id: int, actor: Actor) -> VigorishMarker:
    """The vigorish marked at a seat is collected; the marker comes off the layout."""
    table = lock_table(table)
    marker = _open_marker(table, marker_id)
    marker.status, marker.resolved_at, marker.resolved_by = (
        VigorishMarker.Status.COLLECTED,
        timezone.now(),
        actor,
    )
    work().save_now(marker, ["status", "resolved_at", "resolved_by"])
    record(
        table,
        actor,
        events.VigorishCollected(seat=marker.seat, amount=marker.amount, marker=marker.pk),
    )
    return marker


@action
def request_vigorish_form(
    table: Table, *, marker_id: int, reason: str, actor: Actor
) -> VigorishMarker:
    """The vigorish will not be collected: the pit prepares a Complimentary Vigorish Form."""
    table = lock_table(table)
    marker = _open_marker(table, marker_id)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the vigorish was not collected (it goes on the form).")
    marker.status, marker.resolved_at, marker.resolved_by, marker.reason = (
        VigorishMarker.Status.FORM_REQUESTED,
        timezone.now(),
        actor,
        reason,
    )
    work().save_now(marker, ["status", "resolved_at", "resolved_by", "reason"])
    record(
        table,
        actor,
        events.VigorishFormRequested(
            seat=marker.seat, amount=marker.amount, marker=marker.pk, reason=marker.reason
        ),
    )
    return marker
