"""Two pit clerks issue forms at the same moment, each in a transaction of its own on its own
PostgreSQL connection: every number is used once, in order, with no gap."""

from __future__ import annotations

import threading
import time

from django.db import connection, transaction

from casino import roles
from casino.models import Pit
from tablegame.models import VigorishForm, VigorishFormSeries
from tablegame.vigorish_forms import actions as forms
from tests.pit.conftest import person

FORMS_EACH = 15


def _in_thread(target, *args):
    errors: list[BaseException] = []

    def run() -> None:
        try:
            target(*args)
        except BaseException as error:  # reported to the test below
            errors.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def test_two_clerks_issuing_at_once_never_share_or_skip_a_number(floor_staff):
    pit = Pit.objects.get()
    clerks = [floor_staff["clerk"], person("clerk2", roles.PIT_CLERK)]
    forms.receive_form_series(pit, first_number=7001, last_number=7020, actor=clerks[0])
    forms.receive_form_series(pit, first_number=8001, last_number=8050, actor=clerks[0])
    start = threading.Barrier(2)

    def issue(clerk) -> None:
        start.wait()
        for _ in range(FORMS_EACH):
            forms.void_blank_vigorish_form(pit, reason=f"Test by {clerk}", actor=clerk)

    threads = [_in_thread(issue, clerk) for clerk in clerks]
    for thread, _ in threads:
        thread.join(60)
    assert [e for _, errors in threads for e in errors] == []
    numbers = sorted(VigorishForm.objects.values_list("number", flat=True))
    assert numbers == [*range(7001, 7021), *range(8001, 8011)]  # first series first, no gap
    by_clerk = {c.username: VigorishForm.objects.filter(voided_by=c).count() for c in clerks}
    assert by_clerk == {"clerk": FORMS_EACH, "clerk2": FORMS_EACH}
    first, second = VigorishFormSeries.objects.order_by("first_number")
    assert (first.next_number, second.next_number) == (7021, 8011)


def test_the_second_clerk_waits_for_the_first_to_commit_and_takes_the_next_number(
    floor_staff,
):
    pit = Pit.objects.get()
    first_clerk, second_clerk = floor_staff["clerk"], person("clerk2", roles.PIT_CLERK)
    forms.receive_form_series(pit, first_number=1, last_number=10, actor=first_clerk)
    took_number = threading.Event()
    committed_at: list[float] = []

    def first() -> None:
        with transaction.atomic():
            forms.void_blank_vigorish_form(pit, reason="First, held open.", actor=first_clerk)
            took_number.set()
            time.sleep(0.6)  # the transaction stays open: number 1 taken, not committed
        committed_at.append(time.monotonic())

    holder, errors = _in_thread(first)
    assert took_number.wait(10)
    second = forms.void_blank_vigorish_form(pit, reason="Second.", actor=second_clerk)
    finished_at = time.monotonic()
    holder.join(10)
    assert errors == []
    assert second.number == 2
    assert finished_at >= committed_at[0]  # it waited for the first transaction's commit
    assert sorted(VigorishForm.objects.values_list("number", flat=True)) == [1, 2]
