"""The pit socket hears of every change of the pit's Complimentary Vigorish Forms, after the
commit, so the forms page updates live; a refused action sends nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from casino.models import Event, Pit
from tablegame.actions import ActionError
from tablegame.vigorish_forms import actions as forms
from tests.realtime.conftest import opened, socket


def test_a_form_change_reaches_the_pit_socket_with_its_number_in_the_pits_chain(floor_staff):
    pit = Pit.objects.get()
    clerk = floor_staff["clerk"]
    client = socket(f"/ws/pits/{pit.pk}/", user=floor_staff["floor"])

    async def scenario():
        await opened(client)
        await sync_to_async(forms.receive_form_series)(
            pit, first_number=100, last_number=109, actor=clerk
        )
        await sync_to_async(forms.void_blank_vigorish_form)(pit, reason="Torn", actor=clerk)
        heard = [await client.receive_json_from(timeout=3) for _ in range(2)]
        await client.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    events = list(Event.objects.filter(chain__pit=pit, chain__scope="pit").order_by("sequence"))
    assert [(h["type"], h["pit"], h["sequence"], h["action"]) for h in heard] == [
        ("forms", pit.pk, e.sequence, e.action) for e in events[-2:]
    ]
    assert [h["action"] for h in heard] == ["form_series_received", "vigorish_form_void"]


def test_a_refused_form_action_tells_nobody(floor_staff):
    pit = Pit.objects.get()
    client = socket(f"/ws/pits/{pit.pk}/", user=floor_staff["pitboss"])

    async def scenario():
        await opened(client)
        with pytest.raises(ActionError):
            await sync_to_async(forms.void_blank_vigorish_form)(
                pit, reason="Torn", actor=floor_staff["clerk"]
            )  # no series received: no form to void
        assert await client.receive_nothing(timeout=1)
        await client.disconnect()

    async_to_sync(scenario)()
