"""``run_schedule``: the embedded demo runs beat's tasks itself, so its record is checkpointed
and ``verify_record`` passes there as on the floor."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from pytest_django import Settings

from tablegame.models import Table
from tests.record.chains import record
from tests.record.test_checkpoints import checkpoint_lines, verify


def test_each_task_of_the_schedule_runs_once(settings: Settings, table: Table) -> None:
    record(table)
    record(table)
    err = StringIO()
    call_command("run_schedule", "--once", stderr=err)
    assert err.getvalue() == ""  # every task of CELERY_BEAT_SCHEDULE ran without failing
    heads = checkpoint_lines(settings)[-1]["heads"]
    assert [(h["label"], h["sequence"]) for h in heads] == [("MB-1", 2)]
    lines, failed = verify()
    assert failed is None, lines


def test_a_failing_task_is_reported_and_the_others_run(settings: Settings, table: Table) -> None:
    record(table)
    settings.RECORD_SIGNING_KEY_FILE = ""  # the checkpoint task cannot sign
    err = StringIO()
    call_command("run_schedule", "--once", stderr=err)
    assert "checkpoint-the-record (casino.tasks.checkpoint_record) failed:" in err.getvalue()
    assert "RECORD_SIGNING_KEY_FILE must name" in err.getvalue()
    assert err.getvalue().count("failed:") == 1


def test_a_schedule_it_cannot_keep_is_refused(settings: Settings) -> None:
    settings.CELERY_BEAT_SCHEDULE = {"x": {"task": "casino.tasks.checkpoint_record",
                                           "schedule": "daily"}}  # fmt: skip
    with pytest.raises(CommandError, match="fixed intervals"):
        call_command("run_schedule", "--once")
