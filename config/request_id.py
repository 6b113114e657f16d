"""Every request's id, in each log line it causes and on its error page: a supervisor reads the
id off the screen, the operator finds the traceback in the log by it.

The id is the proxy's ``X-Request-ID`` (deploy/nginx.conf sets one, ``$request_id``) when it is a
plain token, else one made here; the answer carries it back in ``X-Request-ID``.
:class:`RequestIdFilter` puts it (or a Celery task's id, ``task:<id>``) in every log record, as
``request_id``. ``server_error`` (``handler500``) shows it, in JSON on the API and to the pages'
scripts (``{"error": ..., "request_id": ...}``) and on templates/500.html elsewhere; a 503
(``config.middleware.unavailable``) alike, on templates/503.html.
"""

from __future__ import annotations

import logging
import re
import sys
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

HEADER = "X-Request-ID"
#: What a proxy's id may be: a plain token, nothing a log line or a page could be fooled by.
_TOKEN = re.compile(r"[A-Za-z0-9._:-]{8,128}")
#: The id of what runs now: a request's, a Celery task's, or "-" (a command, start-up).
current_id: ContextVar[str] = ContextVar("request_id", default="-")


def request_id_of(request: HttpRequest) -> str:
    """The proxy's id when it is a plain token, else a new one."""
    given = request.headers.get(HEADER, "")
    return given if _TOKEN.fullmatch(given) else uuid.uuid4().hex


class RequestIdMiddleware:
    """Give each request its id (``request.request_id``, the log's ``request_id``) and send it
    back in ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        request.request_id = request_id  # type: ignore[attr-defined]
        token = current_id.set(request_id)
        try:
            response = self.get_response(request)
        finally:
            current_id.reset(token)
        response[HEADER] = request_id
        return response


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (settings.LOGGING's handlers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_id.get()
        return True


def request_id_of_answer(request: HttpRequest) -> str:
    """The id an error answer shows: the request's (``RequestIdMiddleware``), else what runs."""
    return getattr(request, "request_id", None) or current_id.get()


def wants_json(request: HttpRequest) -> bool:
    """The API, and the pages' scripts (static/js/http.js asks for JSON only)."""
    accept = request.headers.get("Accept", "")
    return request.path.startswith("/api/") or (
        "application/json" in accept and "text/html" not in accept
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 when the database is the cause (``config.middleware.unavailable``);
    else 500 saying the failure is logged, with the request's id, in JSON or as a page that needs
    nothing from the database. Django has logged the traceback (``django.request``) by now."""
    from config import middleware  # not when the logging is configured, before the apps

    exception = sys.exc_info()[1]
    if isinstance(exception, OperationalError | InterfaceError):
        return middleware.unavailable(request, exception)
    request_id = request_id_of_answer(request)
    if wants_json(request):
        body = {"error": middleware.SERVER_ERROR, "request_id": request_id}
        return JsonResponse(body, status=500)
    page = render_to_string("500.html", {"request_id": request_id})
    return HttpResponse(page, status=500)
