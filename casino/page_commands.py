"""The page scripts' commands: one way in for every JSON endpoint of the pages, as the API's
(``tablegame.api.commands``) for the tablets.

``page_command(what)`` makes a view of a command function ``run(body, actor, **url_kwargs)``:

- only a person the policy allows ``what`` (``casino.access.page``: a visitor is sent to log in,
  anyone else refused ``{"error": reason}`` 403);
- only POST: any other method is answered 405 ``{"error": ...}`` with ``Allow: POST``;
- the body read by the one reader (``casino.bodies``: 413 over the limit, 400 for what is not a
  JSON object a command could take);
- the actor is ``request.user``;
- a refusal answered ``{"error": "<sentence>"}``: ``forbidden`` exceptions and Django's
  ``PermissionDenied`` 403, ``bad_input`` 400, a refusal of the rules (``RulesError``) 409;
- done, ``{"done": true}`` with what ``run`` returned (a mapping, or None);
- the ``Idempotency-Key`` header (``static/js/http.js`` sends one with every POST) honoured: a
  repeat of the same key by the same person is answered with the first answer, byte for byte
  (``Idempotent-Replayed: true``), and the command is not done again; the key sent with another
  command or body is refused 409. Without the header the command is done, without that promise.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.functional import LazyObject

from baccarat.errors import RulesError
from casino import access, bodies
from casino.models import PageCommand

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
#: ``PageCommand.key``'s, and ``CommandRecord.key``'s (the API's commands use these too).
KEY_MAX_LENGTH = 100
POST_ONLY = "Send the command with POST."
NOT_AN_OBJECT = "Send the command as a JSON object."
KEY_TOO_LONG = f"The {HEADER} header is at most {KEY_MAX_LENGTH} characters."
KEY_REUSED = "This key was used for another command: send a new key with each new command."

Body = dict[str, Any]
#: A command: the body, the person, the URL's arguments; what to add to ``{"done": true}``.
Command = Callable[..., Mapping[str, Any] | None]
Refusals = tuple[type[Exception], ...]


def page_command(
    what: str, *, forbidden: Refusals = (), bad_input: Refusals = ()
) -> Callable[[Command], Callable[..., HttpResponse]]:
    """The view of the command ``run``, which the policy calls ``what`` (``"command:..."``)."""

    def decorate(run: Command) -> Callable[..., HttpResponse]:
        @wraps(run)
        def view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method != "POST":
                return answer(405, {"error": POST_ONLY}, headers={"Allow": "POST"})
            actor = _actor(request)
            key = request.headers.get(HEADER, "").strip()
            if len(key) > KEY_MAX_LENGTH:
                return answer(400, {"error": KEY_TOO_LONG})
            try:
                raw = bodies.read_body(request, length=request.META.get("CONTENT_LENGTH"))
                body = bodies.json_bytes(raw, empty={})
            except bodies.BodyError as error:
                return answer(error.status, {"error": str(error)})
            if not isinstance(body, dict):
                return answer(400, {"error": NOT_AN_OBJECT})

            refused_403: Refusals = (*forbidden, PermissionDenied)

            def act() -> tuple[int, str]:
                try:
                    done = run(body, actor, *args, **kwargs)
                except refused_403 as refusal:
                    return 403, _text({"error": str(refusal)})
                except bad_input as refusal:
                    return 400, _text({"error": str(refusal)})
                except RulesError as refusal:
                    return 409, _text({"error": str(refusal)})
                return 200, _text({"done": True, **(done or {})})

            if not key:
                return _sent(*act())
            digest = hashlib.sha256(request.path.encode() + b"\n" + raw).hexdigest()
            return _once(actor, key, what, digest, act)

        guarded: Any = access.page(what, json=True)(view)
        guarded.page_command = what  # found by the tests of every page command
        return guarded  # type: ignore[no-any-return]

    return decorate


def _actor(request: HttpRequest) -> User:
    """The person who sent the command (``access.page`` let in only a person logged in), unwrapped
    from the session's lazy object: the action reads the actor's attributes often."""
    user = request.user
    if isinstance(user, LazyObject):
        user = user._wrapped
    assert isinstance(user, User)
    return user


def _once(
    actor: User, key: str, what: str, digest: str, act: Callable[[], tuple[int, str]]
) -> HttpResponse:
    """``act`` done at most once for the person's key: its answer stored with the key in the
    same transaction as what it did, or the first answer sent again."""
    with transaction.atomic():
        try:
            # Race: a double tap sends the command twice at once. The second INSERT waits on the
            # key's unique index until the first transaction commits, then fails: the second
            # request reads the first's answer. Were the first rolled back, the second acts.
            with transaction.atomic():
                record = PageCommand.objects.create(
                    user=actor, key=key, command=what[:60], digest=digest, status=0, answer=""
                )
        except IntegrityError:
            first = PageCommand.objects.filter(user=actor, key=key).first()
            if first is None or (first.command, first.digest) != (what[:60], digest):
                return answer(409, {"error": KEY_REUSED})
            return _sent(first.status, first.answer, replayed=True)
        with transaction.atomic():  # a refusal undoes what the command did, not the record
            status, text = act()
            if status != 200:
                transaction.set_rollback(True)
        record.status, record.answer = status, text
        record.save(update_fields=["status", "answer"])
    return _sent(status, text)


def _text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, cls=DjangoJSONEncoder)


def _sent(status: int, text: str, *, replayed: bool = False) -> HttpResponse:
    """The answer as stored, sent as it is: the first answer and a repeat are alike to the byte."""
    headers = {REPLAYED_HEADER: "true"} if replayed else None
    return HttpResponse(text, status=status, headers=headers, content_type="application/json")


def answer(status: int, data: Mapping[str, Any], **kwargs: Any) -> HttpResponse:
    """A JSON answer of a page command (``{"error": ...}`` or ``{"done": true, ...}``)."""
    return HttpResponse(_text(data), status=status, content_type="application/json", **kwargs)
