"""What the follower keeps: how far it has read each table's record, and the edges it priced."""

from __future__ import annotations

from fractions import Fraction

from django.db import models
from django.utils import timezone

from protection.chairs import priced_as
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
    royals = models.JSONField(
        default=list,
        blank=True,
        help_text="Nines and pictures unseen by suit (baccarat.royal9_odds.ROYAL_CARDS); "
        "empty: not known (counted from the next shoe).",
    )
    meters = models.JSONField(
        default=dict,
        blank=True,
        help_text='The Royal 9 meters as the record last showed them: {"star": "50012.35"}.',
    )
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
    royals = models.JSONField(
        default=list,
        blank=True,
        help_text="Royal 9: the nines and pictures unseen by suit it was priced on.",
    )
    meters = models.JSONField(
        default=dict, blank=True, help_text="Royal 9: the meters it was priced with."
    )
    seen = models.PositiveSmallIntegerField(help_text="Cards of the shoe seen before the round.")
    edges = models.JSONField(help_text='Each wager\'s exact house edge, "numerator/denominator".')
    favourable = models.JSONField(
        default=list, blank=True, help_text="The wagers whose edge is below zero."
    )
    priced_at = models.DateTimeField(default=timezone.now)
    sequence = models.PositiveIntegerField(help_text="The table's event this pricing followed.")

    class Meta:
        ordering = ("table_id", "shoe", "round")
        constraints = (
            models.UniqueConstraint(fields=("table", "shoe", "round"), name="edge_one_per_round"),
        )

    def __str__(self) -> str:
        return f"table {self.table_id} shoe {self.shoe} round {self.round}"

    def edge(self, wager: str, seat: int | None = None) -> Fraction | None:
        """The exact edge of ``wager`` (Royal 9's at the chair ``seat``), None when the table
        does not offer it or it could not be priced."""
        text = self.edges.get(priced_as(wager, seat))
        return None if text is None else Fraction(text)


class PlayerSession(models.Model):
    """A player's time at one seat of a table, from being seated to leaving, as the record says
    (``player_seated``, ``player_left``; the pit changing a name or card is the same sitting)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=100, blank=True, help_text="The name, if given.")
    card = models.CharField(max_length=20, blank=True, help_text="The players' club card number.")
    seated_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)
    gaming_day = models.DateField(help_text="The casino's gaming day the player sat down in.")
    sequence = models.PositiveIntegerField(help_text="The event that seated the player.")
    findings = models.JSONField(
        default=dict,
        blank=True,
        help_text="Per side wager, what the advantage test found (protection.advantage).",
    )

    class Meta:
        ordering = ("table_id", "seated_at")
        constraints = (
            models.UniqueConstraint(fields=("table", "sequence"), name="session_one_per_seating"),
        )
        indexes = (models.Index(fields=("gaming_day", "table"), name="session_day_idx"),)

    def __str__(self) -> str:
        return f"{self.who} at table {self.table_id} seat {self.seat}"

    @property
    def who(self) -> str:
        """The player as the pit knows them: "Ann Lee (card 12345)", "card 12345"."""
        if self.player and self.card:
            return f"{self.player} (card {self.card})"
        return self.player or f"card {self.card}"


class Wagered(models.Model):
    """One settled wager with the exact edge it faced: the ground of a player's rating."""

    session = models.ForeignKey(
        PlayerSession, null=True, blank=True, on_delete=models.PROTECT, related_name="wagers"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    shoe = models.PositiveIntegerField()
    round = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    wager = models.CharField(max_length=30)
    amount = models.DecimalField(max_digits=12, decimal_places=2)
    result = models.DecimalField(
        max_digits=12, decimal_places=2, help_text="What the player won (below zero: lost)."
    )
    edge = models.CharField(
        max_length=200,
        blank=True,
        help_text='The exact house edge, "n/d" (Royal 9: its chair\'s); blank when the round '
        "was not priced.",
    )
    ride = models.CharField(
        max_length=30, blank=True, help_text="House Money: the wager its payout rode on."
    )
    ridden = models.DecimalField(
        max_digits=12, decimal_places=2, default=0, help_text="House Money: the payout let ride."
    )
    ride_lost = models.BooleanField(
        default=False, help_text="House Money: its ride lost with the wager it rode on."
    )
    theoretical = models.DecimalField(
        max_digits=18,
        decimal_places=8,
        null=True,
        blank=True,
        help_text="The amount times the edge, to 8 places; none when the edge is unknown.",
    )
    settled_at = models.DateTimeField()
    sequence = models.PositiveIntegerField(help_text="The settlement's event.")

    class Meta:
        ordering = ("table_id", "shoe", "round", "seat")
        constraints = (
            models.UniqueConstraint(
                fields=("table", "sequence", "seat", "wager"), name="wagered_once"
            ),
        )
