"""A table whose row another transaction holds: a tap on it answers 503 "The table is busy, try
again." within PostgreSQL's lock timeout, changes nothing and leaves its key unspent; the other
tables, and reads, go on (config.env's lock timeout, config.middleware)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import OperationalError, connection, transaction
from django.test import RequestFactory

from config.env import LOCK_TIMEOUT
from config.middleware import BUSY, DatabaseUnavailable
from tablegame.api.commands import WAITING_PER_TABLE
from tablegame.models import Table, TableSnapshot
from tablegame.play import reading
from tests.api.conftest import Tablet, new_key, table_for
from tests.api.test_idempotency import counts

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's lock timeout"),
    pytest.mark.usefixtures("events_cleared_after"),
]


@pytest.fixture
def mini(committed_mini: Table) -> Table:
    """These tests commit for real (another connection holds the row): MB-1 made for each."""
    return committed_mini


@contextmanager
def row_held(table: Table, *, as_a_command: bool = False) -> Iterator[None]:
    """Another connection (another process's transaction) holds the table's row locked: ``FOR
    UPDATE``, or as a command on the table does (``tablegame.play.reading.lock``)."""
    params = connection.settings_dict
    holder = psycopg.connect(
        host=params["HOST"],
        port=params["PORT"] or 5432,
        user=params["USER"],
        password=params["PASSWORD"] or None,
        dbname=params["NAME"],
    )
    try:
        if as_a_command:
            holder.execute(reading.lock_statement(), [table.pk])
        else:
            holder.execute("SELECT id FROM tablegame_table WHERE id = %s FOR UPDATE", [table.pk])
        yield
    finally:
        holder.rollback()
        holder.close()


def test_a_tap_on_a_busy_table_is_refused_busy_and_the_same_tap_is_done_once_it_is_free(
    tablet: Tablet, mini: Table, tablet_for: Callable[[str], Tablet]
) -> None:
    key, before = new_key(), counts(mini)
    other = table_for("s42-mini")
    with row_held(mini):
        started = time.monotonic()
        refused = tablet.post(mini, "round/open/", key=key)
        waited = time.monotonic() - started
        assert refused.status_code == 503
        assert refused.json() == {"error": BUSY, "request_id": refused.headers["X-Request-ID"]}
        assert refused.headers["Retry-After"] == "2"
        assert waited < LOCK_TIMEOUT + 3  # the lock timeout, not the holder's transaction
        assert counts(mini) == before
        # Another table is read while the row is held.
        assert tablet_for("floor").state(other)["table"]["id"] == other.pk
    again = tablet.post(mini, "round/open/", key=key)
    assert again.status_code == 200, again.content
    assert "Idempotent-Replayed" not in again.headers
    assert tablet.state(mini)["round"] is not None


def test_a_busy_tables_own_state_is_read_while_a_command_holds_it(
    tablet: Tablet, mini: Table
) -> None:
    """A screen that joins while a command runs on its table reads the state at once: storing
    the rebuilt snapshot takes only a key-share lock on the table, which a command's lock
    (``tablegame.play.reading.lock``) lets through."""
    TableSnapshot.objects.filter(table=mini).delete()  # the read must rebuild and store it
    with row_held(mini, as_a_command=True):
        started = time.monotonic()
        state = tablet.state(mini)
        assert time.monotonic() - started < LOCK_TIMEOUT
        assert state["table"]["id"] == mini.pk
        # The command itself still waits for the holder, and is refused busy.
        assert tablet.post(mini, "round/open/", key=new_key()).status_code == 503
    assert TableSnapshot.objects.filter(table=mini).exists()


def test_a_page_on_a_busy_table_answers_a_busy_page(mini: Table) -> None:
    with row_held(mini), pytest.raises(OperationalError) as caught, transaction.atomic():
        Table.objects.select_for_update().get(pk=mini.pk)
    request = RequestFactory().post(f"/floor/tables/{mini.pk}/seats/")
    answer = DatabaseUnavailable(lambda request: None).process_exception(request, caught.value)  # type: ignore[arg-type]
    assert answer is not None
    assert answer.status_code == 503
    assert BUSY in answer.content.decode()
    assert answer["Retry-After"] == "2"


def test_one_busy_table_keeps_only_two_threads_waiting_and_the_others_go_on(
    mini: Table, tablet_for: Callable[[str], Tablet]
) -> None:
    """Six taps at once on a table whose row is held: two wait for the lock (and are answered
    busy when it times out), the other four are answered busy at once, leaving the web process's
    threads to the other tables. Nothing changes on the busy table."""
    other, before = table_for("s42-mini"), counts(mini)
    answers: list[tuple[int, float]] = []

    def tap(tablet: Tablet) -> None:
        started = time.monotonic()
        try:
            status = tablet.post(mini, "round/open/").status_code
            answers.append((status, time.monotonic() - started))
        finally:
            connection.close()  # this thread's own connection

    tablets = [tablet_for("dealer") for _ in range(WAITING_PER_TABLE + 4)]
    floor = tablet_for("floor")
    with row_held(mini, as_a_command=True):
        taps = [threading.Thread(target=tap, args=(tablet,)) for tablet in tablets]
        for thread in taps:
            thread.start()
        # The other table is read while the busy one's taps wait.
        assert floor.state(other)["table"]["id"] == other.pk
        for thread in taps:
            thread.join()
    assert sorted(status for status, _ in answers) == [503] * len(tablets)
    at_once = [waited for _, waited in answers if waited < LOCK_TIMEOUT]
    assert len(at_once) == len(tablets) - WAITING_PER_TABLE  # the others waited for the lock
    assert counts(mini) == before
