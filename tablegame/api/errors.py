"""Every error of the API as ``{"error": "<one readable sentence>"}`` (plus ``fields`` for input).

``api_exception_handler`` is REST framework's ``EXCEPTION_HANDLER``: refusals of the actions are
answered by ``commands.run_command`` itself; this covers what REST framework raises (bad input,
no login, unknown table, wrong method) and a body over Django's limit (413). ``DecimalJSONParser``
reads every command's body and refuses, before any command sees it, what no command takes. The
database being unavailable is answered 503 by ``config.middleware``.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from json import JSONDecoder
from typing import IO, Any, NoReturn

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler

NOT_LOGGED_IN = "Log in, or send your API token as the header 'Authorization: Token <key>'."
NOT_JSON = "The body is not valid JSON"
LONE_SURROGATE = (
    "The body holds half of a character (a lone surrogate such as \\ud800): send whole characters."
)


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


#: The most bytes a command's body may hold: a command needs a few hundred, a Rules Submission
#: overriding every option a few thousand.
API_MAX_BODY_BYTES = 16 * 1024
#: How deep a body's objects and lists may nest: a command needs three levels.
API_MAX_DEPTH = 8


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


class DecimalJSONParser(JSONParser):
    """JSON whose numbers with a fraction or exponent are read as ``Decimal``, never ``float``:
    an amount sent as a JSON number stays exact.

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
        if length and length.isdigit() and int(length) > API_MAX_BODY_BYTES:
            raise BodyTooLarge(_too_large())
        body = stream.read(API_MAX_BODY_BYTES + 1)
        if len(body) > API_MAX_BODY_BYTES:
            raise BodyTooLarge(_too_large())
        encoding = context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = _DECODER.decode(body.decode(encoding))
        except RecursionError:
            raise exceptions.ParseError(f"{NOT_JSON}: it is nested too deeply.") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"{NOT_JSON}: {_sentence(str(exc))}") from None
        _check_shape(data)
        return data


def _too_large() -> str:
    return f"The body is over the limit of {API_MAX_BODY_BYTES} bytes."


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number.")


def _whole_number(text: str) -> int:
    """A JSON integer; one of hundreds of digits is refused before Python converts it."""
    if len(text) > 100:
        raise ValueError(f"a number of {len(text)} digits is more than any amount or count.")
    return int(text)


#: The body's decoder, made once (``json.loads`` with options makes one per call); like
#: ``json.loads``' own, it keeps nothing between bodies and serves every thread.
_DECODER = JSONDecoder(parse_float=Decimal, parse_int=_whole_number, parse_constant=_no_constant)


def _sentence(text: str) -> str:
    return text if text.endswith(".") else f"{text}."


def _check_text(value: str) -> None:
    """Refuse a lone surrogate (``"\\ud800"`` in JSON): half a character, which no text can
    store or print; the answer does not repeat it."""
    try:
        value.encode()
    except UnicodeEncodeError:
        raise exceptions.ParseError(LONE_SURROGATE) from None


def _check_shape(data: Any) -> None:
    """Refuse nesting past ``API_MAX_DEPTH``, and a NUL or a lone surrogate in any key or string
    (without recursion)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise exceptions.ParseError(f"{NOT_JSON}: it holds a NUL character.")
            if not value.isascii():
                _check_text(value)
        elif isinstance(value, dict | list):
            if depth > API_MAX_DEPTH:
                raise exceptions.ParseError(f"{NOT_JSON}: it is nested too deeply.")
            items = [*value, *value.values()] if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
