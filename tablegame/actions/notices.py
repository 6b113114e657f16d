"""Surveillance acknowledges a notice of a change of procedure (``tablegame.play.staff``), run
the one way (``tablegame.commands``) at the notice's table."""

from __future__ import annotations

from casino.roles import Actor
from tablegame.actions.run import run
from tablegame.models import ProcedureNotice


def acknowledge_procedure_notice(notice: ProcedureNotice, *, actor: Actor) -> ProcedureNotice:
    """Surveillance has read the notice of a change of shuffle, commission or settlement
    procedure: who and when are kept on the notice and in the table's record."""
    run(notice.table_id, actor, "acknowledge_procedure_notice", notice_id=notice.pk)
    return ProcedureNotice.objects.select_related("acknowledged_by").get(pk=notice.pk)
