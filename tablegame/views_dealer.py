"""The dealer's tablet: one page per table, drawn by ``static/js/dealer.js`` from the API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from casino import access
from tablegame.models import Table
from tablegame.selectors import labels


@access.page("page:dealer")
def dealer_tablet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The tablet page; everything on it comes from ``GET /api/tables/<id>/``, its words from
    the engine's labels embedded in the page."""
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    commands = access.allowed_commands(request.user)
    return render(
        request, "dealer.html", {"table": table, "labels": labels(), "commands": commands}
    )
