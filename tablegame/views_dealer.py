"""The dealer's tablet: one page per table, drawn by ``static/js/dealer.js`` from the API."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from casino import roles
from tablegame.models import Table

TABLET_ROLES = (roles.DEALER, roles.FLOORPERSON, roles.PIT_BOSS)


@login_required
def dealer_tablet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The tablet page; everything on it comes from ``GET /api/tables/<id>/``."""
    if roles.role_of(request.user) not in TABLET_ROLES and not request.user.is_superuser:
        raise PermissionDenied("The dealer's tablet is for dealers and floor supervisors.")
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    return render(request, "dealer.html", {"table": table})
