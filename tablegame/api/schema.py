"""The OpenAPI description: the table state document, errors, and one schema for every command.

The serializers here only describe ``tablegame.selectors.table_state`` for ``/api/schema/``; they
never produce it (tests/api/test_schema.py checks that they name the same keys).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from tablegame.api.commands import HEADER, KEY_MAX_LENGTH
from tablegame.api.errors import API_MAX_BODY_BYTES
from tablegame.api.serializers import Input


# A part of a JSON answer, described for the schema, never used to write one. (No docstring:
# every part would inherit it as its description.)
class Document(serializers.Serializer[Mapping[str, object]]):
    pass


class Error(Document):
    error = serializers.CharField(help_text="What was refused, in words for the dealer.")
    # Declared fields leave the class (SerializerMetaclass); the stubs see them hide attributes.
    fields = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="Malformed input only: the messages by field."
    )


class TableInfo(Document):
    id = serializers.IntegerField()
    name = serializers.CharField()
    pit = serializers.CharField()
    status = serializers.CharField()
    seat_count = serializers.IntegerField()
    curator_seat = serializers.IntegerField(allow_null=True)
    player_dealer_seat = serializers.IntegerField(allow_null=True)
    curator_offer = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Big table: the seats to offer the shoe to, in order (null: no curator here).",
    )
    player_dealer = serializers.DictField(
        allow_null=True,
        help_text="California: the hands banked, the rotation, the seats to offer the position "
        "to in order (first: nobody has held it yet; again: the last holder, offered again), "
        "the collection fees (null: no player-dealer here).",
    )


class RulesInfo(Document):
    profile = serializers.CharField()
    title = serializers.CharField()
    source = serializers.CharField()  # type: ignore[assignment]  # as Error.fields
    wagers = serializers.ListField(
        child=serializers.CharField(), help_text="The wagers offered, in the order of the layout."
    )
    commission = serializers.CharField()
    commission_rate = serializers.CharField()
    vigorish_collection = serializers.CharField()
    settlement = serializers.CharField()
    tie_odds = serializers.IntegerField()
    shuffle = serializers.CharField(help_text="The table's shuffle procedure.")
    royal9 = serializers.DictField(
        allow_null=True,
        help_text="The fixed Royal 9 wager and each chair's Personal King-9 (null: none here).",
    )
    changes_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When rules filed for later next take effect (null: none filed).",
    )


class Limit(Document):
    minimum = serializers.CharField()
    maximum = serializers.CharField()


class SeatInfo(Document):
    number = serializers.IntegerField()
    player = serializers.CharField(allow_null=True)


class Marker(Document):
    id = serializers.IntegerField()
    seat = serializers.IntegerField()
    amount = serializers.CharField()
    player = serializers.CharField()


class ShoeInfo(Document):
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


class DealtCard(Document):
    position = serializers.IntegerField()
    card = serializers.CharField()
    hand = serializers.CharField()


class WagerInfo(Document):
    seat = serializers.IntegerField()
    type = serializers.CharField()
    amount = serializers.CharField()
    ride = serializers.CharField(allow_null=True)
    result = serializers.CharField(allow_null=True)
    payout = serializers.CharField()
    vigorish = serializers.CharField()
    returned = serializers.CharField()


class Step(Document):
    index = serializers.IntegerField()
    phase = serializers.CharField()
    action = serializers.CharField()
    seat = serializers.IntegerField()
    type = serializers.CharField(allow_null=True)
    amount = serializers.CharField()


class PreviewStep(Document):
    action = serializers.CharField()
    seat = serializers.IntegerField()
    type = serializers.CharField(allow_null=True)
    amount = serializers.CharField()


class HouseMoneyWager(Document):
    seat = serializers.IntegerField()
    amount = serializers.CharField()
    result = serializers.CharField(help_text="win or lose, on the pairs of the first four cards.")
    payout = serializers.CharField()
    may_ride = serializers.CharField(help_text="The part of the payout that may ride (0.00: none).")
    ride_on = serializers.ListField(
        child=serializers.CharField(), help_text="The seat's wagers the payout may ride on."
    )


class IrregularityInfo(Document):
    kind = serializers.CharField()
    card = serializers.CharField()
    disposition = serializers.CharField(help_text="Where the card went (the engine's Disposition).")
    instruction = serializers.CharField()


class RoundInfo(Document):
    id = serializers.IntegerField(
        help_text="The round's key (its review: /surveillance/rounds/<id>/)."
    )
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
    bank = serializers.DictField(
        allow_null=True,
        help_text="California: the player-dealer's bank, what the wagers commit of it at worst, "
        "what is free, what is beyond it, the collection fees.",
    )
    preview = PreviewStep(
        many=True,
        allow_null=True,
        help_text="A complete coup: the settlement Settle will record, in legal order.",
    )
    house_money = HouseMoneyWager(
        many=True,
        allow_null=True,
        help_text="The House Money step (the first four cards out): each wager won or lost.",
    )


class DeckChangeInfo(Document):
    changed_at = serializers.DateTimeField()
    due_at = serializers.DateTimeField(allow_null=True)
    every_shoe = serializers.BooleanField()
    due = serializers.BooleanField()
    decks = serializers.IntegerField(
        allow_null=True, help_text="The decks in use, which a reshuffle keeps (null: not known)."
    )
    automatic_shuffler = serializers.BooleanField()


class TableState(Document):
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
    repeat = serializers.ListField(
        child=serializers.DictField(),
        help_text="The last settled round's wagers (seat, type, amount), for 'repeat'.",
    )


class EventInfo(Document):
    """One event of the record, as screens are told it."""

    sequence = serializers.IntegerField(help_text="Its number in the table's chain.")
    action = serializers.CharField(help_text='Its kind, e.g. "card_dealt".')
    title = serializers.CharField()
    text = serializers.CharField(help_text="The event in one sentence, as the review tells it.")
    data = serializers.DictField(  # type: ignore[assignment]  # as Error.fields
        help_text="The kind's payload (tablegame.events)."
    )


class CommandAnswer(Document):
    """What a command changed: its events, and the parts of the table state they touched."""

    sequence = serializers.IntegerField(help_text="Its last event's number.")
    events = EventInfo(many=True)
    changed = serializers.ListField(
        child=serializers.CharField(),
        help_text="Parts of the table state sent whole below: put them in place of yours.",
    )
    patched = serializers.ListField(
        child=serializers.CharField(),
        help_text='Parts sent in part ("round"): update the keys sent of the round you have.',
    )
    table = TableInfo(required=False)
    rules = RulesInfo(required=False)
    limits = serializers.DictField(child=Limit(), required=False)
    seats = SeatInfo(many=True, required=False)
    markers = Marker(many=True, required=False)
    shoe = ShoeInfo(allow_null=True, required=False)
    round = RoundInfo(allow_null=True, required=False, help_text="Whole, or patched (see above).")
    deck_change = DeckChangeInfo(allow_null=True, required=False)
    meters = serializers.DictField(child=serializers.CharField(), required=False)
    repeat = serializers.ListField(child=serializers.DictField(), required=False)


READ_ERRORS: dict[int, OpenApiResponse] = {
    401: OpenApiResponse(Error, "Not logged in: no session and no valid token."),
    403: OpenApiResponse(
        Error, "Your role may not read tables (why), or a session request lacks its CSRF token."
    ),
    404: OpenApiResponse(Error, "No such table."),
    503: OpenApiResponse(
        Error,
        "The database is not answering, or the table is busy (another command holds it): try "
        "again after Retry-After seconds; nothing changed, and the same Idempotency-Key may be "
        "sent again.",
    ),
}
COMMAND_RESPONSES: dict[int, OpenApiResponse] = {
    200: OpenApiResponse(
        CommandAnswer,
        "Done: the events and the parts of the table state they changed. If the first event "
        "does not follow the last one you have, read the whole state again.",
    ),
    400: OpenApiResponse(Error, "Malformed input, or a required Idempotency-Key missing."),
    **READ_ERRORS,
    403: OpenApiResponse(Error, "Your role may not do this (the access policy's reason)."),
    409: OpenApiResponse(
        Error, "Refused by the rules, or the key was used for another command. Nothing changed."
    ),
    413: OpenApiResponse(Error, f"The body is over {API_MAX_BODY_BYTES} bytes. Nothing changed."),
}


@runtime_checkable
class Command(Protocol):
    """What the schema reads of a command view (``views.TableCommand``, which uses this module)."""

    table_action: ClassVar[Callable[..., object]]
    key_required: ClassVar[bool]

    def get_serializer(self, *args: Any, **kwargs: Any) -> Input: ...


class CommandSchema(AutoSchema):
    """A table command: its input, the action's docstring, the key header, state or refusal."""

    @property
    def command(self) -> Command:
        """The command view described."""
        if not isinstance(self.view, Command):
            raise TypeError(f"{type(self.view).__name__} is not a table command.")
        return self.view

    def get_operation_id(self) -> str:
        return self.command.table_action.__name__

    # drf-spectacular's AutoSchema takes no path and method here (and ignores the same error).
    def get_description(self) -> str:  # type: ignore[override]
        doc = self.command.table_action.__doc__ or ""
        return " ".join(doc.split())

    def get_tags(self) -> list[str]:
        return ["commands"]

    def get_request_serializer(self) -> Input | None:
        serializer = self.command.get_serializer()
        return serializer if serializer.fields else None

    # drf-spectacular takes the responses by status too, though its hint says one serializer.
    def get_response_serializers(self) -> dict[int, OpenApiResponse]:  # type: ignore[override]
        return COMMAND_RESPONSES

    def get_override_parameters(
        self,
    ) -> list[OpenApiParameter | serializers.Serializer[Any] | type[serializers.Serializer[Any]]]:
        required = self.command.key_required
        return [
            OpenApiParameter(
                HEADER,
                {"type": "string", "minLength": 1 if required else 0, "maxLength": KEY_MAX_LENGTH},
                OpenApiParameter.HEADER,
                required=required,
                description=(
                    "A new random value per command; send the same value to repeat it safely. "
                    + ("Required." if required else "Optional.")
                ),
            )
        ]
