from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
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


AsApp = Callable[..., list[tuple[Any, ...]]]


PASSWORD = secrets.token_urlsafe(16)


@pytest.fixture
def app_role(transactional_db: None) -> Iterator[str]:
    """The application's role, made by the command (twice: it is idempotent); dropped after.
    With a password, so that the test connects whether pg_hba trusts 127.0.0.1 or not."""
    role = f"{connection.settings_dict['NAME']}_app"
    for _ in range(2):
        # "--password=...": a token may begin with "-", which would be read as an option.
        call_command("grant_app_role", "--role", role, f"--password={PASSWORD}", stdout=StringIO())
    yield role
    with connection.cursor() as cursor:
        cursor.execute(f'DROP OWNED BY "{role}"')
        cursor.execute(f'DROP ROLE "{role}"')


@pytest.fixture
def as_app(app_role: str) -> Iterator[AsApp]:
    """Run one statement as the application's role, in its own transaction."""
    settings = connection.settings_dict
    app = psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=app_role,
        password=PASSWORD,
        autocommit=True,
    )

    def run(statement: str, *params: Any) -> list[tuple[Any, ...]]:
        with app.cursor() as cursor:
            cursor.execute(statement, params or None)
            return cursor.fetchall() if cursor.description else []

    yield run
    app.close()
