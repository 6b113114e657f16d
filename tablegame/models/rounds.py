"""Rounds of play: their cards in dealing order, wagers, settlement steps and irregularities."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Self, TypedDict, TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from tablegame.models.shoes import Shoe
from tablegame.models.tables import Table, TableRules, wager_type_choices


class Money(TypedDict):
    """The size of every money column: up to 9,999,999,999.99."""

    max_digits: int
    decimal_places: int


MONEY: Money = {"max_digits": 12, "decimal_places": 2}


#: A round in one of these states is the one in play at its table.
ACTIVE_ROUND_STATES = ("betting", "dealing", "house_money", "complete")
#: A round in one of these states has ended: its wagers settled, or all returned.
ENDED_ROUND_STATES = ("settled", "void")


#: A row of the query: the round, with what ``annotate()`` adds.
_RoundRow = TypeVar("_RoundRow", bound="Round", covariant=True)


class RoundQuerySet(models.QuerySet[_RoundRow, _RoundRow]):
    def active(self) -> Self:
        """Rounds in play: taking wagers, dealing, House Money, or waiting to be settled."""
        return self.filter(state__in=ACTIVE_ROUND_STATES)


class Round(models.Model):
    """One round of play (a coup), from "place your bets" to the last settlement step."""

    class State(models.TextChoices):
        BETTING = "betting", "Taking wagers"
        DEALING = "dealing", "No more bets: dealing"
        HOUSE_MONEY = "house_money", "Settle House Money before third cards"
        COMPLETE = "complete", "Cards complete: settle"
        SETTLED = "settled", "Settled"
        VOID = "void", "Void: wagers returned"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField(help_text="Rounds of this shoe, counted from 1.")
    state = models.CharField(max_length=12, choices=State.choices, default=State.BETTING)
    simulated = models.BooleanField(default=False, help_text="Dealt without wagers (000 §13(d)).")
    rules = models.ForeignKey(TableRules, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField(default=timezone.now)
    no_more_bets_at = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    player_total = models.PositiveSmallIntegerField(null=True, blank=True)
    banker_total = models.PositiveSmallIntegerField(null=True, blank=True)
    winner = models.CharField(max_length=6, blank=True)
    tags = models.JSONField(default=list, blank=True)
    announcement = models.CharField(max_length=60, blank=True)
    player_turner = models.PositiveSmallIntegerField(null=True, blank=True)
    banker_turner = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_declined = models.JSONField(
        default=dict, blank=True, help_text="Seats that relinquished turning each hand's cards."
    )
    curator_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    player_dealer_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    player_dealer_bank = models.DecimalField(null=True, blank=True, **MONEY)
    void_reason = models.CharField(max_length=200, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ("table", "-opened_at")
        constraints = (
            models.UniqueConstraint(fields=("shoe", "number"), name="round_unique_number"),
        )
        indexes = (
            # The round in play at a table, read on every tap (``tablegame.play.reading``): a table
            # deals thousands of rounds a week and has at most a couple in play.
            models.Index(
                fields=("table", "-id"),
                condition=models.Q(state__in=ACTIVE_ROUND_STATES),
                name="round_in_play",
            ),
            # A table's rounds settled within a gaming day (accounting's reports).
            models.Index(fields=("table", "settled_at"), name="round_settled_per_table"),
            # The round in play at a table at an instant, or the one with a number then (the
            # rounds the day's decisions are reviewed in: ``accounting.reports``).
            models.Index(fields=("table", "opened_at"), name="round_opened_per_table"),
            # The day's void rounds (accounting's exceptions): a few among millions.
            models.Index(
                fields=("settled_at",), condition=models.Q(state="void"), name="round_void"
            ),
        )

    def __str__(self) -> str:
        return f"{self.shoe} round {self.number}"

    def coup(self, cards: Iterable[Card] | None = None) -> Coup:
        """The cards dealt to the two hands so far, in dealing order (``cards``: the round's
        cards, if already read)."""
        if cards is None:
            cards = self.cards.filter(hand__in=(Card.Hand.PLAYER, Card.Hand.BANKER))
        dealt = list(cards)
        player = [c.code for c in dealt if c.hand == Card.Hand.PLAYER]
        banker = [c.code for c in dealt if c.hand == Card.Hand.BANKER]
        return Coup(parse_cards(player), parse_cards(banker))


class Card(models.Model):
    """A card that left the shoe during a round, in the order it was drawn."""

    class Hand(models.TextChoices):
        PLAYER = "player", "Player's hand"
        BANKER = "banker", "Banker's hand"
        DISCARD = "discard", "Discard rack"
        NEXT_HAND = "next_hand", "Held for the next hand"

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="cards")
    position = models.PositiveSmallIntegerField(help_text="Order drawn within the round, from 1.")
    code = models.CharField(max_length=3)
    hand = models.CharField(max_length=10, choices=Hand.choices)
    dealt_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    dealt_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("round", "position")
        constraints = (
            models.UniqueConstraint(fields=("round", "position"), name="card_unique_position"),
        )

    def __str__(self) -> str:
        return f"{self.code} ({self.hand})"


class Wager(models.Model):
    """A wager at a seat, and, once settled, what it won, owed and was returned."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="wagers")
    seat = models.PositiveSmallIntegerField()
    type = models.CharField(max_length=30, choices=wager_type_choices)
    amount = models.DecimalField(**MONEY)
    ride = models.CharField(max_length=30, blank=True, help_text="House Money: ride on this wager.")
    placed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    placed_at = models.DateTimeField(default=timezone.now)
    result = models.CharField(max_length=5, blank=True)
    payout = models.DecimalField(default=Decimal("0.00"), **MONEY)
    vigorish = models.DecimalField(default=Decimal("0.00"), **MONEY)
    returned = models.DecimalField(default=Decimal("0.00"), **MONEY)
    ridden = models.DecimalField(default=Decimal("0.00"), **MONEY)
    fee = models.DecimalField(default=Decimal("0.00"), **MONEY)
    award = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ("round", "-seat", "type")
        constraints = (
            models.UniqueConstraint(fields=("round", "seat", "type"), name="wager_unique_kind"),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="wager_amount_positive"),
        )

    def __str__(self) -> str:
        return f"seat {self.seat} {self.type} {self.amount}"


class SettlementStep(models.Model):
    """One step of a round's settlement, in legal order."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="steps")
    index = models.PositiveSmallIntegerField()
    phase = models.CharField(max_length=12)
    action = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField()
    wager_type = models.CharField(max_length=30, blank=True)
    amount = models.DecimalField(**MONEY)

    class Meta:
        ordering = ("round", "index")
        constraints = (
            models.UniqueConstraint(fields=("round", "index"), name="step_unique_index"),
        )

    def __str__(self) -> str:
        return f"{self.index}. {self.action} seat {self.seat} {self.amount}"


class Irregularity(models.Model):
    """An irregularity of the rules texts and what the dealer did about it."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="irregularities")
    kind = models.CharField(max_length=40)
    card = models.CharField(max_length=3, blank=True)
    disclosed = models.BooleanField(default=False)
    disposition = models.CharField(max_length=30)
    extra_burn = models.PositiveSmallIntegerField(default=0)
    instruction = models.CharField(max_length=200)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    reported_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.round}: {self.kind}"
