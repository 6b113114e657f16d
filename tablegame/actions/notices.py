"""Surveillance acknowledges a notice of a change of procedure (who, when, in the record)."""

from __future__ import annotations

from django.utils import timezone

from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import ActionError, action, lock_table, record
from tablegame.models import ProcedureNotice
from tablegame.work import work


@action
def acknowledge_procedure_notice(notice: ProcedureNotice, *, actor: Actor) -> ProcedureNotice:
    """Surveillance has read the notice of a change of shuffle, commission or settlement
    procedure: who and when are kept on the notice and in the table's record."""
    table = lock_table(notice.table_id)
    # Race: two officers acknowledge the same notice at once; the table's lock orders them and
    # the second reads the first's acknowledgement and is refused.
    notice = ProcedureNotice.objects.select_related("acknowledged_by").get(pk=notice.pk)
    if notice.acknowledged_at is not None:
        who = notice.acknowledged_by
        name = (who.get_full_name() or who.username) if who else "surveillance"
        local = notice.acknowledged_at.astimezone(table.pit.casino.zone)
        raise ActionError(f"{name} acknowledged this notice already, at {local:%H:%M %Z}.")
    notice.acknowledged_by, notice.acknowledged_at = actor, timezone.now()
    work().save_now(notice, ["acknowledged_by", "acknowledged_at"])
    record(
        table,
        actor,
        events.NoticeAcknowledged(
            notice=notice.pk,
            changes=notice.changes,
            effective_at=notice.effective_at.isoformat(),
        ),
    )
    return notice
