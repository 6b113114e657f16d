"""``/dealers/``: which dealer works which table, and who supervises which pit; the floor assigns
and relieves them."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import URLPattern, path

from casino import access, roles
from casino.models import Pit
from casino.supervision import console_people, pit_supervisors
from pit.supervision import assign_supervisor, relieve_supervisor
from tablegame.actions.common import ActionError, NotAllowed
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tablegame.models import DealerAssignment, Table


@access.page("page:dealers")
def dealers_page(request: HttpRequest) -> HttpResponse:
    """Every table with its dealer, and the dealers free to assign."""
    current = {
        a.table_id: a
        for a in DealerAssignment.objects.current().select_related("dealer", "assigned_by")
    }
    tables = [
        {"table": t, "assignment": current.get(t.pk)}
        for t in Table.objects.select_related("pit").order_by("pit__name", "name")
    ]
    busy = {a.dealer_id for a in current.values()}
    free = [u for u in User.objects.filter(groups__name=roles.DEALER).order_by("username")]
    supervisors = pit_supervisors()
    people = console_people()
    pits = [
        {
            "pit": pit,
            "supervisions": supervisors.get(pit.pk, []),
            "others": [
                person
                for person in people
                if person.pk not in {s.supervisor_id for s in supervisors.get(pit.pk, [])}
            ],
        }
        for pit in Pit.objects.select_related("casino")
    ]
    return render(
        request,
        "pit/dealers.html",
        {"tables": tables, "free": [u for u in free if u.pk not in busy], "pits": pits},
    )


def _command(request: HttpRequest, run: Any) -> JsonResponse:
    if request.method != "POST":
        return JsonResponse({"error": "Send the command with POST."}, status=405)
    try:
        body = json.loads(request.body or b"{}")
        if not isinstance(body, dict):
            raise ActionError("Send the command as a JSON object.")
        wanted = body.get("table")
        table = None
        if isinstance(wanted, int) and not isinstance(wanted, bool):
            table = Table.objects.filter(pk=wanted).first()
        if table is None:
            raise ActionError("Say which table.")
        run(table, body)
    except ActionError as error:
        return JsonResponse(
            {"error": str(error)}, status=403 if isinstance(error, NotAllowed) else 409
        )
    except ValueError:
        return JsonResponse({"error": "Send the command as JSON."}, status=400)
    return JsonResponse({"ok": True})


@access.page("command:assign_dealer", json=True)
def assign(request: HttpRequest) -> JsonResponse:
    """POST ``{"table": id, "dealer": "username"}``."""

    def run(table: Table, body: dict[str, Any]) -> None:
        dealer = User.objects.filter(username=str(body.get("dealer", ""))).first()
        if dealer is None:
            raise ActionError("Say which dealer.")
        assign_dealer(table, dealer=dealer, actor=request.user)  # type: ignore[arg-type]

    return _command(request, run)


@access.page("command:relieve_dealer", json=True)
def relieve(request: HttpRequest) -> JsonResponse:
    """POST ``{"table": id}``."""
    return _command(
        request,
        lambda table, _body: relieve_dealer(table, actor=request.user),  # type: ignore[arg-type]
    )


def _pit_command(request: HttpRequest, run: Any) -> JsonResponse:
    """A command on a pit and a person: ``{"pit": id, "person": "username"}``."""
    if request.method != "POST":
        return JsonResponse({"error": "Send the command with POST."}, status=405)
    try:
        body = json.loads(request.body or b"{}")
        if not isinstance(body, dict):
            raise ActionError("Send the command as a JSON object.")
        wanted = body.get("pit")
        pit = None
        if isinstance(wanted, int) and not isinstance(wanted, bool) and 0 < wanted < 2**31:
            pit = Pit.objects.filter(pk=wanted).first()
        if pit is None:
            raise ActionError("Say which pit.")
        person = User.objects.filter(username=str(body.get("person", ""))[:150]).first()
        if person is None:
            raise ActionError("Say who.")
        run(pit, person)
    except ActionError as error:
        return JsonResponse(
            {"error": str(error)}, status=403 if isinstance(error, NotAllowed) else 409
        )
    except ValueError:
        return JsonResponse({"error": "Send the command as JSON."}, status=400)
    return JsonResponse({"ok": True})


@access.page("command:assign_supervisor", json=True)
def supervise(request: HttpRequest) -> JsonResponse:
    """POST ``{"pit": id, "person": "username"}``: the person supervises the pit."""
    return _pit_command(
        request,
        lambda pit, person: assign_supervisor(pit, supervisor=person, actor=request.user),  # type: ignore[arg-type]
    )


@access.page("command:relieve_supervisor", json=True)
def unsupervise(request: HttpRequest) -> JsonResponse:
    """POST ``{"pit": id, "person": "username"}``: the person no longer supervises the pit."""
    return _pit_command(
        request,
        lambda pit, person: relieve_supervisor(pit, supervisor=person, actor=request.user),  # type: ignore[arg-type]
    )


urlpatterns: list[URLPattern] = [
    path("supervise/", supervise, name="assign_supervisor"),
    path("unsupervise/", unsupervise, name="relieve_supervisor"),
    path("", dealers_page, name="dealers"),
    path("assign/", assign, name="assign_dealer"),
    path("relieve/", relieve, name="relieve_dealer"),
]
