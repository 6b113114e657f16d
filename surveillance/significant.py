"""The significant events of the tables (issue 30, game protection), as they happen and after:
what the record holds of the kinds ``tablegame.kinds.SIGNIFICANT`` names (a card corrected, a
round void, an irregularity, a recut ordered, the shoe passed on an order, cards spread face up
for a player), and the dealers' refusals kept (``tablegame.refusals``: a card not in the shoe, a
wager after no more bets, a card not due, a wager over the limit), newest first, each with a link
to its round's review.

The wall shows the newest in a strip (``templates/surveillance/_significant.html``, read again by
``static/js/surveillance_significant.js``, which adds the socket's new ones live and marks each
table's tile); ``/surveillance/significant/`` lists them, by table, kind and time range.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from casino import access
from casino.events import KINDS, payload_of
from casino.models import Event
from surveillance.forms import check_time_range, time_range
from surveillance.selectors import search_zone
from tablegame.errors import REFUSAL_LABELS
from tablegame.kinds import SIGNIFICANT
from tablegame.models import Round, Table, TableRefusal

SHOWN = 200
"""At most this many on the page, the newest."""
ON_THE_WALL = 12
"""At most this many in the wall's strip, the newest ..."""
WALL_HOURS = 12
"""... of the last this many hours."""


@dataclass(frozen=True)
class Significant:
    """One significant event or refusal, as surveillance is shown it."""

    at: datetime.datetime
    table_id: int
    table_name: str
    kind: str
    label: str
    words: str
    who: str
    refused: bool
    round_number: int | None = None
    round_id: int | None = None
    more: int = 0
    """A refusal: how many more alike that minute were counted, not kept one by one."""


@dataclass(frozen=True)
class Filters:
    table: Table | None = None
    kind: str = ""
    start: datetime.datetime | None = None
    end: datetime.datetime | None = None


def significant(filters: Filters, *, limit: int = SHOWN) -> list[Significant]:
    """The significant events and refusals that match, newest first, at most ``limit`` (four
    queries: the events, their tables, their rounds, the refusals)."""
    found = [*_events(filters, limit), *_refusals(filters, limit)]
    found.sort(key=lambda s: s.at, reverse=True)
    return found[:limit]


def _events(filters: Filters, limit: int) -> list[Significant]:
    if filters.kind and filters.kind not in {k.value for k in SIGNIFICANT}:
        return []
    which = Q()
    for kind, field in SIGNIFICANT.items():
        if filters.kind in ("", kind.value):
            which |= Q(action=kind.value, **({f"data__{field}": True} if field else {}))
    rows = Event.objects.filter(which, chain__scope="table").select_related("actor")
    if filters.table is not None:
        rows = rows.filter(chain_id=filters.table.chain_id)
    if filters.start is not None:
        rows = rows.filter(created_at__gte=filters.start)
    if filters.end is not None:
        rows = rows.filter(created_at__lt=filters.end)
    events = list(rows.order_by("-created_at", "-pk")[:limit])
    chains = {e.chain_id for e in events}
    tables = {t.chain_id: t for t in Table.objects.filter(chain_id__in=chains)}
    rounds = _rounds_of(events, tables)
    found = []
    for event in events:
        table = tables[event.chain_id]
        payload = payload_of(event.action, event.data)
        number = event.data.get("round")
        found.append(
            Significant(
                at=event.created_at,
                table_id=table.pk,
                table_name=table.name,
                kind=event.action,
                label=payload.title,
                words=payload.describe(),
                who=event.actor.get_username() if event.actor is not None else "",
                refused=False,
                round_number=number if isinstance(number, int) else None,
                round_id=rounds.get(event.pk),
            )
        )
    return found


def _rounds_of(events: list[Event], tables: dict[int, Table]) -> dict[int, int]:
    """Event id -> the id of its round: the latest of its table with its number opened before
    it (a round's number counts within its shoe)."""
    wanted = [e for e in events if isinstance(e.data.get("round"), int)]
    if not wanted:
        return {}
    earliest = min(e.created_at for e in wanted) - datetime.timedelta(days=1)
    candidates = (
        Round.objects.filter(
            table_id__in={tables[e.chain_id].pk for e in wanted},
            number__in={e.data["round"] for e in wanted},
            opened_at__gte=earliest,
            opened_at__lte=max(e.created_at for e in wanted),
        )
        .order_by("-opened_at")
        .values_list("pk", "table_id", "number", "opened_at")
    )
    rows = list(candidates)
    found = {}
    for event in wanted:
        table_id, number = tables[event.chain_id].pk, event.data["round"]
        for pk, table, round_number, opened in rows:
            if (table, round_number) == (table_id, number) and opened <= event.created_at:
                found[event.pk] = pk
                break
    return found


def _refusals(filters: Filters, limit: int) -> list[Significant]:
    if filters.kind and filters.kind not in REFUSAL_LABELS:
        return []
    rows = TableRefusal.objects.select_related("table")
    if filters.kind:
        rows = rows.filter(kind=filters.kind)
    if filters.table is not None:
        rows = rows.filter(table=filters.table)
    if filters.start is not None:
        rows = rows.filter(at__gte=filters.start)
    if filters.end is not None:
        rows = rows.filter(at__lt=filters.end)
    return [
        Significant(
            at=row.at,
            table_id=row.table_id,
            table_name=row.table.name,
            kind=row.kind,
            label=row.get_kind_display(),
            words=row.words,
            who=row.username,
            refused=True,
            round_number=row.round_number,
            round_id=row.round_id,
            more=row.more,
        )
        for row in rows.order_by("-at", "-pk")[:limit]
    ]


def on_the_wall() -> list[Significant]:
    """The wall's strip: the newest of the last ``WALL_HOURS`` hours."""
    since = timezone.now() - datetime.timedelta(hours=WALL_HOURS)
    return significant(Filters(start=since), limit=ON_THE_WALL)


class SignificantSearchForm(forms.Form):
    table = forms.ModelChoiceField(
        queryset=Table.objects.order_by("name"), required=False, empty_label="Every table"
    )
    kind = forms.ChoiceField(choices=[("", "Every kind")], required=False)
    start, end = time_range("From")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [("", "Every kind"), *kind_labels().items()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        check_time_range(data)
        return data


def kind_labels() -> dict[str, str]:
    """Every kind shown, with its words: the events' titles, then the refusals'."""
    titles = {k.value: KINDS[k.value].title for k in SIGNIFICANT}
    return {**titles, **{k.value: label for k, label in REFUSAL_LABELS.items()}}


@access.page("page:surveillance:significant")
def significant_page(request: HttpRequest) -> HttpResponse:
    """The significant events and refusals, by table, kind and time range; newest first. With
    ``?partial=1``, the wall's strip."""
    if request.GET.get("partial"):
        return render(request, "surveillance/_significant.html", wall_context())
    zone = search_zone(None)
    form = SignificantSearchForm(request.GET or None)
    with timezone.override(zone):  # a typed time is the casino's local time
        valid = form.is_valid() if request.GET else True
    found = None
    if valid:
        data = form.cleaned_data if request.GET else {}
        found = significant(
            Filters(
                table=data.get("table"),
                kind=data.get("kind") or "",
                start=data.get("start"),
                end=data.get("end"),
            )
        )
    context = {"form": form, "found": found, "zone": zone, "shown": SHOWN}
    return render(request, "surveillance/significant.html", context)


def wall_context() -> dict[str, Any]:
    """What the wall's strip needs (``surveillance.views.wall`` adds it to the wall's)."""
    return {"significant": on_the_wall(), "significant_zone": search_zone(None)}
