"""Celery tasks of the tables: rules filed for later, recorded in force and told to the screens
at their time (scheduled by ``tablegame.actions.tables.file_rules``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from tablegame.actions.tables import record_rules_in_force
from tablegame.models import TableRules


@shared_task(name="tablegame.tasks.rules_take_effect")
def rules_take_effect(filing_id: int) -> int | None:
    """The filing's time has come: record it in force and tell the screens (the sequence of its
    event; None when nothing is to be recorded: not the rules in force, or recorded already).
    Run early (a worker's clock ahead of the database's), it is due again at the filing's time."""
    when = TableRules.objects.filter(pk=filing_id).values_list("effective_at", flat=True).first()
    if when is None:
        return None
    if when > timezone.now():
        if not settings.CELERY_TASK_ALWAYS_EAGER:  # eagerly, it would run again at once
            rules_take_effect.apply_async((filing_id,), eta=when)
        return None
    return record_rules_in_force(filing_id)
