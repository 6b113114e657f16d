"""The pit console: every table of every pit, live."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino import access
from pit.selectors import floor_overview, pits_on_floor


@access.page("page:floor")
def floor(request: HttpRequest) -> HttpResponse:
    """The pit console: every table of every pit live; ``?partial=1`` gives just the tables."""
    pits = [(pit, floor_overview(pit)) for pit in pits_on_floor()]
    template = "floor_tables.html" if request.GET.get("partial") else "floor.html"
    return render(request, template, {"pits": pits})
