"""Every write of accounting: one transaction each, that checks, writes, and records its event.

Refusals are ``ActionError`` with a sentence for the person at the screen; nothing is changed.
What belongs to a gaming day (inventories, fills, credits, drop counts) is written holding that
day's row lock (:func:`lock_open_day`), so that it cannot slip into a day being closed: the close
takes the same lock, and a closed day refuses every change until a second, senior person
reopens it. A closer is also the opener of the days after it that count none, so it is written
holding their locks too, and refused when one of them is closed (:func:`lock_count_days`).

A count once recorded is never changed: a wrong one is corrected by an amendment, a new row that
points at it, made by accounting and approved by a second person (:func:`amend_inventory`,
:func:`amend_drop`). The accounting settings are changed only by :func:`set_accounting_settings`,
which records the old and new values.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from accounting import chips as counts
from accounting import events, inputs
from accounting.models import (
    CLOSE_AFTER_HOURS,
    MOST_VARIANCE_THRESHOLD,
    AccountingSettings,
    DayReopening,
    DropCount,
    GamingDay,
    SerialCounter,
    Slip,
    TableInventory,
)
from casino import access, roles
from casino.models import Casino
from casino.record import record_casino_event, record_pit_event
from casino.tasks import checkpoint_record
from tablegame.errors import ActionError
from tablegame.models import Table
from tablegame.verification import check_day

logger = logging.getLogger(__name__)

MOST_FORMS = 500
#: The most gaming days one scheduled close closes per casino; the rest wait for the next runs.
MOST_DAYS_PER_RUN = 31
#: The largest serial number of a form (the forms' series columns are integers).
MOST_FORM_SERIAL = 10**9 - 1
MOST_OTHER_ITEMS = 50
#: The largest value of one other item; fifty of them still fit the total's column.
MOST_OTHER_AMOUNT = Decimal("9999999999.99")


#: Disagreements with the record a refused close names (``verify_record`` lists them all).
CLOSE_NAMES = 5


def casino_of(table: Table) -> Casino:
    return table.pit.casino


def lock_day(casino: Casino, day: datetime.date) -> GamingDay:
    """The gaming day's row, made if missing, locked until the transaction ends."""
    # Two first writes of a day at once: the insert that loses is ignored, and both lock the row.
    GamingDay.objects.bulk_create([GamingDay(casino=casino, day=day)], ignore_conflicts=True)
    return GamingDay.objects.select_for_update().get(casino=casino, day=day)


def lock_open_day(casino: Casino, day: datetime.date) -> GamingDay:
    """As :func:`lock_day`, refusing a closed day, and a day no casino can mean
    (:func:`accounting.inputs.check_day`; a count may be of the next day)."""
    inputs.check_day(casino, day, timezone.now(), ahead=inputs.COUNT_AHEAD)
    gaming_day = lock_day(casino, day)
    if gaming_day.is_closed:
        raise ActionError(
            f"The gaming day {day:%Y-%m-%d} is closed: nothing of it may change unless it is "
            "reopened by two people, one of them senior."
        )
    return gaming_day


def lock_count_days(table: Table, day: datetime.date, kind: str) -> GamingDay:
    """Lock the open gaming day of a count of ``table`` (an opener, a closer or a drop), and for a
    closer every later day whose opener it is: the days after it up to the table's next closer
    (a day that counts no opener opens with the last closer before it; one that counts it is
    checked against it). Refuses, naming the day, when any of them is closed."""
    casino = casino_of(table)
    gaming_day = lock_open_day(casino, day)
    if kind != TableInventory.Kind.CLOSER:
        return gaming_day
    next_closer = (
        TableInventory.objects.current()
        .filter(table=table, kind=TableInventory.Kind.CLOSER, day__gt=day)
        .order_by("day")
        .values_list("day", flat=True)
        .first()
    )
    today = casino.gaming_day(timezone.now())
    ahead = today + datetime.timedelta(days=inputs.COUNT_AHEAD)
    # Never past the days a count may be of: a stored closer dated years ahead locks no more.
    last = min(next_closer, ahead) if next_closer else today
    later = [day + datetime.timedelta(days=n) for n in range(1, (last - day).days + 1)]
    if not later:
        return gaming_day
    # Rows made and locked in day order, as a close locks its day: a close of one of these days
    # either commits first (and is seen closed here) or waits and reads this closer.
    GamingDay.objects.bulk_create(
        [GamingDay(casino=casino, day=d) for d in later], ignore_conflicts=True
    )
    locked = GamingDay.objects.select_for_update().filter(casino=casino, day__in=later)
    closed = [d.day for d in locked.order_by("day") if d.is_closed]
    if closed:
        raise ActionError(
            f"{table}'s closer of {day:%Y-%m-%d} is the last closer before the closed gaming day "
            f"{closed[0]:%Y-%m-%d}, which opens with it: nothing of a closed day may change unless "
            "it is reopened by two people, one of them senior."
        )
    return gaming_day


def second_person(
    request: HttpRequest | None,
    username: str,
    password: str,
    *,
    first: User,
    authority: str,
    doing: str,
) -> User:
    """The second person of a two-person control, by their own username and password: someone
    other than ``first`` whom the access policy allows ``authority``. Checked as a sign-in is
    (``request``: the one the first person made, so that wrong passwords count towards the
    second person's lock-out; None checks the password alone, as a shell does)."""
    if not username or not password:
        raise ActionError(f"A second person must sign to {doing}: their username and password.")
    other = authenticate(request, username=username, password=password)
    if other is None:
        raise ActionError(f"The second person's username or password is wrong ({username}).")
    assert isinstance(other, User)
    if other.pk == first.pk:
        raise ActionError(f"The second person to {doing} must be someone else.")
    decision = access.decide(other, authority)
    if not decision:
        raise ActionError(f"{other.get_username()} may not sign: {decision.reason}")
    return other


def _name(user: User) -> str:
    return user.get_username()


def _check_role(user: User, allowed: Sequence[str], as_what: str) -> None:
    if user.is_superuser or roles.role_of(user) in allowed:
        return
    raise ActionError(f"{_name(user)} is not a {as_what}.")


def _reason(text: str, what: str) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise ActionError(f"Say why {what}.")
    if "\x00" in text:
        raise ActionError("The reason holds a NUL character, which cannot be stored.")
    if len(text) > 200:
        raise ActionError("Keep the reason under 200 characters.")
    return text


# --- Table inventory ---------------------------------------------------------------------------


@transaction.atomic
def record_inventory(
    table: Table,
    *,
    day: datetime.date,
    kind: str,
    chips: Mapping[str, Any],
    dealer: User,
    floorperson: User,
    actor: User,
) -> TableInventory:
    """The opener or closer of ``table`` for gaming day ``day``, signed by its dealer and
    floorperson."""
    if kind not in TableInventory.Kind.values:
        raise ActionError("An inventory is an opener or a closer.")
    lock_count_days(table, day, kind)
    counted = counts.parse_counts(chips, counts.CHIPS, what="chips")
    _check_role(dealer, (roles.DEALER,), "dealer")
    _check_role(floorperson, (roles.FLOORPERSON, roles.PIT_BOSS), "floorperson or pit boss")
    if dealer.pk == floorperson.pk:
        raise ActionError("The dealer and the floorperson sign an inventory as two people.")
    if TableInventory.objects.filter(table=table, day=day, kind=kind).exists():
        raise ActionError(
            f"{table}'s {kind} of {day:%Y-%m-%d} is already counted: accounting corrects a wrong "
            "count by an amendment, approved by a second person."
        )
    inventory = TableInventory.objects.create(
        table=table,
        day=day,
        kind=kind,
        chips=counted,
        total=counts.total(counted),
        dealer=dealer,
        floorperson=floorperson,
        recorded_by=actor,
    )
    record_pit_event(
        table.pit,
        actor=actor,
        payload=events.InventoryCounted(
            table=table.name,
            day=day.isoformat(),
            inventory=kind,
            chips=counted,
            total=inventory.total,
            dealer=_name(dealer),
            floorperson=_name(floorperson),
        ),
    )
    return inventory


def opener_default(table: Table, day: datetime.date) -> TableInventory | None:
    """The last closer before ``day``: the next opener unless the tray is counted otherwise."""
    return (
        TableInventory.objects.current()
        .filter(table=table, kind=TableInventory.Kind.CLOSER, day__lt=day)
        .order_by("-day")
        .first()
    )


# --- Fills and credits -------------------------------------------------------------------------


def next_serial(casino: Casino, kind: str) -> int:
    """The next serial number of the casino's fills or credits, taken in this transaction.

    The counter row is locked until the transaction ends: a second slip waits for the first to
    commit (or roll back, giving its number back), so serials are given in order, never twice,
    and never skipped.
    """
    SerialCounter.objects.bulk_create(
        [SerialCounter(casino=casino, kind=kind)], ignore_conflicts=True
    )
    counter = SerialCounter.objects.select_for_update().get(casino=casino, kind=kind)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last


@transaction.atomic
def issue_slip(
    table: Table,
    *,
    kind: str,
    chips: Mapping[str, Any],
    carried_by: User,
    received_by: User,
    actor: User,
) -> Slip:
    """A fill or credit for ``table``, requested by ``actor``, serially numbered."""
    if kind not in Slip.Kind.values:
        raise ActionError("A slip is a fill or a credit.")
    casino = casino_of(table)
    now = timezone.now()
    day = casino.gaming_day(now)
    counted = counts.parse_counts(chips, counts.CHIPS, what="chips")
    if not counted:
        raise ActionError(f"A {kind} needs chips: give the count of at least one denomination.")
    if carried_by.pk == received_by.pk:
        raise ActionError("The person who carries the chips and the one who receives them differ.")
    if carried_by.pk == actor.pk:
        raise ActionError("The person who requests the chips does not carry them.")
    lock_open_day(casino, day)
    slip = Slip.objects.create(
        casino=casino,
        kind=kind,
        serial=next_serial(casino, kind),
        table=table,
        day=day,
        chips=counted,
        total=counts.total(counted),
        requested_by=actor,
        carried_by=carried_by,
        received_by=received_by,
        requested_at=now,
    )
    record_pit_event(
        table.pit,
        actor=actor,
        payload=events.SlipIssued(
            slip=kind,
            serial=slip.serial,
            table=table.name,
            day=day.isoformat(),
            chips=counted,
            total=slip.total,
            carried_by=_name(carried_by),
            received_by=_name(received_by),
        ),
    )
    return slip


@transaction.atomic
def void_slip(slip: Slip, *, reason: str, witness: User, actor: User) -> Slip:
    """Void a fill or credit: two people, the one voiding and a witness."""
    slip = Slip.objects.select_for_update().select_related("table__pit", "casino").get(pk=slip.pk)
    if slip.is_void:
        raise ActionError(f"{slip.get_kind_display()} #{slip.serial} is already void.")
    if witness.pk == actor.pk:
        raise ActionError("A void needs two people: the witness must be someone else.")
    reason = _reason(reason, "the slip is void")
    lock_open_day(slip.casino, slip.day)
    slip.voided_at, slip.voided_by, slip.void_witness, slip.void_reason = (
        timezone.now(),
        actor,
        witness,
        reason,
    )
    slip.save(update_fields=["voided_at", "voided_by", "void_witness", "void_reason"])
    record_pit_event(
        slip.table.pit,
        actor=actor,
        payload=events.SlipVoided(
            slip=slip.kind,
            serial=slip.serial,
            table=slip.table.name,
            witness=_name(witness),
            reason=reason,
        ),
    )
    return slip


# --- The drop ----------------------------------------------------------------------------------


def parse_forms(raw: Sequence[Any] | str) -> tuple[int, ...]:
    """Serial numbers of forms, from a list or text such as ``"101, 102 105"``."""
    items = raw.replace(",", " ").split() if isinstance(raw, str) else list(raw)
    if len(items) > MOST_FORMS:
        raise ActionError(f"A drop box holds at most {MOST_FORMS} forms here.")
    found: list[int] = []
    for item in items:
        text = str(item).strip().lstrip("#")
        if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) == 0:
            raise ActionError(
                f"{str(item)[:20]!r} is not the serial number of a form (1 to "
                f"{MOST_FORM_SERIAL:,})."
            )
        if int(text) in found:
            raise ActionError(f"Form #{int(text)} is listed twice.")
        found.append(int(text))
    return tuple(sorted(found))


def parse_other(raw: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Anything else in the box: each item described, with its value (0 if it has none)."""
    if len(raw) > MOST_OTHER_ITEMS:
        raise ActionError(f"List at most {MOST_OTHER_ITEMS} other items.")
    out = []
    for entry in raw:
        item = " ".join(str(entry.get("item", "")).split())
        if "\x00" in item:
            raise ActionError("An other item holds a NUL character, which cannot be stored.")
        if len(item) > 100:
            raise ActionError(f"Describe {item[:20]!r}… in 100 characters or fewer.")
        try:
            amount = Decimal(str(entry.get("amount") or "0").strip().lstrip("$"))
        except InvalidOperation:
            raise ActionError(f"The value of {item or 'an item'} is not an amount.") from None
        if not item:
            raise ActionError("Describe each other item found in the box.")
        # Checked in this order: a quantize of NaN or of 1e400 raises instead of answering.
        if not amount.is_finite() or amount < 0:
            raise ActionError(f"The value of {item} is an amount to the cent, zero or more.")
        if amount > MOST_OTHER_AMOUNT:
            raise ActionError(f"The value of {item} is too large: at most ${MOST_OTHER_AMOUNT:,}.")
        if amount != amount.quantize(Decimal("0.01")):
            raise ActionError(f"The value of {item} is an amount to the cent, zero or more.")
        out.append({"item": item, "amount": f"{amount:.2f}"})
    return out


@transaction.atomic
def record_drop(
    table: Table,
    *,
    day: datetime.date,
    currency: Mapping[str, Any],
    forms: Sequence[Any] | str = (),
    other: Sequence[Mapping[str, Any]] = (),
    witness: User,
    actor: User,
) -> DropCount:
    """The count of ``table``'s drop box for gaming day ``day``, by ``actor`` and ``witness``."""
    lock_open_day(casino_of(table), day)
    if witness.pk == actor.pk:
        raise ActionError("The drop is counted by two people: the witness must be someone else.")
    banknotes = counts.parse_counts(currency, counts.CURRENCY, what="currency")
    found = parse_forms(forms)
    items = parse_other(other)
    if DropCount.objects.filter(table=table, day=day).exists():
        raise ActionError(
            f"{table}'s drop of {day:%Y-%m-%d} is already counted: accounting corrects a wrong "
            "count by an amendment, approved by a second person."
        )
    drop = DropCount.objects.create(
        table=table,
        day=day,
        currency=banknotes,
        currency_total=counts.total(banknotes),
        forms=list(found),
        other=items,
        other_total=sum((Decimal(i["amount"]) for i in items), Decimal("0.00")),
        counted_by=actor,
        witnessed_by=witness,
    )
    record_pit_event(
        table.pit,
        actor=actor,
        payload=events.DropCounted(
            table=table.name,
            day=day.isoformat(),
            currency=banknotes,
            currency_total=drop.currency_total,
            other_total=drop.other_total,
            forms=found,
            witness=_name(witness),
        ),
    )
    return drop


# --- Amendments ---------------------------------------------------------------------------------


def _check_amendment_people(actor: User, approver: User, authority: str) -> None:
    """Accounting makes an amendment; someone else with ``authority`` approves it."""
    made = access.decide(actor, "authority:amend_count")
    if not made:
        raise ActionError(made.reason)
    if approver.pk == actor.pk:
        raise ActionError("An amendment is approved by a second person: not the one who makes it.")
    approval = access.decide(approver, authority)
    if not approval:
        raise ActionError(f"{_name(approver)} may not approve it: {approval.reason}")


def _not_amended(row: TableInventory | DropCount, what: str) -> None:
    """Refuse to amend a count that a later row amends already: the latest one is corrected."""
    if type(row).objects.filter(amends=row).exists():
        raise ActionError(f"{what} was amended already: amend the count that stands now.")


@transaction.atomic
def amend_inventory(
    inventory: TableInventory,
    *,
    chips: Mapping[str, Any],
    reason: str,
    approver: User,
    actor: User,
) -> TableInventory:
    """Correct a recorded opener or closer: a new row that amends it, with the chips as they were,
    why, who made it (``actor``, accounting) and who approved it (``approver``, a supervisor of
    the pit who signs for its trays). Refused on a closed day, and for a closer whose day's
    successors are closed (:func:`lock_count_days`)."""
    inventory = TableInventory.objects.select_related("table__pit").get(pk=inventory.pk)
    table, day = inventory.table, inventory.day
    what = f"{table}'s {inventory.kind} of {day:%Y-%m-%d}"
    reason = _reason(reason, "the count is amended")
    _check_amendment_people(actor, approver, "authority:approve_inventory_amendment")
    lock_count_days(table, day, inventory.kind)
    _not_amended(inventory, what)
    counted = counts.parse_counts(chips, counts.CHIPS, what="chips")
    if counted == inventory.chips:
        raise ActionError(f"The amended count is the same as {what}: nothing to correct.")
    amendment = TableInventory.objects.create(
        table=table,
        day=day,
        kind=inventory.kind,
        chips=counted,
        total=counts.total(counted),
        dealer=inventory.dealer,
        floorperson=inventory.floorperson,
        recorded_by=actor,
        amends=inventory,
        approved_by=approver,
        reason=reason,
    )
    record_pit_event(
        table.pit,
        actor=actor,
        payload=events.InventoryAmended(
            table=table.name,
            day=day.isoformat(),
            inventory=inventory.kind,
            chips=counted,
            total=amendment.total,
            previous_total=inventory.total,
            approved_by=_name(approver),
            reason=reason,
        ),
    )
    return amendment


@transaction.atomic
def amend_drop(
    drop: DropCount,
    *,
    currency: Mapping[str, Any],
    forms: Sequence[Any] | str = (),
    other: Sequence[Mapping[str, Any]] = (),
    reason: str,
    approver: User,
    actor: User,
) -> DropCount:
    """Correct a recorded drop count: a new row that amends it, with the box as it was, why, who
    made it (``actor``) and who approved it (``approver``: someone else of the count room, who
    is also its witness). Refused on a closed day."""
    drop = DropCount.objects.select_related("table__pit").get(pk=drop.pk)
    table, day = drop.table, drop.day
    what = f"{table}'s drop of {day:%Y-%m-%d}"
    reason = _reason(reason, "the count is amended")
    _check_amendment_people(actor, approver, "authority:approve_drop_amendment")
    lock_count_days(table, day, "drop")
    _not_amended(drop, what)
    banknotes = counts.parse_counts(currency, counts.CURRENCY, what="currency")
    found = parse_forms(forms)
    items = parse_other(other)
    if (banknotes, list(found), items) == (drop.currency, drop.forms, drop.other):
        raise ActionError(f"The amended count is the same as {what}: nothing to correct.")
    amendment = DropCount.objects.create(
        table=table,
        day=day,
        currency=banknotes,
        currency_total=counts.total(banknotes),
        forms=list(found),
        other=items,
        other_total=sum((Decimal(i["amount"]) for i in items), Decimal("0.00")),
        counted_by=actor,
        witnessed_by=approver,
        amends=drop,
        approved_by=approver,
        reason=reason,
    )
    record_pit_event(
        table.pit,
        actor=actor,
        payload=events.DropAmended(
            table=table.name,
            day=day.isoformat(),
            currency=banknotes,
            currency_total=amendment.currency_total,
            other_total=amendment.other_total,
            forms=found,
            previous_total=drop.total,
            approved_by=_name(approver),
            reason=reason,
        ),
    )
    return amendment


# --- Closing the gaming day --------------------------------------------------------------------


@transaction.atomic
def close_gaming_day(
    casino: Casino, day: datetime.date, *, actor: User | None = None
) -> GamingDay | None:
    """Close ``day``: final from now on. None if it was closed already (closing is idempotent)."""
    inputs.check_day(casino, day, timezone.now())
    from accounting.reports import day_totals, freeze  # reads what this module writes

    if timezone.now() < casino.gaming_day_bounds(day)[1]:
        raise ActionError(f"The gaming day {day:%Y-%m-%d} has not ended yet.")
    gaming_day = lock_day(casino, day)
    if gaming_day.is_closed:
        return None
    # The day's row is locked: no count, fill, credit or drop can enter it (nor an earlier
    # closer that opens it, lock_count_days) until this commits. What is read below is final.
    # What the report will show of the day's play must be what the record says was played:
    # every round settled in the day against its settlement event, the tallies against the sum
    # of the events (tablegame.verification). A day that disagrees is not closed.
    check = check_day(casino, day)
    if not check.ok:
        shown = "; ".join(str(d) for d in check.discrepancies[:CLOSE_NAMES])
        more = len(check.discrepancies) - CLOSE_NAMES
        raise ActionError(
            f"The gaming day {day:%Y-%m-%d} is not closed: its play disagrees with the record "
            f"in {len(check.discrepancies)} place{'s' if len(check.discrepancies) != 1 else ''}"
            f" ({shown}{f'; and {more} more' if more > 0 else ''}). Surveillance and "
            "`manage.py verify_record --day` show them all."
        )
    freeze(gaming_day)
    totals = day_totals(casino, day)
    gaming_day.status, gaming_day.closed_at, gaming_day.closed_by = (
        GamingDay.Status.CLOSED,
        timezone.now(),
        actor,
    )
    gaming_day.save(update_fields=["status", "closed_at", "closed_by"])
    record_casino_event(
        casino,
        actor=actor,
        payload=events.GamingDayClosed(
            day=day.isoformat(), drop=totals.drop, win=totals.win, tables=totals.tables
        ),
    )
    # The day's last events covered by a signed checkpoint now, not at the next beat.
    transaction.on_commit(checkpoint_record.delay)
    return gaming_day


@transaction.atomic
def reopen_gaming_day(
    casino: Casino, day: datetime.date, *, reason: str, approver: User, actor: User
) -> GamingDay:
    """Open a closed day again: ``actor`` asks, ``approver`` (senior, someone else) approves."""
    from accounting.reports import thaw

    reason = _reason(reason, "the gaming day is reopened")
    if approver.pk == actor.pk:
        raise ActionError("Reopening a gaming day needs a second person.")
    if not access.decide(approver, "authority:reopen_gaming_day"):
        raise ActionError(access.decide(approver, "authority:reopen_gaming_day").reason)
    gaming_day = lock_day(casino, day)
    if not gaming_day.is_closed:
        raise ActionError(f"The gaming day {day:%Y-%m-%d} is not closed.")
    gaming_day.status, gaming_day.closed_at, gaming_day.closed_by = (
        GamingDay.Status.OPEN,
        None,
        None,
    )
    gaming_day.save(update_fields=["status", "closed_at", "closed_by"])
    thaw(gaming_day)
    DayReopening.objects.create(
        gaming_day=gaming_day, reopened_by=actor, approved_by=approver, reason=reason
    )
    record_casino_event(
        casino,
        actor=actor,
        payload=events.GamingDayReopened(
            day=day.isoformat(), approved_by=_name(approver), reason=reason
        ),
    )
    return gaming_day


# --- Accounting settings -----------------------------------------------------------------------

#: No setting is a number this large; a larger one is refused before it is rounded.
MOST_SETTING = Decimal("1e12")


def _decimal(raw: str | Decimal | int, what: str) -> Decimal:
    text = str(raw).strip().replace(",", "").lstrip("$").rstrip("%").strip()
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ActionError(f"The {what} is not a number: {str(raw)[:20]!r}.") from None
    if not value.is_finite():
        raise ActionError(f"The {what} is not a number: {str(raw)[:20]!r}.")
    if abs(value) > MOST_SETTING:  # before quantizing, which 1e400 would not survive
        raise ActionError(f"The {what} is out of range: {str(raw)[:20]!r}.")
    if value != value.quantize(Decimal("0.01")):
        raise ActionError(f"The {what} is given to two decimal places at most.")
    return value.quantize(Decimal("0.01"))


def parse_settings(
    *,
    variance_threshold: str | Decimal,
    hold_low: str | Decimal,
    hold_high: str | Decimal,
    close_after_hours: str | int,
) -> dict[str, Decimal | int]:
    """The settings as typed, checked: a variance threshold in dollars from 0 to
    ``MOST_VARIANCE_THRESHOLD``; hold bounds in percent, 0 ≤ low < high ≤ 100; the close delay
    in whole hours within ``CLOSE_AFTER_HOURS``."""
    threshold = _decimal(variance_threshold, "variance threshold")
    if not 0 <= threshold <= MOST_VARIANCE_THRESHOLD:
        raise ActionError(
            f"The variance threshold is from $0 to ${MOST_VARIANCE_THRESHOLD:,.2f}: "
            f"${threshold} is not."
        )
    low = _decimal(hold_low, "lowest hold")
    high = _decimal(hold_high, "highest hold")
    if not 0 <= low <= 100 or not 0 <= high <= 100:
        raise ActionError("A hold bound is a percentage from 0 to 100.")
    if low >= high:
        raise ActionError(f"The lowest hold ({low}%) must be below the highest ({high}%).")
    text = str(close_after_hours).strip()
    first, most = CLOSE_AFTER_HOURS
    if not (text.isascii() and text.isdigit()) or len(text) > 4 or not first <= int(text) <= most:
        raise ActionError(
            f"The close delay is a whole number of hours from {first} to {most}: "
            f"{text[:20]!r} is not."
        )
    return {
        "variance_threshold": threshold,
        "hold_low": low,
        "hold_high": high,
        "close_after_hours": int(text),
    }


@transaction.atomic
def set_accounting_settings(
    casino: Casino,
    *,
    variance_threshold: str | Decimal,
    hold_low: str | Decimal,
    hold_high: str | Decimal,
    close_after_hours: str | int,
    actor: User,
) -> AccountingSettings:
    """Change the casino's accounting settings (checked by :func:`parse_settings`); the event
    records each setting changed, with its old and new value, and who changed it."""
    allowed = access.decide(actor, "authority:set_accounting_settings")
    if not allowed:
        raise ActionError(allowed.reason)
    wanted = parse_settings(
        variance_threshold=variance_threshold,
        hold_low=hold_low,
        hold_high=hold_high,
        close_after_hours=close_after_hours,
    )
    # Two changes at once: the second waits for the first, and records what the first set as
    # its old values.
    AccountingSettings.objects.bulk_create(
        [AccountingSettings(casino=casino)], ignore_conflicts=True
    )
    current = AccountingSettings.objects.select_for_update().get(casino=casino)
    changes = tuple(
        events.SettingChange(setting=name, before=str(getattr(current, name)), after=str(value))
        for name, value in wanted.items()
        if getattr(current, name) != value
    )
    if not changes:
        raise ActionError("These are the settings already: nothing was changed.")
    for change in changes:
        setattr(current, change.setting, wanted[change.setting])
    current.save(update_fields=[change.setting for change in changes])
    record_casino_event(casino, actor=actor, payload=events.SettingsChanged(changes=changes))
    return current


def days_due(casino: Casino, now: datetime.datetime) -> list[datetime.date]:
    """Gaming days of ``casino`` that the schedule should close at ``now``: every day that ended
    at least ``close_after_hours`` ago, back to the first day with any accounting row, that is
    not closed yet (a reopened day is left to the people who reopened it).

    Only days a casino can mean (:func:`accounting.inputs.earliest_day` on): a stored row of a
    day before them is logged as skipped, never closed nor counted from."""
    wait = datetime.timedelta(hours=AccountingSettings.of(casino).close_after_hours)
    last = casino.gaming_day(now - wait) - datetime.timedelta(days=1)
    earliest = inputs.earliest_day(casino, now)
    rows = GamingDay.objects.filter(casino=casino)
    skipped = list(rows.filter(day__lt=earliest).order_by("day").values_list("day", flat=True))
    if skipped:
        logger.warning(
            "%s: the scheduled close skipped %d gaming day row(s) before %s, which no casino can "
            "mean (first: %s); they stay as stored.",
            casino,
            len(skipped),
            earliest.isoformat(),
            skipped[0].isoformat(),
        )
    first = rows.filter(day__gte=earliest).order_by("day").values_list("day", flat=True)
    start = first.first() or last
    days = GamingDay.objects.filter(casino=casino, day__gte=start, day__lte=last)
    done = set(days.filter(status=GamingDay.Status.CLOSED).values_list("day", flat=True))
    done |= set(days.filter(reopenings__isnull=False).values_list("day", flat=True))
    out: list[datetime.date] = []
    day = start
    while day <= last and len(out) <= MOST_DAYS_PER_RUN:
        if day not in done:
            out.append(day)
        day += datetime.timedelta(days=1)
    if len(out) > MOST_DAYS_PER_RUN:
        logger.warning(
            "%s: the scheduled close closes %d gaming days from %s in this run; the days after "
            "%s are left to the next runs.",
            casino,
            MOST_DAYS_PER_RUN,
            out[0].isoformat(),
            out[MOST_DAYS_PER_RUN - 1].isoformat(),
        )
    return out[:MOST_DAYS_PER_RUN]


def close_due_days(now: datetime.datetime | None = None) -> list[tuple[str, str]]:
    """Close every casino's due gaming days (the scheduled task); returns (casino, day) closed.

    A day the close refuses (its play disagrees with the record) is logged, and the casino's
    later days wait for it; the other casinos' days are closed."""
    moment = now or timezone.now()
    closed = []
    for casino in Casino.objects.all():
        for day in days_due(casino, moment):
            try:
                if close_gaming_day(casino, day) is not None:
                    closed.append((casino.name, day.isoformat()))
            except ActionError as refused:
                logger.error("%s: the scheduled close stopped at %s: %s", casino, day, refused)
                break
    return closed
