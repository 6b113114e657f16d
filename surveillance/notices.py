"""Notices of procedure changes: surveillance reads each one filed from the pit and acknowledges
it (who and when are kept; ``tablegame.actions.notices``)."""

from __future__ import annotations

import datetime

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie

from casino import access
from casino.page_commands import Body, page_command
from casino.roles import Actor
from tablegame.actions import ActionError, NotAllowed
from tablegame.actions.notices import acknowledge_procedure_notice
from tablegame.models import ProcedureNotice

#: Acknowledged notices stay on the list this long after they took effect.
KEPT_AFTER = datetime.timedelta(days=1)


def notices_to_show() -> dict[str, list[ProcedureNotice]]:
    """Notices still to acknowledge (every one, the soonest first), and those acknowledged whose
    change is pending or took effect in the last day."""
    since = timezone.now() - KEPT_AFTER
    notices = list(
        ProcedureNotice.objects.filter(Q(acknowledged_at__isnull=True) | Q(effective_at__gte=since))
        .select_related("table__pit__casino", "filed_by", "acknowledged_by")
        .order_by("effective_at", "pk")
    )
    return {
        "waiting": [n for n in notices if not n.is_acknowledged],
        "acknowledged": [n for n in notices if n.is_acknowledged],
    }


@access.page("page:surveillance:notices")
@ensure_csrf_cookie
def notices(request: HttpRequest) -> HttpResponse:
    """The notices page; ``?partial=1`` gives only the lists, for the page's script."""
    partial = bool(request.GET.get("partial"))
    template = "surveillance/_notices.html" if partial else "surveillance/notices.html"
    context = {
        **notices_to_show(),
        "now": timezone.now(),
        "compact": bool(request.GET.get("compact")),
    }
    return render(request, template, context)


@page_command("command:acknowledge_procedure_notice", forbidden=(NotAllowed,))
def acknowledge(body: Body, actor: Actor) -> None:
    """Acknowledge one notice: ``{"notice": id}``."""
    number = body.get("notice")
    if isinstance(number, str) and number.strip().isascii() and number.strip().isdigit():
        number = int(number) if len(number.strip()) < 10 else None  # no notice has so many
    notice = None
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number < 2**63:
        notice = ProcedureNotice.objects.filter(pk=number).first()
    if notice is None:
        raise ActionError("Choose a notice to acknowledge.")
    acknowledge_procedure_notice(notice, actor=actor)
