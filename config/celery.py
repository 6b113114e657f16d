"""The Celery app: settings from Django's, under the ``CELERY_`` prefix (see config/env.py)."""

from __future__ import annotations

import os
from contextvars import Token
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def keep_django_logging(**_: Any) -> None:
    """The worker logs as the web does (settings.LOGGING: stderr, each line with its id); a
    failed task is logged with its traceback by Celery (``celery.app.trace``)."""
    from django.conf import settings
    from django.utils.log import configure_logging

    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


#: The id each running task replaced (a task run eagerly, inside a request, gives it back).
_replaced: dict[str, Token[str]] = {}


@signals.task_prerun.connect
def _task_id_in_the_log(task_id: str = "", **_: Any) -> None:
    from config.request_id import current_id

    _replaced[task_id] = current_id.set(f"task:{task_id}")


@signals.task_postrun.connect
def _task_done(task_id: str = "", **_: Any) -> None:
    from config.request_id import current_id

    token = _replaced.pop(task_id, None)
    if token is not None and token.var.get() == f"task:{task_id}":
        current_id.reset(token)
