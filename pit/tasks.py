"""Celery tasks of the pit: the periodic watch of every table (scheduled in settings,
``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task

from pit.alerts import watch


@shared_task(name="pit.tasks.watch_tables")
def watch_tables() -> list[int]:
    """Raise the alerts the tables call for now; returns the new alerts' ids."""
    return [alert.pk for alert in watch()]
