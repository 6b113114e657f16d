"""Complimentary Vigorish Forms, from the series received to the duplicates sent to accounting.

002 (c)(3)(iii): vigorish deferred and not collected is documented on a serially pre-numbered
form prepared by the pit clerk (original and duplicate), with the amount, the patron's name, the
signatures of the dealer, pit boss and pit clerk, and the patron's signature or a statement by the
dealer or pit boss why it could not be had (A); the series received are accounted for, only pit
clerks reach unused forms, and each series is used in order (B); the dealer deposits the original
in the drop box before the pit boss and clerk who signed (C); the clerk keeps the duplicate and
forwards it to accounting at the end of the gaming day (D); a VOID form is signed by the pit boss
and the clerk and kept (E).

Every action here locks the pit's row first: the pit's forms are numbered, changed and recorded
(in the pit's chain) one transaction at a time.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from casino import access, roles
from casino.models import Casino, Pit
from casino.record import record_pit_event
from casino.roles import Actor
from fastpath import rows
from tablegame import events
from tablegame.actions.common import ActionError, action, check_text
from tablegame.broadcast import announce_pit_forms
from tablegame.dealers import dealers_since
from tablegame.models import VigorishMarker
from tablegame.vigorish_forms.models import VigorishForm, VigorishFormSeries, form_number

#: The most forms one series may hold (a box of pre-numbered forms, not a typo of a digit).
MOST_FORMS_IN_SERIES = 10_000

Status = VigorishForm.Status


def _lock_pit(pit: Pit | int) -> Pit:
    """The pit row, locked until the transaction ends.

    Race: two clerks prepare a form at the same moment; the second waits here until the first
    commits, then reads the series after the number the first took: no gap, no number twice.
    """
    pk = pit.pk if isinstance(pit, Pit) else pit
    return Pit.objects.select_for_update(of=("self",)).select_related("casino").get(pk=pk)


def _form(form: VigorishForm | int) -> tuple[Pit, VigorishForm]:
    """The form, read again after its pit's lock; a refusal if there is none."""
    pk = form.pk if isinstance(form, VigorishForm) else form
    pit_id = VigorishForm.objects.filter(pk=pk).values_list("pit_id", flat=True).first()
    if pit_id is None:
        raise ActionError(f"There is no Complimentary Vigorish Form {pk}.")
    pit = _lock_pit(pit_id)
    return pit, VigorishForm.objects.select_related("table", "marker").get(pk=pk)


def _record(
    pit: Pit, actor: Actor, payload: events.FormPayload, *, table_id: int | None = None
) -> None:
    """Record the change in the pit's chain; its forms pages hear of it after the commit (and
    the screens of the form's table, ``table_id``: a dealer's forms page watches its table)."""
    event = record_pit_event(pit, actor=actor, payload=payload)
    pit_id, sequence, kind = pit.pk, event.sequence, payload.kind.value
    transaction.on_commit(lambda: announce_pit_forms(pit_id, sequence, kind, table_id=table_id))


@action
def receive_form_series(
    pit: Pit, *, first_number: int, last_number: int, actor: Actor
) -> VigorishFormSeries:
    """The pit clerk receives a series of pre-numbered forms, to be used in order (B)."""
    if first_number < 1 or last_number < first_number:
        raise ActionError("A series runs from its first number up to its last, from 1 on.")
    if last_number - first_number + 1 > MOST_FORMS_IN_SERIES:
        raise ActionError(
            f"A series holds at most {MOST_FORMS_IN_SERIES} forms: check the numbers."
        )
    # Race: two pits receive series at once; the casino's lock keeps their numbers apart.
    Casino.objects.select_for_update().get(pk=Pit.objects.get(pk=pit.pk).casino_id)
    pit = _lock_pit(pit)
    overlap = VigorishFormSeries.objects.filter(
        pit__casino_id=pit.casino_id, first_number__lte=last_number, last_number__gte=first_number
    ).first()
    if overlap is not None:
        raise ActionError(
            f"Forms {form_number(first_number)}-{form_number(last_number)} overlap the series "
            f"{form_number(overlap.first_number)}-{form_number(overlap.last_number)} already "
            f"received by {overlap.pit}: every number is used once."
        )
    series = rows.insert(
        VigorishFormSeries(
            pit=pit,
            first_number=first_number,
            last_number=last_number,
            next_number=first_number,
            received_by=actor,
        )
    )
    _record(
        pit,
        actor,
        events.FormSeriesReceived(first=form_number(first_number), last=form_number(last_number)),
    )
    return series


def _next_number(pit: Pit) -> tuple[VigorishFormSeries, int]:
    """The next unused form of the pit (its pit row locked): the oldest series first (B)."""
    series = (
        VigorishFormSeries.objects.filter(pit=pit, next_number__lte=F("last_number"))
        .order_by("received_at", "pk")
        .first()
    )
    if series is None:
        raise ActionError(f"{pit} has no unused Complimentary Vigorish Form: receive a series.")
    number = series.next_number
    series.next_number = number + 1
    rows.update(series, ["next_number"])
    return series, number


def _gaming_day(pit: Pit) -> datetime.date:
    return pit.casino.gaming_day(timezone.now())


@action
def prepare_vigorish_form(
    marker: VigorishMarker | int, *, patron_name: str = "", actor: Actor
) -> VigorishForm:
    """The pit clerk prepares the next numbered form for vigorish not collected (A)."""
    pk = marker.pk if isinstance(marker, VigorishMarker) else marker
    pit_id = VigorishMarker.objects.filter(pk=pk).values_list("table__pit_id", flat=True).first()
    if pit_id is None:
        raise ActionError(f"There is no vigorish marker {pk}.")
    pit = _lock_pit(pit_id)
    found = VigorishMarker.objects.select_related("table").get(pk=pk)
    if found.status == VigorishMarker.Status.OPEN:
        raise ActionError(
            f"The marker at seat {found.seat} is still on the layout: the dealer collects it or "
            "requests the form first."
        )
    if found.status != VigorishMarker.Status.FORM_REQUESTED:
        raise ActionError(f"The marker at seat {found.seat} was collected: no form is needed.")
    live = found.forms.exclude(status=Status.VOID).first()
    if live is not None:
        raise ActionError(
            f"The marker at seat {found.seat} is already on form {live.printed_number}."
        )
    name = check_text(patron_name, field="patron's name", limit=100) or found.player_name
    if not name:
        raise ActionError("Give the patron's name: it goes on the form.")
    series, number = _next_number(pit)
    form = rows.insert(
        VigorishForm(
            series=series,
            number=number,
            pit=pit,
            gaming_day=_gaming_day(pit),
            marker=found,
            table=found.table,
            seat=found.seat,
            amount=found.amount,
            patron_name=name,
            reason=found.reason,
            prepared_by=actor,
        )
    )
    _record(
        pit,
        actor,
        events.VigorishFormPrepared(
            number=form.printed_number,
            table=found.table.name,
            seat=found.seat,
            amount=found.amount,
            patron=name,
            marker=found.pk,
        ),
        table_id=form.table_id,
    )
    return form


@action
def void_blank_vigorish_form(pit: Pit, *, reason: str, actor: Actor) -> VigorishForm:
    """The next unused form is spoiled: it is marked VOID, in its turn, and kept (B, E)."""
    pit = _lock_pit(pit)
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the form is VOID.")
    series, number = _next_number(pit)
    now = timezone.now()
    form = rows.insert(
        VigorishForm(
            series=series,
            number=number,
            pit=pit,
            gaming_day=_gaming_day(pit),
            status=Status.VOID,
            prepared_by=actor,
            void_reason=reason,
            voided_by=actor,
            voided_at=now,
        )
    )
    _record(
        pit,
        actor,
        events.VigorishFormVoid(number=form.printed_number, reason=reason),
        table_id=form.table_id,
    )
    return form


def _signer_role(actor: Actor) -> str:
    role = access.floor_role(actor)
    if role not in (roles.DEALER, roles.PIT_BOSS, roles.PIT_CLERK):
        raise ActionError("Only the dealer, pit boss and pit clerk sign the form.")
    return role


def _refuse_another_dealer(form: VigorishForm, actor: Actor) -> None:
    """The dealer who signs is the one who dealt the form's table when the vigorish was left
    uncollected, or who was assigned to it since (a relief in between)."""
    if form.table is None:
        return
    since = form.marker.marked_at if form.marker is not None else form.prepared_at
    dealers = dealers_since(form.table.pk, since)
    if actor.pk in dealers:
        return
    if dealers:
        raise ActionError(
            f"Form {form.printed_number} is for {form.table}: the dealer who dealt it signs "
            f"({', '.join(sorted(dealers.values()))}), not a dealer of another table."
        )
    if settings.DEALERS_ACT_ONLY_WHERE_ASSIGNED:
        raise ActionError(
            f"Form {form.printed_number} is for {form.table}, and you were not assigned to it: "
            "the dealer who dealt it signs."
        )


def _refuse_unless_open(form: VigorishForm) -> None:
    if form.is_void:
        raise ActionError(f"Form {form.printed_number} is VOID.")
    if form.status != Status.PREPARED:
        raise ActionError(f"Form {form.printed_number} is signed already.")


def _complete_if_signed(form: VigorishForm) -> None:
    if form.fully_signed and form.status == Status.PREPARED:
        form.status = Status.SIGNED


@action
def sign_vigorish_form(form: VigorishForm | int, *, actor: Actor) -> VigorishForm:
    """The dealer, the pit boss or the pit clerk signs, each on their own screen (A)."""
    pit, form = _form(form)
    _refuse_unless_open(form)
    role = _signer_role(actor)
    who, when = {
        roles.DEALER: ("dealer", "dealer_signed_at"),
        roles.PIT_BOSS: ("pit_boss", "pit_boss_signed_at"),
        roles.PIT_CLERK: ("clerk", "clerk_signed_at"),
    }[role]
    if getattr(form, f"{who}_id") is not None:
        signer = getattr(form, who)
        raise ActionError(f"Form {form.printed_number} is signed by {signer} already as {who}.")
    if actor.pk in (form.dealer_id, form.pit_boss_id, form.clerk_id):
        raise ActionError("One person signs the form once.")
    if role == roles.DEALER:
        _refuse_another_dealer(form, actor)
    setattr(form, who, actor)
    setattr(form, when, timezone.now())
    _complete_if_signed(form)
    rows.update(form, [who, when, "status"])
    _record(
        pit,
        actor,
        events.VigorishFormSigned(number=form.printed_number, signed_as=role),
        table_id=form.table_id,
    )
    return form


@action
def record_patron_signature(
    form: VigorishForm | int, *, signature: str = "", statement: str = "", actor: Actor
) -> VigorishForm:
    """The patron signs the form, or the dealer or pit boss states why the signature could not be
    obtained (A)."""
    pit, form = _form(form)
    _refuse_unless_open(form)
    if form.patron_part_done:
        raise ActionError(f"Form {form.printed_number} already has the patron's part.")
    signature = check_text(signature, field="patron's signature", limit=100)
    statement = check_text(statement, field="statement", limit=200)
    if bool(signature) == bool(statement):
        raise ActionError(
            "Either the patron signs, or say why the patron's signature could not be obtained."
        )
    form.patron_signature, form.no_signature_statement = signature, statement
    form.patron_part_by, form.patron_part_at = actor, timezone.now()
    _complete_if_signed(form)
    rows.update(
        form,
        [
            "patron_signature",
            "no_signature_statement",
            "patron_part_by",
            "patron_part_at",
            "status",
        ],
    )
    _record(
        pit,
        actor,
        events.VigorishFormPatron(
            number=form.printed_number, signature=signature, statement=statement
        ),
        table_id=form.table_id,
    )
    return form


@action
def deposit_vigorish_form(form: VigorishForm | int, *, actor: Actor) -> VigorishForm:
    """The dealer who signed deposits the original in the table's drop box (C)."""
    pit, form = _form(form)
    if form.is_void:
        raise ActionError(f"Form {form.printed_number} is VOID: the clerk keeps it.")
    if form.status == Status.PREPARED:
        raise ActionError(
            f"Form {form.printed_number} is not complete: the dealer, pit boss and clerk sign, "
            "and the patron signs or the statement says why not."
        )
    if form.deposited_at is not None:
        raise ActionError(f"The original of form {form.printed_number} is in the drop box.")
    if form.dealer_id != actor.pk:
        raise ActionError(f"The dealer who signed form {form.printed_number} deposits it.")
    form.deposited_by, form.deposited_at = actor, timezone.now()
    rows.update(form, ["deposited_by", "deposited_at"])
    table = form.table.name if form.table else ""
    _record(
        pit,
        actor,
        events.VigorishFormDeposited(number=form.printed_number, table=table),
        table_id=form.table_id,
    )
    return form


@action
def witness_vigorish_deposit(form: VigorishForm | int, *, actor: Actor) -> VigorishForm:
    """The pit boss and the clerk who signed confirm they saw the original deposited (C)."""
    pit, form = _form(form)
    if form.deposited_at is None:
        raise ActionError(f"The original of form {form.printed_number} is not deposited yet.")
    role = _signer_role(actor)
    if role == roles.DEALER:
        raise ActionError("The pit boss and the clerk who signed witness the deposit.")
    signer, field = (
        (form.pit_boss_id, "deposit_pit_boss_at")
        if role == roles.PIT_BOSS
        else (form.clerk_id, "deposit_clerk_at")
    )
    if signer != actor.pk:
        raise ActionError(
            f"The {roles.LABELS[role].lower()} who signed form {form.printed_number} witnesses "
            "its deposit."
        )
    if getattr(form, field) is not None:
        raise ActionError("You witnessed this deposit already.")
    setattr(form, field, timezone.now())
    if form.deposit_pit_boss_at and form.deposit_clerk_at:
        form.status = Status.DEPOSITED
    rows.update(form, [field, "status"])
    _record(
        pit,
        actor,
        events.VigorishFormWitnessed(number=form.printed_number, witness_as=role),
        table_id=form.table_id,
    )
    return form


@action
def void_vigorish_form(form: VigorishForm | int, *, reason: str, actor: Actor) -> VigorishForm:
    """The clerk marks a form VOID (the marker waits for a new form); the pit boss signs it too
    (E). An original already in the drop box is not voided."""
    pit, form = _form(form)
    if form.is_void:
        raise ActionError(f"Form {form.printed_number} is VOID already.")
    if form.deposited_at is not None:
        raise ActionError(f"The original of form {form.printed_number} is in the drop box.")
    reason = check_text(reason, field="reason", limit=200)
    if not reason:
        raise ActionError("Say why the form is VOID.")
    form.status, form.void_reason = Status.VOID, reason
    form.voided_by, form.voided_at = actor, timezone.now()
    rows.update(form, ["status", "void_reason", "voided_by", "voided_at"])
    _record(
        pit,
        actor,
        events.VigorishFormVoid(number=form.printed_number, reason=reason),
        table_id=form.table_id,
    )
    return form


@action
def sign_void_vigorish_form(form: VigorishForm | int, *, actor: Actor) -> VigorishForm:
    """The pit boss signs a VOID form (E)."""
    pit, form = _form(form)
    if not form.is_void:
        raise ActionError(f"Form {form.printed_number} is not VOID.")
    if form.void_pit_boss_id is not None:
        raise ActionError(f"The VOID form {form.printed_number} is signed already.")
    form.void_pit_boss, form.void_pit_boss_signed_at = actor, timezone.now()
    rows.update(form, ["void_pit_boss", "void_pit_boss_signed_at"])
    _record(
        pit,
        actor,
        events.VigorishFormVoidSigned(number=form.printed_number),
        table_id=form.table_id,
    )
    return form


@action
def forward_vigorish_duplicates(
    pit: Pit, *, gaming_day: datetime.date | None = None, actor: Actor
) -> list[VigorishForm]:
    """At the end of the gaming day the clerk forwards the duplicates of the day's forms, and the
    VOID forms, to accounting (D, E); a form still in the pit's hands holds them all back."""
    pit = _lock_pit(pit)
    day = gaming_day or _gaming_day(pit)
    waiting = list(
        VigorishForm.objects.filter(pit=pit, gaming_day=day, forwarded_at__isnull=True).order_by(
            "number"
        )
    )
    if not waiting:
        raise ActionError(f"No form of gaming day {day:%Y-%m-%d} is waiting to be forwarded.")
    unfinished = [f.printed_number for f in waiting if not f.ready_for_accounting]
    if unfinished:
        raise ActionError(
            f"Form{'s' if len(unfinished) > 1 else ''} {', '.join(unfinished)} must be deposited "
            "(or VOID and signed by the pit boss and clerk) before the duplicates go to accounting."
        )
    now = timezone.now()
    for f in waiting:
        f.forwarded_by, f.forwarded_at = actor, now
    rows.update_many(waiting, ["forwarded_by", "forwarded_at"])
    total = sum(
        (f.amount for f in waiting if f.status != Status.VOID and f.amount is not None), Decimal(0)
    )
    _record(
        pit,
        actor,
        events.VigorishDuplicatesForwarded(
            gaming_day=day.isoformat(),
            numbers=tuple(f.printed_number for f in waiting),
            total=total,
        ),
    )
    return waiting
