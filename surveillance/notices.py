"""Notices of procedure changes: surveillance reads each one filed from the pit and acknowledges
it (who and when are kept; ``tablegame.actions.notices``)."""

from __future__ import annotations

import datetime

from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from casino import access
from casino.bodies import json_body
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


@access.page("command:acknowledge_procedure_notice", json=True)
@require_POST
def acknowledge(request: HttpRequest) -> HttpResponse:
    """Acknowledge one notice: ``{"notice": id}``."""
    actor = request.user
    assert isinstance(actor, Actor)
    try:
        body = json_body(request.body)
        number = int(body["notice"]) if isinstance(body, dict) and "notice" in body else None
    except (TypeError, ValueError):
        number = None
    notice = ProcedureNotice.objects.filter(pk=number).first() if number else None
    try:
        if notice is None:
            raise ActionError("Choose a notice to acknowledge.")
        acknowledge_procedure_notice(notice, actor=actor)
    except NotAllowed as refusal:
        return JsonResponse({"error": str(refusal)}, status=403)
    except ActionError as refusal:
        return JsonResponse({"error": str(refusal)}, status=409)
    return JsonResponse({"done": True})
