"""Who may not listen: anonymous users, roles the socket is not for, strangers' origins."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from django.contrib.auth.models import User

from casino.models import Pit
from tablegame.consumers import FORBIDDEN, NOT_FOUND, NOT_LOGGED_IN
from tests.realtime.conftest import refusal, socket
from tests.tablegame.conftest import table_for


def test_an_anonymous_user_is_refused_a_table_socket(floor_staff):
    client = socket(f"/ws/tables/{table_for('ma-mini').pk}/")
    assert async_to_sync(refusal)(client) == NOT_LOGGED_IN


def test_a_dealer_is_refused_the_surveillance_socket(floor_staff):
    client = socket("/ws/surveillance/", user=floor_staff["dealer"])
    assert async_to_sync(refusal)(client) == FORBIDDEN


def test_a_dealer_is_refused_a_pit_socket(floor_staff):
    client = socket(f"/ws/pits/{Pit.objects.get().pk}/", user=floor_staff["dealer"])
    assert async_to_sync(refusal)(client) == FORBIDDEN


def test_a_user_without_a_role_is_refused_a_table_socket(floor_staff):
    visitor = User.objects.create_user("visitor")
    client = socket(f"/ws/tables/{table_for('ma-mini').pk}/", user=visitor)
    assert async_to_sync(refusal)(client) == FORBIDDEN


def test_a_table_that_does_not_exist_is_refused(floor_staff):
    client = socket("/ws/tables/999999/", user=floor_staff["dealer"])
    assert async_to_sync(refusal)(client) == NOT_FOUND


def test_a_socket_opened_from_another_origin_is_refused(floor_staff):
    client = socket(
        f"/ws/tables/{table_for('ma-mini').pk}/",
        user=floor_staff["dealer"],
        origin=b"http://evil.example",
    )

    async def scenario():
        connected, _ = await client.connect()
        await client.disconnect()
        return connected

    assert async_to_sync(scenario)() is False
