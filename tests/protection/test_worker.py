"""``manage.py protect``'s loop: a table's notice wakes it, and the round is priced; nothing of
it runs in the dealer's request."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from config.env import channel_layers_from_env
from protection.follower import Progress
from protection.models import Edge, Follow
from protection.worker import run
from tests.protection.conftest import play, ready_table

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a state may take to come about before the test gives up on it.
PATIENCE = 20.0


@pytest.fixture(autouse=True)
def channel_layer_of_its_own(settings: Settings, redis_url: str) -> None:
    """The production Redis layer under a prefix of this test's own."""
    layers = channel_layers_from_env({"REDIS_URL": redis_url})
    layers["default"]["CONFIG"]["prefix"] = f"test-{uuid.uuid4().hex[:12]}."
    settings.CHANNEL_LAYERS = layers


@pytest.fixture
def follower() -> Iterator[list[Progress]]:
    """The loop in a thread, sweeping once at start and then only woken by notices."""
    batches: list[Progress] = []
    stop = threading.Event()
    thread = threading.Thread(
        target=run, kwargs={"stop": stop, "sweep_every": 3600.0, "on_batch": batches.append}
    )
    thread.start()
    yield batches
    stop.set()
    thread.join(timeout=PATIENCE)


def _until(what: str, check: object) -> None:
    deadline = time.monotonic() + PATIENCE
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"still not {what} after {PATIENCE:.0f} s")
        time.sleep(0.05)


def test_a_settled_rounds_notice_has_the_next_round_priced(
    floor_staff: dict[str, User], follower: list[Progress]
) -> None:
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("mini-pairs", dealer, floor)
    _until("read at start", lambda: Follow.objects.filter(table=table, shoe=1).exists())
    with CaptureQueriesContext(connection) as dealing:
        play(
            table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], ["AC", "AD", "7H", "7S"]
        )
    assert not [q for q in dealing.captured_queries if "protection_" in q["sql"]]
    _until("priced by the notice", lambda: Edge.objects.filter(table=table, round=2).exists())
    edge = Edge.objects.get(table=table, round=2)
    assert edge.seen == 5 and set(edge.edges) >= {"player_pair", "banker_pair"}
