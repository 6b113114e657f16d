"""Celery tasks of the base app: the record's signed checkpoints, and expired sessions cleared
(scheduled in settings, ``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from casino.checkpoints import write_checkpoints
from casino.models import StaffSession


@shared_task(name="casino.tasks.checkpoint_record")
def checkpoint_record() -> int:
    """Checkpoint each chain whose head moved; returns how many were written."""
    return write_checkpoints().written


@shared_task(name="casino.tasks.clear_expired_sessions")
def clear_expired_sessions() -> int:
    """Delete the sessions past their expiry (Django's ``clearsessions``); returns how many."""
    deleted, _ = StaffSession.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
