"""The demo floor's staff, a second pit clerk and pit boss, and vigorish waiting for a form."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from casino import roles
from casino.models import Pit
from tablegame import actions
from tablegame.models import Table, VigorishMarker
from tests.tablegame.conftest import dealer, floor, play, ready_table, staff

__all__ = ["dealer", "floor", "staff"]


def person(username: str, role: str) -> User:
    """Another member of staff with ``role`` (password ``baccarat``)."""
    user = User.objects.create_user(username, password="baccarat")
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def pit(staff: dict[str, User]) -> Pit:
    return Pit.objects.get()


def deferred_table(dealer: User, floor: User) -> Table:
    """A Mini-Baccarat table (002) that marks the vigorish instead of collecting it."""
    return ready_table("s42-mini", dealer, floor, options={"vigorish_collection": "deferred"})


def requested_marker(table: Table, dealer: User, seat: int = 2) -> VigorishMarker:
    """A Banker win at ``seat`` ($100, $5 vigorish marked), then the form requested for it."""
    play(table, dealer, [(seat, "banker", "100")], ["4H", "9C", "2S", "KS"])
    marker = table.markers.filter(seat=seat, status="open").latest("pk")
    actions.request_vigorish_form(
        table, marker_id=marker.pk, reason="The patron left in a hurry.", actor=dealer
    )
    marker.refresh_from_db()
    return marker


__all__ += ["roles"]
