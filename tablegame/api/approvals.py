"""A supervisor's approval given at the tablet (a card corrected, a round voided): their username
and password, checked here and kept nowhere; the command's record names the approver only.

Not a sign-in, and no password oracle: the password is checked without ``authenticate()``, so
it neither counts against nor is refused by the supervisor's sign-in lock-out (casino.signin).
Whatever is wrong (no such user, a wrong password, someone who may not approve) the answer is
the same 403 JSON refusal; each refusal is kept in the failure log (axes' ``AccessFailureLog``,
at the command's path) and ``APPROVAL_REFUSALS_BEFORE_LOCKOUT`` of them from one address within
``SIGN_IN_LOCKOUT_SECONDS`` refuse that address's approvals (429) until the window passes."""

from __future__ import annotations

import datetime
from typing import Any, ClassVar, NamedTuple

from axes.models import AccessFailureLog
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.utils import timezone
from rest_framework.request import Request
from rest_framework.response import Response

from casino import access
from casino.signin import client_address
from tablegame.api.commands import command_name, run_command
from tablegame.api.errors import error_body
from tablegame.api.views import TableCommand

WRONG_APPROVAL = (
    "Not approved: the username or password is wrong, or that person may not approve this. "
    "Nothing was changed."
)
TOO_MANY_REFUSALS = (
    "Too many refused approvals from this tablet: approvals here are stopped for 15 minutes. "
    "Nothing was changed; a supervisor can act from the pit."
)
AUTHORITY = {
    "correct_card": "authority:approve_card_correction",
    "void_round": "authority:void_any_round",
}
"""What the approver must be allowed, per command."""


class Approval(NamedTuple):
    approver: User | None
    """None: no approval was given."""
    named: dict[str, Any]
    """What names the command (its idempotency): the body, with the approver's username."""


def _window() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)


def _refuse(request: Request, username: str, address: str, *, stopped: bool) -> Response:
    """Keep the refusal in the failure log, and answer it."""
    meta = request._request.META
    AccessFailureLog.objects.create(
        username=username[:255],
        ip_address=address or None,
        user_agent=str(meta.get("HTTP_USER_AGENT", ""))[:255],
        http_accept=str(meta.get("HTTP_ACCEPT", ""))[:1025],
        path_info=request.path[:255],
        locked_out=stopped,
    )
    if stopped:
        seconds = str(settings.SIGN_IN_LOCKOUT_SECONDS)
        return Response(error_body(TOO_MANY_REFUSALS), status=429, headers={"Retry-After": seconds})
    return Response(error_body(WRONG_APPROVAL), status=403)


def approver(username: str, password: str, authority: str) -> User | None:
    """The active user of ``username`` if ``password`` is theirs and they may approve; else None,
    after the same work whatever was wrong (an unknown username still hashes the password)."""
    found = User.objects.filter(username=username, is_active=True).first()
    if found is None:
        User().set_password(password)
        return None
    if not found.check_password(password) or not access.decide(found, authority).allowed:
        return None
    return found


def approval(request: Request, given: dict[str, Any], command: str) -> Approval | Response:
    """Take ``floorperson`` and ``password`` out of ``given`` and check them: the approval, or
    the refusal (403, or 429 after too many from this address)."""
    password = given.pop("password", None)
    username = given.pop("floorperson", None)
    if username is None or password is None:
        return Approval(None, given)
    address = client_address(request._request)
    refused = AccessFailureLog.objects.filter(
        ip_address=address or None,
        path_info__startswith="/api/",
        attempt_time__gt=timezone.now() - _window(),
    ).count()
    if refused >= settings.APPROVAL_REFUSALS_BEFORE_LOCKOUT:
        return _refuse(request, username, address, stopped=True)
    found = approver(str(username), str(password), AUTHORITY[command])
    if found is None:
        return _refuse(request, username, address, stopped=False)
    return Approval(found, {**given, "approver": username})


class ApprovedCommand(TableCommand):
    """A command a supervisor may approve at the tablet: the body's ``floorperson`` and
    ``password`` become the action's ``approver`` (None when not given)."""

    key_required = True
    command: ClassVar[str]
    """The command's name in its idempotency record (the action's)."""

    def post(self, request: Request, table_id: int, **where: int) -> HttpResponse:
        given = self.validated(request, table_id)
        approved = approval(request, given, self.command)
        if isinstance(approved, Response):
            return approved
        return run_command(
            request,
            table_id=table_id,
            command=command_name(self.command, approved.named),
            name=self.command,
            key_required=True,
            given=approved.named,
            inputs={**given, "approver": approved.approver},
        )
