"""The OpenAPI description: the table state document, errors, and one schema for every command.

The serializers here only describe ``tablegame.selectors.table_state`` for ``/api/schema/``; they
never produce it (tests/api/test_schema.py checks that they name the same keys).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from tablegame.api.commands import HEADER


class Error(serializers.Serializer):
    error = serializers.CharField(help_text="What was refused, in words for the dealer.")
    fields = serializers.DictField(
        required=False, help_text="Malformed input only: the messages by field."
    )


class TableInfo(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pit = serializers.CharField()
    status = serializers.CharField()
    seat_count = serializers.IntegerField()
    curator_seat = serializers.IntegerField(allow_null=True)
    player_dealer_seat = serializers.IntegerField(allow_null=True)


class RulesInfo(serializers.Serializer):
    profile = serializers.CharField()
    title = serializers.CharField()
    source = serializers.CharField()
    wagers = serializers.ListField(child=serializers.CharField())
    commission = serializers.CharField()
    commission_rate = serializers.CharField()
    vigorish_collection = serializers.CharField()
    settlement = serializers.CharField()
    tie_odds = serializers.IntegerField()
    shuffle = serializers.CharField(help_text="The table's shuffle procedure.")


class Limit(serializers.Serializer):
    minimum = serializers.CharField()
    maximum = serializers.CharField()


class SeatInfo(serializers.Serializer):
    number = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)


class Marker(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    amount = serializers.CharField()
    player = serializers.CharField()


class ShoeInfo(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    decks = serializers.IntegerField()
    automatic_shuffler = serializers.BooleanField()
    back_colour = serializers.CharField()
    cards_left = serializers.IntegerField()
    rounds = serializers.IntegerField()
    cut_card_round = serializers.IntegerField(allow_null=True)
    held_card = serializers.CharField(allow_null=True)
    call = serializers.CharField()
    needs_shuffle_verification = serializers.BooleanField(
        help_text="A feathered shuffle waits for the floorperson before the cut."
    )
    cut_offer = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats to offer the cut to, in order."
    )


class DealtCard(serializers.Serializer):
    position = serializers.IntegerField()
    card = serializers.CharField()
    hand = serializers.CharField()


class WagerInfo(serializers.Serializer):
    seat = serializers.IntegerField()
    type = serializers.CharField()
    amount = serializers.CharField()
    ride = serializers.CharField(allow_null=True)
    result = serializers.CharField(allow_null=True)
    payout = serializers.CharField()
    vigorish = serializers.CharField()
    returned = serializers.CharField()


class Step(serializers.Serializer):
    index = serializers.IntegerField()
    phase = serializers.CharField()
    action = serializers.CharField()
    seat = serializers.IntegerField()
    type = serializers.CharField(allow_null=True)
    amount = serializers.CharField()


class IrregularityInfo(serializers.Serializer):
    kind = serializers.CharField()
    card = serializers.CharField()
    instruction = serializers.CharField()


class RoundInfo(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    simulated = serializers.BooleanField()
    expected = serializers.CharField(help_text="What the dealer does next, in words.")
    drawing = serializers.CharField(help_text="Why neither hand draws again, once complete.")
    cards = DealtCard(many=True)
    player = serializers.ListField(child=serializers.CharField())
    banker = serializers.ListField(child=serializers.CharField())
    player_total = serializers.IntegerField(allow_null=True)
    banker_total = serializers.IntegerField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    tags = serializers.ListField(child=serializers.CharField())
    announcement = serializers.CharField()
    player_turner = serializers.IntegerField(allow_null=True)
    banker_turner = serializers.IntegerField(allow_null=True)
    curator_seat = serializers.IntegerField(allow_null=True)
    player_dealer_seat = serializers.IntegerField(allow_null=True)
    player_dealer_bank = serializers.CharField(allow_null=True)
    wagers = WagerInfo(many=True)
    steps = Step(many=True, help_text="The settlement in legal order.")
    irregularities = IrregularityInfo(many=True)
    void_reason = serializers.CharField(allow_null=True)


class DeckChangeInfo(serializers.Serializer):
    changed_at = serializers.DateTimeField()
    due_at = serializers.DateTimeField(allow_null=True)
    every_shoe = serializers.BooleanField()
    due = serializers.BooleanField()


class TableState(serializers.Serializer):
    """Everything a dealer, the floor or surveillance needs to draw the table now."""

    table = TableInfo()
    sequence = serializers.IntegerField(help_text="The table's last event: a gap means reload.")
    rules = RulesInfo()
    limits = serializers.DictField(child=Limit(), help_text="By wager type.")
    seats = SeatInfo(many=True)
    markers = Marker(many=True, help_text="Open vigorish markers.")
    shoe = ShoeInfo(allow_null=True)
    round = RoundInfo(allow_null=True, help_text="The round in play, or the shoe's last one.")
    deck_change = DeckChangeInfo(allow_null=True)
    meters = serializers.DictField(
        child=serializers.CharField(), help_text="Royal 9 progressive meters by name (star...)."
    )


READ_ERRORS: dict[int, Any] = {
    401: OpenApiResponse(Error, "Not logged in: no session and no valid token."),
    403: OpenApiResponse(Error, "Refused (e.g. a session request without its CSRF token)."),
    404: OpenApiResponse(Error, "No such table."),
}
COMMAND_RESPONSES: dict[int, Any] = {
    200: OpenApiResponse(TableState, "Done: the whole table state after the change."),
    400: OpenApiResponse(Error, "Malformed input, or a required Idempotency-Key missing."),
    **READ_ERRORS,
    403: OpenApiResponse(Error, "Your role may not do this (the action's message)."),
    409: OpenApiResponse(
        Error, "Refused by the rules, or the key was used for another command. Nothing changed."
    ),
}


class CommandSchema(AutoSchema):
    """A table command: its input, the action's docstring, the key header, state or refusal."""

    def get_operation_id(self) -> str:
        return str(self.view.table_action.__name__)

    def get_description(self) -> str:
        doc = self.view.table_action.__doc__ or ""
        return " ".join(doc.split())

    def get_tags(self) -> list[str]:
        return ["commands"]

    def get_request_serializer(self) -> Any:
        serializer = self.view.get_serializer()
        return serializer if serializer.fields else None

    def get_response_serializers(self) -> Any:
        return COMMAND_RESPONSES

    def get_override_parameters(self) -> list[Any]:
        required = self.view.key_required
        return [
            OpenApiParameter(
                HEADER,
                str,
                OpenApiParameter.HEADER,
                required=required,
                description=(
                    "A new random value per command; send the same value to repeat it safely. "
                    + ("Required." if required else "Optional.")
                ),
            )
        ]
