"""The pit's watch: what at a table needs a supervisor, raised as an alert that stays until a
supervisor acknowledges it (who, when).

Celery beat runs :func:`watch` every ``PIT_ALERT_SECONDS`` (``pit.tasks.watch_tables``). Each
check below finds the conditions of the moment, each under a key naming what it is about (a
shoe, a marker, a meter's cycle...): an alert is raised once per key, recorded (the row, and an
``alert_raised`` event in the pit's chain), and told to the pit's consoles at once (a notice on
the pit's channel group, ``{"type": "alert"}`` on the pit socket). When the watch no longer finds
its condition it is marked cleared, but it stays on the console until acknowledged.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterator
from decimal import Decimal
from enum import StrEnum

from django.db import transaction
from django.utils import timezone

from casino.events import Payload, event_kind
from casino.models import Pit
from casino.record import record_pit_event
from casino.roles import Actor
from pit.models import Alert
from tablegame.actions.common import ActionError, action
from tablegame.broadcast import Notice, notices, pit_group
from tablegame.models import (
    DealerAssignment,
    DeckChange,
    MustHitProgressive,
    Shoe,
    Table,
    TableRules,
    VigorishMarker,
)
from tablegame.progressives.screens import dollars

Kind = Alert.Kind

#: A must-hit meter this close to its maximum (a share of reset to maximum) is "near" it.
NEAR_MAXIMUM = Decimal("0.9")
#: A rules change taking effect within this long is "about to take effect".
SOON = datetime.timedelta(minutes=30)


class AlertEvent(StrEnum):
    """Kinds of event of the pit's alerts, in the pit's own chain."""

    ALERT_RAISED = "alert_raised"
    ALERT_ACKNOWLEDGED = "alert_acknowledged"


@event_kind
@dataclasses.dataclass(frozen=True)
class AlertRaised(Payload):
    kind = AlertEvent.ALERT_RAISED
    title = "Alert raised"

    alert: int
    alert_kind: str
    table: str
    message: str

    def describe(self) -> str:
        return f"{self.table or 'Pit'}: {self.message}"


@event_kind
@dataclasses.dataclass(frozen=True)
class AlertAcknowledged(Payload):
    kind = AlertEvent.ALERT_ACKNOWLEDGED
    title = "Alert acknowledged"

    alert: int
    message: str

    def describe(self) -> str:
        return f"Acknowledged: {self.message}"


@dataclasses.dataclass(frozen=True)
class Finding:
    """A condition found by a check."""

    pit_id: int
    table: Table | None
    kind: str
    key: str
    message: str


# --- The checks --------------------------------------------------------------------------------


def decks_due(now: datetime.datetime) -> Iterator[Finding]:
    """Decks in use for 24 hours at an open table (000 §3(c))."""
    for schedule in DeckChange.objects.filter(
        due_at__lte=now, table__status=Table.Status.OPEN
    ).select_related("table__pit__casino"):
        table = schedule.table
        since = schedule.changed_at.astimezone(table.pit.casino.zone)  # the casino's time
        yield Finding(
            table.pit_id,
            table,
            Kind.DECKS_DUE,
            f"decks_due:{table.pk}:{schedule.changed_at.isoformat()}",
            f"{table}: the decks are due for change (in use since {since:%Y-%m-%d %H:%M}).",
        )


def markers_open_at_shoe_end(now: datetime.datetime) -> Iterator[Finding]:
    """Vigorish markers still open once the shoe's last hand is over (the cut card came out and
    its round was played): each is collected or becomes a form (000 §12(d), 002 (c)(3))."""
    markers = VigorishMarker.objects.filter(
        status=VigorishMarker.Status.OPEN, shoe__cut_card_round__isnull=False
    ).select_related("table", "shoe")
    over: dict[int, bool] = {}
    for marker in markers:
        shoe = marker.shoe
        if shoe.pk not in over:
            over[shoe.pk] = shoe.state == Shoe.State.FINISHED or (
                shoe.rounds.filter(
                    number__gte=shoe.cut_card_round, state__in=("settled", "void")
                ).exists()
            )
        if not over[shoe.pk]:
            continue
        yield Finding(
            marker.table.pit_id,
            marker.table,
            Kind.MARKERS_OPEN,
            f"markers_open:{marker.pk}",
            f"{marker.table} seat {marker.seat}: a {dollars(marker.amount)} marker is still open "
            f"at the end of shoe {shoe.number}: collect it or make a Complimentary Vigorish Form.",
        )


def verifications_waiting(now: datetime.datetime) -> Iterator[Finding]:
    """An inspection or a feathered shuffle waiting for a supervisor's verification."""
    waiting = Shoe.objects.filter(state=Shoe.State.INSPECTED).select_related("table")
    for shoe in waiting:
        yield Finding(
            shoe.table.pit_id,
            shoe.table,
            Kind.VERIFICATION_WAITING,
            f"verify_inspection:{shoe.pk}",
            f"{shoe.table}: the decks of shoe {shoe.number} wait for a supervisor to verify "
            "the inspection.",
        )
    shuffled = Shoe.objects.filter(
        state=Shoe.State.SHUFFLED, shuffle_verified_by=None
    ).select_related("table")
    for shoe in (s for s in shuffled if "feather" in s.shuffle):
        yield Finding(
            shoe.table.pit_id,
            shoe.table,
            Kind.VERIFICATION_WAITING,
            f"verify_shuffle:{shoe.pk}",
            f"{shoe.table}: the feathered shuffle of shoe {shoe.number} waits for a supervisor "
            "to verify it.",
        )


def procedure_changes_soon(now: datetime.datetime) -> Iterator[Finding]:
    """A Rules Submission filed to take effect within the next half hour."""
    for filed in TableRules.objects.filter(
        effective_at__gt=now, effective_at__lte=now + SOON
    ).select_related("table", "table__pit__casino"):
        table = filed.table
        local = filed.effective_at.astimezone(table.pit.casino.zone)
        yield Finding(
            table.pit_id,
            table,
            Kind.PROCEDURE_CHANGE,
            f"procedure_change:{filed.pk}",
            f"{table}: new rules ({filed.profile}) take effect at {local:%H:%M}.",
        )


def must_hit_near_maximum(now: datetime.datetime) -> Iterator[Finding]:
    """A must-hit meter past 90 % of the way from its reset to its maximum."""
    for meter in MustHitProgressive.objects.all():
        threshold = meter.reset + (meter.maximum - meter.reset) * NEAR_MAXIMUM
        if meter.amount >= threshold:
            yield Finding(
                meter.pit_id,
                None,
                Kind.MUST_HIT_NEAR_MAXIMUM,
                f"must_hit_near_maximum:{meter.pk}:{meter.hits}",
                f"{meter.name} stands at {dollars(meter.amount)}, near its "
                f"{dollars(meter.maximum)} maximum: it must hit soon.",
            )


def open_without_dealer(now: datetime.datetime) -> Iterator[Finding]:
    """An open table with no dealer assigned."""
    staffed = DealerAssignment.objects.current().values("table_id")
    for table in Table.objects.filter(status=Table.Status.OPEN).exclude(pk__in=staffed):
        opened = table.status_changed_at.isoformat() if table.status_changed_at else ""
        yield Finding(
            table.pit_id,
            table,
            Kind.NO_DEALER,
            f"no_dealer:{table.pk}:{opened}:{_last_relief(table)}",
            f"{table} is open with no dealer assigned.",
        )


def _last_relief(table: Table) -> str:
    last = (
        DealerAssignment.objects.filter(table=table, relieved_at__isnull=False)
        .order_by("-relieved_at")
        .values_list("relieved_at", flat=True)
        .first()
    )
    return last.isoformat() if last else ""


CHECKS = (
    decks_due,
    markers_open_at_shoe_end,
    verifications_waiting,
    procedure_changes_soon,
    must_hit_near_maximum,
    open_without_dealer,
)


# --- Raising, clearing, acknowledging ------------------------------------------------------------


def watch(now: datetime.datetime | None = None) -> list[Alert]:
    """Run every check; raise what is new, mark cleared what is gone. Returns the new alerts."""
    now = now or timezone.now()
    found = {f.key: f for check in CHECKS for f in check(now)}
    known = set(Alert.objects.filter(key__in=found).values_list("key", flat=True))
    raised = [_raise(f) for key, f in found.items() if key not in known]
    Alert.objects.filter(cleared_at__isnull=True, acknowledged_at__isnull=True).exclude(
        key__in=found
    ).update(cleared_at=now)
    Alert.objects.filter(cleared_at__isnull=False, key__in=found).update(cleared_at=None)
    return [a for a in raised if a is not None]


def _raise(finding: Finding) -> Alert | None:
    with transaction.atomic():
        pit = Pit.objects.select_for_update().get(pk=finding.pit_id)
        if Alert.objects.filter(key=finding.key).exists():  # raised meanwhile by another watch
            return None
        alert = Alert.objects.create(
            pit=pit,
            table=finding.table,
            kind=finding.kind,
            key=finding.key,
            message=finding.message,
        )
        record_pit_event(
            pit,
            actor=None,
            payload=AlertRaised(
                alert=alert.pk,
                alert_kind=finding.kind,
                table=str(finding.table or ""),
                message=finding.message,
            ),
        )
        transaction.on_commit(lambda: _tell(alert, "raised"))
    return alert


@action
def acknowledge_alert(alert: Alert | int, *, actor: Actor) -> Alert:
    """A supervisor has seen the alert and deals with it: who and when are kept."""
    pk = alert.pk if isinstance(alert, Alert) else alert
    found = Alert.objects.select_for_update().filter(pk=pk).select_related("pit").first()
    if found is None:
        raise ActionError("There is no such alert.")
    if found.acknowledged_at is not None:
        raise ActionError(f"{found.acknowledged_by} acknowledged this alert already.")
    found.acknowledged_at, found.acknowledged_by = timezone.now(), actor
    found.save(update_fields=["acknowledged_at", "acknowledged_by"])
    record_pit_event(
        found.pit, actor=actor, payload=AlertAcknowledged(alert=found.pk, message=found.message)
    )
    transaction.on_commit(lambda: _tell(found, "acknowledged"))
    return found


def _tell(alert: Alert, what: str) -> None:
    """The pit's consoles hear of it at once (after commit; a hint: they reload the panel)."""
    notices.put(
        Notice(
            groups=(pit_group(alert.pit_id),),
            message={
                "type": "pit.alert",
                "alert": alert.pk,
                "what": what,
                "kind": alert.kind,
                "message": alert.message,
            },
        )
    )


def open_alerts(pits: list[Pit] | None = None) -> list[Alert]:
    """Alerts not yet acknowledged, newest first."""
    alerts = Alert.objects.filter(acknowledged_at__isnull=True).select_related(
        "table", "pit__casino"
    )
    if pits is not None:
        alerts = alerts.filter(pit__in=pits)
    return list(alerts)


def recently_acknowledged(limit: int = 10, *, pits: list[Pit] | None = None) -> list[Alert]:
    """The last alerts acknowledged (of ``pits``, when given), with who and when."""
    alerts = Alert.objects.filter(acknowledged_at__isnull=False)
    if pits is not None:
        alerts = alerts.filter(pit__in=pits)
    return list(
        alerts.select_related("table", "acknowledged_by", "pit__casino").order_by(
            "-acknowledged_at"
        )[:limit]
    )
