"""Table actions: open and close, seats, limits, Rules Submissions, curator and player-dealer."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from baccarat.errors import RulesError
from baccarat.profiles import (
    RulesSubmission,
    SettlementProcedure,
    ShuffleProcedure,
    rules_submission,
)
from baccarat.seating import california_action_order, curator_offer_order
from baccarat.wagertypes import WagerType
from casino import access
from casino.models import Event, Pit
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    NotAllowed,
    action,
    check_text,
    lock_table,
    plain_options,
    record,
    supervisor_reason,
)
from tablegame.live import live
from tablegame.models import (
    ProcedureNotice,
    ProgressiveMeter,
    Round,
    Seat,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
)
from tablegame.models.tables import default_limits
from tablegame.work import work

log = logging.getLogger(__name__)


@action
def open_table(table: Table, *, actor: Actor) -> Table:
    """Open the table for gaming: seats, limits and the Rules Submission on file, decks schedule."""
    table = lock_table(table)
    if table.status == Table.Status.OPEN:
        raise ActionError(f"{table} is already open.")
    rules = table.rules
    for number in range(1, table.seat_count + 1):
        Seat.objects.get_or_create(table=table, number=number)
    if not table.rules_history.exists():
        work().add_now(TableRules(table=table, profile=table.profile, filed_by=actor))
    for wager, (low, high) in default_limits(rules).items():
        TableLimit.objects.get_or_create(
            table=table, wager_type=wager.value, defaults={"minimum": low, "maximum": high}
        )
    if rules.royal9 is not None:
        for meter in ("star", "spade", "heart"):
            seed = rules.royal9.progressive(meter).reseed
            rate = rules.royal9.progressive(meter).contribution
            ProgressiveMeter.objects.get_or_create(
                table=table,
                name=meter,
                defaults={"amount": seed, "reseed": seed, "contribution": rate},
            )
    table.status, table.status_changed_at = Table.Status.OPEN, timezone.now()
    work().save_now(table, ["status", "status_changed_at"])
    record(table, actor, events.TableOpened(profile=rules.name))
    return table


@action
def close_table(table: Table, *, actor: Actor) -> Table:
    """Close the table: no round in play, no vigorish marker left open."""
    table = lock_table(table)
    if table.status == Table.Status.CLOSED:
        raise ActionError(f"{table} is already closed.")
    if table.active_round():
        raise ActionError("Finish or void the round in play before closing the table.")
    if table.shoes.exclude(state="finished").exists():
        raise ActionError("End the shoe before closing the table.")
    refuse_open_markers(table, "closing the table")
    table.status, table.status_changed_at = Table.Status.CLOSED, timezone.now()
    work().save_now(table, ["status", "status_changed_at"])
    record(table, actor, events.TableClosed())
    return table


def refuse_open_markers(table: Table, doing: str, seat: int | None = None) -> None:
    markers = table.markers.filter(status=VigorishMarker.Status.OPEN)
    if seat is not None:
        markers = markers.filter(seat=seat)
    seats = sorted(set(markers.values_list("seat", flat=True)), reverse=True)
    if seats:
        listed = ", ".join(str(s) for s in seats)
        raise ActionError(
            f"Vigorish is still marked at seat {listed}: collect it or request a Complimentary "
            f"Vigorish Form before {doing}."
        )


@action
def file_rules(
    table: Table,
    *,
    profile: str,
    options: Mapping[str, Any] | None = None,
    effective_at: datetime.datetime | None = None,
    actor: Actor,
) -> TableRules:
    """File a Rules Submission for the table, effective now or later (``TableRules``).

    A table's filings are one history, in the order they take effect. Under the preset in force
    at ``effective_at`` the filing sets ``options`` over the options in force then, and keeps
    those that change as what it changes (a filing that changes nothing is refused); under
    another preset it states the whole submission. The filings still to take effect after it
    then set their own changes over it: each is restated, recorded (``rules_restated``), and if
    one could not stand so, or would change a procedure its notice did not announce, this filing
    is refused. Nothing filed is lost: a filing's changes stay as filed.

    A change of settlement or shuffle procedure, or of the type or rate of commission, takes
    effect no sooner than the notice surveillance is given (at least 30 minutes, 002 (c)(5),
    (e)(2)(ii)B, (j)(3)(ii); 004 §5(a)(1)(ii)), whether the table is open or closed: the notice
    comes before "the implementation of or a change in the particular procedure to be used at a
    table" (002 (j)(3)(ii)), which a closed table meets when it opens, at any moment its staff
    choose; closing, filing and reopening would otherwise skip it. Every table of a pit dealt
    under a text that asks for one procedure per pit keeps it (``PIT_WIDE``):
    ``file_pit_procedure`` changes them all at once.
    """
    table = lock_table(table)
    now = timezone.now()
    pit = Pit.objects.select_related("casino").get(pk=table.pit_id)
    when = _moment(effective_at, now, pit)
    filed = _file(
        table, pit, profile=profile, options=options or {}, when=when, now=now, actor=actor
    )
    _check_pit_alike(pit, since=when, touched={table.pk})
    return filed


#: The least notice surveillance is given of a change of procedure (002 (e)(2)(ii)B,
#: (j)(3)(ii)); a Rules Submission may ask for more, never less.
LEAST_NOTICE_MINUTES = 30

#: A stated time this little past is taken as now (the pit's form states minutes).
PAST_GRACE = datetime.timedelta(minutes=1)
#: The furthest ahead a filing may take effect: a time past it no casino means (9999-12-31).
FURTHEST_AHEAD = datetime.timedelta(days=5 * 365)

#: What every table of a pit dealt under the same rules text keeps alike, by text: 002's
#: shuffling or lacing option and settlement procedure ((e)(3), (j)(3)(i)), 004's shuffling or
#: lacing option (§5(b)). The other texts leave each table its own.
PIT_WIDE: dict[str, tuple[str, ...]] = {"002": ("settlement", "shuffle"), "004": ("shuffle",)}

#: The shuffling or lacing options of those texts (002 (e)(2); 004 §5(a)).
PIT_SHUFFLES: dict[str, tuple[ShuffleProcedure, ...]] = {
    "002": (
        ShuffleProcedure.FEATHERED,
        ShuffleProcedure.LACED,
        ShuffleProcedure.LACED_THEN_RESHUFFLED,
    ),
    "004": (
        ShuffleProcedure.LACED,
        ShuffleProcedure.LACED_THEN_RESHUFFLED,
        ShuffleProcedure.WASH_AND_THREE_DEALERS,
    ),
}


def _moment(
    effective_at: datetime.datetime | None, now: datetime.datetime, pit: Pit
) -> datetime.datetime:
    """When a filing takes effect: now if not stated. A moment past is refused (what was in
    force then stays as it was), but for the minute just gone, taken as now."""
    if effective_at is None:
        return now
    if effective_at > now + FURTHEST_AHEAD:
        raise ActionError(
            f"Rules are filed at most {FURTHEST_AHEAD.days // 365} years ahead: "
            f"state a nearer time."
        )
    if effective_at < now - PAST_GRACE:
        local = effective_at.astimezone(pit.casino.zone)
        raise ActionError(
            f"{local:%H:%M %Z} has passed: rules take effect from now on (state a later time, "
            f"or none for now)."
        )
    return max(effective_at, now)


def _submission(profile: str, options: Mapping[str, Any]) -> RulesSubmission:
    try:
        return rules_submission(profile, options)
    except RulesError as error:
        raise ActionError(str(error)) from None


def _file(
    table: Table,
    pit: Pit,
    *,
    profile: str,
    options: Mapping[str, Any],
    when: datetime.datetime,
    now: datetime.datetime,
    actor: Actor,
) -> TableRules:
    """One filing at a locked table (``file_rules``): what it changes over the rules in force
    at ``when``, its notice and its event; the filings after it restated over it; the screens
    told when it takes effect."""
    on_file = table.rules_record(when)
    before = table.submission(on_file)
    base_profile = on_file.profile if on_file else table.profile
    base: dict[str, Any] = dict(on_file.options) if on_file else {}
    asked = plain_options(dict(options))
    whole = profile != base_profile
    new = _submission(profile, asked if whole else {**base, **asked})
    changes = asked
    if not whole:
        changes = {k: v for k, v in asked.items() if getattr(new, k) != getattr(before, k)}
        if not changes:
            raise ActionError(f"Nothing changes: {table} is dealt under these rules then already.")
    if not new.min_seats <= table.seat_count <= new.max_seats:
        raise ActionError(f"{new.title} is played with {new.min_seats}-{new.max_seats} seats.")
    _check_notice(pit, before, new, now=now, when=when)
    filed = work().add_now(
        TableRules(
            table=table,
            profile=profile,
            options=changes if whole else {**base, **changes},
            changes=changes,
            whole=whole,
            effective_at=when,
            filed_by=actor,
            filed_at=now,
        )
    )
    _give_notice(filed, before, new, actor=actor)
    record(
        table,
        actor,
        events.RulesFiled(
            profile=profile,
            options=filed.options,
            effective_at=when.isoformat(),
            changes=None if whole else changes,
            filing=filed.pk,
        ),
    )
    _restate_after(table, pit, filed, new, actor=actor)
    _take_effect_later(filed, now)
    return filed


def _restate_after(
    table: Table, pit: Pit, filed: TableRules, rules: RulesSubmission, *, actor: Actor
) -> None:
    """Set the changes of each filing still to take effect after ``filed`` over it, in order,
    and restate what each then holds (recorded); refuse ``filed`` when one could not stand so,
    or would change a procedure its notice did not announce (002 (j)(3)(ii))."""
    later = (
        table.rules_history.filter(effective_at__gt=filed.effective_at)
        .select_related("notice")
        .order_by("effective_at", "pk")
    )
    profile, options, before = filed.profile, dict(filed.options), rules
    for row in later:
        if row.whole:
            profile, options = row.profile, dict(row.options)
        else:
            options = {**options, **row.changes}
        local = row.effective_at.astimezone(pit.casino.zone)
        try:
            after = rules_submission(profile, options)
        except RulesError as error:
            raise ActionError(
                f"This change cannot come before the rules filed for {local:%H:%M %Z}: they "
                f"could not stand over it ({error}) File it for then or later."
            ) from None
        announced = _announced(row)
        unannounced = [c for c in _procedure_changes(before, after) if c not in announced]
        if unannounced:
            raise ActionError(
                f"This change cannot come before the rules filed for {local:%H:%M %Z}: they "
                f"would then change the {' and '.join(unannounced)} with no notice to "
                f"surveillance. File it for then or later."
            )
        if (profile, options) != (row.profile, row.options):
            held = row.options
            row.profile, row.options = profile, options
            work().save_now(row, ["profile", "options"])
            record(
                table,
                actor,
                events.RulesRestated(
                    filing=row.pk,
                    effective_at=row.effective_at.isoformat(),
                    profile=profile,
                    options=options,
                    before=held,
                    over=filed.pk,
                ),
            )
        before = after


def _announced(filing: TableRules) -> set[str]:
    """The changes the filing's notice announced to surveillance (none without a notice)."""
    try:
        notice = filing.notice
    except ProcedureNotice.DoesNotExist:
        return set()
    return set(notice.changes.split(" and "))


def _take_effect_later(filed: TableRules, now: datetime.datetime) -> None:
    """Once committed, have a filing for later recorded in force and told to the screens at its
    time (``tablegame.tasks.rules_take_effect``). Not where tasks run eagerly (the embedded
    demo: no worker waits for the time); there the table state read after it shows the rules
    (``tablegame.snapshots``) and the next event tells the screens."""
    if filed.effective_at <= now or settings.CELERY_TASK_ALWAYS_EAGER:
        return
    pk, eta = filed.pk, filed.effective_at
    transaction.on_commit(lambda: _schedule(pk, eta))


def _schedule(filing_id: int, eta: datetime.datetime) -> None:
    from tablegame.tasks import rules_take_effect  # it calls this module

    try:
        rules_take_effect.apply_async((filing_id,), eta=eta)
    except Exception:  # the filing stands: the state read after its time shows it
        log.warning("could not schedule filing %s taking effect", filing_id, exc_info=True)


@transaction.atomic
def record_rules_in_force(filing_id: int) -> int | None:
    """The filing has taken effect: record it in force (``rules_in_force``; no one's command,
    no actor) and tell the screens once committed, if it is the table's Rules Submission in
    force now and was not recorded so already. Its event's sequence, else None (not yet in
    force, superseded, or recorded already). Run at its time by
    ``tablegame.tasks.rules_take_effect``."""
    table_id = TableRules.objects.filter(pk=filing_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return None
    table = lock_table(table_id)  # Race: the task run twice (a broker's redelivery) at once.
    filing = table.rules_record(timezone.now())
    if filing is None or filing.pk != filing_id:
        return None
    recorded = Event.objects.filter(
        chain_id=table.chain_id,
        created_at__gte=filing.effective_at,
        **events.RulesInForce.lookup(filing=filing_id),
    )
    if recorded.exists():
        return None
    return record(table, None, _in_force(filing))


def record_rules_taken_effect(table: Table) -> int | None:
    """Inside a command, before its action: rules filed for later that took effect since the
    table's last event are recorded in force first (``rules_in_force``, no actor), written with
    the command's events, so that its answer tells the screens; no query of its own (what the
    command read after the lock answers, ``Live.rules_since_last_event``). Its event's sequence,
    else None (nothing took effect since, a round is in play, or the task recorded it)."""
    filing = live(table).rules_since_last_event()
    return None if filing is None else record(table, None, _in_force(filing))


def _in_force(filing: TableRules) -> events.RulesInForce:
    return events.RulesInForce(
        filing=filing.pk,
        profile=filing.profile,
        options=filing.options,
        effective_at=filing.effective_at.isoformat(),
    )


def _procedure_changes(old: RulesSubmission, new: RulesSubmission) -> list[str]:
    """What changes that surveillance must be told of in advance: the settlement or shuffle
    procedure (002 (e)(2)(ii)B, (j)(3)(ii)), a shuffle machine taken into or out of use (a change
    of the shuffle procedure, 004 §4(e)) and the type or rate of commission (002 (c)(5))."""
    return [
        what
        for what, before, after in (
            ("settlement procedure", old.settlement, new.settlement),
            ("shuffle procedure", old.shuffle, new.shuffle),
            ("automatic shuffler", old.shuffler_decks is None, new.shuffler_decks is None),
            ("commission", old.commission, new.commission),
            ("commission rate", old.commission_rate, new.commission_rate),
            ("commission on ties", old.tie_commission_rate, new.tie_commission_rate),
        )
        if before != after
    ]


def _procedure_of(rules: RulesSubmission) -> str:
    """The procedures a notice names, as surveillance reads them."""
    commission = rules.commission.value.replace("_", " ")
    if rules.commission.value == "on_banker_win":
        commission += f" {(rules.commission_rate * 100).normalize():f} %"
    elif rules.commission.value == "on_tie":
        commission += f" {(rules.tie_commission_rate * 100).normalize():f} %"
    machine = (
        f" and a shuffler of {rules.shuffler_decks[0]}-{rules.shuffler_decks[1]} decks"
        if rules.shuffler_decks
        else ""
    )
    return (
        f"settlement {rules.settlement.value.replace('_', ' ')}; "
        f"shuffle {rules.shuffle.value.replace('_', ' ')}{machine}; commission {commission}"
    )


def _give_notice(
    filed: TableRules, old: RulesSubmission, new: RulesSubmission, *, actor: Actor
) -> ProcedureNotice | None:
    """The written notice to surveillance of a change of procedure the filing makes, for
    surveillance to acknowledge (``tablegame.actions.notices``); None when it makes none."""
    changes = _procedure_changes(old, new)
    if not changes:
        return None
    return work().add_now(
        ProcedureNotice(
            rules=filed,
            table_id=filed.table_id,
            changes=" and ".join(changes),
            before=_procedure_of(old),
            after=_procedure_of(new),
            effective_at=filed.effective_at,
            filed_by=actor,
            filed_at=filed.filed_at,
        )
    )


def _check_notice(
    pit: Pit,
    old: RulesSubmission,
    new: RulesSubmission,
    *,
    now: datetime.datetime,
    when: datetime.datetime,
) -> None:
    """Refuse a change of procedure or commission that takes effect before surveillance has had
    its notice, at an open table or a closed one (``file_rules``): the filing is the written
    notice, recorded, so it takes effect that much later."""
    changes = _procedure_changes(old, new)
    if not changes:
        return
    minutes = max(
        LEAST_NOTICE_MINUTES,
        old.procedure_change_notice_minutes,
        new.procedure_change_notice_minutes,
    )
    earliest = now + datetime.timedelta(minutes=minutes)
    if when < earliest:
        minute = (earliest + datetime.timedelta(seconds=59)).replace(second=0, microsecond=0)
        local = minute.astimezone(pit.casino.zone)  # the first whole minute a form may state
        raise ActionError(
            f"Surveillance must be told at least {minutes} minutes before the "
            f"{' and '.join(changes)} change{'s' if len(changes) > 1 else ''}: make it "
            f"effective at {local:%H:%M %Z} or later."
        )


#: Where the texts ask for one procedure per pit (``PIT_WIDE``).
PIT_WIDE_CITED = {"002": "002 (e)(3), (j)(3)(i)", "004": "004 §5(b)"}


def _check_pit_alike(pit: Pit, *, since: datetime.datetime, touched: set[int]) -> None:
    """Every table of the pit dealt under a text that asks for one procedure per pit
    (``PIT_WIDE``) uses the same from ``since`` on: compared at each moment filed rules take
    effect, among the tables dealt under the text of a table whose rules were just filed
    (``touched``)."""
    tables = list(Table.objects.filter(pit=pit).order_by("name").prefetch_related("rules_history"))
    moments = {since} | {
        r.effective_at for t in tables for r in t.rules_history.all() if r.effective_at > since
    }
    for at in sorted(moments):
        dealt = [(t, t.submission(t.rules_record(at))) for t in tables]
        for mine, rules in (d for d in dealt if d[0].pk in touched):
            fields = PIT_WIDE.get(rules.source, ())
            for other, theirs in dealt:
                if theirs.source != rules.source or all(
                    getattr(theirs, f) == getattr(rules, f) for f in fields
                ):
                    continue
                local = at.astimezone(pit.casino.zone)
                raise ActionError(
                    f"Every table of {pit} dealt under the same rules uses one "
                    f"{' and '.join(fields)} procedure ({PIT_WIDE_CITED[rules.source]}); from "
                    f"{local:%H:%M %Z} {mine} would use {_uses(rules, fields)} and {other} "
                    f"{_uses(theirs, fields)}: change the procedure for the whole pit at once."
                )


def _uses(rules: RulesSubmission, fields: Sequence[str]) -> str:
    return " and ".join(getattr(rules, f).value.replace("_", " ") for f in fields)


@action
def file_pit_procedure(
    pit: Pit,
    *,
    source: str = "002",
    settlement: str = "",
    shuffle: str = "",
    effective_at: datetime.datetime,
    actor: Actor,
) -> list[TableRules]:
    """Change the settlement or shuffle procedure of every table of the pit dealt under the
    rules text ``source``, all at one stated time, at least the notice after now (002 (e)(3),
    (j)(3); 004 §5(b)). Each table's filing changes only what differs there at that time, over
    the rules in force then (``file_rules``: the filings after it are restated over it)."""
    fields = PIT_WIDE.get(source)
    if fields is None:
        raise ActionError(
            f"Rules text {source} leaves each table its own procedures: change them at the table."
        )
    changes: dict[str, str] = {}
    try:
        if settlement:
            changes["settlement"] = SettlementProcedure(settlement).value
        if shuffle:
            changes["shuffle"] = ShuffleProcedure(shuffle).value
    except ValueError:
        raise ActionError("That is not a settlement or shuffle procedure of the rules.") from None
    if not changes:
        raise ActionError("Choose the settlement or shuffle procedure the pit changes to.")
    if "settlement" in changes and "settlement" not in fields:
        raise ActionError(
            f"Rules text {source} leaves the settlement procedure to each table; the pit keeps "
            f"one shuffle procedure."
        )
    if "shuffle" in changes and ShuffleProcedure(changes["shuffle"]) not in PIT_SHUFFLES[source]:
        allowed = ", ".join(p.value.replace("_", " ") for p in PIT_SHUFFLES[source])
        raise ActionError(f"Rules text {source} allows these shuffle procedures: {allowed}.")
    now = timezone.now()
    # Race: the dealer acts at a table of the pit meanwhile; every table is locked, in order.
    tables = [lock_table(t) for t in Table.objects.filter(pit=pit).order_by("pk")]
    pit = Pit.objects.select_related("casino").get(pk=pit.pk)
    when = _moment(effective_at, now, pit)
    filed: list[TableRules] = []
    dealt = False
    for table in tables:
        on_file = table.rules_record(when)
        rules = table.submission(on_file)
        if rules.source != source:
            continue
        dealt = True
        differ = {k: v for k, v in changes.items() if getattr(rules, k).value != v}
        if not differ:
            continue
        profile = on_file.profile if on_file else table.profile
        try:
            filed.append(
                _file(table, pit, profile=profile, options=differ, when=when, now=now, actor=actor)
            )
        except ActionError as error:
            raise ActionError(f"{table}: {error}") from None
    if not dealt:
        raise ActionError(f"{pit} has no table dealt under rules text {source}.")
    if not filed:
        raise ActionError(
            f"Every table of {pit} dealt under rules text {source} uses that procedure then "
            f"already."
        )
    _check_pit_alike(pit, since=when, touched={f.table_id for f in filed})
    return filed


@action
def set_seat_count(table: Table, *, seats: int, reason: str = "", actor: Actor) -> Table:
    """How many numbered seats the table has, as its rules allow (Minibaccarat up to nine,
    000 §2(a); a big table 10 to 14, 004 §2(a); California up to 14, 001), between rounds."""
    table = lock_table(table)
    rules = table.rules
    reason = check_text(reason, field="reason", limit=200)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise ActionError(
            f"{rules.title} is played with {rules.min_seats} to {rules.max_seats} seats."
        )
    if seats == table.seat_count:
        raise ActionError(f"{table} has {seats} seats already.")
    if table.active_round():
        raise ActionError("The seats change only between rounds.")
    gone = [n for n in table.occupied_seats() if n > seats]
    held = [
        n for n in (table.curator_seat, table.player_dealer_seat) if n is not None and n > seats
    ]
    if gone or held:
        raise ActionError(f"Seat {max(gone + held)} is taken: it stays while someone sits there.")
    if table.markers.filter(status=VigorishMarker.Status.OPEN, seat__gt=seats).exists():
        raise ActionError("Vigorish is still marked at a seat that would go: settle it first.")
    if table.status == Table.Status.OPEN:
        # Growing, the seats are read next (``get_or_create``): any above the count go now.
        work().delete(table.seats.filter(number__gt=seats), now=seats > table.seat_count)
        for number in range(table.seat_count + 1, seats + 1):
            Seat.objects.get_or_create(table=table, number=number)
    before, table.seat_count = table.seat_count, seats
    work().save_now(table, ["seat_count"])
    record(table, actor, events.SeatsSet(seats=seats, before=before, reason=reason))
    return table


@action
def set_limit(
    table: Table,
    *,
    wager: str,
    minimum: Decimal,
    maximum: Decimal,
    reason: str = "",
    actor: Actor,
) -> TableLimit:
    """Set the minimum and maximum of one wager at the table (``reason``: why, recorded)."""
    table = lock_table(table)
    reason = check_text(reason, field="reason", limit=200)
    try:
        kind = WagerType(wager)
    except ValueError:
        raise ActionError(f"'{wager}' is not a wager.") from None
    if not table.rules.offers(kind):
        raise ActionError(f"{table} does not offer the {kind.label} wager.")
    if minimum <= 0 or maximum < minimum:
        raise ActionError("The minimum must be above zero and the maximum at least the minimum.")
    limit, _ = TableLimit.objects.update_or_create(
        table=table, wager_type=kind.value, defaults={"minimum": minimum, "maximum": maximum}
    )
    record(
        table,
        actor,
        events.LimitSet(
            wager=kind,
            minimum=Decimal(str(minimum)),
            maximum=Decimal(str(maximum)),
            reason=reason,
        ),
    )
    return limit


@action
def take_shoe(
    table: Table, *, seat: int | None, declined: Sequence[int] = (), actor: Actor
) -> Table:
    """Big table: a player accepts the shoe as curator, or the dealer takes it (004 §7, §14).

    The shoe is offered in order (seat 1 first, or from the right of the last curator); every seat
    offered before the one that accepts must have declined. ``seat=None``: the dealer is curator.
    """
    table = lock_table(table)
    facts = live(table)
    if not facts.rules_in_force.has_curator:
        raise ActionError(f"{table} is dealt by the house dealer; there is no curator.")
    game = facts.round
    if game and game.state != Round.State.BETTING:
        raise ActionError("The shoe changes hands only between rounds.")
    previous = table.curator_seat or table.previous_curator_seat
    order = curator_offer_order(facts.seats, previous=previous)
    _check_offer(order, seat, declined, "the shoe")
    table.curator_seat = seat if seat is not None else 0
    work().save(table, ["curator_seat"])  # with the command's record
    record(table, actor, events.CuratorTaken(seat=seat, declined=tuple(declined)))
    return table


def _check_offer(order: list[int], seat: int | None, declined: Sequence[int], what: str) -> None:
    """Every seat offered before the one that accepted declined; nobody accepted: all declined."""
    if seat is not None and seat not in order:
        raise ActionError(f"Seat {seat} is not offered {what}.")
    before = order[: order.index(seat)] if seat is not None else order
    skipped = [s for s in before if s not in declined]
    if skipped:
        raise ActionError(f"Offer {what} to seat {skipped[0]} first.")


@action
def pass_shoe(table: Table, *, ordered: bool = False, reason: str = "", actor: Actor) -> Table:
    """The curator passes the shoe, by choice or on the order of the dealer or a floorperson
    (``reason``: why it was ordered, recorded)."""
    table = lock_table(table)
    reason = supervisor_reason(actor, reason, "the curator must pass") if ordered else ""
    if table.curator_seat is None:
        raise ActionError("Nobody holds the shoe.")
    game = live(table).round
    if game and game.state != Round.State.BETTING:
        raise ActionError("The shoe changes hands only between rounds.")
    record(table, actor, events.ShoePassed(seat=table.curator_seat, ordered=ordered, reason=reason))
    table.previous_curator_seat, table.curator_seat = table.curator_seat, None
    work().save(table, ["curator_seat", "previous_curator_seat"])  # with the command's record
    return table


@action
def take_player_dealer(
    table: Table, *, seat: int, declined: Sequence[int] = (), reason: str = "", actor: Actor
) -> Table:
    """California: a player takes the player-dealer position, offered clockwise (001); or a
    supervisor moves it to a seated player, saying why (``reason``, recorded)."""
    table = lock_table(table)
    facts = live(table)
    if not facts.rules_in_force.player_dealer:
        raise ActionError(f"{table} has no player-dealer position.")
    if facts.round:
        raise ActionError("The player-dealer position changes only between rounds.")
    seats = facts.seats
    reason = check_text(reason, field="reason", limit=200)
    if reason:
        return _move_player_dealer(table, seat=seat, seats=seats, reason=reason, actor=actor)
    last = table.player_dealer_seat or table.previous_player_dealer_seat
    if last is None:
        order = [seat] if seat in seats else []  # the first position is offered to anyone seated
    else:
        order = california_action_order(last, seats)
        if table.player_dealer_seat is None and last in seats:
            order.append(last)  # offered continuously around the table: back to the last one
    _check_offer(order, seat, declined, "the player-dealer position")
    table.player_dealer_seat, table.player_dealer_hands = seat, 0
    work().save(table, ["player_dealer_seat", "player_dealer_hands"])  # with the record
    record(table, actor, events.PlayerDealerTaken(seat=seat, declined=tuple(declined)))
    return table


def _move_player_dealer(
    table: Table, *, seat: int, seats: list[int], reason: str, actor: Actor
) -> Table:
    """A supervisor moves the player-dealer position out of its turn (a player leaves the game,
    a dispute), to a seated player."""
    decision = access.decide(actor, "authority:move_player_dealer")
    if not decision.allowed:
        raise NotAllowed(decision.reason)
    if seat not in seats:
        raise ActionError(f"Nobody sits at seat {seat}: the position goes to a seated player.")
    if seat == table.player_dealer_seat:
        raise ActionError(f"Seat {seat} holds the player-dealer position already.")
    if table.player_dealer_seat is not None:
        table.previous_player_dealer_seat = table.player_dealer_seat
    table.player_dealer_seat, table.player_dealer_hands = seat, 0
    work().save(  # with the command's record
        table, ["player_dealer_seat", "player_dealer_hands", "previous_player_dealer_seat"]
    )
    record(table, actor, events.PlayerDealerTaken(seat=seat, declined=(), reason=reason))
    return table
