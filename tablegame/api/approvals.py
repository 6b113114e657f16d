"""A floorperson's approval given at the tablet (a card corrected, a round voided): their username
and password, checked here and kept nowhere; the command's record names the approver only."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from rest_framework.request import Request
from rest_framework.response import Response

from tablegame.api.errors import error_body

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
