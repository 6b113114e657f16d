from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.db import connection

from casino.models import Casino, Pit
from tablegame.models import Table
from tests.record.chains import triggers_bypassed


@pytest.fixture
def pit(db: None) -> Pit:
    return Pit.objects.create(casino=Casino.objects.create(name="Test Casino"), name="Pit 1")


@pytest.fixture
def table(pit: Pit) -> Table:
    return Table.objects.create(pit=pit, name="MB-1", profile="ma-mini", seat_count=7)


@pytest.fixture
def other_table(pit: Pit) -> Table:
    return Table.objects.create(pit=pit, name="MB-2", profile="ma-mini", seat_count=7)


@pytest.fixture
def dealer(db: None) -> User:
    return User.objects.create_user("dealer")


@pytest.fixture
def record_cleared_after(transactional_db: None) -> Iterator[None]:
    """For transactional tests: empty the event table before Django flushes the database.

    The flush TRUNCATEs every table, which the trigger allows only while casino_event is
    empty, so the events a transactional test committed are removed first (triggers bypassed).
    """
    yield
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM casino_event")
