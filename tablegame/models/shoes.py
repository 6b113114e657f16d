"""Shoes of cards, from receipt and inspection to the last hand, and deck-change schedules."""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Self, TypeVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from baccarat.cards import Card, full_deck
from baccarat.composition import RANKS, Composition
from tablegame.errors import ActionError, RefusalKind
from tablegame.models.tables import Table


class CardNotInShoe(ActionError):
    """A card the shoe cannot hold: every one of it has been seen, or the shoe is empty."""

    kind = RefusalKind.CARD_NOT_IN_SHOE


def fresh_counts(decks: int) -> dict[str, int]:
    """How many of each card ``decks`` decks hold, by card code."""
    return {str(card): decks for card in full_deck()}


#: A row of the query: the shoe, with what ``annotate()`` adds.
_ShoeRow = TypeVar("_ShoeRow", bound="Shoe", covariant=True)


class ShoeQuerySet(models.QuerySet[_ShoeRow, _ShoeRow]):
    def current(self) -> Self:
        """Shoes not finished, the latest first: a table's first is its current shoe."""
        return self.exclude(state="finished").order_by("-number")


class Shoe(models.Model):
    """One dealing shoe: its decks, how they were readied, and how many of each card remain."""

    class State(models.TextChoices):
        RECEIVED = "received", "Decks received"
        INSPECTED = "inspected", "Inspected by the dealer"
        VERIFIED = "verified", "Inspection verified"
        SPREAD = "spread", "Spread for the first player"
        WASHED = "washed", "Washed and stacked"
        SHUFFLED = "shuffled", "Shuffled"
        CUT = "cut", "Cut"
        IN_PLAY = "in_play", "In play"
        FINISHED = "finished", "Finished"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shoes")
    number = models.PositiveIntegerField(help_text="Shoes at this table, counted from 1.")
    state = models.CharField(max_length=12, choices=State.choices, default=State.RECEIVED)
    decks = models.PositiveSmallIntegerField()
    automatic_shuffler = models.BooleanField(default=False)
    batch = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Automatic shuffler: batch 0 or 1, alternating."
    )
    back_colour = models.CharField(max_length=20, blank=True)
    preinspected = models.BooleanField(default=False)
    inspected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    shuffle = models.JSONField(default=list, blank=True, help_text="Manual steps, or ['machine'].")
    shuffle_verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cut_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    cut_declined = models.JSONField(default=list, blank=True, help_text="Seats that declined.")
    cut_position = models.PositiveSmallIntegerField(null=True, blank=True)
    cover_from_back = models.PositiveSmallIntegerField(null=True, blank=True)
    recuts = models.PositiveSmallIntegerField(default=0)
    first_card = models.CharField(max_length=3, blank=True)
    burned = models.PositiveSmallIntegerField(default=0)
    remaining = models.JSONField(default=dict, help_text="Cards left, by card code.")
    held_card = models.CharField(
        max_length=3,
        blank=True,
        help_text="Drawn in error, undisclosed: the next hand's first card.",
    )
    cut_card_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="The round in which the cut card came out."
    )
    received_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ShoeQuerySet.as_manager()

    class Meta:
        ordering = ("table", "-number")
        constraints = (
            models.UniqueConstraint(fields=("table", "number"), name="shoe_unique_number"),
        )

    def __str__(self) -> str:
        return f"{self.table} shoe {self.number}"

    @property
    def cards_left(self) -> int:
        """Cards still in the shoe (the cover cards not counted)."""
        return sum(self.remaining.values())

    @property
    def physical_cards_left(self) -> int:
        """Cards still physically in the shoe: unseen cards less those burned face down."""
        return self.cards_left - self.burned

    def composition(self) -> Composition:
        """What is left, as 13 counts by rank for the game math."""
        by_rank: Counter[int] = Counter()
        for code, count in self.remaining.items():
            by_rank[Card.parse(code).rank] += count
        return Composition(tuple(by_rank[r] for r in range(RANKS)))


class DeckChange(models.Model):
    """When the decks at a table were last replaced, and when they must be next."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="deck_change")
    every_shoe = models.BooleanField(help_text="New decks after every shoe (004 §3(b)).")
    changed_at = models.DateTimeField()
    due_at = models.DateTimeField(null=True, blank=True, help_text="Every 24 hours (000 §3(c)).")
    decks = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The decks in use: as many as were received last (both batches of an automatic "
        "shuffler); a reshuffle keeps them.",
    )
    automatic_shuffler = models.BooleanField(
        default=False, help_text="Received for the automatic shuffler."
    )

    def __str__(self) -> str:
        return f"{self.table}: decks changed {self.changed_at:%Y-%m-%d %H:%M}"

    def is_due(self, now: datetime.datetime | None = None) -> bool:
        """Whether the decks must be replaced now."""
        moment = now or timezone.now()
        return self.due_at is not None and moment >= self.due_at
