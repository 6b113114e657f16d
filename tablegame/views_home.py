"""Home: who you are, your role, and the floor with a link to each screen you may open."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from casino.models import Pit
from casino.roles import LABELS, role_of


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Who you are, your role, and the floor: every pit with its tables and their rules."""
    role = role_of(request.user)
    pits = Pit.objects.select_related("casino").prefetch_related("tables__rules_history")
    return render(
        request,
        "home.html",
        {"role": role, "role_label": LABELS[role] if role else None, "pits": pits},
    )
