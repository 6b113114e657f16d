"""The round search and the sign-in record take a time range alike (one definition,
``surveillance.forms``): the same picker and format, the casino's local time, and a reversed
range refused in the same words."""

from __future__ import annotations

from django import forms

from surveillance.forms import LOCAL_TIME_FORMAT, REVERSED
from surveillance.signins import SignInSearchForm
from surveillance.views import RoundSearchForm

REVERSED_RANGE = {"start": "2026-01-02T10:00", "end": "2026-01-01T10:00"}


def test_both_searches_take_the_same_time_fields() -> None:
    for form in (RoundSearchForm(), SignInSearchForm()):
        for name in ("start", "end"):
            field = form.fields[name]
            assert isinstance(field, forms.DateTimeField) and not field.required
            assert getattr(field.widget, "input_type", None) == "datetime-local"
            assert getattr(field.widget, "format", None) == LOCAL_TIME_FORMAT
        assert form.fields["end"].label == "until"
    assert RoundSearchForm().fields["start"].label == "Opened from"
    assert SignInSearchForm().fields["start"].label == "From"
    # The round search's fields keep their order: the range between the shoe and the wager.
    assert list(RoundSearchForm().fields)[1:5] == ["shoe", "start", "end", "min_wager"]


def test_both_refuse_a_reversed_range_in_the_same_words(db: None) -> None:
    for form in (RoundSearchForm(REVERSED_RANGE), SignInSearchForm(REVERSED_RANGE)):
        assert not form.is_valid()
        assert form.non_field_errors() == [REVERSED]


def test_a_range_in_order_is_taken(db: None) -> None:
    ordered = {"start": "2026-01-01T10:00", "end": "2026-01-02T10:00"}
    for form in (RoundSearchForm(ordered), SignInSearchForm(ordered)):
        assert form.is_valid(), form.errors
        assert form.cleaned_data["end"] > form.cleaned_data["start"]
