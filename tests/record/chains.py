"""Helpers for the surveillance tests: appending as an action does, and tampering."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction

from casino.models import Event
from casino.record import record_event
from tablegame.models import Table


def record(
    table: Table,
    action: str = "card_dealt",
    data: dict[str, Any] | None = None,
    *,
    actor: User | None = None,
) -> Event:
    """Append one event the way an action does: in a transaction, holding the table's row lock."""
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        return record_event(
            chain_id=locked.chain_id,
            actor=actor,
            action=action,
            data={"card": "AS"} if data is None else data,
        )


@contextmanager
def triggers_bypassed() -> Iterator[None]:
    """Switch off the guarding triggers (the record's, the settled rows'), as the database's
    superuser can: on PostgreSQL for this connection; on SQLite, which has no such switch, by
    dropping every trigger of the (test's own) database and creating them again after."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            triggers: list[tuple[str, str]] = cursor.fetchall()
            for name, _ in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                for _, sql in triggers:
                    cursor.execute(sql)
        return
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET session_replication_role")
