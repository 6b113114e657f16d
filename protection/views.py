"""Game protection's pages: a table's edges over its shoe, its alerts, its seats' bets.

Surveillance only (``casino.access``: ``page:protection:*``). The wall's alert links here with
its own address in ``?back=`` (the round review's way: ``tablegame.views_review.local_path``). A
page on the newest shoe reads its edges section again (``edges``, an HTML fragment) every few
seconds, saying the shoe and round it shows: until the follower prices another round the answer
is 204, one query.
"""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from casino import access
from casino.models import Pit
from casino.record import deployment_casino
from protection.models import Edge, PlayerSession
from protection.ratings import ratings, ratings_csv, ratings_pdf, seated, session_page
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


#: The gaming days a ratings page may ask for: none before, none after.
FIRST_DAY, LAST_DAY = datetime.date(2000, 1, 1), datetime.date(2099, 12, 31)


def _day(request: HttpRequest) -> tuple[datetime.date | None, str, datetime.tzinfo]:
    """The gaming day asked for (today's, the casino's, without one), or why it cannot be."""
    casino = deployment_casino()
    zone = casino.zone if casino else datetime.UTC
    raw = request.GET.get("day", "")
    if not raw:
        today = casino.gaming_day(timezone.now()) if casino else timezone.localdate()
        return today, "", zone
    try:
        day = datetime.date.fromisoformat(raw) if len(raw) == 10 else None
    except ValueError:
        day = None
    if day is None:
        return None, "Write the gaming day as year-month-day, such as 2026-11-27.", zone
    if not FIRST_DAY <= day <= LAST_DAY:
        return (
            None,
            f"There are no ratings for {day.isoformat()}: pick a day from 2000 to 2099.",
            zone,
        )
    return day, "", zone


@access.page("page:protection:ratings")
def ratings_page(request: HttpRequest) -> HttpResponse:
    """The players' sessions of a gaming day, each rated wager by wager; CSV and PDF beside.
    Today's page reads its table again every 15 s (``partial=1``): the pit follows it live."""
    day, problem, zone = _day(request)
    rows = ratings(day) if day else []
    casino = deployment_casino()
    today = bool(day and casino and day == casino.gaming_day(timezone.now()))
    context = {"day": day, "problem": problem, "rows": rows, "zone": zone, "today": today}
    if day and request.GET.get("partial") == "1":  # the page's own re-read of today's ratings
        return render(request, "protection/_ratings.html", context)
    return render(request, "protection/ratings.html", context, status=400 if problem else 200)


@access.page("page:protection:ratings")
def ratings_csv_file(request: HttpRequest) -> HttpResponse:
    day, problem, zone = _day(request)
    if day is None:
        return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
    answer = HttpResponse(
        ratings_csv(day, ratings(day), zone), content_type="text/csv; charset=utf-8"
    )
    answer["Content-Disposition"] = f'attachment; filename="ratings-{day.isoformat()}.csv"'
    return answer


@access.page("page:protection:ratings")
def ratings_pdf_file(request: HttpRequest) -> HttpResponse:
    day, problem, zone = _day(request)
    if day is None:
        return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
    answer = HttpResponse(ratings_pdf(day, ratings(day), zone), content_type="application/pdf")
    answer["Content-Disposition"] = f'attachment; filename="ratings-{day.isoformat()}.pdf"'
    return answer


@access.page("page:protection:ratings")
def session(request: HttpRequest, session_id: int) -> HttpResponse:
    """One player's session: every wager, the exact edge it faced and its theoretical win."""
    found = get_object_or_404(
        PlayerSession.objects.select_related("table__pit__casino"), pk=session_id
    )
    return render(request, "protection/session.html", session_page(found))


@never_cache
@access.page("page:protection:ratings")
def pit_ratings(request: HttpRequest, pit_id: int) -> HttpResponse:
    """The pit console's ratings panel (``protection.console``): every player seated now at the
    pit's tables, rated (two queries: the pit, the ratings)."""
    pit = get_object_or_404(Pit.objects.select_related("casino"), pk=pit_id)
    context = {"pit": pit, "rows": seated(pit.pk), "zone": pit.casino.zone}
    return render(request, "protection/_seated.html", context)
