"""The pit console: every table of every pit, live."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino import roles
from casino.roles import role_of
from pit.selectors import floor_overview, pits_on_floor

FLOOR_ROLES = (roles.FLOORPERSON, roles.PIT_BOSS, roles.PIT_CLERK)


@login_required
def floor(request: HttpRequest) -> HttpResponse:
    """The pit console: every table of every pit live; ``?partial=1`` gives just the tables."""
    if role_of(request.user) not in FLOOR_ROLES and not request.user.is_superuser:
        raise PermissionDenied("The pit console is for floorpersons, pit bosses and pit clerks.")
    pits = [(pit, floor_overview(pit)) for pit in pits_on_floor()]
    template = "floor_tables.html" if request.GET.get("partial") else "floor.html"
    return render(request, template, {"pits": pits})
