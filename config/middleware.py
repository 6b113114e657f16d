"""PostgreSQL unavailable: 503, in JSON on the API and as a short page elsewhere, never a traceback.

A database that refuses connections, has too many clients, has no pooled connection free in time,
or drops the connection mid-request raises ``OperationalError`` (``InterfaceError`` on a connection
already closed). That is no bug of the request: ``DatabaseUnavailable`` answers it from any view
with 503 and ``Retry-After``, in DEBUG too. ``server_error`` (``handler500``) does the same for one
raised outside a view when the server passes the exception on (the WSGI handler does; the ASGI one
calls the handler in another thread, where the server error page is all it can give), and keeps
every other 500 of the API in JSON.
"""

from __future__ import annotations

import logging
import sys
from functools import partial

from django.contrib.messages import middleware as messages
from django.contrib.messages.storage import default_storage
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.utils.functional import SimpleLazyObject, empty
from django.views import defaults

log = logging.getLogger(__name__)

UNAVAILABLE = (
    "The database is not answering: try again in a moment (a command sent again with the same "
    "Idempotency-Key is done at most once)."
)
SERVER_ERROR = "The server failed to answer; the failure is logged."
RETRY_AFTER_SECONDS = 5


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def unavailable(request: HttpRequest) -> HttpResponse:
    """503: JSON for the API, else a page that needs nothing from the database to render."""
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if _api(request):
        return JsonResponse({"error": UNAVAILABLE}, status=503, headers=headers)
    return HttpResponse(render_to_string("503.html"), status=503, headers=headers)


class DatabaseUnavailable(MiddlewareMixin):
    """Answer a view's ``OperationalError`` or ``InterfaceError`` with 503 (``unavailable``)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.error("database unavailable: %s %s: %s", request.method, request.path, exception)
        return unavailable(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 when the database is the cause (if known), JSON on the API."""
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return unavailable(request)
    if _api(request):
        return JsonResponse({"error": SERVER_ERROR}, status=500)
    return defaults.server_error(request)


class MessageMiddleware(messages.MessageMiddleware):
    """Django's, with the message store made when a view or a page first uses it: a tablet's
    tap shows no messages, and making the store costs each request a cookie signer (about 1 %
    of a command's CPU, bench/RESULTS.md). A message added is stored and shown as before."""

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(partial(default_storage, request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        stored = getattr(request, "_messages", None)
        if isinstance(stored, SimpleLazyObject) and stored._wrapped is empty:
            return response  # never used: nothing to store
        return super().process_response(request, response)
