"""The command's unit of work (``tablegame.work``): writes wait for its flush, and in tests a
read of a table with writes still waiting fails (``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from tablegame.actions.common import command
from tablegame.models import Seat, Table
from tablegame.work import work
from tests.conftest import ReadOfWaitingWrite

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="updates wait on PostgreSQL only"
)


@pytest.mark.django_db
def test_an_action_that_reads_back_a_waiting_write_fails_in_tests(seeded: str) -> None:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    failed = pytest.raises(ReadOfWaitingWrite, match="tablegame_table")
    with transaction.atomic(), failed, command(table):
        table.curator_seat = 3
        work().save(table, ["curator_seat"])  # waits for the command's record
        Table.objects.filter(pk=table.pk, curator_seat=3).exists()  # stale: fails


@pytest.mark.django_db
def test_a_command_reads_other_tables_and_its_flush_writes_the_waiting_rows(seeded: str) -> None:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    with transaction.atomic(), command(table) as done:
        table.curator_seat = 3
        work().save(table, ["curator_seat"])
        assert work().tables() == {"tablegame_table"}
        Seat.objects.filter(table=table).count()  # no write waits there: allowed
        done.work.flush()
        assert not work().tables()
        assert Table.objects.get(pk=table.pk).curator_seat == 3  # written: allowed


@pytest.mark.django_db
def test_outside_a_command_the_unit_writes_at_once(seeded: str) -> None:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    table.curator_seat = 4
    work().save(table, ["curator_seat"])
    assert not work().tables()
    assert Table.objects.get(pk=table.pk).curator_seat == 4


@pytest.mark.django_db
def test_a_delete_waits_for_the_flush_and_a_row_added_where_rows_go_is_refused(
    seeded: str,
) -> None:
    table = Table.objects.order_by("pk").first()
    assert table is not None
    last = Seat.objects.create(table=table, number=table.seat_count)
    with transaction.atomic(), command(table) as done:
        work().delete(Seat.objects.filter(pk=last.pk))
        assert work().tables() == {"tablegame_seat"}
        with pytest.raises(AssertionError, match="added and deleted"):
            work().add(Seat(table=table, number=last.number))
        done.work.flush()
        assert not Seat.objects.filter(pk=last.pk).exists()  # written: allowed
