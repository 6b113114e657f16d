import pytest
from tests.realtime.test_notices import test_an_idle_socket_stays_open_and_hears_the_next_change as idle


@pytest.fixture(autouse=True)
def old_core(settings, redis_url):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                                           "CONFIG": {"hosts": [redis_url], "prefix": "tmp-h10b:"}}}


def test_old(live_floor):
    idle(live_floor)
