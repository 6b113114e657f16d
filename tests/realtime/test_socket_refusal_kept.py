"""A socket closed with 4403 is a refusal of the access policy: it is kept in the record of
sign-ins and refusals, with the socket's path and the client's address (issue 28)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.core.cache import cache

from casino.models import AccessRefusal
from tablegame.consumers import FORBIDDEN, NOT_LOGGED_IN
from tests.realtime.conftest import refusal, socket
from tests.tablegame.conftest import table_for


def test_a_socket_refused_with_4403_is_kept(floor_staff: dict[str, User]) -> None:
    cache.clear()
    client = socket("/ws/surveillance/", user=floor_staff["dealer"])
    assert async_to_sync(refusal)(client) == FORBIDDEN
    row = AccessRefusal.objects.get()
    assert (row.username, row.what, row.channel, row.path) == (
        "dealer",
        "socket:surveillance",
        "socket",
        "/ws/surveillance/",
    )
    assert row.doing == "follow the floor live"


def test_a_socket_that_is_not_logged_in_is_no_refusal_of_the_policy(
    floor_staff: dict[str, User],
) -> None:
    client = socket(f"/ws/tables/{table_for('ma-mini').pk}/")
    assert async_to_sync(refusal)(client) == NOT_LOGGED_IN
    assert not AccessRefusal.objects.exists()
