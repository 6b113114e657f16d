"""The OpenAPI description: the table state document, errors, and one schema for every command.

The serializers here only describe ``tablegame.play.parts.table_state`` for ``/api/schema/``; they
never produce it (tests/api/test_schema.py checks that they name the same keys).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from casino.page_commands import HEADER, KEY_MAX_LENGTH, REPLAYED_HEADER
from tablegame.api.errors import API_MAX_BODY_BYTES, API_MAX_DEPTH
from tablegame.api.serializers import MOST_SEATS, CardField, Input, MoneyField

# What the API enforces, as JSON Schema patterns (ECMA 262, as OpenAPI's are).

#: What Python's ``str.strip()`` takes off the ends of text (REST framework trims with it).
SPACE = r"\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Any text: no NUL character (``DecimalJSONParser`` refuses one anywhere in a body).
TEXT = r"^[^\u0000]*$"
#: Text that may not be blank: more than what is trimmed.
NOT_BLANK = rf"^[^\u0000]*[^\u0000{SPACE}][^\u0000]*$"
#: A card code (``baccarat.cards.Card.parse``): the rank, then the suit, in either case.
CARD = rf"^[{SPACE}]*(?:10|[2-9AaTtJjQqKk])[CcDdHhSs][{SPACE}]*$"
#: An amount (``serializers.MoneyField``): more than zero, at most ten digits of dollars, to the
#: cent (zeros after the cents are no fraction of one).
MONEY = (
    rf"^[{SPACE}]*\+?(?:0*[1-9][0-9]{{0,9}}(?:\.[0-9]{{0,2}}0*)?|0*\.(?:[1-9][0-9]?|0[1-9])0*)"
    rf"[{SPACE}]*$"
)
#: An id of a row: PostgreSQL's ``bigint``, counted from 1.
MOST_ID = 2**63 - 1
PATH_PARAMETERS = {
    "table_id": ({"type": "integer", "minimum": 1, "maximum": MOST_ID}, "The table's id."),
    "marker_id": (
        {"type": "integer", "minimum": 1, "maximum": MOST_ID},
        "The vigorish marker's id (the table state's markers).",
    ),
    "seat": (
        {"type": "integer", "minimum": 1, "maximum": MOST_SEATS},
        "The seat's number: from 1 to the table's seat count.",
    ),
}


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
    request_id = serializers.CharField(
        required=False,
        help_text="A 503 (as a 500): the request's id, as in its X-Request-ID header.",
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
    player = serializers.CharField(allow_null=True, help_text="Name or description (null: none).")
    card = serializers.CharField(
        allow_null=True, help_text="Players' club card number (null: none given)."
    )


class RecentPlayer(Document):
    player = serializers.CharField(allow_null=True, help_text="Name or description (null: none).")
    card = serializers.CharField(allow_null=True, help_text="Card number (null: none given).")


class RecentPlayers(Document):
    players = RecentPlayer(
        many=True,
        help_text="Seated here during the previous shoe and this one, not seated now; latest "
        "first.",
    )


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
    id = serializers.IntegerField(help_text="The round's key (its review: /rounds/<id>/).")
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


class RoundPatch(RoundInfo):
    """The round in a command's answer: whole, or only the keys the command changed (its
    ``patched``)."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for field in fields.values():
            field.required = False
        return fields


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
    round = RoundPatch(allow_null=True, required=False, help_text="Whole, or patched (see above).")
    deck_change = DeckChangeInfo(allow_null=True, required=False)
    meters = serializers.DictField(child=serializers.CharField(), required=False)
    repeat = serializers.ListField(child=serializers.DictField(), required=False)


#: What every command's body must be (``errors.DecimalJSONParser``), beyond its schema.
BODY = (
    f"JSON of at most {API_MAX_BODY_BYTES} bytes (413 past it), nesting at most {API_MAX_DEPTH} "
    "deep, with no NUL character and no half of a character (a lone surrogate) in any key or "
    "string, read or not (400). Properties the schema does not name are ignored."
)


def _refusal(description: str) -> OpenApiResponse:
    return OpenApiResponse(Error, description)


UNAVAILABLE = _refusal(
    "The database is not answering, or the table is busy (another command holds it): try again "
    "after Retry-After seconds; nothing changed, and the same Idempotency-Key may be sent again."
)
LIST_ERRORS: dict[int, OpenApiResponse] = {
    400: _refusal("The request could not be read (a Host header this server does not serve)."),
    401: _refusal("Not logged in: no session and no valid token."),
    403: _refusal("Your role may not read tables (why)."),
    406: _refusal("The request's Accept header takes neither JSON nor HTML."),
    503: _refusal(
        "The database is not answering, or is busy: try again after Retry-After seconds."
    ),
}
READ_ERRORS: dict[int, OpenApiResponse] = {
    **LIST_ERRORS,
    403: _refusal(
        "Your role may not read tables, or a dealer reads a table they are not assigned to (why)."
    ),
    404: _refusal("No such table."),
}
COMMAND_RESPONSES: dict[int, OpenApiResponse] = {
    200: OpenApiResponse(
        CommandAnswer,
        "Done: the events and the parts of the table state they changed. If the first event "
        "does not follow the last one you have, read the whole state again.",
    ),
    400: _refusal(
        "Malformed input (``fields`` says which), a required Idempotency-Key missing or one over "
        f"{KEY_MAX_LENGTH} characters, or a body that is not JSON, holds a NUL character or half "
        f"of a character anywhere, or nests deeper than {API_MAX_DEPTH}. Nothing changed."
    ),
    401: LIST_ERRORS[401],
    403: _refusal(
        "Your role may not do this (the access policy's reason), a session request lacks its CSRF "
        "token, or the table is not yours to deal. Nothing changed."
    ),
    404: _refusal("No such table."),
    409: _refusal(
        "Refused by the rules (a seat, marker or card the table does not have included), or the "
        "key was used for another command. Nothing changed."
    ),
    413: _refusal(f"The body is over {API_MAX_BODY_BYTES} bytes. Nothing changed."),
    415: _refusal("The body is not sent as application/json. Nothing changed."),
    503: UNAVAILABLE,
}
APPROVAL_RESPONSES: dict[int, OpenApiResponse] = {
    **COMMAND_RESPONSES,
    403: _refusal(
        f"{COMMAND_RESPONSES[403].description} Or the floorperson's approval was refused (the "
        "username or password is wrong, or that person may not approve this)."
    ),
    429: _refusal(
        "Too many refused approvals from this address: approvals are stopped for Retry-After "
        "seconds. Nothing changed."
    ),
}
RESPONSE_HEADERS = [
    OpenApiParameter(
        "Retry-After",
        {"type": "integer", "minimum": 0},
        OpenApiParameter.HEADER,
        response=[429, 503],
        description="Seconds to wait before trying again.",
    ),
]
REPLAYED = OpenApiParameter(
    REPLAYED_HEADER,
    {"type": "string", "enum": ["true"]},
    OpenApiParameter.HEADER,
    response=[200, 400, 403, 409],
    description="The answer stored with the Idempotency-Key when the command was first sent: "
    "the command was not done again.",
)


def path_parameters(path: str) -> list[OpenApiParameter]:
    """The numbers in ``path`` (``{table_id}``...), with the range of each."""
    return [
        OpenApiParameter(name, schema, OpenApiParameter.PATH, description=description)
        for name, (schema, description) in PATH_PARAMETERS.items()
        if f"{{{name}}}" in path
    ]


#: What may follow a command's success, by operationId (links: schemathesis' stateful runs,
#: and a reader, follow them): the dealer's order of work at the table. Every command is
#: followed by a read of the table, and a read by every command.
NEXT: dict[str, tuple[str, ...]] = {
    "open_table": ("receive_decks", "close_table"),
    "close_table": ("open_table",),
    "receive_decks": ("inspect_decks",),
    "inspect_decks": ("verify_inspection", "spread_decks"),
    "verify_inspection": ("spread_decks",),
    "spread_decks": ("wash_decks", "respread_idle_shoe"),
    "respread_idle_shoe": ("wash_decks",),
    "wash_decks": ("shuffle_decks",),
    "shuffle_decks": ("verify_shuffle", "cut_cards"),
    "verify_shuffle": ("cut_cards",),
    "cut_cards": ("burn_cards", "order_recut"),
    "order_recut": ("cut_cards",),
    "burn_cards": ("open_round", "take_shoe", "pass_shoe"),
    "take_shoe": ("open_round", "pass_shoe"),
    "pass_shoe": ("open_round",),
    "take_player_dealer": ("open_round",),
    "open_round": ("place_wager", "take_player_dealer", "no_more_bets", "void_round"),
    "place_wager": ("place_wager", "withdraw_wager", "set_player_dealer_bank", "no_more_bets"),
    "withdraw_wager": ("place_wager", "no_more_bets"),
    "set_player_dealer_bank": ("place_wager", "no_more_bets"),
    "no_more_bets": ("deal_card", "void_round"),
    "deal_card": (
        "deal_card",
        "correct_card",
        "relinquish_cards",
        "settle_house_money_wagers",
        "report_irregularity",
        "settle_round",
        "void_round",
    ),
    "correct_card": ("deal_card", "settle_round"),
    "relinquish_cards": ("deal_card",),
    "settle_house_money_wagers": ("deal_card", "settle_round"),
    "report_irregularity": ("deal_card", "void_round"),
    "settle_round": ("open_round", "cut_card_out"),
    "void_round": ("open_round",),
    "cut_card_out": ("open_round", "end_shoe"),
    "end_shoe": ("receive_decks",),
}
#: A number a linked operation takes from the table's state, not from the path.
FROM_STATE = {
    "seat_player": ("seat", "$response.body#/seats/0/number"),
    "leave_seat": ("seat", "$response.body#/seats/0/number"),
    "collect_marker": ("marker_id", "$response.body#/markers/0/id"),
    "request_vigorish_form": ("marker_id", "$response.body#/markers/0/id"),
}
SAME_TABLE = "$request.path.table_id"


def links(operation_id: str) -> dict[str, Any]:
    """The links of an operation's success: the operations that may follow on the same table."""
    if operation_id == "list_tables":
        return {"read_table": _link("read_table", {"table_id": "$response.body#/0/id"})}
    if operation_id == "read_table":
        from tablegame.api.urls import COMMANDS  # the routes import the views, which import this
        from tablegame.api.views import action_name

        found = {}
        for _, view in COMMANDS:
            target = action_name(view)
            parameters = {"table_id": SAME_TABLE}
            if target in FROM_STATE:
                name, expression = FROM_STATE[target]
                parameters[name] = expression
            found[target] = _link(target, parameters)
        return found
    return {
        target: _link(target, {"table_id": SAME_TABLE})
        for target in (*NEXT.get(operation_id, ()), "read_table")
    }


def _link(target: str, parameters: dict[str, str]) -> dict[str, Any]:
    return {"operationId": target, "parameters": parameters}


class ReadSchema(AutoSchema):
    """A read of the tables: its path's numbers with their ranges, and its links; the view
    names its ``operation_id`` (what links name)."""

    def get_operation_id(self) -> str:
        named = getattr(self.view, "operation_id", None)
        if not isinstance(named, str):
            raise TypeError(f"{type(self.view).__name__} names no operation_id.")
        return named

    def get_override_parameters(
        self,
    ) -> list[OpenApiParameter | serializers.Serializer[Any] | type[serializers.Serializer[Any]]]:
        return [*super().get_override_parameters(), *path_parameters(self.path), *RESPONSE_HEADERS]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            operation["responses"]["200"]["links"] = links(operation["operationId"])
        return operation


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

    @property
    def approved(self) -> bool:
        """Whether the command takes a floorperson's approval (``approvals.ApprovedCommand``:
        their username and password in the body)."""
        fields = self.command.get_serializer().fields
        return "floorperson" in fields and "password" in fields

    # drf-spectacular takes the responses by status too, though its hint says one serializer.
    def get_response_serializers(self) -> dict[int, OpenApiResponse]:  # type: ignore[override]
        return APPROVAL_RESPONSES if self.approved else COMMAND_RESPONSES

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None:
            operation["responses"]["200"]["links"] = links(operation["operationId"])
            if "requestBody" in operation:
                operation["requestBody"]["description"] = BODY
        return operation

    def get_override_parameters(
        self,
    ) -> list[OpenApiParameter | serializers.Serializer[Any] | type[serializers.Serializer[Any]]]:
        required = self.command.key_required
        # Stripped, then checked: a required key must be more than spaces.
        key = {"type": "string", "maxLength": KEY_MAX_LENGTH, "pattern": TEXT}
        if required:
            key |= {"minLength": 1, "pattern": NOT_BLANK}
        return [
            OpenApiParameter(
                HEADER,
                key,
                OpenApiParameter.HEADER,
                required=required,
                description=(
                    "A new random value per command; send the same value to repeat it safely. "
                    + ("Required." if required else "Optional.")
                ),
            ),
            *path_parameters(self.path),
            *RESPONSE_HEADERS,
            REPLAYED,
        ]

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        """A command's input, with what the API enforces of each field that drf-spectacular
        does not say: no NUL in text, text not blank, a card's form, an amount's."""
        schema: dict[str, Any] = super()._map_basic_serializer(  # type: ignore[no-untyped-call]
            serializer, direction
        )
        serializer = force_instance(serializer)  # type: ignore[no-untyped-call]
        if direction != "request" or not isinstance(serializer, Input):
            return schema  # an answer's part: described as written
        fields = serializer.fields
        for name, described in schema["properties"].items():
            enforced(fields[name], described)
        if {"floorperson", "password"} <= set(fields) - set(schema.get("required", [])):
            # Together or neither (``voids.VoidInput.validate``).
            together = {"required": ["floorperson", "password"]}
            either = [{"required": ["floorperson"]}, {"required": ["password"]}]
            schema["anyOf"] = [together, {"not": {"anyOf": either}}]
        return schema


def enforced(field: serializers.Field[Any, Any, Any, Any], described: dict[str, Any]) -> None:
    """Add to a field's ``described`` schema what its validation refuses beyond it."""
    if isinstance(field, MoneyField):
        described.pop("maxLength", None)
        described |= {"pattern": MONEY, "maxLength": 1000}  # REST framework's longest number
    elif isinstance(field, CardField):
        described.pop("maxLength", None)  # counted after trimming
        described["pattern"] = CARD
    elif isinstance(field, serializers.ChoiceField):
        pass  # an enum
    elif isinstance(field, serializers.CharField):
        refuses_blank = not field.allow_blank and field.trim_whitespace
        described["pattern"] = NOT_BLANK if refuses_blank else TEXT
        if not field.allow_blank:
            described["minLength"] = 1
    elif isinstance(field, serializers.ListField) and isinstance(described.get("items"), dict):
        enforced(field.child, described["items"])
    elif isinstance(field, serializers.DictField) and field.field_name == "rides":
        # Keyed by seat number (``HouseMoneyInput.validate_rides``): a property per seat.
        ride = described.pop("additionalProperties")
        described["properties"] = {str(n): ride for n in range(1, MOST_SEATS + 1)}
        described["additionalProperties"] = False
