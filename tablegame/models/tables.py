"""Tables, their seats, limits and Rules Submissions."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from baccarat.profiles import PROFILES, RulesSubmission, rules_submission
from baccarat.wagertypes import WagerType
from casino.models import Chain, Pit
from fastpath.related import prefetched
from tablegame.events import player_label

if TYPE_CHECKING:
    from tablegame.models.rounds import Round
    from tablegame.models.shoes import Shoe


def profile_choices() -> list[tuple[str, str]]:
    """Every bundled rules profile, by name. A callable, so a new profile needs no migration."""
    return [(name, profile.title) for name, profile in PROFILES.items()]


def wager_type_choices() -> list[tuple[str, str]]:
    """Every wager of the rules texts."""
    return [(t.value, t.label) for t in WagerType]


class Table(models.Model):
    """A baccarat table in a pit. ``profile`` is the game it was set up for; the Rules Submission
    in force at any moment is the latest ``TableRules`` that has taken effect."""

    class Status(models.TextChoices):
        CLOSED = "closed", "Closed"
        OPEN = "open", "Open"

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="tables")
    chain = models.OneToOneField(
        Chain,
        on_delete=models.PROTECT,
        related_name="table",
        editable=False,
        help_text="The table's chain of the record, made with the table.",
    )
    name = models.CharField(max_length=20, help_text='As on the table sign, e.g. "MB-1".')
    profile = models.CharField(max_length=50, choices=profile_choices)
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CLOSED)
    status_changed_at = models.DateTimeField(null=True, blank=True)
    curator_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Big table: the player holding the shoe (004 §7)."
    )
    previous_curator_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The last curator: the shoe is offered to their right."
    )
    player_dealer_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="California: the seat holding the player-dealer position."
    )
    previous_player_dealer_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The last player-dealer: the position moves clockwise on."
    )
    player_dealer_hands = models.PositiveSmallIntegerField(
        default=0, help_text="Hands the current player-dealer has banked (rotates every two)."
    )

    class Meta:
        ordering = ("name",)
        constraints = (
            models.UniqueConstraint(fields=("pit", "name"), name="table_unique_name_per_pit"),
        )

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """A new table gets its own chain of the record, in its casino and pit."""
        if self.chain_id is None:
            casino_id = Pit.objects.values_list("casino_id", flat=True).get(pk=self.pit_id)
            self.chain = Chain.objects.create(
                casino_id=casino_id, pit_id=self.pit_id, scope=Chain.Scope.TABLE, label=self.name
            )
        super().save(*args, **kwargs)

    def active_round(self) -> Round | None:
        """The round being played at the table, if any."""
        return self.rounds.active().select_related("rules", "shoe").order_by("-pk").first()

    def current_shoe(self) -> Shoe | None:
        """The table's latest shoe that is not finished."""
        return self.shoes.current().first()

    def occupied_seats(self) -> list[int]:
        """Numbers of the seats where someone sits."""
        taken = self.seats.exclude(player_name="", player_card="")
        return list(taken.values_list("number", flat=True))

    def rules_record(self, at: datetime.datetime | None = None) -> TableRules | None:
        """The Rules Submission record in force at ``at`` (now), if one was ever filed.

        Uses ``prefetch_related("rules_history")`` when the caller did that (floor pages).
        """
        moment = at or timezone.now()
        history = prefetched(self, "rules_history")
        if history is not None:
            in_force = [r for r in history if r.effective_at <= moment]
            return max(in_force, key=lambda r: (r.effective_at, r.pk), default=None)
        return (
            self.rules_history.filter(effective_at__lte=moment)
            .order_by("-effective_at", "-pk")
            .first()
        )

    @property
    def rules(self) -> RulesSubmission:
        """The Rules Submission this table is dealt under now."""
        return self.submission(self.rules_record())

    def submission(self, record: TableRules | None) -> RulesSubmission:
        """The rules ``record`` (the table's, in force) holds; its profile's when none was filed."""
        return record.submission if record else PROFILES[self.profile]

    def clean(self) -> None:
        rules = PROFILES.get(self.profile)
        if rules is None or self.seat_count is None:
            return  # the field validators report these
        if not rules.min_seats <= self.seat_count <= rules.max_seats:
            raise ValidationError(
                {
                    "seat_count": (
                        f"{rules.title} is played with {rules.min_seats} to {rules.max_seats} "
                        f"seats, not {self.seat_count}."
                    )
                }
            )


class TableRules(models.Model):
    """A Rules Submission filed for a table, from a moment on.

    A table's filings are one history, in the order they take effect (``effective_at``, then
    ``pk``). Each says what it changes: a ``whole`` filing states the whole submission (its preset
    and ``changes`` as its options) whatever was in force before it; any other sets ``changes``
    over the submission in force just before it. ``profile`` and ``options`` are the whole
    submission that results, what a round dealt under it reads; a filing made later for an
    earlier moment restates them on the filings after it that have not taken effect
    (``tablegame.actions.tables.file_rules``, ``rules_restated`` in the record), never their
    ``changes``.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rules_history")
    profile = models.CharField(max_length=50, choices=profile_choices)
    options = models.JSONField(
        default=dict, blank=True, help_text="The options in force from then on, over the preset."
    )
    changes = models.JSONField(
        default=dict,
        blank=True,
        help_text="What the filing set, as filed: options and their values (plain JSON).",
    )
    whole = models.BooleanField(
        default=True,
        help_text="The filing states the whole Rules Submission (its preset and its changes); "
        "otherwise it sets its changes over the options in force just before it.",
    )
    effective_at = models.DateTimeField(default=timezone.now)
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ("table", "-effective_at")

    def __str__(self) -> str:
        return f"{self.table}: {self.profile} from {self.effective_at:%Y-%m-%d %H:%M}"

    @property
    def submission(self) -> RulesSubmission:
        """The engine's Rules Submission for this record."""
        return rules_submission(self.profile, self.options)


class TableLimit(models.Model):
    """Minimum and maximum for one wager type at a table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="limits")
    wager_type = models.CharField(max_length=30, choices=wager_type_choices)
    minimum = models.DecimalField(max_digits=12, decimal_places=2)
    maximum = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("table", "wager_type"), name="limit_unique_per_type"),
            models.CheckConstraint(
                condition=models.Q(minimum__gt=0) & models.Q(maximum__gte=models.F("minimum")),
                name="limit_min_positive_max_at_least_min",
            ),
        )

    def __str__(self) -> str:
        return f"{self.table} {self.wager_type}: {self.minimum}-{self.maximum}"


DEFAULT_LIMITS: dict[WagerType, tuple[Decimal, Decimal]] = {
    WagerType.PLAYER: (Decimal(25), Decimal(5000)),
    WagerType.BANKER: (Decimal(25), Decimal(5000)),
    WagerType.TIE: (Decimal(5), Decimal(500)),
}
DEFAULT_SIDE_LIMITS = (Decimal(5), Decimal(100))


def default_limits(rules: RulesSubmission) -> dict[WagerType, tuple[Decimal, Decimal]]:
    """Limits a new table starts with, per wager it offers; Royal 9 is its fixed wager."""
    out: dict[WagerType, tuple[Decimal, Decimal]] = {}
    for wager in rules.wagers:
        if wager is WagerType.ROYAL9 and rules.royal9:
            out[wager] = (rules.royal9.wager, rules.royal9.wager)
        else:
            out[wager] = DEFAULT_LIMITS.get(wager, DEFAULT_SIDE_LIMITS)
    return out


#: The longest player's name (or description) and players' club card number a seat keeps.
NAME_MAX_LENGTH, CARD_MAX_LENGTH = 100, 20


class Seat(models.Model):
    """A numbered seat and who sits there, known by name, card number or both (blank when
    empty)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player_name = models.CharField(max_length=NAME_MAX_LENGTH, blank=True)
    player_card = models.CharField(
        max_length=CARD_MAX_LENGTH,
        blank=True,
        help_text="The players' club card number: letters and digits (blank: none given).",
    )
    occupied_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("table", "number")
        constraints = (
            models.UniqueConstraint(fields=("table", "number"), name="seat_unique_number"),
        )

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def is_occupied(self) -> bool:
        """Someone sits here."""
        return bool(self.player_name or self.player_card)

    @property
    def who(self) -> str:
        """Who sits here, as a sentence names them: "Ann Lee (card 12345)", "card 12345"."""
        return who_sits(self.player_name, self.player_card)

    def as_data(self) -> dict[str, Any]:
        """The seat as plain data for the table state."""
        return seat_data(self.number, self.player_name, self.player_card)


def who_sits(name: str, card: str) -> str:
    """Who sits at a seat, as a sentence names them ("nobody" at an empty one)."""
    if not (name or card):
        return "nobody"
    return player_label(name, card or None)


def seat_data(number: int, name: str, card: str) -> dict[str, Any]:
    """A seat as plain data for the table state."""
    return {"number": number, "player": name or None, "card": card or None}
