"""The pit console: the tables of the pits its person supervises, live."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from casino import access
from casino.supervision import pits_shown
from pit.console import TILES
from pit.selectors import floor_overview
from tablegame import panels
from tablegame.models import Table


@access.page("page:floor")
def floor(request: HttpRequest) -> HttpResponse:
    """The pit console: every table of the pits the person supervises (``?pits=all``: of every
    pit; ``?pits=1,3``: of those), each tile kept live by ``floor.js``; under each pit's tiles
    the panels other apps draw for it that the person may read (``tablegame.panels``, kept by
    ``panels.js``), and the refusals of the pits' dealers (``pit.refusals``)."""
    person = request.user
    assert isinstance(person, User)  # signed in (``access.page``)
    shown = pits_shown(person, request.GET.get("pits"))
    pits = [
        (pit, _with_json(floor_overview(pit)), panels.shown(person, pit.pk)) for pit in shown.pits
    ]
    return render(request, "floor.html", {"pits": pits, "shown": shown, "tiles": TILES})


@never_cache
@access.page("page:floor")
def floor_tile(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table's tile, as the console draws it: read when a notice cannot say what changed."""
    table = get_object_or_404(Table.objects.select_related("pit__casino"), pk=table_id)
    rows = floor_overview(table.pit, table_id=table.pk)
    if not rows:
        raise Http404("There is no such table.")
    return render(
        request, "pit/_floor_tile_alone.html", {"row": _with_json(rows)[0], "pit": table.pit}
    )


def _with_json(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row with its tile's state as JSON text, for the tile's ``data-state``."""
    for row in rows:
        row["state_json"] = json.dumps(row["state"])
    return rows
