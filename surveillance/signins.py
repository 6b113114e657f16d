"""The sign-in record for surveillance: sign-ins and sign-outs (axes' ``AccessLog``), failed
sign-ins, lock-outs and refused tablet approvals (axes' ``AccessFailureLog``; an approval's row
is at its ``/api/`` path), and the access policy's refusals that reached a person as a 403 (a page,
the API, a socket: ``casino.refusals``), newest first, filtered by username, address, kind, what
was tried and time range typed in the casino's local time."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from axes.models import AccessFailureLog, AccessLog
from django import forms
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from casino import access
from casino.models import AccessRefusal
from surveillance.forms import check_time_range, time_range
from surveillance.selectors import search_zone

SHOWN = 200
"""At most this many entries, the newest."""

KINDS = {
    "sign_in": "Signed in",
    "sign_out": "Signed out",
    "failed": "Failed sign-in",
    "locked_out": "Locked out",
    "approval_refused": "Approval refused",
    "refused": "Refused by the access policy",
}


@dataclass(frozen=True)
class Entry:
    at: datetime.datetime
    kind: str
    username: str
    address: str
    where: str
    tried: str = ""
    """A refusal: what was tried, in words, and the policy's name for it."""
    more: int = 0
    """A refusal: how many more alike in the same minute were counted, not kept one by one."""


class SignInSearchForm(forms.Form):
    username = forms.CharField(required=False, max_length=150)
    address = forms.GenericIPAddressField(required=False, label="Address")
    kind = forms.ChoiceField(choices=[("", "Every kind"), *KINDS.items()], required=False)
    tried = forms.CharField(
        required=False,
        max_length=100,
        label="What was tried",
        widget=forms.TextInput(attrs={"placeholder": "pit console, page:floor, socket"}),
    )
    start, end = time_range("From")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        check_time_range(data)
        return data


def _within(field: str, data: dict[str, Any]) -> Q:
    q = Q()
    if data.get("username"):
        q &= Q(username=data["username"])
    if data.get("address"):
        q &= Q(ip_address=data["address"])
    if data.get("start"):
        q &= Q(**{f"{field}__gte": data["start"]})
    if data.get("end"):
        q &= Q(**{f"{field}__lt": data["end"]})
    return q


def _failure_kind(row: AccessFailureLog) -> str:
    if row.path_info.startswith("/api/"):
        return "approval_refused"
    return "locked_out" if row.locked_out else "failed"


def sign_in_record(data: dict[str, Any]) -> list[Entry]:
    """The entries that match, newest first, at most :data:`SHOWN`."""
    kind = data.get("kind") or ""
    if data.get("tried"):  # only a refusal says what was tried
        if kind not in ("", "refused"):
            return []
        kind = "refused"
    entries: list[Entry] = []
    if kind in ("", "sign_in"):
        for row in AccessLog.objects.filter(_within("attempt_time", data))[:SHOWN]:
            entries.append(
                Entry(
                    row.attempt_time,
                    "sign_in",
                    row.username or "",
                    row.ip_address or "",
                    row.path_info,
                )
            )
    if kind in ("", "sign_out"):
        ended = AccessLog.objects.filter(_within("logout_time", data), logout_time__isnull=False)
        for row in ended.order_by("-logout_time")[:SHOWN]:
            assert row.logout_time is not None
            entries.append(
                Entry(
                    row.logout_time,
                    "sign_out",
                    row.username or "",
                    row.ip_address or "",
                    row.path_info,
                )
            )
    if kind in ("", "failed", "locked_out", "approval_refused"):
        failures = AccessFailureLog.objects.filter(_within("attempt_time", data))
        if kind == "approval_refused":
            failures = failures.filter(path_info__startswith="/api/")
        elif kind:
            failures = failures.exclude(path_info__startswith="/api/").filter(
                locked_out=kind == "locked_out"
            )
        for row in failures[:SHOWN]:
            entries.append(
                Entry(
                    row.attempt_time,
                    _failure_kind(row),
                    row.username or "",
                    row.ip_address or "",
                    row.path_info,
                )
            )
    if kind in ("", "refused"):
        entries.extend(_refusals(data))
    entries.sort(key=lambda entry: entry.at, reverse=True)
    return entries[:SHOWN]


def _refusals(data: dict[str, Any]) -> list[Entry]:
    """The access policy's refusals that match (``casino.refusals``), newest first."""
    q = Q()
    if data.get("username"):
        q &= Q(username=data["username"])
    if data.get("address"):
        q &= Q(address=data["address"])
    if data.get("start"):
        q &= Q(at__gte=data["start"])
    if data.get("end"):
        q &= Q(at__lt=data["end"])
    if data.get("tried"):
        q &= Q(what__icontains=data["tried"]) | Q(doing__icontains=data["tried"])
    rows = AccessRefusal.objects.filter(q).order_by("-at", "-pk")[:SHOWN]
    return [
        Entry(
            row.at,
            "refused",
            row.username,
            row.address or "",
            row.path,
            tried=f"{row.doing} ({row.what}, {row.get_channel_display()})",
            more=row.more,
        )
        for row in rows
    ]


@access.page("page:surveillance:signins")
def signins(request: HttpRequest) -> HttpResponse:
    """Who signed in, out, failed or was refused, from where and when."""
    zone = search_zone(None)
    form = SignInSearchForm(request.GET or None)
    with timezone.override(zone):  # a typed time is the casino's local time
        valid = form.is_valid() if request.GET else True
    entries = None
    if valid:
        entries = sign_in_record(form.cleaned_data if request.GET else {})
    return render(
        request,
        "surveillance/signins.html",
        {"form": form, "entries": entries, "kinds": KINDS, "zone": zone, "shown": SHOWN},
    )
