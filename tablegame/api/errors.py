"""Every error of the API as ``{"error": "<one readable sentence>"}`` (plus ``fields`` for input).

``api_exception_handler`` is REST framework's ``EXCEPTION_HANDLER``: refusals of the actions are
answered by ``commands.run_command`` itself; this covers what REST framework raises (bad input,
no login, unknown table, wrong method) and a body over Django's limit (413). ``DecimalJSONParser``
reads every command's body and refuses, before any command sees it, what no command takes. The
database being unavailable is answered 503 by ``config.middleware``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler

from casino import bodies

NOT_LOGGED_IN = "Log in, or send your API token as the header 'Authorization: Token <key>'."
NOT_JSON = bodies.NOT_JSON
LONE_SURROGATE = bodies.LONE_SURROGATE


def error_body(message: str, **extra: Any) -> dict[str, Any]:
    return {"error": message, **extra}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):  # Django's own limit, met before the parser's
        too_large = f"The body is over the limit of {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes."
        return Response(error_body(too_large), status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    response = exception_handler(exc, context)
    if response is None:
        return None  # not an API error: a server error, reported as such
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(_summary(response.data), fields=response.data)
    elif isinstance(exc, exceptions.NotAuthenticated):
        response.data = error_body(NOT_LOGGED_IN)
    elif isinstance(exc, exceptions.APIException):
        response.data = error_body(str(exc.detail))
    else:  # Django's Http404 and PermissionDenied, turned into REST framework's by the handler
        response.data = error_body(str(response.data.get("detail", "Refused.")))
    return response


def _summary(errors: Any, field: str = "") -> str:
    """The first problem in words: "amount: A valid number is required."."""
    if isinstance(errors, dict) and errors:
        name, inner = next(iter(errors.items()))
        if name not in ("non_field_errors", "detail"):
            field = f"{field}.{name}" if field else str(name)
        return _summary(inner, field)
    if isinstance(errors, list) and errors:
        return _summary(errors[0], field)
    return f"{field}: {errors}" if field else str(errors)


#: The most bytes a command's body may hold, and how deep it may nest (``casino.bodies``).
API_MAX_BODY_BYTES = bodies.MAX_BODY_BYTES
API_MAX_DEPTH = bodies.MAX_DEPTH


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


class DecimalJSONParser(JSONParser):
    """JSON read by ``casino.bodies.read_json``, the one reader of the API and the page scripts:
    numbers with a fraction or exponent as ``Decimal``, never ``float``.

    Refused before any command sees it: a body over ``API_MAX_BODY_BYTES`` (413), the constants
    ``NaN`` and ``Infinity`` that JSON does not have, nesting deeper than ``API_MAX_DEPTH``, and
    a NUL character (PostgreSQL's text cannot hold one) or a lone surrogate anywhere (400).
    """

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        request = context.get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        encoding = context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            return bodies.read_json(
                stream, length=length, limit=API_MAX_BODY_BYTES, encoding=encoding
            )
        except bodies.BodyTooLarge as error:
            raise BodyTooLarge(str(error)) from None
        except bodies.BodyError as error:
            raise exceptions.ParseError(str(error)) from None
