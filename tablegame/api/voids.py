"""``round/void/``: a round void and every wager returned (``tablegame.actions.rounds.void_round``),
by a floorperson, or by the dealer when the shoe runs out or, for another reason, with a
floorperson's approval given at the tablet with their username and password, as a card is
corrected (``tablegame.api.corrections``).

The password is checked here and goes nowhere else: the command's record keeps the reason and
the approver's name only.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tablegame.actions.rounds import void_round
from tablegame.api.approvals import ApprovedCommand
from tablegame.api.serializers import Input

BOTH_OR_NEITHER = "Send the floorperson's username and password together, or neither."


class VoidInput(Input):
    reason = serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False)
    floorperson = serializers.CharField(
        max_length=150,
        required=False,
        help_text="The approving floorperson's or pit boss's username, when the dealer voids a "
        "round the shoe could still complete (with their password).",
    )
    password = serializers.CharField(
        max_length=128, required=False, trim_whitespace=False, style={"input_type": "password"}
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("floorperson" in attrs) != ("password" in attrs):
            raise serializers.ValidationError(BOTH_OR_NEITHER)
        return attrs


class VoidRound(ApprovedCommand):
    """Void the round in play, a floorperson approving it at the tablet when the dealer needs it."""

    table_action = staticmethod(void_round)
    access = "command:void_round"
    serializer_class = VoidInput
    command = "void_round"
