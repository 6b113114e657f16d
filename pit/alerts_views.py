"""The alerts panel of the pit console (``templates/pit/_alerts.html`` loads it) and its one
command, acknowledging an alert."""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.cache import never_cache

from casino import access
from casino.page_commands import Body, page_command
from casino.supervision import pits_shown
from pit.alerts import acknowledge_alert, open_alerts, recently_acknowledged, watch
from tablegame.actions.common import ActionError, NotAllowed

#: When this process last ran the watch for a panel (the embedded demo only, below).
_last_watch = 0.0


@never_cache
@access.page("page:alerts")
def alerts_panel(request: HttpRequest) -> HttpResponse:
    """The alerts of the person's pits (``?pits=`` as the console) not yet acknowledged, and the
    last ones acknowledged (who, when).

    The embedded demo (``make run``: Celery eager, no beat) has no periodic watch: there the
    panel runs it itself, at most every ``PIT_ALERT_SECONDS``."""
    global _last_watch
    if settings.CELERY_TASK_ALWAYS_EAGER and time.monotonic() - _last_watch >= (
        settings.PIT_ALERT_SECONDS
    ):
        _last_watch = time.monotonic()
        watch()
    person = request.user
    assert isinstance(person, User)  # signed in (``access.page``)
    pits = pits_shown(person, request.GET.get("pits")).pits
    return render(
        request,
        "pit/_alerts_list.html",
        {"alerts": open_alerts(pits), "acknowledged": recently_acknowledged(pits=pits)},
    )


@page_command("command:acknowledge_alert", forbidden=(NotAllowed,))
def acknowledge(body: Body, actor: User) -> None:
    """POST ``{"alert": id}``."""
    alert = body.get("alert")
    if isinstance(alert, bool) or not isinstance(alert, int) or not 0 < alert < 2**63:
        raise ActionError("Say which alert.")
    acknowledge_alert(alert, actor=actor)


urlpatterns: list[URLPattern] = [
    path("", alerts_panel, name="alerts"),
    path("acknowledge/", acknowledge, name="acknowledge_alert"),
]
