"""Celery tasks of accounting: closing gaming days on a schedule (``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from accounting.services import close_due_days


@shared_task(name="accounting.tasks.close_gaming_days")
def close_gaming_days() -> list[list[str]]:
    """Close every casino's gaming days that ended ``close_after_hours`` ago; returns the
    [casino, day] pairs closed now."""
    return [list(pair) for pair in close_due_days()]
