"""PostgreSQL refuses to change or remove an event, whichever way it is asked."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from casino.models import Event
from casino.record import verify_chain
from tablegame.models import Table
from tests.record.chains import record


@pytest.fixture
def event(table: Table) -> Event:
    record(table, data={"card": "AS"})
    return record(table, data={"card": "KD"})


def assert_unchanged(event: Event) -> None:
    stored = Event.objects.get(pk=event.pk)
    assert (stored.sequence, stored.action, stored.data, stored.hash) == (
        event.sequence,
        event.action,
        event.data,
        event.hash,
    )
    assert verify_chain(event.chain_id).ok


def test_the_database_refuses_to_save_a_changed_event(event: Event) -> None:
    event.data = {"card": "9H"}
    with pytest.raises(DatabaseError, match="append-only: UPDATE refused"), transaction.atomic():
        event.save()
    event.data = {"card": "KD"}
    assert_unchanged(event)


def test_the_database_refuses_a_queryset_update_of_events(event: Event) -> None:
    with pytest.raises(DatabaseError, match="append-only: UPDATE refused"), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(action="card_burned")
    assert_unchanged(event)


def test_the_database_refuses_to_delete_an_event_through_the_orm(event: Event) -> None:
    with pytest.raises(DatabaseError, match="append-only: DELETE refused"), transaction.atomic():
        event.delete()
    assert_unchanged(event)
    with pytest.raises(DatabaseError, match="append-only: DELETE refused"), transaction.atomic():
        Event.objects.all().delete()
    assert_unchanged(event)


def test_the_database_refuses_a_raw_sql_update_of_an_event(event: Event) -> None:
    with (
        pytest.raises(DatabaseError, match="append-only: UPDATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            """UPDATE casino_event SET data = '{"card": "9H"}' WHERE id = %s""", [event.pk]
        )
    assert_unchanged(event)


def test_the_database_refuses_a_raw_sql_delete_of_an_event(event: Event) -> None:
    with (
        pytest.raises(DatabaseError, match="append-only: DELETE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("DELETE FROM casino_event WHERE id = %s", [event.pk])
    assert_unchanged(event)


@pytest.mark.usefixtures("record_cleared_after")
def test_the_database_refuses_to_truncate_the_events(event: Event) -> None:
    # Transactional: in the test's own transaction PostgreSQL would refuse the TRUNCATE anyway,
    # for the pending (deferred) foreign key checks of the events just inserted.
    with (
        pytest.raises(DatabaseError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("TRUNCATE casino_event")
    assert_unchanged(event)
    assert Event.objects.count() == 2


def test_the_database_lets_an_empty_event_table_be_truncated(table: Table) -> None:
    """Nothing is lost, and Django's flush after each transactional test truncates every table."""
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE casino_event")
    assert not Event.objects.exists()
