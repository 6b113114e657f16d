"""The significant events of the tables (issue 30, game protection), as they happen and after:
what the record holds of the kinds ``tablegame.kinds.SIGNIFICANT`` names (a card corrected, a
round void, an irregularity, a recut ordered, the shoe passed on an order, cards spread face up
for a player), and the dealers' refusals kept (``tablegame.refusals``: a card not in the shoe, a
wager after no more bets, a card not due, a wager over the limit or under the minimum, a card code
mistyped), newest first, each with a link to its round's review.

The wall shows the newest in a strip (``templates/surveillance/_significant.html``, read again by
``static/js/surveillance_significant.js``, which adds the socket's new ones live and marks each
table's tile); ``/surveillance/significant/`` lists them, by table, kind and time range.
"""

from __future__ import annotations

import datetime
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import IntegerField, OuterRef, Q, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
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
    zone: str
    """The time zone of the table's casino, in which its time is shown."""
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

    @property
    def local(self) -> datetime.datetime:
        """When, in its casino's time."""
        return self.at.astimezone(zoneinfo.ZoneInfo(self.zone))

    @property
    def clock(self) -> str:
        return f"{self.local:%H:%M:%S}"

    @property
    def when(self) -> str:
        return f"{self.local:%Y-%m-%d %H:%M:%S}"


@dataclass(frozen=True)
class Filters:
    table: Table | None = None
    kind: str = ""
    start: datetime.datetime | None = None
    end: datetime.datetime | None = None


def significant(filters: Filters, *, limit: int = SHOWN) -> list[Significant]:
    """The significant events and refusals that match, newest first, at most ``limit`` (two
    queries: the events, the refusals)."""
    found = [*_events(filters, limit), *_refusals(filters, limit)]
    found.sort(key=lambda s: s.at, reverse=True)
    return found[:limit]


def _events(filters: Filters, limit: int) -> list[Significant]:
    """The significant events of the tables' chains, each with its table, casino zone and round
    read in the same query."""
    if filters.kind and filters.kind not in {k.value for k in SIGNIFICANT}:
        return []
    which = Q()
    for kind, field in SIGNIFICANT.items():
        if filters.kind in ("", kind.value):
            which |= Q(action=kind.value, **({f"data__{field}": True} if field else {}))
    rows = Event.objects.filter(which, chain__scope="table")
    if filters.table is not None:
        rows = rows.filter(chain_id=filters.table.chain_id)
    if filters.start is not None:
        rows = rows.filter(created_at__gte=filters.start)
    if filters.end is not None:
        rows = rows.filter(created_at__lt=filters.end)
    table = Table.objects.filter(chain_id=OuterRef("chain_id"))
    # A round's number counts within its shoe: the event's is the latest of that number opened
    # at its table before it.
    game = Round.objects.filter(
        table__chain_id=OuterRef("chain_id"),
        number=OuterRef("round_number"),
        opened_at__lte=OuterRef("created_at"),
    ).order_by("-opened_at")
    rows = rows.annotate(round_number=Cast(KT("data__round"), IntegerField())).annotate(
        table_pk=Subquery(table.values("pk")[:1]),
        table_name=Subquery(table.values("name")[:1]),
        zone=Subquery(table.values("pit__casino__time_zone")[:1]),
        round_pk=Subquery(game.values("pk")[:1]),
        who=Subquery(User.objects.filter(pk=OuterRef("actor_id")).values("username")[:1]),
    )
    found = []
    for event in rows.order_by("-created_at", "-pk")[:limit]:
        payload = payload_of(event.action, event.data)
        number = event.data.get("round")
        found.append(
            Significant(
                at=event.created_at,
                zone=event.zone,
                table_id=event.table_pk,
                table_name=event.table_name,
                kind=event.action,
                label=payload.title,
                words=payload.describe(),
                who=event.who or "",
                refused=False,
                round_number=number if isinstance(number, int) else None,
                round_id=event.round_pk,
            )
        )
    return found


def _refusals(filters: Filters, limit: int) -> list[Significant]:
    if filters.kind and filters.kind not in REFUSAL_LABELS:
        return []
    rows = TableRefusal.objects.select_related("table__pit__casino")
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
            zone=row.table.pit.casino.time_zone,
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


def wall_context(zones: dict[int, str] | None = None) -> dict[str, Any]:
    """What the wall's strip needs (``surveillance.views.wall`` adds it to the wall's): the
    newest, and each table's casino zone (``zones``, from the wall's tiles; else read), in
    which the script shows the time of a new one."""
    if zones is None:
        zones = dict(Table.objects.values_list("pk", "pit__casino__time_zone"))
    return {"significant": on_the_wall(), "significant_zones": zones}
