"""The API's views: read a table, or run one command on it (one view per action).

A command view names its action and its input serializer and nothing else: the serializer's
validated data and the URL's numbers (``seat``, ``marker_id``) are the action's keyword arguments.
Who may is asked of ``casino.access`` (``permissions.Policy``, before the body is read); the
actions ask it again, and check what is not about the role (``NotAllowed`` answers 403).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar

from django.contrib.auth.models import User
from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from casino import access
from tablegame import refusals
from tablegame.api import serializers as inputs
from tablegame.api.commands import command_name, run_command
from tablegame.api.errors import DecimalJSONParser
from tablegame.api.permissions import Policy
from tablegame.api.schema import (
    LIST_ERRORS,
    READ_ERRORS,
    CommandSchema,
    ReadSchema,
    RecentPlayers,
    TableState,
)
from tablegame.dealers import dealer_refusal
from tablegame.models import Table
from tablegame.players import recent_players
from tablegame.snapshots import table_state_text

if TYPE_CHECKING:
    from rest_framework.views import AsView, GenericView

_JSON = JSONRenderer()


@cache
def _made_once(classes: tuple[type[Any], ...]) -> tuple[Any, ...]:
    """One instance of each class, shared by every request of every thread."""
    return tuple(made() for made in classes)


@extend_schema(tags=["tables"], responses={200: inputs.TableSummary(many=True), **LIST_ERRORS})
class TableList(generics.ListAPIView[Table]):
    """Every table on the floor, with the game it is dealt under now."""

    schema = ReadSchema()
    operation_id = "list_tables"
    access = "api:tables"
    permission_classes = (Policy,)
    serializer_class = inputs.TableSummary
    queryset = Table.objects.select_related("pit").prefetch_related("rules_history")


@extend_schema(tags=["tables"], responses={200: TableState, **READ_ERRORS})
class TableDetail(APIView):
    """The whole state of one table: seats, limits, shoe, the round and what comes next."""

    schema = ReadSchema()
    operation_id = "read_table"
    access = "api:table"
    permission_classes = (Policy,)

    def get(self, request: Request, table_id: int) -> HttpResponse:
        text = table_state_text(table_id)
        if text is None:
            raise NotFound(f"There is no table {table_id}.")
        # The state holds the tablet's helps (the last round's wagers): a dealer reads only the
        # table they may deal, as their commands are checked (tablegame.dealers).
        user = request.user
        assert isinstance(user, User)  # signed in (``Policy``)
        refusal = dealer_refusal(user, table_id)
        if refusal is not None:
            raise PermissionDenied(refusal)
        return HttpResponse(text, content_type="application/json")  # sent as stored


@extend_schema(tags=["tables"], responses={200: RecentPlayers, **READ_ERRORS})
class RecentPlayersRead(APIView):
    """Whom to offer to seat: the players seated at the table during its previous shoe and the
    current one who are not seated now (``tablegame.players``)."""

    schema = ReadSchema()
    operation_id = "recent_players"
    access = "api:recent_players"
    permission_classes = (Policy,)

    def get(self, request: Request, table_id: int) -> HttpResponse:
        user = request.user
        assert isinstance(user, User)  # signed in (``Policy``)
        refusal = dealer_refusal(user, table_id)  # names: a dealer reads only their own table
        if refusal is not None:
            raise PermissionDenied(refusal)
        players = recent_players(table_id)
        return HttpResponse(_JSON.render({"players": players}), content_type="application/json")


class TableCommand(APIView):
    """Base of every command: validate the body, run the one action, answer the table state."""

    table_action: ClassVar[Callable[..., object]]
    access: ClassVar[str]
    permission_classes = (Policy,)
    renderer_classes = (JSONRenderer,)
    serializer_class: ClassVar[type[inputs.Input]] = inputs.NoInput
    key_required: ClassVar[bool] = False
    parser_classes = (DecimalJSONParser,)
    schema = CommandSchema()

    def perform_content_negotiation(
        self, request: Request, force: bool = False
    ) -> tuple[BaseRenderer, str]:
        """JSON, whatever the request accepts: a command answers nothing else (and a tap need
        not pay for reading its ``Accept`` header)."""
        return _JSON, _JSON.media_type

    def get_authenticators(self) -> list[BaseAuthentication]:
        """The authenticators, made once (they keep nothing of a request)."""
        return list(_made_once(tuple(self.authentication_classes)))

    def get_parsers(self) -> list[BaseParser]:
        """The parser, made once (it keeps nothing of a request)."""
        return list(_made_once(tuple(self.parser_classes)))

    def get_serializer(self, *args: Any, **kwargs: Any) -> inputs.Input:
        """The command's input (drf-spectacular reads it too, as of a generic view)."""
        kwargs.setdefault("context", {"request": self.request, "view": self})
        return self.serializer_class(*args, **kwargs)

    def validated(self, request: Request, table_id: int) -> dict[str, Any]:
        """The body's input as the action takes it, or a 400 (``ValidationError``); a card code
        that is no card is kept for surveillance first (``tablegame.refusals.mistyped``)."""
        body = self.get_serializer(data=request.data)
        if body.is_valid():
            return dict(body.validated_data)
        mistyped = inputs.mistyped_cards(body)
        if mistyped is not None:
            user = request.user
            assert isinstance(user, User)  # signed in (``Policy``)
            typed, words = mistyped
            name = type(self).table_action.__name__
            refusals.mistyped(table_id, words, actor=user, command=name, given=typed)
        raise ValidationError(body.errors)

    def post(self, request: Request, table_id: int, **where: int) -> HttpResponse:
        arguments = {**where, **self.validated(request, table_id)}
        action = type(self).table_action
        return run_command(
            request,
            table_id=table_id,
            command=command_name(action.__name__, arguments),
            name=action.__name__,
            key_required=self.key_required,
            given=arguments,
        )


def command(
    action: Callable[..., object],
    body: type[inputs.Input] = inputs.NoInput,
    *,
    key_required: bool = False,
) -> AsView[GenericView]:
    """The view of one action (for ``urls.py``); its access rule must exist."""
    what = f"command:{action.__name__}"
    access.rule(what)  # a command without its rule fails as urls.py is imported
    required = key_required

    class Command(TableCommand):
        __doc__ = action.__doc__
        table_action = staticmethod(action)
        access = what
        serializer_class = body
        key_required = required

    Command.__name__ = Command.__qualname__ = "".join(
        part.title() for part in action.__name__.split("_")
    )
    return Command.as_view()


def action_name(view: AsView[GenericView]) -> str:
    """The name of the action a command view runs: its URL name."""
    command_view = view.view_class
    if not issubclass(command_view, TableCommand):
        raise TypeError(f"{command_view.__name__} is not a table command.")
    return command_view.table_action.__name__
