"""Two dealers' actions appending to one table at once still make one gap-free chain."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from casino.record import record_event, verify_chain
from tablegame.models import Table

APPENDS_EACH = 25


@pytest.mark.usefixtures("record_cleared_after")
def test_two_threads_appending_to_one_table_make_a_gap_free_chain_that_verifies(
    table: Table,
) -> None:
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def append(who: str) -> None:
        try:
            start.wait(timeout=10)
            for n in range(APPENDS_EACH):
                with transaction.atomic():
                    locked = Table.objects.select_for_update().get(pk=table.pk)
                    record_event(
                        chain_id=locked.chain_id,
                        actor=None,
                        action="card_dealt",
                        data={"by": who, "n": n},
                    )
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=append, args=(who,)) for who in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not failures
    sequences = list(table.chain.events.order_by("sequence").values_list("sequence", flat=True))
    assert sequences == list(range(1, 2 * APPENDS_EACH + 1))
    report = verify_chain(table.chain_id)
    assert report.ok, report.reason
    assert report.checked == 2 * APPENDS_EACH
