"""What the surveillance searches' forms share: a time range typed in the casino's local time (the
round search, ``views.RoundSearchForm``; the sign-in record, ``signins.SignInSearchForm``). The
view reads the form under ``timezone.override`` of the casino's zone."""

from __future__ import annotations

from typing import Any

from django import forms

#: How the browser's ``datetime-local`` input sends a time, and how the form shows it again.
LOCAL_TIME_FORMAT = "%Y-%m-%dT%H:%M"
REVERSED = "The end of the time range must come after its start."


def local_time(label: str) -> forms.DateTimeField:
    """An optional time, typed in the browser's date and time picker."""
    return forms.DateTimeField(
        required=False,
        label=label,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_TIME_FORMAT),
    )


def time_range(start_label: str = "From") -> tuple[forms.DateTimeField, forms.DateTimeField]:
    """The ``start`` and ``end`` fields of a search: ``start, end = time_range("Opened from")``
    in the form's body; its ``clean`` calls ``check_time_range``."""
    return local_time(start_label), local_time("until")


def check_time_range(data: dict[str, Any]) -> None:
    """Refuse an end that does not come after the start, in words."""
    start, end = data.get("start"), data.get("end")
    if start and end and end <= start:
        raise forms.ValidationError(REVERSED)
