"""Input of the table commands: the shape and types of each request body, never the rules.

Each serializer's validated data are the keyword arguments of its action (``source=`` renames
where the API's word differs), so a view passes them on unchanged. Whether a wager, card or cut is
allowed is the action's decision; here only malformed input is refused (400). Money is read as
``Decimal`` (``MoneyField``: finite, more than zero, at most ``MOST_MONEY``), never as a float.
"""

from __future__ import annotations

import re
import threading
from decimal import Decimal
from typing import Any

from django_stubs_ext import StrOrPromise
from rest_framework import serializers
from rest_framework.utils.serializer_helpers import BindingDict

from baccarat.cards import Card, CardError
from baccarat.irregularities import IrregularityKind
from baccarat.profiles import PROFILES
from baccarat.shoe import ShuffleStep
from baccarat.wagertypes import WagerType
from tablegame.models import Table
from tablegame.models.tables import CARD_MAX_LENGTH, NAME_MAX_LENGTH

WAGER_TYPES = [(t.value, t.label) for t in WagerType]
RIDES = [(t.value, t.label) for t in (WagerType.PLAYER, WagerType.BANKER)]
IRREGULARITY_KINDS = [(k.value, k.label) for k in IrregularityKind]


#: The highest seat number of any table: a table's seats are numbered from 1 to its count,
#: which its rules bound (``RulesProfile.max_seats``); a seat past its own table's is refused by
#: the action (409), past every table's here (400).
MOST_SEATS = max(profile.max_seats for profile in PROFILES.values())
#: A seat number as text: a key of House Money's ``rides``.
SEAT_KEY = re.compile(r"[1-9][0-9]?")

RIDES_KEYS = 'Key the rides by seat number, e.g. "1".'

#: The most an amount may be: ten digits of dollars and the cents, what the record stores
#: (``MONEY`` of the models) and more than any table's limit.
MOST_MONEY = Decimal("9999999999.99")
CENT = Decimal("0.01")


MONEY_ERRORS: dict[str, StrOrPromise] = {
    "invalid": 'Write an amount of money such as "100.00".',
    "max_string_length": 'Write an amount of money such as "100.00".',
    "max_digits": f"An amount of money is at most {MOST_MONEY}.",
    "min_value": "An amount of money is more than zero.",
}


class MoneyField(serializers.DecimalField):
    """An amount in dollars and cents, as a JSON string ("100.00") or number: finite, more than
    zero, at most ``MOST_MONEY``, to the cent; each refusal says which (``MONEY_ERRORS``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_digits=12, decimal_places=2, min_value=CENT, error_messages=MONEY_ERRORS, **kwargs
        )

    def validate_precision(self, value: Decimal) -> Decimal:
        """Refuse by the problem a person sees: below a cent, over the most, or a cent's fraction
        (REST framework counts digits, calling 1e-30 too many digits in total)."""
        if value <= 0:
            self.fail("min_value")
        if value > MOST_MONEY:
            self.fail("max_digits")
        if value != value.quantize(CENT):
            self.fail("max_decimal_places", max_decimal_places=2)
        return value


def money(help_text: str | None = None) -> MoneyField:
    """An amount of money (``MoneyField``)."""
    return MoneyField(help_text=help_text)


class CardField(serializers.CharField):
    """A card code as the dealer reads it: ``KH``, ``10D`` or ``TD``, ``as``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=3, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            Card.parse(text)
        except CardError as error:
            raise serializers.ValidationError(str(error)) from None
        return text


#: The most of a mistyped card code kept for surveillance (``mistyped_cards``).
MISTYPED_KEPT = 20


def mistyped_cards(body: serializers.Serializer[Any]) -> tuple[dict[str, str], str] | None:
    """The card codes ``body`` refused as no card (its ``CardField``s given text, not blank,
    that the field refused), as typed (at most ``MISTYPED_KEPT`` characters), with the first's
    words as the dealer is told them; None when no card was mistyped (missing, blank or not
    text is no typing). Call after ``is_valid()`` found errors."""
    data = body.initial_data if isinstance(body.initial_data, dict) else {}
    typed: dict[str, str] = {}
    words = ""
    for name, field in body.fields.items():
        text, refused = data.get(name), body.errors.get(name)
        if not isinstance(field, CardField) or not refused or not isinstance(text, str):
            continue
        if not text.strip():
            continue
        typed[name] = text[:MISTYPED_KEPT]
        words = words or f"{name}: {refused[0]}"
    return (typed, words) if typed else None


def plain_json(value: object) -> object:
    """``value`` with every Decimal as a string: the event record takes plain JSON only."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return {key: plain_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_json(item) for item in value]
    return value


# A request body: only validated into an action's keyword arguments, never read from an object
# (hence no instance type). Its fields are made once per class and thread, and bound to each new
# input (DRF deep-copies the declared fields for every instance: on every tap, more than the
# validation itself costs). A thread validates one body at a time, so its fields are never shared
# by two inputs at once; nothing a field keeps changes as it validates. Comments, not a
# docstring: each input would inherit it as its description in the schema.
class Input(serializers.Serializer[None]):
    @property
    def fields(self) -> BindingDict:
        bound: BindingDict | None = self.__dict__.get("_bound_fields")
        if bound is None:
            made = getattr(_fields_made, "by_class", None)
            if made is None:
                made = _fields_made.by_class = {}
            bound = self.__dict__["_bound_fields"] = BindingDict(self)
            found = made.get(type(self))
            if found is None:
                for name, field in self.get_fields().items():
                    bound[name] = field  # binds it: its name, label and source, once
                made[type(self)] = dict(bound.fields)
            else:
                for name, field in found.items():
                    field.parent = self  # the rest of its binding stays as it was
                    bound.fields[name] = field
        return bound


#: The fields made for each input class, by thread (``Input.fields``).
_fields_made = threading.local()


class NoInput(Input):
    """The command takes no body."""


class SitInput(Input):
    player = serializers.CharField(
        max_length=NAME_MAX_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        help_text="The player's name or a description, e.g. 'Red scarf' (blank: the card "
        "number alone names them).",
    )
    card = serializers.CharField(
        max_length=2 * CARD_MAX_LENGTH,
        required=False,
        allow_blank=True,
        default="",
        help_text=f"The players' club card number: at most {CARD_MAX_LENGTH} letters and digits "
        "(spaces and dashes typed in it are dropped). A player has a name, a card or both.",
    )


class RulesInput(Input):
    profile = serializers.ChoiceField(
        choices=[(name, p.title) for name, p in PROFILES.items()],
        help_text="The rules profile (preset) the Rules Submission starts from.",
    )
    options = serializers.DictField(
        required=False,
        default=dict,
        help_text=(
            'The options the filing changes, e.g. {"vigorish_collection": "deferred"}, set over '
            "the rules in force at its time (under another profile: over that preset); write "
            'decimal options as strings ("0.04").'
        ),
    )
    effective_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="Default: now."
    )

    def validate_options(self, value: dict[str, object]) -> dict[str, object]:
        return {name: plain_json(option) for name, option in value.items()}


class LimitInput(Input):
    wager = serializers.ChoiceField(choices=WAGER_TYPES)
    minimum = money()
    maximum = money()
    reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", help_text="Why, recorded."
    )


class ReceiveDecksInput(Input):
    decks = serializers.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        help_text="Required for new decks; a reshuffle keeps those in use.",
    )
    automatic_shuffler = serializers.BooleanField(
        required=False,
        help_text="New decks: false unless given; a reshuffle keeps the shuffler in use.",
    )
    preinspected = serializers.BooleanField(
        required=False, default=False, help_text="Inspected and shuffled off the table."
    )
    back_colour = serializers.CharField(max_length=20, required=False, allow_blank=True, default="")
    new_decks = serializers.BooleanField(
        required=False, default=True, help_text="False: reshuffle the last shoe's decks."
    )


class ShuffleInput(Input):
    steps = serializers.ListField(
        child=serializers.ChoiceField(choices=[s.value for s in ShuffleStep]),
        required=False,
        default=list,
        help_text="A manual shuffle, step by step.",
    )
    machine = serializers.BooleanField(
        required=False, default=False, help_text="Shuffled in the automatic shuffler."
    )


def seat_number(**kwargs: Any) -> serializers.IntegerField:
    """A seat number: from 1 to ``MOST_SEATS``."""
    return serializers.IntegerField(min_value=1, max_value=MOST_SEATS, **kwargs)


def seats(help_text: str) -> serializers.ListField:
    return serializers.ListField(
        child=seat_number(),
        required=False,
        default=list,
        help_text=help_text,
    )


class CutInput(Input):
    seat = seat_number(allow_null=True, help_text="The seat that cuts; null when the dealer cuts.")
    position = serializers.IntegerField(min_value=0, max_value=32767)
    cover_from_back = serializers.IntegerField(min_value=0, max_value=32767)
    declined = seats("Seats offered the cut before, which declined.")


class ReasonInput(Input):
    reason = serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False)


class BurnInput(Input):
    first_card = CardField(help_text="The card exposed; as many as its face value are burned.")


class CuratorInput(Input):
    seat = seat_number(allow_null=True, help_text="The seat taking the shoe; null: the dealer.")
    declined = seats("Seats offered the shoe before, which declined.")


class PassShoeInput(Input):
    ordered = serializers.BooleanField(
        required=False, default=False, help_text="On the order of the dealer or a floorperson."
    )
    reason = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the pass was ordered, recorded.",
    )


class RespreadInput(Input):
    face_up = serializers.BooleanField(
        required=False, default=False, help_text="A player asked for the cards face up."
    )
    reason = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why a supervisor orders it, recorded (required of a supervisor).",
    )


class RelinquishInput(Input):
    hand = serializers.ChoiceField(choices=("player", "banker"))


class PlayerDealerInput(Input):
    seat = seat_number()
    declined = seats("Seats offered the position before, which declined.")
    reason = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="A supervisor moves the position out of turn: why, recorded.",
    )


class WagerInput(Input):
    seat = seat_number()
    type = serializers.ChoiceField(choices=WAGER_TYPES, source="wager")
    amount = money(help_text='Dollars and cents, e.g. "100.00".')
    ride = serializers.ChoiceField(
        choices=RIDES,
        required=False,
        allow_null=True,
        default=None,
        help_text="House Money: the wager a winning payout rides on.",
    )


class WithdrawInput(Input):
    seat = seat_number()
    type = serializers.ChoiceField(choices=WAGER_TYPES, source="wager")


class BankInput(Input):
    bank = money(help_text="The player-dealer's bank for this hand.")


class CardInput(Input):
    card = CardField(help_text="The card just dealt; the rules decide which hand it goes to.")


class HouseMoneyInput(Input):
    rides = serializers.DictField(
        child=serializers.ChoiceField(choices=RIDES, allow_null=True),
        required=False,
        default=dict,
        help_text='By seat number: the wager a winning payout rides on, e.g. {"1": "banker"}.',
    )

    def validate_rides(self, value: dict[str, str | None]) -> dict[int, str | None]:
        if not all(SEAT_KEY.fullmatch(seat) and int(seat) <= MOST_SEATS for seat in value):
            raise serializers.ValidationError(RIDES_KEYS)
        return {int(seat): ride for seat, ride in value.items()}


class IrregularityInput(Input):
    kind = serializers.ChoiceField(choices=IRREGULARITY_KINDS)
    card = CardField()
    disclosed = serializers.BooleanField(
        required=False, default=False, help_text="The card was seen by the players."
    )


class TableSummary(serializers.Serializer[Table]):
    """A line of the floor: the table and the game it is dealt under now."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    pit = serializers.CharField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    profile = serializers.CharField(source="rules.name")
    title = serializers.CharField(source="rules.title")
