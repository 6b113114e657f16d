"""``round/corrections/``: a mis-keyed card corrected at the tablet, a floorperson approving it
there with their username and password (``tablegame.actions.corrections``).

The password is checked here and goes nowhere else: the command's record keeps the position, the
card and the approver's name only.
"""

from __future__ import annotations

from rest_framework import serializers

from tablegame.actions.corrections import correct_card
from tablegame.api.approvals import ApprovedCommand
from tablegame.api.serializers import CardField, Input


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


class CorrectCard(ApprovedCommand):
    """Correct a mis-keyed card of the round in play, a floorperson approving it at the tablet."""

    table_action = staticmethod(correct_card)
    access = "command:correct_card"
    serializer_class = CorrectionInput
    command = "correct_card"
