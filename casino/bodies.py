"""A page script's JSON body, read where it enters: what the record could not store is refused in
words before any command sees it."""

from __future__ import annotations

import json
from typing import Any


class BodyError(ValueError):
    """The body cannot be a command's; its message says why, for the person who sent it."""


def json_body(raw: bytes) -> Any:
    """The JSON of a request's body (``{}`` when empty), or BodyError: not JSON (NaN and Infinity
    included), nested too deeply, or text holding a NUL or a lone surrogate."""
    try:
        body = json.loads(raw or b"{}", parse_constant=_no_constant)
    except RecursionError:
        raise BodyError("The request is nested too deeply.") from None
    except BodyError:
        raise
    except ValueError:
        raise BodyError("The request is not JSON.") from None
    _check_text(body)
    return body


def _no_constant(name: str) -> Any:
    raise BodyError(f"{name} is not a number.")


def _check_text(body: Any) -> None:
    """Walked without recursion: a body just within json's depth still fits the stack."""
    waiting = [body]
    while waiting:
        value = waiting.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise BodyError("A field holds a NUL character; type it again.")
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise BodyError("A field holds a broken character; type it again.") from None
        elif isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
