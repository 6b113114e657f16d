"""The house: casinos and their pits, and the record of everything that happens in them.

The record is one table of :class:`Event` rows for the whole casino. Every event is in exactly one
:class:`Chain`: the casino's own (a person locked out, a gaming day closed), a pit's (a form issued
by the pit clerk, a progressive shared by the pit's tables) or a table's (every action at the
table). Each event's ``hash`` covers its contents and the previous event's hash in its chain, so
an edited or removed event breaks the chain at that point (``casino.record.verify_chain``). The
database refuses UPDATE, DELETE and TRUNCATE of events and chains (migration 0002), and the
application's database role may only insert and read them (``manage.py grant_app_role``).
"""

from __future__ import annotations

import datetime
import zoneinfo

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

from casino.models_refusals import AccessRefusal as AccessRefusal


def validate_time_zone(value: str) -> None:
    """Refuse a name that is not an IANA time zone, such as ``America/New_York``."""
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            f"'{value}' is not a time zone: use an IANA name such as America/New_York."
        ) from exc


class Casino(models.Model):
    """A licensed casino; its gaming day starts at a local time in its own time zone."""

    name = models.CharField(max_length=100, unique=True)
    gaming_day_start = models.TimeField(
        default=datetime.time(6, 0), help_text="Local time at which the gaming day begins."
    )
    time_zone = models.CharField(
        max_length=64, default="America/New_York", validators=[validate_time_zone]
    )

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The casino's time zone."""
        return zoneinfo.ZoneInfo(self.time_zone)

    def gaming_day(self, at: datetime.datetime) -> datetime.date:
        """The gaming day ``at`` (an aware instant) belongs to: the local date on which the gaming
        day that contains it began (with a 06:00 start, 05:59 on the 2nd is the gaming day of the
        1st)."""
        local = at.astimezone(self.zone)
        day = local.date()
        return day - datetime.timedelta(days=1) if local.time() < self.gaming_day_start else day

    def gaming_day_bounds(self, day: datetime.date) -> tuple[datetime.datetime, datetime.datetime]:
        """The first instant of gaming day ``day`` and the first of the next, in UTC.

        In UTC, so that ``end - start`` is the real length (23 or 25 hours when the clocks change):
        Python subtracts two times of the same zone by their wall clocks.
        """
        start = datetime.datetime.combine(day, self.gaming_day_start, tzinfo=self.zone)
        end = datetime.datetime.combine(
            day + datetime.timedelta(days=1), self.gaming_day_start, tzinfo=self.zone
        )
        return start.astimezone(datetime.UTC), end.astimezone(datetime.UTC)


class Pit(models.Model):
    """A group of tables supervised together on the casino floor."""

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="pits")
    name = models.CharField(max_length=50)

    class Meta:
        ordering = ("casino__name", "name")
        constraints = (
            models.UniqueConstraint(fields=("casino", "name"), name="pit_unique_name_per_casino"),
        )

    def __str__(self) -> str:
        return self.name


class Assignment(models.Model):
    """A person given a place by the floor, from the assignment to the relief: a dealer at a
    table (``tablegame.DealerAssignment``), a supervisor in a pit (``PitSupervision``)."""

    assigned_at = models.DateTimeField(default=timezone.now)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    relieved_at = models.DateTimeField(null=True, blank=True)
    relieved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        abstract = True
        ordering = ("-assigned_at", "-pk")


class PitSupervisionQuerySet(models.QuerySet["PitSupervision"]):
    def current(self) -> PitSupervisionQuerySet:
        """Supervisions not yet ended."""
        return self.filter(relieved_at__isnull=True)


class PitSupervision(Assignment):
    """A person of the pit console (floorperson, pit boss, pit clerk) at work in a pit, from
    the assignment to the relief. The console shows the pits its person supervises; a person
    may supervise several pits, and a pit has several people."""

    pit = models.ForeignKey(Pit, on_delete=models.PROTECT, related_name="supervisions")
    supervisor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="pit_supervisions"
    )

    objects = PitSupervisionQuerySet.as_manager()

    class Meta(Assignment.Meta):
        constraints = (
            models.UniqueConstraint(
                fields=("pit", "supervisor"),
                condition=models.Q(relieved_at__isnull=True),
                name="supervises_a_pit_once",
            ),
        )

    def __str__(self) -> str:
        return f"{self.supervisor} in {self.pit}"


#: The ``prev_hash`` of a chain's first event: there is nothing before it.
GENESIS_HASH = "0" * 64
KIND_MAX_LENGTH = 50


class ChainQuerySet(models.QuerySet["Chain"]):
    def of_casino(self, casino: Casino) -> Chain:
        """The casino's own chain (made on first use)."""
        chain, _ = self.get_or_create(
            casino=casino, scope="casino", defaults={"label": casino.name}
        )
        return chain

    def of_pit(self, pit: Pit) -> Chain:
        """The pit's own chain, for what happens in the pit but at no one table (made on first
        use)."""
        chain, _ = self.get_or_create(
            casino_id=pit.casino_id, pit=pit, scope="pit", defaults={"label": pit.name}
        )
        return chain


class Chain(models.Model):
    """One hash chain of the record: the casino's own, one pit's, or one table's.

    A table's chain is made with the table (``tablegame.Table.chain``); a casino's and a pit's on
    their first event (:meth:`ChainQuerySet.of_casino`, :meth:`ChainQuerySet.of_pit`). Appends to
    one chain are ordered by the row lock of what owns it (the table, pit or casino row). Chains
    are append-only like events: nothing moves a chain to another casino or pit.
    """

    class Scope(models.TextChoices):
        CASINO = "casino", "Casino"
        PIT = "pit", "Pit"
        TABLE = "table", "Table"

    casino = models.ForeignKey(Casino, on_delete=models.PROTECT, related_name="chains")
    pit = models.ForeignKey(
        Pit, null=True, blank=True, on_delete=models.PROTECT, related_name="chains"
    )
    scope = models.CharField(max_length=10, choices=Scope.choices)
    label = models.CharField(max_length=100, help_text='What the chain records, e.g. "MB-1".')

    objects = ChainQuerySet.as_manager()

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("casino",),
                condition=models.Q(scope="casino"),
                name="chain_one_per_casino",
            ),
            models.UniqueConstraint(
                fields=("pit",), condition=models.Q(scope="pit"), name="chain_one_per_pit"
            ),
            models.CheckConstraint(
                condition=models.Q(scope="casino", pit__isnull=True)
                | models.Q(scope__in=("pit", "table"), pit__isnull=False),
                name="chain_pit_matches_scope",
            ),
        )

    def __str__(self) -> str:
        return f"{self.get_scope_display()} {self.label}"


class Event(models.Model):
    """One thing done in the casino, numbered in its chain; never changed once written."""

    chain = models.ForeignKey(
        Chain,
        on_delete=models.PROTECT,
        related_name="events",
        help_text="The chain it belongs to: its casino, and its pit and table if any.",
    )
    sequence = models.PositiveIntegerField(
        help_text="Position in its chain: 1 for the chain's first event, then gap-free."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who acted; empty when the system did (a timer, a task).",
    )
    action = models.SlugField(
        max_length=KIND_MAX_LENGTH,
        db_index=False,
        help_text='The event\'s kind, such as "card_dealt" (one of the kinds defined in code).',
    )
    data = models.JSONField(
        help_text="The kind's payload, as plain JSON (money as strings, no floats)."
    )
    created_at = models.DateTimeField(
        help_text="When it was recorded (UTC), set by the recorder; part of the hash."
    )
    prev_hash = models.CharField(
        max_length=64,
        help_text="The hash of the chain's previous event (64 zeros for the first one).",
    )
    hash = models.CharField(
        max_length=64,
        help_text="SHA-256 (hex) of this event's contents and prev_hash.",
    )

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("chain", "sequence"), name="event_unique_sequence_per_chain"
            ),
            models.CheckConstraint(
                condition=models.Q(sequence__gte=1), name="event_sequence_from_1"
            ),
        )
        indexes = (models.Index(fields=("chain", "created_at"), name="event_chain_created_idx"),)

    def __str__(self) -> str:
        return f"{self.chain_id} #{self.sequence} {self.action}"


class SignInFailure(models.Model):
    """A failed sign-in, kept for the lock-out window (``casino.signin``); not part of the
    record, which holds the lock-out itself."""

    username = models.CharField(max_length=150)
    at = models.DateTimeField()

    class Meta:
        indexes = (models.Index(fields=("username", "at"), name="signin_failure_user_at_idx"),)

    def __str__(self) -> str:
        return f"{self.username} at {self.at:%Y-%m-%d %H:%M:%S}"


class SignInLock(models.Model):
    """A username refused sign-in until ``until``, after too many failures (``casino.signin``)."""

    username = models.CharField(max_length=150, unique=True)
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.username} until {self.until:%Y-%m-%d %H:%M:%S}"


class StaffSession(AbstractBaseSession):
    """A signed-in session (``casino.sessions.SessionStore``): Django's session row with the
    user it signs in, so that one statement reads the session, its user and their role."""

    #: No constraint in the database: a sign-in racing its user's removal must not fail the
    #: session's INSERT (Django's ``create`` would try new keys for ever); a session whose user
    #: is gone reads as nobody's, and deleting a user deletes their sessions (Django's cascade).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.CASCADE,
        db_constraint=False,
        related_name="+",
    )

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        from casino.sessions import SessionStore

        return SessionStore


class PageCommand(models.Model):
    """A page script's command by its ``Idempotency-Key`` (``casino.page_commands``): a repeat of
    the key by the same person is answered with the first answer, and the command is not done
    again. Not part of the record, which holds what the command did."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    command = models.CharField(max_length=60, help_text="What the policy calls it.")
    digest = models.CharField(
        max_length=64, help_text="SHA-256 of the URL and the body: the key with others is refused."
    )
    status = models.PositiveSmallIntegerField()
    answer = models.TextField(help_text="The answer as sent, JSON text.")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = (
            models.UniqueConstraint(
                fields=("user", "key"), name="page_command_unique_key_per_user"
            ),
        )

    def __str__(self) -> str:
        return f"{self.command} {self.key}"
