"""The tablet's taps through a plain Django view, at the API's command seam.

A tablet signed in with its session sends each tap as JSON to its table's command URL. Such a
request, on the way every tap takes (a JSON body the command's input takes, a CSRF token that
checks, a role the access policy allows, an idempotency key of the right length), is answered
here: the body read by the one reader (``casino.bodies``), checked by the command's own input
(its serializer, as the schema declares it), and run by ``commands.run_command``, as REST
framework's view would run it, without REST framework's request, negotiation and
authentication around it. Anything else (an API token, another method, another content type, a
body or input refused, a CSRF or access refusal, a command a floorperson approves at the tablet)
goes to the REST framework view of the same URL, which answers it as it always has: the public
API, its schema and its tokens are REST framework's.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.functional import LazyObject
from django.views.decorators.csrf import csrf_exempt

from casino import access, bodies
from casino.page_commands import HEADER, KEY_MAX_LENGTH
from tablegame.api import commands
from tablegame.api.approvals import ApprovedCommand
from tablegame.api.errors import API_MAX_BODY_BYTES
from tablegame.api.views import TableCommand

View = Callable[..., HttpResponse]


class _Csrf(CsrfViewMiddleware):
    """Django's CSRF check, asked of one request (REST framework's ``CSRFCheck`` does the same
    for a session's request)."""

    def _reject(self, request: HttpRequest, reason: str) -> HttpResponse:
        return HttpResponse(status=403, reason=reason)


def _csrf_passes(request: HttpRequest) -> bool:
    check = _Csrf(lambda _: HttpResponse())
    check.process_request(request)
    return check.process_view(request, lambda _: HttpResponse(), (), {}) is None


def tablet_view(rest: View) -> View:
    """The view of one command: the tablet's taps answered here, the rest by ``rest`` (the REST
    framework view, whose class the schema reads: kept as this view's ``cls``)."""
    command: type[TableCommand] = rest.view_class  # type: ignore[attr-defined]
    approved = issubclass(command, ApprovedCommand)

    @csrf_exempt  # checked here, for a session's request, as REST framework checks it
    def view(request: HttpRequest, table_id: int, **where: int) -> HttpResponse:
        if approved or not _the_tablets(request):
            return rest(request, table_id=table_id, **where)
        user = request.user
        assert isinstance(user, User | LazyObject)
        if not access.decide(user, command.access).allowed or not _csrf_passes(request):
            return rest(request, table_id=table_id, **where)  # refused there, and kept
        key = request.headers.get(HEADER, "").strip()
        if (command.key_required and not key) or len(key) > KEY_MAX_LENGTH:
            return rest(request, table_id=table_id, **where)
        try:
            body = request.body
        except RequestDataTooBig:
            return rest(request, table_id=table_id, **where)
        if len(body) > API_MAX_BODY_BYTES:
            return rest(request, table_id=table_id, **where)
        try:
            data = bodies.json_bytes(body, empty={})
        except bodies.BodyError:
            return rest(request, table_id=table_id, **where)
        serializer = command.serializer_class(data=data, context={"request": request})
        if not serializer.is_valid():
            return rest(request, table_id=table_id, **where)  # refused there (a mistyped card kept)
        arguments = {**where, **serializer.validated_data}
        name = command.table_action.__name__
        return commands.run_command(
            request,
            table_id=table_id,
            command=commands.command_name(name, arguments),
            name=name,
            key_required=command.key_required,
            given=arguments,
        )

    view.cls = command  # type: ignore[attr-defined]  # what drf-spectacular reads of a view
    view.view_class = command  # type: ignore[attr-defined]
    view.initkwargs = getattr(rest, "initkwargs", {})  # type: ignore[attr-defined]
    return view


def _the_tablets(request: HttpRequest) -> bool:
    """A POST of JSON (or of nothing) by a signed-in session, no API token: a tablet's tap."""
    if request.method != "POST" or "HTTP_AUTHORIZATION" in request.META:
        return False
    kind = request.META.get("CONTENT_TYPE", "")
    if kind and kind.split(";")[0].strip() != "application/json":
        return False
    return bool(request.user.is_authenticated)
