"""The one reader of a JSON body, for the API (``tablegame.api.errors.DecimalJSONParser``) and the
page scripts' commands (``casino.page_commands``) alike: what no command takes, or the record
could not store, is refused in a plain sentence before any command sees it.

Refused: a body over ``MAX_BODY_BYTES`` (by its Content-Length, and by the bytes actually read:
413), text that is not JSON (``NaN`` and ``Infinity``, which JSON does not have, included), a
whole number of more than ``MAX_DIGITS`` digits, nesting deeper than ``MAX_DEPTH``, a NUL
character (PostgreSQL's text cannot hold one) and a lone surrogate, half a character, anywhere
(400). A number with a fraction or an exponent is read as ``Decimal``, never ``float``: an amount
sent as a JSON number stays exact.
"""

from __future__ import annotations

from decimal import Decimal
from json import JSONDecoder
from typing import Any, NoReturn, Protocol

#: The most bytes a command's body may hold: a command needs a few hundred, a Rules Submission
#: overriding every option a few thousand.
MAX_BODY_BYTES = 16 * 1024
#: How deep a body's objects and lists may nest: a command needs three levels.
MAX_DEPTH = 8
#: The most digits of a whole number: more than any amount or count, fewer than Python's own
#: limit on converting text to a number.
MAX_DIGITS = 100

NOT_JSON = "The body is not valid JSON"
LONE_SURROGATE = (
    "The body holds half of a character (a lone surrogate such as \\ud800): send whole characters."
)


class BodyError(ValueError):
    """The body cannot be a command's; its message says why, for the person who sent it, and
    ``status`` is the HTTP status of the refusal."""

    status = 400


class BodyTooLarge(BodyError):
    """The body is over the limit (413)."""

    status = 413


def too_large(limit: int = MAX_BODY_BYTES) -> str:
    return f"The body is over the limit of {limit} bytes."


class Stream(Protocol):
    """What a body is read from: a request, or its stream."""

    def read(self, size: int, /) -> bytes: ...


def read_body(stream: Stream, *, length: str | None = None, limit: int = MAX_BODY_BYTES) -> bytes:
    """At most ``limit`` bytes of ``stream``, or BodyTooLarge: refused by the Content-Length
    (``length``) it announced before a byte is read, or by what it actually holds."""
    if length and length.isdigit() and int(length) > limit:
        raise BodyTooLarge(too_large(limit))
    body = stream.read(limit + 1)
    if len(body) > limit:
        raise BodyTooLarge(too_large(limit))
    return body


def read_json(
    stream: Stream,
    *,
    length: str | None = None,
    limit: int = MAX_BODY_BYTES,
    encoding: str = "utf-8",
) -> Any:
    """The JSON of a body read from ``stream`` (``read_body``, then ``json_bytes``)."""
    return json_bytes(read_body(stream, length=length, limit=limit), encoding=encoding)


def json_bytes(body: bytes, *, encoding: str = "utf-8", empty: Any = None) -> Any:
    """The JSON of a body's bytes, or BodyError. An empty body is ``empty`` when given (a page's
    command without fields), else refused as not JSON."""
    if not body and empty is not None:
        return empty
    try:
        text = body.decode(encoding)
    except ValueError as error:  # not UTF-8: the decoder's words say which byte
        raise BodyError(f"{NOT_JSON}: {_sentence(str(error))}") from None
    return json_text(text)


def json_text(text: str) -> Any:
    """The JSON of ``text`` (a body, or a field holding JSON), or BodyError."""
    try:
        data = _DECODER.decode(text)
    except RecursionError:
        raise BodyError(f"{NOT_JSON}: it is nested too deeply.") from None
    except ValueError as error:
        raise BodyError(f"{NOT_JSON}: {_sentence(str(error))}") from None
    _check_shape(data)
    return data


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number.")


def _whole_number(text: str) -> int:
    """A JSON integer; one of hundreds of digits is refused before Python converts it."""
    if len(text) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits is more than any amount or count.")
    return int(text)


#: The decoder, made once (``json.loads`` with options makes one per call); like ``json.loads``'
#: own, it keeps nothing between bodies and serves every thread.
_DECODER = JSONDecoder(parse_float=Decimal, parse_int=_whole_number, parse_constant=_no_constant)


def _sentence(text: str) -> str:
    return text if text.endswith(".") else f"{text}."


def _check_text(value: str) -> None:
    """Refuse a lone surrogate (``"\\ud800"`` in JSON): half a character, which no text can
    store or print; the answer does not repeat it."""
    try:
        value.encode()
    except UnicodeEncodeError:
        raise BodyError(LONE_SURROGATE) from None


def _check_shape(data: Any) -> None:
    """Refuse nesting past ``MAX_DEPTH``, and a NUL or a lone surrogate in any key or string
    (walked without recursion: a body just within the decoder's depth still fits the stack)."""
    pending = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise BodyError(f"{NOT_JSON}: it holds a NUL character.")
            if not value.isascii():
                _check_text(value)
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise BodyError(f"{NOT_JSON}: it is nested too deeply.")
            items = [*value, *value.values()] if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
