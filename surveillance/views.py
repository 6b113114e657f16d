"""The surveillance pages: the live wall of every table and the round search.

The round review they link to is tablegame's (``tablegame.views_review``, read by accounting
too); its old address here, ``/surveillance/rounds/<id>/``, sends bookmarks on (``round_moved``).

Surveillance and the administrator only (``casino.access``: the room is independent of the pit
it watches); anyone else logged in gets the 403 page saying so.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from casino import access
from surveillance import significant
from surveillance.forms import check_time_range, time_range
from surveillance.notices import notices_to_show
from surveillance.selectors import (
    RoundFilters,
    marks_now,
    round_search,
    search_zone,
    table_sequences,
    wall_tiles,
)
from tablegame.models import Table

ROUNDS_PER_PAGE = 25


@access.page("page:surveillance:wall")
def wall(request: HttpRequest) -> HttpResponse:
    """Every table live: a tile each, re-fetched one by one as the tables change."""
    tiles = wall_tiles()
    context = {
        "tiles": tiles,
        **notices_to_show(),
        **significant.wall_context({tile.pk: tile.zone for tile in tiles}),
        "now": timezone.now(),
        "compact": True,
    }
    return render(request, "surveillance/wall.html", context)


@access.page("page:surveillance:tile")
def tile(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table's tile, as an HTML fragment for the wall's script."""
    tiles = wall_tiles(table_ids=[table_id])
    if not tiles:
        raise Http404(f"There is no table {table_id}.")
    return render(request, "surveillance/_tile.html", {"tile": tiles[0]})


@access.page("page:surveillance:sequences", json=True)
def marks(request: HttpRequest) -> JsonResponse:
    """``{table id: its open marks' key}`` for every table with a mark open: what the wall checks
    every half minute, in case a mark's notice was lost (``selectors.marks_now``)."""
    return JsonResponse({"tables": {str(k): v for k, v in marks_now().items()}})


@access.page("page:surveillance:sequences", json=True)
def sequences(request: HttpRequest) -> JsonResponse:
    """``{table id: last event number}`` for every table: what the wall polls without live.js."""
    return JsonResponse({"tables": {str(k): v for k, v in table_sequences().items()}})


class RoundSearchForm(forms.Form):
    """The search filters; times are the casino's local time."""

    table = forms.ModelChoiceField(
        queryset=Table.objects.select_related("pit__casino").order_by("name"),
        required=False,
        empty_label="Every table",
    )
    shoe = forms.IntegerField(min_value=1, required=False, label="Shoe number")
    start, end = time_range("Opened from")
    min_wager = forms.DecimalField(
        min_value=Decimal("0.01"),
        max_digits=12,
        decimal_places=2,
        required=False,
        label="A wager of at least $",
    )
    irregular = forms.BooleanField(required=False, label="Only rounds with an irregularity")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        check_time_range(data)
        return data


@access.page("page:surveillance:rounds")
def rounds(request: HttpRequest) -> HttpResponse:
    """Past rounds by table, time range, shoe, wager size and irregularity; newest first."""
    chosen = request.GET.get("table", "")
    table = (
        Table.objects.select_related("pit__casino").filter(pk=int(chosen)).first()
        if chosen.isascii() and chosen.isdigit() and len(chosen) < 10
        else None
    )
    zone = search_zone(table)
    form = RoundSearchForm(request.GET or None)
    with timezone.override(zone):  # a typed time is the casino's local time
        valid = form.is_valid() if request.GET else True
    found = None
    if valid:
        data = form.cleaned_data if request.GET else {}
        found = round_search(
            RoundFilters(
                table=data.get("table"),
                shoe=data.get("shoe"),
                start=data.get("start"),
                end=data.get("end"),
                min_wager=data.get("min_wager"),
                irregular=bool(data.get("irregular")),
            )
        )
    page = None
    if found is not None:
        page = Paginator(found, ROUNDS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "surveillance/rounds.html",
        {"form": form, "page": page, "query": query.urlencode(), "zone": str(zone)},
    )


@access.page("page:round-review")
def round_moved(request: HttpRequest, round_id: int) -> HttpResponse:
    """The review's old address: a permanent redirect to tablegame's, with the query kept."""
    query = request.META.get("QUERY_STRING", "")
    url = reverse("round-review", args=[round_id])
    return redirect(f"{url}?{query}" if query else url, permanent=True)
