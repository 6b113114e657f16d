"""``/dealers/``: which dealer works which table, and who supervises which pit; the floor assigns
and relieves them."""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path

from casino import access, roles
from casino.models import Pit
from casino.page_commands import Body, page_command
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
        for t in Table.objects.select_related("pit__casino").order_by("pit__name", "name")
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


M = TypeVar("M", Table, Pit)


def _named(model: type[M], body: dict[str, Any], key: str, missing: str) -> M:
    """The row ``body[key]`` names by its number (a whole number a key can be), else refused."""
    wanted = body.get(key)
    found = None
    if isinstance(wanted, int) and not isinstance(wanted, bool) and 0 < wanted < 2**31:
        found = model.objects.filter(pk=wanted).first()
    if found is None:
        raise ActionError(missing)
    return found


def _person(body: dict[str, Any], key: str, missing: str) -> User:
    found = User.objects.filter(username=str(body.get(key, ""))[:150]).first()
    if found is None:
        raise ActionError(missing)
    return found


@page_command("command:assign_dealer", forbidden=(NotAllowed,))
def assign(body: Body, actor: User) -> None:
    """POST ``{"table": id, "dealer": "username"}``."""
    assign_dealer(
        _named(Table, body, "table", "Say which table."),
        dealer=_person(body, "dealer", "Say which dealer."),
        actor=actor,
    )


@page_command("command:relieve_dealer", forbidden=(NotAllowed,))
def relieve(body: Body, actor: User) -> None:
    """POST ``{"table": id}``."""
    relieve_dealer(_named(Table, body, "table", "Say which table."), actor=actor)


@page_command("command:assign_supervisor", forbidden=(NotAllowed,))
def supervise(body: Body, actor: User) -> None:
    """POST ``{"pit": id, "person": "username"}``: the person supervises the pit."""
    assign_supervisor(
        _named(Pit, body, "pit", "Say which pit."),
        supervisor=_person(body, "person", "Say who."),
        actor=actor,
    )


@page_command("command:relieve_supervisor", forbidden=(NotAllowed,))
def unsupervise(body: Body, actor: User) -> None:
    """POST ``{"pit": id, "person": "username"}``: the person no longer supervises the pit."""
    relieve_supervisor(
        _named(Pit, body, "pit", "Say which pit."),
        supervisor=_person(body, "person", "Say who."),
        actor=actor,
    )


urlpatterns: list[URLPattern] = [
    path("supervise/", supervise, name="assign_supervisor"),
    path("unsupervise/", unsupervise, name="relieve_supervisor"),
    path("", dealers_page, name="dealers"),
    path("assign/", assign, name="assign_dealer"),
    path("relieve/", relieve, name="relieve_dealer"),
]
