"""The API's views: read a table, or run one command on it (one view per action).

A command view names its action and its input serializer and nothing else: the serializer's
validated data and the URL's numbers (``seat``, ``marker_id``) are the action's keyword arguments.
Roles are checked by the actions themselves (``NotAllowed`` answers 403).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tablegame.api import serializers as inputs
from tablegame.api.commands import command_name, run_command
from tablegame.api.errors import DecimalJSONParser
from tablegame.api.schema import READ_ERRORS, CommandSchema, TableState
from tablegame.models import Table
from tablegame.selectors import table_state


@extend_schema(tags=["tables"], responses={200: inputs.TableSummary(many=True), **READ_ERRORS})
class TableList(generics.ListAPIView):
    """Every table on the floor, with the game it is dealt under now."""

    serializer_class = inputs.TableSummary
    queryset = Table.objects.select_related("pit").prefetch_related("rules_history")


@extend_schema(tags=["tables"], responses={200: TableState, **READ_ERRORS})
class TableDetail(APIView):
    """The whole state of one table: seats, limits, shoe, the round and what comes next."""

    def get(self, request: Request, table_id: int) -> Response:
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise NotFound(f"There is no table {table_id}.")
        return Response(table_state(table))


class TableCommand(generics.GenericAPIView):
    """Base of every command: validate the body, run the one action, answer the table state."""

    table_action: ClassVar[Callable[..., Any]]
    serializer_class = inputs.NoInput
    key_required: ClassVar[bool] = False
    parser_classes: ClassVar[list[type[Any]]] = [DecimalJSONParser]
    schema = CommandSchema()

    def post(self, request: Request, table_id: int, **where: int) -> Response:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        arguments = {**where, **body.validated_data}
        action = type(self).table_action
        return run_command(
            request,
            table_id=table_id,
            command=command_name(action.__name__, arguments),
            act=lambda table: action(table, actor=request.user, **arguments),
            key_required=self.key_required,
        )


def command(
    action: Callable[..., Any], body: type[Any] = inputs.NoInput, *, key_required: bool = False
) -> Callable[..., Any]:
    """The view of one action (for ``urls.py``)."""
    view = type(
        "".join(part.title() for part in action.__name__.split("_")),
        (TableCommand,),
        {
            "table_action": staticmethod(action),
            "serializer_class": body,
            "key_required": key_required,
            "__doc__": action.__doc__,
        },
    )
    return view.as_view()
