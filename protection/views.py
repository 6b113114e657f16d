"""Game protection's pages: a table's edges over its shoe, its alerts, its seats' bets.

Surveillance only (``casino.access``: ``page:protection:*``). The wall's alert links here with
its own address in ``?back=`` (the round review's way: ``tablegame.views_review.local_path``). A
page on the newest shoe reads its edges section again (``edges``, an HTML fragment) every few
seconds, saying the shoe and round it shows: until the follower prices another round the answer
is 204, one query.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from casino import access
from protection.models import Edge
from protection.screens import floor_rows, protection_page
from tablegame.models import Table
from tablegame.views_review import local_path

#: The largest shoe number a link may ask for (a number past it is no shoe of ours).
MOST_SHOE = 1_000_000


def _shoe(request: HttpRequest) -> int | None:
    raw = request.GET.get("shoe", "")
    if not raw:
        return None
    if not (raw.isascii() and raw.isdecimal()) or not 1 <= int(raw) <= MOST_SHOE:
        raise Http404("A shoe is a number from 1.")
    return int(raw)


@access.page("page:protection:floor")
def floor(request: HttpRequest) -> HttpResponse:
    """Every table: the shoe and round priced last, the wagers that favour the players now, the
    alerts open, and whether the follower is keeping up."""
    return render(request, "protection/floor.html", {"tables": floor_rows()})


@access.page("page:protection:table")
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    """The table's edges over the shoe, the alerts and the seats' bets against the edge."""
    found = get_object_or_404(Table.objects.select_related("pit__casino"), pk=table_id)
    context = protection_page(found, _shoe(request))
    context["back"] = local_path(request.GET.get("back", ""))
    return render(request, "protection/table.html", context)


@access.page("page:protection:edges")
def edges(request: HttpRequest, table_id: int) -> HttpResponse:
    """The newest shoe's edges section, or 204 when its last round priced is still the one the
    page shows (``shoe`` and ``round``): one query."""
    latest = (
        Edge.objects.filter(table_id=table_id)
        .order_by("-shoe", "-round")
        .values_list("shoe", "round")
    ).first()
    shown = (request.GET.get("shoe", ""), request.GET.get("round", ""))
    if latest is not None and shown == (str(latest[0]), str(latest[1])):
        return HttpResponse(status=204)
    found = get_object_or_404(Table.objects.select_related("pit"), pk=table_id)
    return render(request, "protection/_edges.html", protection_page(found, None))
