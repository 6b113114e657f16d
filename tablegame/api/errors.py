"""Every error of the API as ``{"error": "<one readable sentence>"}`` (plus ``fields`` for input).

``api_exception_handler`` is REST framework's ``EXCEPTION_HANDLER``: refusals of the actions are
answered by ``commands.run_command`` itself; this covers what REST framework raises (bad input,
no login, unknown table, wrong method).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.utils import json
from rest_framework.views import exception_handler

NOT_LOGGED_IN = "Log in, or send your API token as the header 'Authorization: Token <key>'."


def error_body(message: str, **extra: Any) -> dict[str, Any]:
    return {"error": message, **extra}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
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


class DecimalJSONParser(JSONParser):
    """JSON whose numbers with a fraction or exponent are read as ``Decimal``, never ``float``:
    an amount sent as a JSON number stays exact."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return json.loads(stream.read().decode(encoding), parse_float=Decimal)
        except ValueError as exc:
            raise exceptions.ParseError(f"The body is not valid JSON: {exc}") from None
