"""The floor's work on the progressives: the Star option, must-hit meters, links and payments
(the pit's progressive page sends these commands).

Lock order, as at settlement: the tables first (by primary key), then the meter. Parameters of a
live meter (one that has taken a contribution) never change at once: the change waits for the
meter's next win, when it starts again (the database refuses anything else, migration 0005).
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from casino.models import Pit
from casino.roles import Actor
from fastpath import rows
from tablegame import events
from tablegame.actions.common import ActionError, action, check_text, lock_table, record
from tablegame.actions.run import run
from tablegame.broadcast import announce_meter
from tablegame.models import Table
from tablegame.progressives import draw
from tablegame.progressives.models import (
    MustHitLink,
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
)

Entry = ProgressiveEntry.Kind


def _no_round_in_play(table: Table) -> None:
    if table.active_round() is not None:
        raise ActionError(f"{table} has a round in play: finish it first.")


def set_star_option(table: Table, *, option: int, actor: Actor) -> ProgressiveMeter:
    """The Star progressive's option (004 §13(i)), a command on the table run the one way
    (``tablegame.commands``; ``tablegame.play.progressives.set_star_option``)."""
    done = run(table, actor, "set_star_option", option=option)
    assert done.state is not None
    return ProgressiveMeter.objects.get(table_id=done.state.table.key, name="star")


def _lock_tables(tables: list[Table]) -> list[Table]:
    return [lock_table(t) for t in sorted(tables, key=lambda t: t.pk)]


def _check_linkable(table: Table, pit: Pit) -> None:
    if table.pit_id != pit.pk:
        raise ActionError(f"{table} is in another pit: a must-hit meter links tables of one pit.")
    if table.rules.royal9 is None:
        raise ActionError(
            f"{table} does not offer the Royal 9 wager, whose players the must-hit draws among."
        )
    if MustHitLink.objects.filter(table=table).exists():
        raise ActionError(f"{table} already feeds a must-hit meter: unlink it first.")
    _no_round_in_play(table)


def _linked_names(meter: MustHitProgressive) -> tuple[str, ...]:
    return tuple(meter.links.order_by("table__name").values_list("table__name", flat=True))


@action
def configure_must_hit(
    pit: Pit, *, name: str, configuration: int, tables: list[Table], actor: Actor
) -> MustHitProgressive:
    """A new must-hit meter (004 §13(j)) fed by one table (standalone) or several of a pit."""
    name = check_text(name, field="name", limit=40)
    if not name:
        raise ActionError("Name the must-hit meter as its sign does.")
    if not tables:
        raise ActionError("Choose the table or tables that feed the meter.")
    config = draw.configuration(configuration)
    locked = _lock_tables(tables)
    if MustHitProgressive.objects.filter(pit=pit, name=name).exists():
        raise ActionError(f"The pit already has a must-hit meter named {name}.")
    for table in locked:
        _check_linkable(table, pit)
    hit_value, nonce = draw.draw_hit_value(config)
    meter = rows.insert(
        MustHitProgressive(
            pit=pit,
            name=name,
            configuration=configuration,
            reset=config.reset,
            maximum=config.maximum,
            increment_rate=config.increment_rate,
            amount=config.reset,
            hit_value=hit_value,
            hit_nonce=nonce,
        )
    )
    rows.insert_many([MustHitLink(meter=meter, table=t) for t in locked])
    rows.insert(
        ProgressiveEntry(
            must_hit=meter,
            kind=Entry.RESET,
            before=meter.amount,
            after=meter.amount,
            actor=actor,
            note=f"configuration {configuration}",
        )
    )
    linked = _linked_names(meter)
    sealed = draw.commitment(hit_value, nonce)
    for table in locked:
        record(table, actor, events.MustHitLinked(meter=name, linked=True, tables=linked))
        record(
            table,
            actor,
            events.ProgressiveParameters(
                meter=name, parameters=_must_hit_parameters(meter), effective="now"
            ),
        )
        record(
            table,
            actor,
            events.ProgressiveReset(meter=name, amount=meter.amount, commitment=sealed),
        )
    return meter


def _must_hit_parameters(meter: MustHitProgressive) -> dict[str, str]:
    return {
        "configuration": str(meter.configuration),
        "reset": str(meter.reset),
        "maximum": str(meter.maximum),
        "increment_rate": str(meter.increment_rate),
    }


def _lock_meter(meter: MustHitProgressive | int) -> tuple[MustHitProgressive, list[Table]]:
    """Its linked tables, then the meter: the order settlement locks them in."""
    pk = meter.pk if isinstance(meter, MustHitProgressive) else meter
    tables = _lock_tables(list(Table.objects.filter(must_hit_link__meter_id=pk)))
    found = MustHitProgressive.objects.select_for_update().filter(pk=pk).first()
    if found is None:
        raise ActionError("There is no such must-hit meter.")
    return found, tables


@action
def set_must_hit_configuration(
    meter: MustHitProgressive | int, *, configuration: int, actor: Actor
) -> MustHitProgressive:
    """Another configuration of Table 1: at once on a meter not yet live, else from its next
    reset (its parameters cannot change while it is live)."""
    config = draw.configuration(configuration)
    found, tables = _lock_meter(meter)
    for table in tables:
        _no_round_in_play(table)
    if found.live:
        found.next_configuration, effective = configuration, "next_reset"
        rows.update(found, ["next_configuration"])
    else:
        found.configuration, found.next_configuration = configuration, None
        found.reset, found.maximum = config.reset, config.maximum
        found.increment_rate, found.amount = config.increment_rate, config.reset
        found.hit_value, found.hit_nonce = draw.draw_hit_value(config)
        found.updated_at, effective = timezone.now(), "now"
        rows.update(found, rows.columns_written(type(found)))
    parameters = _must_hit_parameters(found) | {"configuration": str(configuration)}
    if effective == "next_reset":
        parameters |= {
            "reset": str(config.reset),
            "maximum": str(config.maximum),
            "increment_rate": str(config.increment_rate),
        }
    rows.insert(
        ProgressiveEntry(
            must_hit=found,
            kind=Entry.PARAMETERS,
            before=found.amount,
            after=found.amount,
            actor=actor,
            note=f"configuration {configuration}, {effective.replace('_', ' ')}",
        )
    )
    for table in tables:
        record(
            table,
            actor,
            events.ProgressiveParameters(
                meter=found.name, parameters=parameters, effective=effective
            ),
        )
        if effective == "now":
            sealed = draw.commitment(found.hit_value, found.hit_nonce)
            record(
                table,
                actor,
                events.ProgressiveReset(meter=found.name, amount=found.amount, commitment=sealed),
            )
    return found


@action
def link_must_hit(meter: MustHitProgressive | int, *, table: Table, actor: Actor) -> None:
    """One more table feeds the meter (a table of its pit, with no round in play)."""
    locked = lock_table(table)
    found, _tables = _lock_meter(meter)
    _check_linkable(locked, found.pit)
    rows.insert(MustHitLink(meter=found, table=locked))
    record(
        locked,
        actor,
        events.MustHitLinked(meter=found.name, linked=True, tables=_linked_names(found)),
    )


@action
def unlink_must_hit(table: Table, *, actor: Actor) -> None:
    """The table stops feeding its must-hit meter; the meter keeps what it holds."""
    locked = lock_table(table)
    link = MustHitLink.objects.filter(table=locked).select_related("meter").first()
    if link is None:
        raise ActionError(f"{locked} feeds no must-hit meter.")
    _no_round_in_play(locked)
    meter = link.meter
    MustHitLink.objects.filter(pk=link.pk).delete()
    record(
        locked,
        actor,
        events.MustHitLinked(meter=meter.name, linked=False, tables=_linked_names(meter)),
    )


@action
def pay_must_hit_win(win: MustHitWin | int, *, actor: Actor) -> MustHitWin:
    """Pay a must-hit win, in the order the meter's wins happened: a later win waits for the
    earlier ones (its screens show it pending)."""
    pk = win.pk if isinstance(win, MustHitWin) else win
    table_id = MustHitWin.objects.filter(pk=pk).values_list("table_id", flat=True).first()
    if table_id is None:
        raise ActionError("There is no such must-hit win.")
    table = lock_table(table_id)
    found = MustHitWin.objects.select_for_update().select_related("meter", "round__shoe").get(pk=pk)
    meter = MustHitProgressive.objects.select_for_update().get(pk=found.meter_id)
    if found.status == MustHitWin.Status.PAID:
        raise ActionError(f"{meter.name} win {found.number} was paid already.")
    earlier = (
        MustHitWin.objects.filter(
            meter=meter, status=MustHitWin.Status.PENDING, number__lt=found.number
        )
        .select_related("table")
        .order_by("number")
        .first()
    )
    if earlier is not None:
        raise ActionError(
            f"{meter.name} win {earlier.number} at {earlier.table} (seat {earlier.seat}) "
            "came first: pay it before this one."
        )
    found.status, found.paid_at, found.paid_by = MustHitWin.Status.PAID, timezone.now(), actor
    rows.update(found, ["status", "paid_at", "paid_by"])
    rows.insert(
        ProgressiveEntry(
            must_hit=meter,
            kind=Entry.PAID,
            table=table,
            round=found.round,
            seat=found.seat,
            before=meter.amount,
            after=meter.amount,
            wagered=Decimal(0),
            actor=actor,
            note=f"win {found.number}: {found.amount} paid",
        )
    )
    meter_id, name, amount = meter.pk, meter.name, meter.amount
    # Every linked table's screens show the wins to pay: they read the meter again.
    transaction.on_commit(lambda: announce_meter(meter_id, name, amount, read=True))
    won_in = f"{table} shoe {found.round.shoe.number} round {found.round.number}"
    record(
        table,
        actor,
        events.MustHitPaid(
            meter=meter.name,
            number=found.number,
            seat=found.seat,
            amount=found.amount,
            won_in=won_in,
        ),
    )
    return found
