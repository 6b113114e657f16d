"""The day's close checks the day's play against the record (issue 27): a day whose rows or
tallies disagree with the record's settlement events is not closed, and the refusal names the
rounds; a day that agrees is closed and its last events covered by a signed checkpoint."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from celery import current_app
from django.utils import timezone
from pytest_django import Settings

from accounting import services
from accounting.reports import day_report
from casino.checkpoints import read_checkpoints, write_checkpoints
from casino.models import Event
from tablegame.errors import ActionError
from tablegame.models import Round, Wager
from tests.accounting.conftest import PlayedDay
from tests.record.chains import triggers_bypassed


def test_a_day_that_disagrees_with_the_record_is_not_closed(
    played_day: PlayedDay,
    monkeypatch: pytest.MonkeyPatch,
    settings: Settings,
    django_capture_on_commit_callbacks,
) -> None:
    casino, day, mb = played_day.casino, played_day.day, played_day.mb
    accounting = played_day.staff["accounting"]
    # The day was played once for the run (``played_once``), perhaps minutes before this test:
    # its events may be older than the checkpoints' grace, which is not what is tested here.
    settings.RECORD_CHECKPOINT_GRACE = 24 * 3600
    write_checkpoints()  # the beat's, during the day
    first = Round.objects.filter(table=mb, state="settled").order_by("settled_at").first()
    banker = Wager.objects.filter(round=first, seat=1)
    with triggers_bypassed():  # the tables' owner: the application's role cannot
        banker.update(payout=Decimal("1100.00"))
    ended = casino.gaming_day_bounds(day)[1] + datetime.timedelta(minutes=5)
    monkeypatch.setattr(timezone, "now", lambda: ended)
    with pytest.raises(ActionError) as refused:
        services.close_gaming_day(casino, day, actor=accounting)
    assert str(refused.value) == (
        f"The gaming day {day:%Y-%m-%d} is not closed: its play disagrees with the record in 1 "
        f"place ({mb.name} shoe 1 round 1: seat 1 banker: payout 1100.00 in the rows, 100.00 in "
        "the record). Surveillance and `manage.py verify_record --day` show them all."
    )
    assert not day_report(casino, day).frozen
    assert not Event.objects.filter(action="gaming_day_closed").exists()

    with triggers_bypassed():  # put back as the record has it
        banker.update(payout=Decimal("100.00"))
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = True  # the worker, here
    try:
        with django_capture_on_commit_callbacks(execute=True):
            closed = services.close_gaming_day(casino, day, actor=accounting)
    finally:
        current_app.conf.task_always_eager = eager
    assert closed is not None and day_report(casino, day).frozen
    # The close's own checkpoint covers the day's last events, its close among them.
    log = read_checkpoints(now=ended)
    close = Event.objects.get(action="gaming_day_closed")
    assert close.sequence in log.by_chain[close.chain_id]
    for table in (mb, played_day.s42):
        head = Event.objects.filter(chain_id=table.chain_id).order_by("-sequence").first()
        assert head is not None and head.sequence in log.by_chain[table.chain_id]
