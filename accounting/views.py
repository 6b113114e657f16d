"""The accounting pages under /accounting/: the day's reports and downloads, closing the day, the
drop count, a table's counts for the day and their amendments, the accounting settings; and the
pit's pages kept here because they write accounting's rows: table inventories and fill and credit
requests (the pit console links to them).

Every page answers GET with its form or report; a POST does the one thing the form says, through
``accounting.services``, and shows the refusal in the page when there is one.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from accounting import chips, inputs, services
from accounting.charts import Bar, bars
from accounting.exports import day_csv, day_pdf
from accounting.history import CountHistory, settings_changes, table_day_counts
from accounting.models import AccountingSettings, DropCount, GamingDay, Slip, TableInventory
from accounting.reports import (
    ZERO,
    busiest,
    day_report,
    latest_closed_or_yesterday,
    master_report,
    settled_rounds,
)
from casino import access, roles
from casino.models import Casino
from casino.record import deployment_casino
from tablegame.errors import ActionError
from tablegame.models import Round, Table

CHART_TABLES = 24

View = Callable[..., HttpResponse]


def _checked(view: View) -> View:
    """The page refuses a query or form it cannot read (a day that is not one, a NUL character)
    with a 400 page that says why, having changed nothing."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            inputs.check_text(dict(request.GET.lists()))
            inputs.check_text(dict(request.POST.lists()))
            return view(request, *args, **kwargs)
        except inputs.BadInput as error:
            return render(request, "accounting/refused.html", {"error": str(error)}, status=400)

    return checked


def _casino(request: HttpRequest) -> Casino:
    chosen = request.GET.get("casino") or request.POST.get("casino") or ""
    if not chosen:
        casino = deployment_casino()
    elif (pk := inputs.ident(chosen)) is None:
        raise inputs.BadInput(f"{chosen[:20]!r} is not a casino: choose one from the list.")
    else:
        casino = Casino.objects.filter(pk=pk).first()
    if casino is None:
        raise Http404("No casino is set up yet." if not chosen else "There is no such casino.")
    return casino


def _day(request: HttpRequest, casino: Casino, *, ahead: int = 0) -> datetime.date:
    """The day the query or form gives (refused if it is not one a casino can mean), or the
    report's default day when none is given."""
    raw = request.GET.get("day") or request.POST.get("day") or ""
    if not raw:
        return latest_closed_or_yesterday(casino, timezone.now())
    return inputs.parse_day(raw, casino, timezone.now(), ahead=ahead)


def _context(request: HttpRequest, casino: Casino, day: datetime.date) -> dict[str, Any]:
    today = inputs.today(casino, timezone.now())
    return {
        "casino": casino,
        "casinos": Casino.objects.all(),
        "day": day,
        "today": today,
        "previous": day - datetime.timedelta(days=1),
        "next": day + datetime.timedelta(days=1) if day < today else None,
    }


@access.page("page:accounting:day")
@_checked
def day(request: HttpRequest) -> HttpResponse:
    """The gaming day: win and hold by table, pit, game and casino, the recorded play beside the
    count, theoretical win, exceptions, fills and credits, voids and irregularities."""
    casino = _casino(request)
    when = _day(request, casino)
    report = day_report(casino, when)
    shown = busiest(report.tables, CHART_TABLES)
    charts = {
        "hold": bars(
            [Bar(t.table, t.hold, flagged=t.hold_flagged) for t in shown if t.hold is not None],
            unit="%",
            title="Hold % by table",
        ),
        "types": bars(
            [Bar(line.label, line.result) for line in report.wager_types],
            title="House result by wager type",
        ),
        "theoretical": bars(
            [  # no theoretical bar for a game whose theoretical win is incomplete
                Bar(name, f.win, None if f.theoretical_unknown else f.theoretical)
                for name, f in report.games
                if f.tables
            ],
            title="Win against theoretical win by game",
            legend=("Count-room win", "Theoretical"),
        ),
    }
    zone = casino.zone
    return render(
        request,
        "accounting/day.html",
        {
            **_context(request, casino, when),
            "report": report,
            "charts": charts,
            "charted": len(shown),
            "amended_tables": {a.table_id for a in report.amendments},
            "local_start": report.start.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
            "local_end": report.end.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
        },
    )


@access.page("page:accounting:day-csv")
@_checked
def day_csv_download(request: HttpRequest) -> HttpResponse:
    casino = _casino(request)
    when = _day(request, casino)
    response = HttpResponse(day_csv(day_report(casino, when)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="table-games-{when}.csv"'
    return response


@access.page("page:accounting:day-pdf")
@_checked
def day_pdf_download(request: HttpRequest) -> HttpResponse:
    casino = _casino(request)
    when = _day(request, casino)
    pdf = day_pdf(day_report(casino, when), master=master_report(casino, when))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="table-games-{when}.pdf"'
    return response


@access.page("page:accounting:master")
@_checked
def master(request: HttpRequest) -> HttpResponse:
    """Drop, win and hold per table and game for the day, month to date and year to date."""
    casino = _casino(request)
    when = _day(request, casino)
    by_table, by_game = master_report(casino, when)
    return render(
        request,
        "accounting/master.html",
        {**_context(request, casino, when), "by_table": by_table, "by_game": by_game},
    )


@access.page("page:accounting:rounds")
@_checked
def table_rounds(request: HttpRequest) -> HttpResponse:
    """A table's rounds of a gaming day, as its figures count them: settled (or voided) within
    the day's bounds, whenever they were opened; each links to its review."""
    casino = _casino(request)
    when = _day(request, casino)
    table = _table(request, casino)
    if table is None:
        raise Http404("Choose a table of this casino.")
    start, end = casino.gaming_day_bounds(when)
    rounds = settled_rounds(table.pk, start, end)
    zone = casino.zone
    return render(
        request,
        "accounting/rounds.html",
        {
            **_context(request, casino, when),
            "table": table,
            "rounds": rounds,
            "settled": sum(1 for r in rounds if r.state == Round.State.SETTLED),
            "voided": sum(1 for r in rounds if r.state == Round.State.VOID),
            "wagered": sum((r.wagered or ZERO for r in rounds), ZERO),  # a round without wagers
            "local_start": start.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
            "local_end": end.astimezone(zone).strftime("%Y-%m-%d %H:%M"),
        },
    )


def _refused(request: HttpRequest, error: ActionError) -> None:
    messages.error(request, str(error))


@access.page("page:accounting:close")
@_checked
def close(request: HttpRequest) -> HttpResponse:
    """Close the gaming day by hand, or reopen a closed one with a second, senior person."""
    casino = _casino(request)
    when = _day(request, casino)
    if request.method == "POST":
        user = _user(request)
        try:
            if request.POST.get("action") == "reopen":
                approver = services.second_person(
                    request,
                    request.POST.get("approver", ""),
                    request.POST.get("approver_password", ""),
                    first=user,
                    authority="authority:reopen_gaming_day",
                    doing="reopen a gaming day",
                )
                services.reopen_gaming_day(
                    casino, when, reason=request.POST.get("reason", ""), approver=approver,
                    actor=user,
                )  # fmt: skip
                messages.success(request, f"Gaming day {when} reopened.")
            else:
                done = services.close_gaming_day(casino, when, actor=user)
                messages.success(
                    request, f"Gaming day {when} {'closed' if done else 'was already closed'}."
                )
        except ActionError as error:
            _refused(request, error)
        return redirect(f"{request.path}?casino={casino.pk}&day={when}")
    gaming_day = GamingDay.objects.filter(casino=casino, day=when).first()
    return render(
        request,
        "accounting/close.html",
        {
            **_context(request, casino, when),
            "gaming_day": gaming_day,
            "reopenings": gaming_day.reopenings.select_related("reopened_by", "approved_by")
            if gaming_day
            else [],
            "ended": timezone.now() >= casino.gaming_day_bounds(when)[1],
        },
    )


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _tables(casino: Casino) -> Any:
    return Table.objects.filter(pit__casino=casino).select_related("pit").order_by("pit", "name")


def _table(request: HttpRequest, casino: Casino) -> Table | None:
    raw = request.POST.get("table") or request.GET.get("table") or ""
    pk = inputs.ident(raw)
    return _tables(casino).filter(pk=pk).first() if pk is not None else None


def _counts(request: HttpRequest, denominations: tuple[Any, ...], prefix: str) -> dict[str, str]:
    return {
        chips.label(d): request.POST.get(f"{prefix}{chips.label(d)}", "") for d in denominations
    }


def _staff(*role_names: str) -> Any:
    return User.objects.filter(groups__name__in=role_names, is_active=True).order_by("username")


def _person(raw: str) -> User:
    pk = inputs.ident(raw)
    found = User.objects.filter(pk=pk, is_active=True).first() if pk is not None else None
    if found is None:
        raise ActionError("Choose the people who signed from the lists.")
    return found


@access.page("page:accounting:inventory")
@_checked
def inventory(request: HttpRequest) -> HttpResponse:
    """A table's opener or closer, chips by denomination, signed by its dealer and floorperson;
    the opener's form starts from the last closer."""
    casino = _casino(request)
    when = (
        _day(request, casino, ahead=inputs.COUNT_AHEAD)
        if request.GET.get("day") or request.POST.get("day")
        else (casino.gaming_day(timezone.now()))
    )
    table = _table(request, casino)
    entered: dict[str, str] = {}
    if request.method == "POST" and table is not None:
        entered = _counts(request, chips.CHIPS, "chip_")
        try:
            done = services.record_inventory(
                table,
                day=when,
                kind=request.POST.get("kind", ""),
                chips=entered,
                dealer=_person(request.POST.get("dealer", "")),
                floorperson=_person(request.POST.get("floorperson", "")),
                actor=_user(request),
            )
            messages.success(
                request, f"{table} {done.get_kind_display().lower()} of {when}: ${done.total}."
            )
            return redirect(f"{request.path}?casino={casino.pk}&day={when}&table={table.pk}")
        except ActionError as error:
            _refused(request, error)
    default = services.opener_default(table, when) if table else None
    counted = (
        {i.kind: i for i in TableInventory.objects.current().filter(table=table, day=when)}
        if table
        else {}
    )
    start = entered or (default.chips if default and "opener" not in counted else {})
    rows = [(chips.label(d), start.get(chips.label(d), "")) for d in chips.CHIPS]
    return render(
        request,
        "accounting/inventory.html",
        {
            **_context(request, casino, when),
            "tables": _tables(casino),
            "table": table,
            "rows": rows,
            "default": default,
            "opener": counted.get("opener"),
            "closer": counted.get("closer"),
            "dealers": _staff(roles.DEALER),
            "floorpersons": _staff(roles.FLOORPERSON, roles.PIT_BOSS),
        },
    )


@access.page("page:accounting:slip")
@_checked
def slip(request: HttpRequest) -> HttpResponse:
    """Request a fill or credit for a table: chips by denomination, who carries and receives."""
    casino = _casino(request)
    table = _table(request, casino)
    entered: dict[str, str] = {}
    if request.method == "POST":
        entered = _counts(request, chips.CHIPS, "chip_")
        try:
            if table is None:
                raise ActionError("Choose the table.")
            done = services.issue_slip(
                table,
                kind=request.POST.get("kind", ""),
                chips=entered,
                carried_by=_person(request.POST.get("carried_by", "")),
                received_by=_person(request.POST.get("received_by", "")),
                actor=_user(request),
            )
            messages.success(
                request, f"{done.get_kind_display()} #{done.serial} for {table}: ${done.total}."
            )
            return redirect(f"{request.path}?casino={casino.pk}&table={table.pk}")
        except ActionError as error:
            _refused(request, error)
    today = casino.gaming_day(timezone.now())
    return render(
        request,
        "accounting/slip.html",
        {
            **_context(request, casino, today),
            "tables": _tables(casino),
            "table": table,
            "rows": [(chips.label(d), entered.get(chips.label(d), "")) for d in chips.CHIPS],
            "people": User.objects.filter(is_active=True, groups__isnull=False)
            .distinct()
            .order_by("username"),
            "receivers": _staff(roles.DEALER, roles.FLOORPERSON, roles.PIT_BOSS),
            "slips": Slip.objects.filter(casino=casino, day=today)
            .select_related("table", "requested_by", "carried_by", "received_by")
            .order_by("-requested_at")[:20],
        },
    )


@access.page("page:accounting:slip-void")
@_checked
def slip_void(request: HttpRequest) -> HttpResponse:
    """Void a fill or credit: the person voiding, and a witness who signs with their password."""
    casino = _casino(request)
    raw = request.POST.get("slip") or request.GET.get("slip") or ""
    pk = inputs.ident(raw)
    chosen = (
        Slip.objects.filter(casino=casino, pk=pk).select_related("table").first()
        if pk is not None
        else None
    )
    if request.method == "POST" and chosen is not None:
        user = _user(request)
        try:
            witness = services.second_person(
                request,
                request.POST.get("witness", ""),
                request.POST.get("witness_password", ""),
                first=user,
                authority="authority:witness_slip_void",
                doing="void a fill or credit",
            )
            services.void_slip(
                chosen, reason=request.POST.get("reason", ""), witness=witness, actor=user
            )
            messages.success(request, f"{chosen.get_kind_display()} #{chosen.serial} is void.")
            return redirect(f"{request.path}?casino={casino.pk}")
        except ActionError as error:
            _refused(request, error)
    today = casino.gaming_day(timezone.now())
    return render(
        request,
        "accounting/slip_void.html",
        {
            **_context(request, casino, today),
            "chosen": chosen,
            "slips": Slip.objects.filter(casino=casino, day__gte=today - datetime.timedelta(days=1))
            .select_related("table")
            .order_by("-requested_at")[:50],
        },
    )


@access.page("page:accounting:drop")
@_checked
def drop(request: HttpRequest) -> HttpResponse:
    """The count room: a table's drop box for a gaming day, counted by two people."""
    casino = _casino(request)
    when = _day(request, casino)
    table = _table(request, casino)
    entered: dict[str, str] = {}
    if request.method == "POST":
        entered = _counts(request, chips.CURRENCY, "cash_")
        user = _user(request)
        try:
            if table is None:
                raise ActionError("Choose the table whose box this is.")
            witness = services.second_person(
                request,
                request.POST.get("witness", ""),
                request.POST.get("witness_password", ""),
                first=user,
                authority="authority:count_drop",
                doing="count a drop box",
            )
            other = [
                {"item": item, "amount": amount}
                for item, amount in zip(
                    request.POST.getlist("other_item"),
                    request.POST.getlist("other_amount"),
                    strict=False,
                )
                if item.strip() or amount.strip()
            ]
            done = services.record_drop(
                table,
                day=when,
                currency=entered,
                forms=request.POST.get("forms", ""),
                other=other,
                witness=witness,
                actor=user,
            )
            messages.success(request, f"{table} drop of {when}: ${done.total}.")
            return redirect(f"{request.path}?casino={casino.pk}&day={when}")
        except ActionError as error:
            _refused(request, error)
    return render(
        request,
        "accounting/drop.html",
        {
            **_context(request, casino, when),
            "tables": _tables(casino),
            "table": table,
            "rows": [(chips.label(d), entered.get(chips.label(d), "")) for d in chips.CURRENCY],
            "counted": DropCount.objects.current()
            .filter(table__pit__casino=casino, day=when)
            .select_related("table", "counted_by", "witnessed_by")
            .order_by("table__name"),
            "posted": request.POST if request.method == "POST" else {},
            "other_rows": _other_rows(request),
        },
    )


def _other_rows(request: HttpRequest) -> list[tuple[str, str]]:
    """The other items as typed (kept when the count is refused), then empty rows to three."""
    typed = list(
        zip(request.POST.getlist("other_item"), request.POST.getlist("other_amount"), strict=False)
    )
    return [*typed, *[("", "")] * (3 - len(typed))][: max(3, len(typed))]


#: A table's counts that may be amended, and who approves each (``casino.access``).
AMENDABLE = {
    "opener": "authority:approve_inventory_amendment",
    "closer": "authority:approve_inventory_amendment",
    "drop": "authority:approve_drop_amendment",
}


def _amend(request: HttpRequest, table: Table, when: datetime.date, count: str) -> str:
    """Amend ``count`` of ``table``'s day as the form says, with the approver's signature; returns
    what was done."""
    user = _user(request)
    raw = request.POST.get("row", "")
    rows = (
        DropCount.objects.filter(table=table, day=when)
        if count == "drop"
        else TableInventory.objects.filter(table=table, day=when, kind=count)
    )
    pk = inputs.ident(raw)
    row = rows.filter(pk=pk).first() if pk is not None else None
    if row is None:
        raise ActionError(f"There is no {count} of {table} on {when} to amend.")
    approver = services.second_person(
        request,
        request.POST.get("approver", ""),
        request.POST.get("approver_password", ""),
        first=user,
        authority=AMENDABLE[count],
        doing=f"approve the amendment of a {count}",
    )
    reason = request.POST.get("reason", "")
    if isinstance(row, DropCount):
        done = services.amend_drop(
            row,
            currency=_counts(request, chips.CURRENCY, "cash_"),
            forms=request.POST.get("forms", ""),
            other=[
                {"item": item, "amount": amount}
                for item, amount in zip(
                    request.POST.getlist("other_item"),
                    request.POST.getlist("other_amount"),
                    strict=False,
                )
                if item.strip() or amount.strip()
            ],
            reason=reason,
            approver=approver,
            actor=user,
        )
        return f"{table}'s drop of {when} amended to ${done.total}, approved by {approver}."
    amended = services.amend_inventory(
        row,
        chips=_counts(request, chips.CHIPS, "chip_"),
        reason=reason,
        approver=approver,
        actor=user,
    )
    return f"{table}'s {count} of {when} amended to ${amended.total}, approved by {approver}."


@dataclass(frozen=True)
class AmendForm:
    """The form to amend one count, filled with the count that stands (or what was typed)."""

    count: str
    row: int
    """The count that stands, which the amendment corrects."""
    denominations: list[tuple[str, Any]]
    forms: str = ""
    """A drop's form serial numbers."""
    other: list[tuple[str, str]] = field(default_factory=list)
    """A drop's other items, then an empty row."""


def _amend_form(request: HttpRequest, history: CountHistory, typed: bool) -> AmendForm:
    current = history.current
    if isinstance(current, DropCount):
        cash = _counts(request, chips.CURRENCY, "cash_") if typed else current.currency
        return AmendForm(
            "drop",
            current.pk,
            [(chips.label(d), cash.get(chips.label(d), "")) for d in chips.CURRENCY],
            request.POST.get("forms", "") if typed else " ".join(map(str, current.forms)),
            _other_rows(request)
            if typed
            else [*((i["item"], i["amount"]) for i in current.other), ("", "")],
        )
    tray = _counts(request, chips.CHIPS, "chip_") if typed else current.chips
    return AmendForm(
        current.kind,
        current.pk,
        [(chips.label(d), tray.get(chips.label(d), "")) for d in chips.CHIPS],
    )


@access.page("page:accounting:table-day")
@_checked
def table_day(request: HttpRequest) -> HttpResponse:
    """One table's gaming day: its figures as the report reads them, each count with its
    amendments, and a form to amend a wrong count with a second person's approval."""
    casino = _casino(request)
    when = _day(request, casino, ahead=inputs.COUNT_AHEAD)
    table = _table(request, casino)
    refused = ""
    if request.method == "POST" and table is not None:
        count = request.POST.get("count", "")
        try:
            if count not in AMENDABLE:
                raise ActionError("Choose the count to amend: the opener, the closer or the drop.")
            messages.success(request, _amend(request, table, when, count))
            return redirect(f"{request.path}?casino={casino.pk}&day={when}&table={table.pk}")
        except ActionError as error:
            _refused(request, error)
            refused = count
    gaming_day = GamingDay.objects.filter(casino=casino, day=when).first()
    counted = table_day_counts(table, when) if table else {}
    line = None
    if table is not None:
        line = next(t for t in day_report(casino, when).tables if t.table_id == table.pk)
    return render(
        request,
        "accounting/table_day.html",
        {
            **_context(request, casino, when),
            "tables": _tables(casino),
            "table": table,
            "line": line,
            "closed": bool(gaming_day and gaming_day.is_closed),
            "counted": [counted[c] for c in AMENDABLE if c in counted],
            "forms": [
                _amend_form(request, counted[c], c == refused) for c in AMENDABLE if c in counted
            ],
            "posted_count": refused,
            "typed_reason": request.POST.get("reason", "") if refused else "",
        },
    )


SETTINGS = ("variance_threshold", "hold_low", "hold_high", "close_after_hours")


@access.page("page:accounting:settings")
@_checked
def accounting_settings(request: HttpRequest) -> HttpResponse:
    """The variance threshold, the hold bounds and the close delay: set by accounting, each
    change recorded and listed with who made it."""
    casino = _casino(request)
    values = {name: str(getattr(AccountingSettings.of(casino), name)) for name in SETTINGS}
    if request.method == "POST":
        values = {name: request.POST.get(name, "") for name in SETTINGS}
        try:
            services.set_accounting_settings(casino, **values, actor=_user(request))
            messages.success(request, "Settings changed; the change is recorded.")
            return redirect(f"{request.path}?casino={casino.pk}")
        except ActionError as error:
            _refused(request, error)
    when = latest_closed_or_yesterday(casino, timezone.now())
    return render(
        request,
        "accounting/settings.html",
        {
            **_context(request, casino, when),
            "values": values,
            "changes": settings_changes(casino),
        },
    )
