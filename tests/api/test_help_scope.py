"""The table state holds the tablet's helps (the last round's wagers, to repeat): a dealer reads
only the table they may deal; the floor reads every table (issue 28)."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tests.api.conftest import dealer, floor, staff, table_for
from tests.tablegame.conftest import deal_at

__all__ = ["dealer", "floor", "staff"]


def _client(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_dealer_of_table_a_is_refused_table_bs_helps(dealer: User, floor: User) -> None:
    mine = deal_at(table_for("ca-commission-free"), dealer, floor)
    other = next(t for t in type(mine).objects.exclude(pk=mine.pk).order_by("pk"))

    refused = _client(dealer).get(f"/api/tables/{other.pk}/")
    assert refused.status_code == 403
    assert "a dealer acts only at their own table" in refused.json()["error"]
    assert "repeat" not in refused.content.decode()

    assert _client(dealer).get(f"/api/tables/{mine.pk}/").status_code == 200
    assert _client(floor).get(f"/api/tables/{other.pk}/").status_code == 200
