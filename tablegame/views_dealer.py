"""The dealer's tablet: one page per table, drawn by ``static/js/dealer.js`` from the API (its
helps are parts of the table state: ``tablegame.tablet``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from casino import access
from tablegame.dealers import assigned_table, dealer_refusal
from tablegame.models import Table
from tablegame.progressives.screens import has_progressives


@access.page("page:dealer")
def dealer_tablet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The tablet page; everything on it comes from ``GET /api/tables/<id>/``, its words from
    the engine's labels embedded in the page. A dealer at a table not theirs is told why they
    cannot deal it (``tablegame.dealers``) and where their own table is, instead."""
    table = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    user = request.user
    assert isinstance(user, User)  # signed in (``access.page``)
    refusal = dealer_refusal(user, table)
    if refusal:
        own = assigned_table(user)
        return render(
            request,
            "dealer_refused.html",
            {"table": table, "refusal": refusal, "own": own if own != table else None},
            status=403,
        )
    commands = access.allowed_commands(request.user)
    return render(
        request,
        "dealer.html",
        {
            "table": table,
            "commands": commands,
            "has_progressives": has_progressives(table),
        },
    )
