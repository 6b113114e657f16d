"""The forms page's commands refuse what no form can carry, in words, and store nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import Pit
from tablegame.models import VigorishFormSeries
from tests.pit.conftest import dealer, floor, staff

__all__ = ["dealer", "floor", "staff"]


def clerk() -> Client:
    client = Client()
    assert client.login(username="clerk", password="baccarat")
    return client


@pytest.mark.parametrize(
    ("first", "said"),
    [
        (2**31, "first number"),
        ("12345678901234567890", "first number"),
        ("1²", "first number"),
        ("²", "first number"),
        (1.5, "first number"),
    ],
)
def test_a_series_number_no_form_carries_is_refused(db, staff: dict[str, User], first, said):
    body = {"pit": Pit.objects.get().pk, "first": first, "last": 4600}
    answer = clerk().post("/floor/forms/series/", body, content_type="application/json")
    assert answer.status_code in (400, 409)
    assert said in answer.json()["error"]
    assert not VigorishFormSeries.objects.exists()


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b'{"pit": 1, "first": "\\u0000", "last": 2}', "NUL"),
        (b'{"pit": 1, "first": "\\ud800", "last": 2}', "half of a character"),
        (b'{"pit": NaN, "first": 1, "last": 2}', "NaN is not a JSON number"),
        (b"[" * 9 + b"]" * 9, "nested too deeply"),
        (b"{not json", "not valid JSON"),
    ],
)
def test_a_body_no_script_sends_is_refused_in_words(db, staff: dict[str, User], raw, said):
    answer = clerk().post("/floor/forms/series/", raw, content_type="application/json")
    assert answer.status_code == 400
    assert said in answer.json()["error"]
    assert not VigorishFormSeries.objects.exists()
