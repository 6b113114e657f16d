"""A casino's gaming day: which day an instant belongs to, in the casino's own time zone."""

from __future__ import annotations

import datetime
import zoneinfo

from casino.models import Casino

UTC = datetime.UTC
BOSTON = zoneinfo.ZoneInfo("America/New_York")


def casino(start: datetime.time = datetime.time(6, 0)) -> Casino:
    return Casino(name="Test", gaming_day_start=start, time_zone="America/New_York")


def test_an_instant_before_the_start_belongs_to_the_previous_gaming_day() -> None:
    at = datetime.datetime(2026, 3, 2, 5, 59, tzinfo=BOSTON)
    assert casino().gaming_day(at) == datetime.date(2026, 3, 1)


def test_the_start_itself_opens_the_new_gaming_day() -> None:
    at = datetime.datetime(2026, 3, 2, 6, 0, tzinfo=BOSTON)
    assert casino().gaming_day(at) == datetime.date(2026, 3, 2)


def test_the_day_is_read_in_the_casinos_zone_not_utc() -> None:
    # 09:30 UTC is 04:30 in Boston in winter: still the gaming day of the 1st there.
    at = datetime.datetime(2026, 1, 2, 9, 30, tzinfo=UTC)
    assert casino().gaming_day(at) == datetime.date(2026, 1, 1)


def test_the_bounds_of_a_gaming_day_contain_exactly_its_instants() -> None:
    house = casino()
    # Clocks go forward at 02:00 on 8 March: the gaming day of the 7th is 23 hours long.
    start, end = house.gaming_day_bounds(datetime.date(2026, 3, 7))
    assert start == datetime.datetime(2026, 3, 7, 6, 0, tzinfo=BOSTON)
    assert end == datetime.datetime(2026, 3, 8, 6, 0, tzinfo=BOSTON)
    assert end - start == datetime.timedelta(hours=23)
    assert house.gaming_day(start) == datetime.date(2026, 3, 7)
    assert house.gaming_day(end - datetime.timedelta(microseconds=1)) == datetime.date(2026, 3, 7)
    assert house.gaming_day(end) == datetime.date(2026, 3, 8)
