"""``round/corrections/``: a mis-keyed card corrected at the tablet, a floorperson approving it
there with their username and password (``tablegame.actions.corrections``).

The password is checked here and goes nowhere else: the command's record keeps the position, the
card and the approver's name only.
"""

from __future__ import annotations

from django.http import HttpResponse
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tablegame.actions.corrections import correct_card
from tablegame.api.approvals import approval
from tablegame.api.commands import command_name, run_command
from tablegame.api.serializers import CardField, Input
from tablegame.api.views import TableCommand


class CorrectionInput(Input):
    position = serializers.IntegerField(min_value=1, help_text="The card's order in the round.")
    card = CardField(help_text="The card actually dealt.")
    reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", trim_whitespace=False
    )
    floorperson = serializers.CharField(
        max_length=150, help_text="The approving floorperson's or pit boss's username."
    )
    password = serializers.CharField(
        max_length=128, trim_whitespace=False, style={"input_type": "password"}
    )


class CorrectCard(TableCommand):
    """Correct a mis-keyed card of the round in play, a floorperson approving it at the tablet."""

    table_action = staticmethod(correct_card)
    access = "command:correct_card"
    serializer_class = CorrectionInput
    key_required = True

    def post(self, request: Request, table_id: int, **where: int) -> HttpResponse:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        given = dict(body.validated_data)
        approved = approval(request, given)
        if isinstance(approved, Response):
            return approved
        approver = approved.approver
        assert approver is not None  # the body must name the floorperson (CorrectionInput)
        return run_command(
            request,
            table_id=table_id,
            command=command_name("correct_card", approved.named),
            act=lambda table, actor: correct_card(table, actor=actor, approver=approver, **given),
            key_required=True,
        )
