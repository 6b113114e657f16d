"""Each pytest-xdist worker on a Redis database of its own (``tests.redis_per_worker``)."""

from __future__ import annotations

import os

from django.conf import settings

from tests.redis_per_worker import redis_url_of_worker


def test_a_worker_takes_the_database_after_the_url_s_by_its_number():
    assert redis_url_of_worker("redis://127.0.0.1:6379/4", "gw0") == "redis://127.0.0.1:6379/4"
    assert redis_url_of_worker("redis://127.0.0.1:6379/4", "gw1") == "redis://127.0.0.1:6379/5"
    assert redis_url_of_worker("redis://:pw@redis:6379", "gw2") == "redis://:pw@redis:6379/2"


def test_the_settings_were_read_with_this_worker_s_url():
    """The plugin ran before Django read its settings: the channel layer and Celery use the
    Redis of this process (with xdist, its worker's database), as the tests' ``redis_url``."""
    url = os.environ["REDIS_URL"]
    layer = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    assert layer["hosts"][0]["address"] == url
    assert layer["prefix"] == f"asgi.db{url.rsplit('/', 1)[1]}."
    assert url == settings.CELERY_BROKER_URL
