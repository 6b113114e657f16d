"""What the follower keeps: how far it has read each table's record, and the edges it priced."""

from __future__ import annotations

from fractions import Fraction

from django.db import models
from django.utils import timezone

from tablegame.models import Table, TableRules


class Follow(models.Model):
    """How far the follower has read a table's chain, and the count of the shoe in play then."""

    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, primary_key=True, related_name="+"
    )
    sequence = models.PositiveIntegerField(default=0, help_text="The last event read.")
    shoe = models.PositiveIntegerField(null=True, blank=True, help_text="The shoe being counted.")
    decks = models.PositiveSmallIntegerField(null=True, blank=True)
    counts = models.JSONField(default=list, blank=True, help_text="Cards unseen, Ace to King.")
    held = models.CharField(max_length=3, blank=True, help_text="A card held for the next hand.")
    seen = models.PositiveSmallIntegerField(default=0, help_text="Cards of the shoe seen.")
    priced = models.JSONField(default=list, blank=True, help_text="The last round priced, counts.")
    lost = models.CharField(
        max_length=200, blank=True, help_text="Why the shoe is not priced (the count went wrong)."
    )
    alerted = models.JSONField(
        default=dict,
        blank=True,
        help_text='What the wall was told: {"shoe": 3, "since": {"dragon7": 41}, "lost": false}.',
    )
    read_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"table {self.table_id} read to {self.sequence}"


class Edge(models.Model):
    """The exact house edge of every wager a table offers, for one round of a shoe, from the
    cards seen leave the shoe before it: the expectation of a unit wager, negated (below zero:
    the wager favours the player)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    shoe = models.PositiveIntegerField(help_text="The shoe's number at the table.")
    round = models.PositiveIntegerField(help_text="The round priced, by its number in the shoe.")
    rules = models.ForeignKey(
        TableRules,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The Rules Submission priced (none filed: the table's profile).",
    )
    counts = models.JSONField(help_text="The cards unseen, by rank, Ace to King.")
    seen = models.PositiveSmallIntegerField(help_text="Cards of the shoe seen before the round.")
    edges = models.JSONField(help_text='Each wager\'s exact house edge, "numerator/denominator".')
    favourable = models.JSONField(
        default=list, blank=True, help_text="The wagers whose edge is below zero."
    )
    priced_at = models.DateTimeField(default=timezone.now)
    sequence = models.PositiveIntegerField(help_text="The table's event this pricing followed.")

    class Meta:
        ordering = ("table", "shoe", "round")
        constraints = (
            models.UniqueConstraint(fields=("table", "shoe", "round"), name="edge_one_per_round"),
        )

    def __str__(self) -> str:
        return f"table {self.table_id} shoe {self.shoe} round {self.round}"

    def edge(self, wager: str) -> Fraction | None:
        """The exact edge of ``wager``, None when the table does not offer it (or it has no
        fixed edge: Royal 9's top awards are meters)."""
        text = self.edges.get(wager)
        return None if text is None else Fraction(text)
