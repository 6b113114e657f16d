"""The API's one write path: lock the table, answer a repeated command from its record, or act.

A tablet on a casino's wifi sends a command again when it sees no answer, and a dealer taps twice;
neither may deal a card or settle a round twice. Each command may carry an ``Idempotency-Key``
header (the round's commands must). In ONE transaction the table row is locked, then one
statement reads the key's ``CommandRecord`` (per user), the chain's head and the table's state in
play (``tablegame.live``); either the stored answer is returned unchanged, or the action runs
(inside ``actions.common.command``: the lock is reused, no savepoint) and its answer, the events
and the parts of the table state they changed (``selectors.command_answer``), is stored with the
key before commit and sent as stored. A refusal rolls the transaction back whole; it is then
stored with the key in a transaction of its own, and one surveillance must see (``ActionError``'s
``kind``: a card not in the shoe, a wager after no more bets...) kept for it, one insert more
(``tablegame.refusals``). A card is the lock, the read, and the write
(the shoe's count, the card, its event and the command record, flushed together by the
command's unit of work, ``tablegame.work``), and so is a wager, and a settlement whatever the
number of wagers (where it marks vigorish, the markers are written, then read for the answer).
How many statements each command may run is ``tests/api/test_query_budgets.py``'s to say.

A table whose row another transaction holds keeps a command waiting up to PostgreSQL's lock
timeout (``config.env``), then answers 503 busy. So that one such table cannot take every thread
of a web process, at most ``WAITING_PER_TABLE`` of its commands wait in a process at once; the
next are answered busy at once (``_turn``), unchanged and with their keys unspent.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.functional import LazyObject
from rest_framework import exceptions
from rest_framework.request import Request

from baccarat.errors import RulesError
from casino.page_commands import HEADER, KEY_MAX_LENGTH, KEY_REUSED, REPLAYED_HEADER
from casino.roles import Actor
from tablegame import commands as table_commands
from tablegame import refusals
from tablegame.actions import NotAllowed
from tablegame.api.errors import error_body
from tablegame.errors import ActionError
from tablegame.models import CommandRecord

log = logging.getLogger(__name__)

# The Idempotency-Key's header, length and words are the pages' commands' (``HEADER`` ...,
# ``casino.page_commands``): ``CommandRecord.key`` is as long as ``PageCommand.key``.
#: What a command on a table too busy to wait for answers (``config.middleware`` answers the
#: same when the lock timeout ends the wait), and when to send it again.
BUSY = "The table is busy, try again."
BUSY_RETRY_AFTER_SECONDS = 2
#: How many commands of one table may wait for its lock in a web process at once: a tablet sends
#: one at a time, and a double tap or the pit's console makes two.
WAITING_PER_TABLE = 2
KEY_MISSING = (
    f"Send an {HEADER} header with this command (a new random value per command, the same "
    "value when you send it again), so that it is never done twice."
)


def command_name(action: str, inputs: Mapping[str, Any]) -> str:
    """The action and a digest of its inputs: a key sent again with other inputs is refused."""
    text = json.dumps(inputs, sort_keys=True, default=str)
    return f"{action[:26]}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def actor_of(request: Request | HttpRequest) -> Actor:
    """The member of staff who sent the request (the API lets in nobody who is not logged in)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    # A session's user comes wrapped (``SimpleLazyObject``), and each attribute read through
    # the wrapper is a call of its own: the action reads the actor's often. Hand it the user.
    return user._wrapped if isinstance(user, LazyObject) else user


def run_command(
    request: Request | HttpRequest,
    *,
    table_id: int,
    command: str,
    name: str,
    key_required: bool,
    given: Mapping[str, Any] | None = None,
    inputs: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """Run the command ``name`` of ``tablegame.commands`` (by the request's user, with its
    ``inputs``, else ``given``) at the table at most once per idempotency key; answer what
    changed. ``command``: the name its record keeps (with a digest of its input); ``given``: the
    command's input, kept with a refusal surveillance must see (``tablegame.refusals``)."""
    actor = actor_of(request)
    key = request.headers.get(HEADER, "").strip()
    if key_required and not key:
        raise exceptions.ValidationError({HEADER: [KEY_MISSING]})
    if len(key) > KEY_MAX_LENGTH:
        raise exceptions.ValidationError({HEADER: [f"At most {KEY_MAX_LENGTH} characters."]})
    with _turn(table_id) as ours:
        if not ours:  # answered as config.middleware answers a lock timeout: with the id
            plain = getattr(request, "_request", request)  # REST framework's, or the tablet's
            request_id = str(getattr(plain, "request_id", "-"))
            log.warning("table %s busy (request %s): %s", table_id, request_id, request.path)
            headers = {"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)}
            body = error_body(BUSY, request_id=request_id)
            return _answer(json.dumps(body), 503, headers=headers)
        arguments = given if inputs is None else inputs
        return _run_command(actor, key, table_id, command, name, arguments or {}, given or {})


def _run_command(
    actor: Actor,
    key: str,
    table_id: int,
    command: str,
    name: str,
    inputs: Mapping[str, Any],
    given: Mapping[str, Any],
) -> HttpResponse:
    """``tablegame.commands.run``, its refusals answered (and kept) as the API answers them."""
    try:
        done = table_commands.run(table_id, actor, name, inputs, key=key, record_as=command)
    except table_commands.NoTable as missing:
        return _answer(json.dumps(error_body(str(missing))), 404)
    except table_commands.KeyReused:
        return _answer(json.dumps(error_body(KEY_REUSED)), 409)
    except NotAllowed as refusal:
        return _refused(actor, key, table_id, command, 403, str(refusal))
    except RulesError as refusal:  # ActionError, or a rule the command did not reword
        refused = _refused(actor, key, table_id, command, 409, str(refusal))
        where = getattr(refusal, "where", None)
        if isinstance(refusal, ActionError) and where is not None:  # rolled back: kept now
            refusals.kept_in(where, refusal, actor=actor, command=name, given=given)
        return refused
    except IntegrityError:
        # Race: the same key at the same moment for another table (whose row lock is not ours).
        return _answer(json.dumps(error_body(KEY_REUSED)), 409)
    return _answer(done.text, done.status, replayed=done.replayed)


_waiting: Counter[int] = Counter()
"""Table -> its commands in this process between the lock's request and the end."""
_waiting_guard = threading.Lock()


@contextmanager
def _turn(table_id: int) -> Iterator[bool]:
    """Whether this command may wait for the table (True), counted among its waiting ones
    until it ends; False when ``WAITING_PER_TABLE`` of them already wait."""
    with _waiting_guard:
        ours = _waiting[table_id] < WAITING_PER_TABLE
        if ours:
            _waiting[table_id] += 1
    try:
        yield ours
    finally:
        if ours:
            with _waiting_guard:
                _waiting[table_id] -= 1
                if not _waiting[table_id]:
                    del _waiting[table_id]


class _KeyTaken(Exception):
    """Another transaction stored the same key first, for another table: undo this one."""


def _replay(done: CommandRecord | None, table_id: int, command: str) -> HttpResponse:
    """The stored answer of a command sent again; a key used for another command is refused."""
    if done is None or (done.table_id, done.command) != (table_id, command):
        return _answer(json.dumps(error_body(KEY_REUSED)), 409)
    return _answer(done.response, done.status, replayed=True)


def _refused(
    actor: Actor, key: str, table_id: int, command: str, status: int, message: str
) -> HttpResponse:
    """Answer a refusal (which changed nothing: its transaction was rolled back) and store it
    with the key, unless the same key's first answer got there first."""
    text = json.dumps(error_body(message))
    if key:
        try:
            with transaction.atomic():
                CommandRecord.objects.create(
                    user=actor,
                    key=key,
                    table_id=table_id,
                    command=command,
                    status=status,
                    response=text,
                )
        except IntegrityError:
            return _replay(
                CommandRecord.objects.filter(user=actor, key=key).first(), table_id, command
            )
    return _answer(text, status)


def _answer(
    text: str, status: int, *, replayed: bool = False, headers: dict[str, str] | None = None
) -> HttpResponse:
    """A JSON answer whose body is ``text`` as stored, sent as it is (not parsed and written
    again): the first answer and a repeat are alike to the byte."""
    sent = {**(headers or {}), **({REPLAYED_HEADER: "true"} if replayed else {})}
    return HttpResponse(text, status=status, headers=sent, content_type="application/json")
