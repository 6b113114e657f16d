"""The API's one write path: lock the table, answer a repeated command from its record, or act.

A tablet on a casino's wifi sends a command again when it sees no answer, and a dealer taps twice;
neither may deal a card or settle a round twice. Each command may carry an ``Idempotency-Key``
header (the round's commands must). In ONE transaction the table row is locked, the key looked up
in ``CommandRecord`` (per user), and either the stored answer is returned unchanged, or the action
runs and its answer (the new table state, or the refusal) is stored with the key before commit.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from baccarat.errors import RulesError
from casino.roles import Actor
from tablegame.actions import NotAllowed
from tablegame.api.errors import error_body
from tablegame.models import CommandRecord, Table
from tablegame.selectors import table_state

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
KEY_MAX_LENGTH = 100  # CommandRecord.key
KEY_REUSED = "This key was used for another command: send a new key with each new command."
KEY_MISSING = (
    f"Send an {HEADER} header with this command (a new random value per command, the same "
    "value when you send it again), so that it is never done twice."
)


class _KeyTaken(Exception):
    """Another transaction stored the same key first (for another table): undo this one."""


def command_name(action: str, inputs: Mapping[str, Any]) -> str:
    """The action and a digest of its inputs: a key sent again with other inputs is refused."""
    text = json.dumps(inputs, sort_keys=True, default=str)
    return f"{action[:26]}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def actor_of(request: Request) -> Actor:
    """The member of staff who sent the request (the API lets in nobody who is not logged in)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


def run_command(
    request: Request,
    *,
    table_id: int,
    command: str,
    act: Callable[[Table, Actor], object],
    key_required: bool,
) -> Response:
    """Run ``act`` (one action, by the request's user) on the table at most once per idempotency
    key; answer the state."""
    actor = actor_of(request)
    key = request.headers.get(HEADER, "").strip()
    if key_required and not key:
        raise exceptions.ValidationError({HEADER: [KEY_MISSING]})
    if len(key) > KEY_MAX_LENGTH:
        raise exceptions.ValidationError({HEADER: [f"At most {KEY_MAX_LENGTH} characters."]})
    try:
        with transaction.atomic():
            # Race: a double tap sends one command twice at once. The second request waits here
            # until the first commits, then finds its record below and answers the same.
            table = Table.objects.select_for_update().filter(pk=table_id).first()
            if table is None:
                raise exceptions.NotFound(f"There is no table {table_id}.")
            if key:
                done = CommandRecord.objects.filter(user=actor, key=key).first()
                if done is not None:
                    if (done.table_id, done.command) != (table.pk, command):
                        return Response(error_body(KEY_REUSED), status=409)
                    return Response(
                        done.response, status=done.status, headers={REPLAYED_HEADER: "true"}
                    )
            status, body = _perform(table, lambda locked: act(locked, actor))
            if key:
                body = _remember(actor, key, table, command, status, body)
    except _KeyTaken:
        return Response(error_body(KEY_REUSED), status=409)
    return Response(body, status=status)


def _perform(table: Table, act: Callable[[Table], object]) -> tuple[int, dict[str, Any]]:
    """The action's answer: the table state after it, or its refusal (which changed nothing:
    the action's own ``atomic`` rolled back to its savepoint)."""
    try:
        act(table)
    except NotAllowed as refusal:
        return 403, error_body(str(refusal))
    except RulesError as refusal:  # ActionError, or a rule the action did not reword
        return 409, error_body(str(refusal))
    return 200, table_state(Table.objects.get(pk=table.pk))


def _remember(
    user: Actor, key: str, table: Table, command: str, status: int, body: dict[str, Any]
) -> dict[str, Any]:
    """Store the answer with the key; return it as stored, so a repeat answers the same bytes
    (PostgreSQL's jsonb keeps its own key order)."""
    try:
        with transaction.atomic():
            record = CommandRecord.objects.create(
                user=user,
                key=key,
                table=table,
                command=command,
                status=status,
                response=body,
            )
    except IntegrityError:
        # Race: the same key at the same moment for another table (whose row lock is not ours).
        raise _KeyTaken from None
    stored: dict[str, Any] = CommandRecord.objects.values_list("response", flat=True).get(
        pk=record.pk
    )
    return stored
