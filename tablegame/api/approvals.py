"""A floorperson's approval given at the tablet (a card corrected, a round voided): their username
and password, checked here and kept nowhere; the command's record names the approver only."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response

from tablegame.api.commands import command_name, run_command
from tablegame.api.errors import error_body
from tablegame.api.views import TableCommand

WRONG_APPROVAL = "The floorperson's username or password is wrong: nothing was changed."


class Approval(NamedTuple):
    approver: User | None
    """None: no approval was given."""
    named: dict[str, Any]
    """What names the command (its idempotency): the body, with the approver's username."""


def approval(request: Request, given: dict[str, Any]) -> Approval | Response:
    """Take ``floorperson`` and ``password`` out of ``given`` and check them: the approval, or
    the 403 answer when they are wrong."""
    password = given.pop("password", None)
    username = given.pop("floorperson", None)
    if username is None or password is None:
        return Approval(None, given)
    found = authenticate(request._request, username=username, password=password)
    if not isinstance(found, User):
        return Response(error_body(WRONG_APPROVAL), status=403)
    return Approval(found, {**given, "approver": username})


class ApprovedCommand(TableCommand):
    """A command a floorperson may approve at the tablet: the body's ``floorperson`` and
    ``password`` become the action's ``approver`` (None when not given)."""

    key_required = True
    command: ClassVar[str]
    """The command's name in its idempotency record (the action's)."""

    def post(self, request: Request, table_id: int, **where: int) -> HttpResponse:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        given = dict(body.validated_data)
        approved = approval(request, given)
        if isinstance(approved, Response):
            return approved
        act = type(self).table_action
        return run_command(
            request,
            table_id=table_id,
            command=command_name(self.command, approved.named),
            act=lambda table, actor: act(table, actor=actor, approver=approved.approver, **given),
            key_required=True,
        )
