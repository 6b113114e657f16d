"""Celery tasks of the base app: the record's signed checkpoints, and expired sessions cleared
(scheduled in settings, ``CELERY_BEAT_SCHEDULE``)."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from casino.checkpoints import write_checkpoints
from casino.models import StaffSession


@shared_task(name="casino.tasks.checkpoint_record")
def checkpoint_record() -> int:
    """Write the next checkpoint (every ``RECORD_CHECKPOINT_SECONDS``); returns how many chains'
    heads it holds (those that moved).

    The day's close covers its tail with it: ``transaction.on_commit(checkpoint_record.delay)``
    after its close event, so the worker that holds the signing key checkpoints the day's last
    events as soon as the close commits. Fails (``CheckpointRefused``, in the worker's log) while
    the directory holds no checkpoint although the record holds older events: see
    ``casino.checkpoints``.
    """
    return write_checkpoints().written


@shared_task(name="casino.tasks.clear_expired_sessions")
def clear_expired_sessions() -> int:
    """Delete the sessions past their expiry (Django's ``clearsessions``); returns how many."""
    deleted, _ = StaffSession.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted
