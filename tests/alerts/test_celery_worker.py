"""The watch run by a real Celery worker (a subprocess, ``celery -A config worker``) against the
Redis broker and the test database: the alert is raised in the worker's process, and its notice
reaches the pit's channel group through Redis, as a console's socket would hear it."""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from pit.models import Alert
from pit.tasks import watch_tables
from tablegame.actions.dealers import relieve_dealer
from tablegame.broadcast import pit_group
from tests.tablegame.conftest import ready_table


def test_a_real_worker_raises_the_alert_and_the_pit_hears_it_through_redis(worker, floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    relieve_dealer(table, actor=floor)  # open, and no dealer assigned

    async def run_and_hear() -> tuple[list[int], dict[str, Any]]:
        """Listen on the pit's group as a console's socket does, then run the task."""
        layer = get_channel_layer()
        assert layer is not None
        channel = await layer.new_channel()
        await layer.group_add(pit_group(table.pit_id), channel)
        run = watch_tables.apply_async(queue=worker.queue).get
        raised = await sync_to_async(run, thread_sensitive=False)(timeout=90)
        while True:  # the table's own notices may come first
            heard = await asyncio.wait_for(layer.receive(channel), timeout=30)
            if heard.get("type") == "pit.alert":
                return raised, heard

    raised, heard = async_to_sync(run_and_hear)()
    alert = Alert.objects.get(kind="no_dealer", table=table)
    assert raised == [alert.pk]
    assert (heard["alert"], heard["what"]) == (alert.pk, "raised")
    assert heard["message"] == "MB-1 is open with no dealer assigned."
    assert watch_tables.apply_async(queue=worker.queue).get(timeout=60) == []  # raised once
