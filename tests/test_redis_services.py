"""The channel layer and Celery really use the Redis that REDIS_URL names."""

from __future__ import annotations

import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

from config import celery_app
from config.env import channel_layers_from_env


def test_the_configured_channel_layer_is_redis_pub_sub(redis_url: str) -> None:
    assert isinstance(get_channel_layer(), RedisPubSubChannelLayer)


def test_redis_channel_layer_round_trips_a_group_message(redis_url: str) -> None:
    # Two separate layer objects share nothing in memory: the message must go through Redis.
    config = channel_layers_from_env({"REDIS_URL": redis_url})["default"]["CONFIG"]
    sender, receiver = RedisPubSubChannelLayer(**config), RedisPubSubChannelLayer(**config)
    group = f"test-{uuid.uuid4().hex}"
    message = {"type": "table.update", "table": "MB-1", "seq": 7}

    async def round_trip() -> dict[str, object]:
        try:
            channel = await receiver.new_channel()
            await receiver.group_add(group, channel)
            await sender.group_send(group, message)
            received: dict[str, object] = await receiver.receive(channel)
            await receiver.group_discard(group, channel)
            return received
        finally:
            await sender.flush()
            await receiver.flush()

    assert async_to_sync(round_trip)() == message


def test_celery_uses_the_redis_broker_when_redis_url_is_set(redis_url: str) -> None:
    assert celery_app.conf.broker_url == redis_url
    assert celery_app.conf.result_backend == redis_url
    assert celery_app.conf.task_always_eager is False
    with celery_app.connection_for_write() as connection:
        connection.ensure_connection(max_retries=1)
        assert connection.transport_cls == "redis"
