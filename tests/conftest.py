from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from pytest_django import Settings

from tablegame import work


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    """The demo users' passwords are hashed cheaply; the real hasher is not under test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_checkpoints(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test signs and reads the record's checkpoints in a directory of its own, with a key
    made for it, never those of a demo run under var/."""
    place = tmp_path_factory.mktemp("record")
    settings.RECORD_CHECKPOINT_DIR = str(place / "checkpoints")
    settings.RECORD_SIGNING_KEY_FILE = str(place / "signing-key.pem")
    settings.RECORD_SIGNING_KEY_GENERATE = True
    settings.RECORD_VERIFY_KEY_FILE = ""


@pytest.fixture
def seeded(db: None) -> str:
    """The demo floor and users; returns what seed_demo printed."""
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def redis_url() -> str:
    """The Redis the tests run against; `make test` sets REDIS_URL."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.fail("REDIS_URL is not set: run the tests with `make test`")
    return url


#: The tables a statement reads: each name after FROM or JOIN (quoted or not).
_READ_TABLES = re.compile(r'\b(?:FROM|JOIN)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?', re.IGNORECASE)


class ReadOfWaitingWrite(AssertionError):
    """A statement read a table that the command's unit of work holds writes to: what it read
    is stale (``tablegame.work``: a write waits only if nothing reads it back)."""


def fail_reads_of_waiting_writes(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """The database wrapper of every test: inside a command, a statement other than the unit's
    flush that reads a table with writes still waiting fails (``ReadOfWaitingWrite``)."""
    unit = work.current()
    if unit is not None and not unit.flushing:
        waiting = unit.tables()
        if waiting:
            read = waiting.intersection(_READ_TABLES.findall(sql))
            if read:
                raise ReadOfWaitingWrite(
                    f"read of {', '.join(sorted(read))} while the command's writes to it wait "
                    f"for its flush (write it now, or keep what it reads): {sql[:300]}"
                )
    return execute(sql, params, many, context)


@pytest.fixture(autouse=True)
def no_read_of_waiting_writes() -> Iterator[None]:
    """Every test runs with ``fail_reads_of_waiting_writes`` on the default connection (the
    check applies where writes wait: PostgreSQL)."""
    with connection.execute_wrapper(fail_reads_of_waiting_writes):
        yield
