"""A notice reaches the screens however long its process waits for the CPU on the way out.

On a busy machine (a floor dealt at full pace, two cores shared) the process that sends notices
is not always given a core when it wants one. The sender used to give up a batch that took more
than two seconds in all, waiting for the CPU included: the send was cancelled wherever it stood,
and its notices were lost (when cancelled before they were written) or counted as dropped (when
Redis had them already). Only Redis failing or not answering gives a batch up now
(``tests/realtime/test_notices.py`` has Redis away, hung and back).
"""

from __future__ import annotations

import time

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

from tablegame import actions, broadcast
from tablegame.broadcast import Publisher
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import ready_table

#: Longer than the two seconds a batch was once allowed in all.
HELD_UP = 2.5


def test_a_notice_held_up_on_its_way_out_still_reaches_the_screen(floor_staff, monkeypatch):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)
    publisher = Publisher()  # the test's own in place of the process's, its counters at zero
    monkeypatch.setattr(broadcast, "notices", publisher)
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)  # the production layer (config.env)
    serialize = layer.serialize

    def held_up(message):
        # The sender thread, half-way through its batch, is not given the CPU for a while.
        if message.get("type") == "table.changed":
            time.sleep(HELD_UP)
        return serialize(message)

    monkeypatch.setattr(layer, "serialize", held_up)

    async def scenario():
        await opened(client)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=HELD_UP + 5)
        await client.disconnect()
        return notice

    notice = async_to_sync(scenario)()
    assert (notice["action"], notice["sequence"]) == ("round_opened", last_sequence(table))
    assert publisher.wait_idle(timeout=5)
    counts = publisher.counts()
    assert (counts.sent, counts.dropped) == (1, 0)
