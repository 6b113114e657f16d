"""PostgreSQL unavailable: 503, in JSON on the API and as a short page elsewhere, never a traceback.

A database that refuses connections, has too many clients, has no pooled connection free in time,
or drops the connection mid-request raises ``OperationalError`` (``InterfaceError`` on a connection
already closed). That is no bug of the request: ``DatabaseUnavailable`` answers it from any view
with 503 and ``Retry-After``, in DEBUG too. ``handler500`` (``config.request_id.server_error``)
does the same for one raised outside a view when the server passes the exception on (the WSGI
handler does; the ASGI one calls the handler in another thread, where the server error page is
all it can give), and keeps every other 500 of the API in JSON.

A statement that waited past PostgreSQL's ``lock_timeout`` (another transaction holds the table's
row) or ran past ``statement_timeout`` (``config.env``) is no outage: it is answered 503 "The
table is busy, try again." (a page says so too); its transaction was rolled back whole, so a
command's Idempotency-Key is not spent and the same command sent again is done.

Every 503 carries the request's id, as a 500 does (``config.request_id``): ``"request_id"`` in the
JSON, the reference on templates/503.html, and in its log line.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from psycopg import errors as pg_errors

from config.request_id import request_id_of_answer, wants_json
from tablegame.api.commands import BUSY as BUSY  # the API's own busy answer says the same
from tablegame.api.commands import BUSY_RETRY_AFTER_SECONDS as BUSY_RETRY_AFTER_SECONDS

log = logging.getLogger(__name__)

UNAVAILABLE = (
    "The database is not answering: try again in a moment (a command sent again with the same "
    "Idempotency-Key is done at most once)."
)
SERVER_ERROR = "The server failed to answer; the failure is logged."
RETRY_AFTER_SECONDS = 5


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def busy(exception: BaseException | None) -> bool:
    """Whether the database gave up waiting for a lock or ended a statement that ran too long."""
    cause = getattr(exception, "__cause__", None)
    return isinstance(cause, pg_errors.LockNotAvailable | pg_errors.QueryCanceled)


def unavailable(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """503, logged: JSON for the API and the pages' scripts, else a page that needs nothing from
    the database to render; each with the request's id (``config.request_id``), as a 500 has
    it, so that the person who saw it can name it and the operator find its log line."""
    request_id = request_id_of_answer(request)
    if busy(exception):
        message, seconds = BUSY, BUSY_RETRY_AFTER_SECONDS
        log.warning(
            "table busy (request %s): %s %s: %s",
            request_id,
            request.method,
            request.path,
            exception,
        )
    else:
        message, seconds = UNAVAILABLE, RETRY_AFTER_SECONDS
        log.error(
            "database unavailable (request %s): %s %s: %s",
            request_id,
            request.method,
            request.path,
            exception,
        )
    headers = {"Retry-After": str(seconds)}
    if wants_json(request):
        body = {"error": message, "request_id": request_id}
        return JsonResponse(body, status=503, headers=headers)
    context = {"busy": message if message == BUSY else "", "request_id": request_id}
    page = render_to_string("503.html", context)
    return HttpResponse(page, status=503, headers=headers)


class DatabaseUnavailable(MiddlewareMixin):
    """Answer a view's ``OperationalError`` or ``InterfaceError`` with 503 (``unavailable``)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        return unavailable(request, exception)


#: What an error of the API that no view worded says, by status.
API_ERRORS = {
    400: "The request could not be read.",
    401: "Log in, or send your API token as the header 'Authorization: Token <key>'.",
    403: "Refused.",
    404: "There is no such address in the API (its addresses are in /api/schema/).",
    405: "This address does not take this method.",
    413: "The body is over the size limit.",
    500: SERVER_ERROR,
}


class ApiAnswersJson(MiddlewareMixin):
    """Every error answer under ``/api/`` is JSON ``{"error": ...}``: those no view of the API
    gave (an address that matches no route, a refusal of the CSRF check, a bad host, Django's
    body limit) are replaced by the sentence for their status; the API's own pass unchanged."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.status_code < 400 or not _api(request):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        message = API_ERRORS.get(status) or _phrase(status)
        answer = JsonResponse({"error": message}, status=status)
        for header in ("Retry-After", "Allow", "WWW-Authenticate"):
            if header in response:
                answer[header] = response[header]
        return answer


def _phrase(status: int) -> str:
    try:
        return f"{HTTPStatus(status).phrase}."
    except ValueError:
        return SERVER_ERROR
