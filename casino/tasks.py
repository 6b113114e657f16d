"""Celery tasks of the base app: the record's signed checkpoints (scheduled in settings,
``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from casino.checkpoints import write_checkpoints


@shared_task(name="casino.tasks.checkpoint_record")
def checkpoint_record() -> int:
    """Checkpoint each chain whose head moved; returns how many were written."""
    return write_checkpoints().written
