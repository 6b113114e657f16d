"""Home: who you are, your role, and the floor with a link to each screen you may open. Of the
top layer (config), as the URLs: it links to every app's screens."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino import access
from casino.models import Pit
from casino.roles import DEALER, LABELS
from tablegame.dealers import assigned_table


@access.page("page:home")
def home(request: HttpRequest) -> HttpResponse:
    """Who you are, your role, and the floor (every pit with its tables and their rules) for those
    who may read the tables; a person without a role is told to ask for one, a dealer which table
    is theirs."""
    role = access.floor_role(request.user)
    own = assigned_table(request.user) if role == DEALER else None  # type: ignore[arg-type]
    pits = None
    if access.decide(request.user, "api:tables"):
        pits = Pit.objects.select_related("casino").prefetch_related("tables__rules_history")
    return render(
        request,
        "home.html",
        {"role": role, "role_label": LABELS[role] if role else None, "pits": pits, "own": own},
    )
