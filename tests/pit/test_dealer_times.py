"""The dealers page says since when each dealer deals and each person supervises in the casino's
time, never UTC (issue 28)."""

from __future__ import annotations

import datetime

from django.test import Client

from casino.models import Casino, PitSupervision
from tablegame.models import DealerAssignment
from tests.tablegame.conftest import dealer, floor, staff

__all__ = ["dealer", "floor", "staff"]

AT = datetime.datetime(2026, 1, 2, 3, 4, tzinfo=datetime.UTC)  # 11:04 in Macau (UTC+8)


def test_since_when_is_in_the_casinos_time(db, floor, staff) -> None:
    Casino.objects.update(time_zone="Asia/Macau")
    assert DealerAssignment.objects.current().update(assigned_at=AT)
    assert PitSupervision.objects.current().update(assigned_at=AT)  # the demo's supervisors
    client = Client()
    client.force_login(floor)

    page = client.get("/dealers/").content.decode()

    assert "11:04 by" in page and "since 11:04 by" in page
    assert "03:04" not in page
