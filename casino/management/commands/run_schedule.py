"""``manage.py run_schedule [--once]``: Celery beat's schedule, run in this process.

The embedded ``make run`` has no broker, worker or beat (its tasks run eagerly), yet what beat
does on the floor must happen there too: the record's checkpoints every minute (``verify_record``
fails on events left uncovered), the pit's watch, the scheduled close of gaming days. ``make
run`` starts this beside the server; each task of ``CELERY_BEAT_SCHEDULE`` runs here, one after
another, at its interval, the first time at once. A task that fails is reported on stderr with
its traceback, and runs again at its next turn. Production runs Celery beat instead
(``docker-compose.yml``).
"""

from __future__ import annotations

import datetime
import time
import traceback
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


def interval(schedule: Any) -> float:
    """A beat entry's interval in seconds: a number or a timedelta (what this project uses)."""
    if isinstance(schedule, datetime.timedelta):
        return schedule.total_seconds()
    if isinstance(schedule, int | float):
        return float(schedule)
    raise CommandError(f"run_schedule runs tasks at fixed intervals, not on {schedule!r}")


class Command(BaseCommand):
    help = "Run the periodic tasks of CELERY_BEAT_SCHEDULE in this process (the embedded demo)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="Run each task once, then stop.")

    def handle(self, *args: Any, once: bool = False, **options: Any) -> None:
        current_app.loader.import_default_modules()
        entries: dict[str, tuple[str, float]] = {
            name: (str(entry["task"]), interval(entry["schedule"]))
            for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
        }
        unknown = sorted(task for task, _ in entries.values() if task not in current_app.tasks)
        if unknown:
            raise CommandError(f"No such task: {', '.join(unknown)}")
        due = dict.fromkeys(entries, 0.0)
        while True:
            for name, (task, every) in entries.items():
                if time.monotonic() < due[name]:
                    continue
                due[name] = time.monotonic() + every
                try:
                    current_app.tasks[task].apply(throw=True)
                except Exception:
                    self.stderr.write(f"{name} ({task}) failed:\n{traceback.format_exc()}")
            if once:
                return
            time.sleep(max(0.5, min(due.values()) - time.monotonic()))
