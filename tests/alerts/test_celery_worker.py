"""The watch run by a real Celery worker (a subprocess, ``celery -A config worker``) against the
Redis broker and the test database: the alert is raised in the worker's process, and its notice
reaches the pit's channel group through Redis, as a console's socket would hear it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from pit.models import Alert
from pit.tasks import watch_tables
from tablegame.actions.dealers import relieve_dealer
from tablegame.broadcast import pit_group
from tests.record.chains import triggers_bypassed
from tests.tablegame.conftest import ready_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def floor_staff(transactional_db: None) -> Iterator[dict[str, User]]:
    """The demo floor, committed for real so that the worker sees it; the record cleared after."""
    call_command("seed_demo", verbosity=0)
    yield {u.username: u for u in User.objects.all()}
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM casino_event")


def database_url_of_this_run() -> str:
    """DATABASE_URL, naming the database pytest-django made for this run."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@pytest.fixture
def worker(floor_staff, redis_url: str) -> Iterator[str]:
    """A Celery worker on a queue of this test's own; yields the queue's name."""
    queue = f"test-alerts-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_this_run(),
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo"]
    command += ["-Q", queue, "--without-gossip", "--without-mingle", "--loglevel=INFO"]
    log = open(ROOT / "test-output" / f"{queue}.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield queue
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def test_a_real_worker_raises_the_alert_and_the_pit_hears_it_through_redis(worker, floor_staff):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    relieve_dealer(table, actor=floor)  # open, and no dealer assigned

    async def run_and_hear() -> tuple[list[int], dict[str, Any]]:
        """Listen on the pit's group as a console's socket does, then run the task."""
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(pit_group(table.pit_id), channel)
        run = watch_tables.apply_async(queue=worker).get
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
    assert watch_tables.apply_async(queue=worker).get(timeout=60) == []  # raised once
