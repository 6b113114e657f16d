"""A table's Rules Submissions and seats as functions of the state in play: rules filed for now
or later (with surveillance's notice of a change of procedure, and the later filings restated
over them), rules recorded in force when their time comes, the number of seats.

A filing reads more than the table's state in play: the table's whole history of filings (with
their notices) and the histories of the pit's tables dealt under a text that keeps one procedure
per pit. ``filings`` reads them after the table's lock (one statement each), and the filing is a
function of all of it.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings

from baccarat.errors import RulesError
from baccarat.profiles import PROFILES, RulesSubmission, rules_submission
from fastpath import rows
from tablegame import events
from tablegame.errors import ActionError
from tablegame.models import ProcedureNotice, Table, TableRules
from tablegame.models.tables import TableRules as RulesModel
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_text
from tablegame.play.rows import NoticeRow, RulesRow, SeatRow, from_model
from tablegame.play.state import InPlay
from tablegame.procedures import (
    FURTHEST_AHEAD,
    LEAST_NOTICE_MINUTES,
    PAST_GRACE,
    PIT_WIDE,
    PIT_WIDE_CITED,
    plain_options,
    procedure_changes,
    procedure_of,
    schedule_in_force,
)


@dataclass(frozen=True)
class Filing:
    """A filing of the table's history, and what its notice announced (none: no notice)."""

    rules: RulesRow
    announced: frozenset[str]


@dataclass(frozen=True)
class PitTable:
    """A table of the pit, and its filings in the order they take effect."""

    table_id: int
    name: str
    profile: str
    filings: tuple[RulesRow, ...]

    def in_force(self, at: datetime.datetime) -> RulesSubmission:
        found = [r for r in self.filings if r.effective_at <= at]
        record = max(found, key=lambda r: (r.effective_at, r.id or 0), default=None)
        return record.submission if record else PROFILES[self.profile]


def filings(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a filing: the table's filings with their notices, the pit's tables with theirs
    (read after the table's lock), and the new filing's key."""
    history = tuple(
        Filing(
            from_model(RulesRow, row),
            frozenset(row.notice.changes.split(" and ")) if _has_notice(row) else frozenset(),
        )
        for row in RulesModel.objects.filter(table_id=state.table.id or 0)
        .select_related("notice")
        .order_by("effective_at", "pk")
    )
    pit = pit_tables(state.table.pit_id)
    (filing_id,), *_ = rows.next_keys({RulesModel: 1})
    return {"history": history, "pit": pit, "filing_id": filing_id}


def pit_tables(pit_id: int) -> tuple[PitTable, ...]:
    """The pit's tables, each with its filings (one statement each: the tables, the filings)."""
    return tuple(
        PitTable(
            table.pk,
            table.name,
            table.profile,
            tuple(from_model(RulesRow, r) for r in table.rules_history.all()),
        )
        for table in Table.objects.filter(pit_id=pit_id)
        .order_by("name")
        .prefetch_related("rules_history")
    )


def _has_notice(row: TableRules) -> bool:
    try:
        return row.notice is not None
    except ProcedureNotice.DoesNotExist:
        return False


def file_rules(
    state: InPlay,
    command: Command,
    *,
    profile: str,
    options: Mapping[str, Any] | None = None,
    effective_at: datetime.datetime | None = None,
    history: Sequence[Filing] = (),
    pit: Sequence[PitTable] = (),
    filing_id: int = 0,
) -> Changes:
    """File a Rules Submission for the table, effective now or later.

    A table's filings are one history, in the order they take effect. Under the preset in force
    at ``effective_at`` the filing sets ``options`` over the options in force then, and keeps
    those that change as what it changes (a filing that changes nothing is refused); under
    another preset it states the whole submission. The filings still to take effect after it
    then set their own changes over it: each is restated, recorded (``rules_restated``), and if
    one could not stand so, or would change a procedure its notice did not announce, this filing
    is refused. Nothing filed is lost: a filing's changes stay as filed.

    A change of settlement or shuffle procedure, or of the type or rate of commission, takes
    effect no sooner than the notice surveillance is given (at least 30 minutes, 002 (c)(5),
    (e)(2)(ii)B, (j)(3)(ii); 004 §5(a)(1)(ii)), whether the table is open or closed. Every table
    of a pit dealt under a text that asks for one procedure per pit keeps it (``PIT_WIDE``).
    (``history``, ``pit``, and the new filing's key ``filing_id``: read by ``filings``.)
    """
    zone = zoneinfo.ZoneInfo(state.casino.time_zone)
    when = moment(effective_at, command.at, zone)
    done, mine = file_one(
        state,
        command,
        history,
        profile=profile,
        options=options or {},
        when=when,
        zone=zone,
        filing_id=filing_id,
    )
    table = state.table
    check_pit_alike(table.id or 0, state.pit.name, pit, mine, since=when, zone=zone)
    return done + Changes(read_again=True)  # the rules in force and next: read after it


def file_procedure(
    state: InPlay,
    command: Command,
    *,
    source: str,
    changes: Mapping[str, str],
    when: datetime.datetime,
    history: Sequence[Filing] = (),
    pit: Sequence[PitTable] = (),
    filing_id: int = 0,
) -> Changes:
    """One table's part of a change of procedure for the whole pit (``changes``: settlement or
    shuffle, at ``when``): at a table dealt then under the rules text ``source``, a filing of
    what differs there, over the rules in force then (``file_one``); nothing elsewhere. The pit
    is checked alike once every table's part is filed (``actions.tables.file_pit_procedure``)."""
    del pit  # checked once, for the whole pit
    on_file = _in_force_at(history, when)
    rules = on_file.submission if on_file else PROFILES[state.table.profile]
    if rules.source != source:
        return c.NONE
    differ = {k: v for k, v in changes.items() if getattr(rules, k).value != v}
    if not differ:
        return c.NONE
    zone = zoneinfo.ZoneInfo(state.casino.time_zone)
    profile = on_file.profile if on_file else state.table.profile
    try:
        done, _ = file_one(
            state, command, history, profile=profile, options=differ, when=when, zone=zone,
            filing_id=filing_id,
        )  # fmt: skip
    except ActionError as error:
        raise ActionError(f"{state.table.name}: {error}") from None
    return done + Changes(read_again=True)


def moment(
    effective_at: datetime.datetime | None, now: datetime.datetime, zone: zoneinfo.ZoneInfo
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
        local = effective_at.astimezone(zone)
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


def _in_force_at(history: Sequence[Filing], at: datetime.datetime) -> RulesRow | None:
    found = [f.rules for f in history if f.rules.effective_at <= at]
    return max(found, key=lambda r: (r.effective_at, r.id or 0), default=None)


def file_one(
    state: InPlay,
    command: Command,
    history: Sequence[Filing],
    *,
    profile: str,
    options: Mapping[str, Any],
    when: datetime.datetime,
    zone: zoneinfo.ZoneInfo,
    filing_id: int,
) -> tuple[Changes, tuple[RulesRow, ...]]:
    """One filing at a locked table (its key ``filing_id``): what it changes over the rules in
    force at ``when``, its notice and its event; the filings after it restated over it; the
    screens told when it takes effect. The changes, and the table's filings after them."""
    table = state.table
    assert table.id is not None
    on_file = _in_force_at(history, when)
    before = on_file.submission if on_file else PROFILES[table.profile]
    base_profile = on_file.profile if on_file else table.profile
    base: dict[str, Any] = dict(on_file.options) if on_file else {}
    asked = plain_options(dict(options))
    whole = profile != base_profile
    new = _submission(profile, asked if whole else {**base, **asked})
    changed = asked
    if not whole:
        changed = {k: v for k, v in asked.items() if getattr(new, k) != getattr(before, k)}
        if not changed:
            raise ActionError(
                f"Nothing changes: {table.name} is dealt under these rules then already."
            )
    if not new.min_seats <= table.seat_count <= new.max_seats:
        raise ActionError(f"{new.title} is played with {new.min_seats}-{new.max_seats} seats.")
    _check_notice(before, new, now=command.at, when=when, zone=zone)
    filed = RulesRow(
        id=filing_id,
        table_id=table.id,
        profile=profile,
        options=changed if whole else {**base, **changed},
        changes=changed,
        whole=whole,
        effective_at=when,
        filed_by_id=command.actor_id,
        filed_at=command.at,
    )
    done = c.insert(filed)
    found = procedure_changes(before, new)
    if found:  # the written notice to surveillance of the change of procedure
        done += c.insert(
            NoticeRow(
                rules_id=filing_id,
                table_id=table.id,
                changes=" and ".join(found),
                before=procedure_of(before),
                after=procedure_of(new),
                effective_at=when,
                filed_by_id=command.actor_id,
                filed_at=command.at,
            )
        )
    done += c.event(
        command.actor_id,
        events.RulesFiled(
            profile=profile,
            options=dict(filed.options),
            effective_at=when.isoformat(),
            changes=None if whole else dict(changed),
            filing=filing_id,
        ),
    )
    restated, later = _restate_after(command, history, filed, new, zone)
    done += restated
    if when > command.at and not settings.CELERY_TASK_ALWAYS_EAGER:
        done += Changes(after_commit=(lambda: schedule_in_force(filing_id, when),))
    earlier = tuple(f.rules for f in history if f.rules.effective_at <= when)
    return done, (*earlier, filed, *later)


def _check_notice(
    old: RulesSubmission,
    new: RulesSubmission,
    *,
    now: datetime.datetime,
    when: datetime.datetime,
    zone: zoneinfo.ZoneInfo,
) -> None:
    """Refuse a change of procedure or commission that takes effect before surveillance has had
    its notice: the filing is the written notice, recorded, so it takes effect that much
    later."""
    found = procedure_changes(old, new)
    if not found:
        return
    minutes = max(
        LEAST_NOTICE_MINUTES,
        old.procedure_change_notice_minutes,
        new.procedure_change_notice_minutes,
    )
    earliest = now + datetime.timedelta(minutes=minutes)
    if when < earliest:
        minute = (earliest + datetime.timedelta(seconds=59)).replace(second=0, microsecond=0)
        local = minute.astimezone(zone)  # the first whole minute a form may state
        raise ActionError(
            f"Surveillance must be told at least {minutes} minutes before the "
            f"{' and '.join(found)} change{'s' if len(found) > 1 else ''}: make it "
            f"effective at {local:%H:%M %Z} or later."
        )


def _restate_after(
    command: Command,
    history: Sequence[Filing],
    filed: RulesRow,
    rules: RulesSubmission,
    zone: zoneinfo.ZoneInfo,
) -> tuple[Changes, list[RulesRow]]:
    """Set the changes of each filing still to take effect after ``filed`` over it, in order,
    and restate what each then holds (recorded); refuse ``filed`` when one could not stand so,
    or would change a procedure its notice did not announce (002 (j)(3)(ii)). The changes, and
    the later filings as they stand after them."""
    later = sorted(
        (f for f in history if f.rules.effective_at > filed.effective_at),
        key=lambda f: (f.rules.effective_at, f.rules.id or 0),
    )
    profile, options, before = filed.profile, dict(filed.options), rules
    done = c.NONE
    kept: list[RulesRow] = []
    for filing in later:
        row = filing.rules
        if row.whole:
            profile, options = row.profile, dict(row.options)
        else:
            options = {**options, **row.changes}
        local = row.effective_at.astimezone(zone)
        try:
            after = rules_submission(profile, options)
        except RulesError as error:
            raise ActionError(
                f"This change cannot come before the rules filed for {local:%H:%M %Z}: they "
                f"could not stand over it ({error}) File it for then or later."
            ) from None
        unannounced = [x for x in procedure_changes(before, after) if x not in filing.announced]
        if unannounced:
            raise ActionError(
                f"This change cannot come before the rules filed for {local:%H:%M %Z}: they "
                f"would then change the {' and '.join(unannounced)} with no notice to "
                f"surveillance. File it for then or later."
            )
        if (profile, options) != (row.profile, dict(row.options)):
            restated, changed = c.update(row, profile=profile, options=options)
            kept.append(restated)
            done += changed + c.event(
                command.actor_id,
                events.RulesRestated(
                    filing=row.id or 0,
                    effective_at=row.effective_at.isoformat(),
                    profile=profile,
                    options=options,
                    before=dict(row.options),
                    over=filed.id or 0,
                ),
            )
        else:
            kept.append(row)
        before = after
    return done, kept


def check_pit_alike(
    table_id: int,
    pit_name: str,
    pit: Sequence[PitTable],
    mine: Sequence[RulesRow],
    *,
    since: datetime.datetime,
    zone: zoneinfo.ZoneInfo,
) -> None:
    """Every table of the pit dealt under a text that asks for one procedure per pit
    (``PIT_WIDE``) uses the same from ``since`` on: compared at each moment filed rules take
    effect, among the tables dealt under the text of the table ``table_id`` just filed for
    (``mine``: its filings as the filing leaves them)."""
    tables = [replace(t, filings=tuple(mine)) if t.table_id == table_id else t for t in pit]
    moments = {since} | {
        r.effective_at for t in tables for r in t.filings if r.effective_at > since
    }
    own = next((t for t in tables if t.table_id == table_id), None)
    if own is None:
        return
    for at in sorted(moments):
        rules = own.in_force(at)
        fields = PIT_WIDE.get(rules.source, ())
        for other in tables:
            theirs = other.in_force(at)
            if theirs.source != rules.source or all(
                getattr(theirs, f) == getattr(rules, f) for f in fields
            ):
                continue
            local = at.astimezone(zone)
            raise ActionError(
                f"Every table of {pit_name} dealt under the same rules uses one "
                f"{' and '.join(fields)} procedure ({PIT_WIDE_CITED[rules.source]}); from "
                f"{local:%H:%M %Z} {own.name} would use {_uses(rules, fields)} and "
                f"{other.name} {_uses(theirs, fields)}: change the procedure for the whole pit "
                "at once."
            )


def _uses(rules: RulesSubmission, fields: Sequence[str]) -> str:
    return " and ".join(getattr(rules, f).value.replace("_", " ") for f in fields)


def set_seat_count(state: InPlay, command: Command, *, seats: int, reason: str = "") -> Changes:
    """How many numbered seats the table has, as its rules allow (Minibaccarat up to nine,
    000 §2(a); a big table 10 to 14, 004 §2(a); California up to 14, 001), between rounds."""
    table = state.table
    rules = state.rules
    reason = check_text(reason, field="reason", limit=200)
    if not rules.min_seats <= seats <= rules.max_seats:
        raise ActionError(
            f"{rules.title} is played with {rules.min_seats} to {rules.max_seats} seats."
        )
    if seats == table.seat_count:
        raise ActionError(f"{table.name} has {seats} seats already.")
    if state.in_play:
        raise ActionError("The seats change only between rounds.")
    gone = [n for n in state.occupied if n > seats]
    held = [
        n for n in (table.curator_seat, table.player_dealer_seat) if n is not None and n > seats
    ]
    if gone or held:
        raise ActionError(f"Seat {max(gone + held)} is taken: it stays while someone sits there.")
    if any(m.seat > seats for m in state.markers):
        raise ActionError("Vigorish is still marked at a seat that would go: settle it first.")
    done = c.NONE
    if table.status == Table.Status.OPEN:
        assert table.id is not None
        done += c.delete(*(s for s in state.seats if s.number > seats))
        numbers = {s.number for s in state.seats}
        done += c.insert(
            *(
                SeatRow(table_id=table.id, number=n)
                for n in range(table.seat_count + 1, seats + 1)
                if n not in numbers
            )
        )
    done += c.update(table, seat_count=seats)[1]
    return done + c.event(
        command.actor_id, events.SeatsSet(seats=seats, before=table.seat_count, reason=reason)
    )


def record_rules_in_force(
    state: InPlay, command: Command, *, filing_id: int, recorded: bool = False
) -> Changes:
    """The filing has taken effect: record it in force (no actor), if it is the table's Rules
    Submission in force now and was not recorded so already (``recorded``: read by
    ``recorded_in_force``)."""
    filing = state.rules_now
    if filing is None or filing.id != filing_id or recorded:
        return c.NONE
    return c.event(None, in_force(filing))


def recorded_in_force(state: InPlay, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Before a filing is recorded in force: whether its event is in the record already."""
    from casino.models import Event

    filing = state.rules_now
    if filing is None or filing.id != inputs.get("filing_id"):
        return {"recorded": False}
    found = Event.objects.filter(
        chain_id=state.table.chain_id,
        created_at__gte=filing.effective_at,
        **events.RulesInForce.lookup(filing=filing.id),
    ).exists()
    return {"recorded": found}


def in_force(filing: RulesRow) -> events.RulesInForce:
    return events.RulesInForce(
        filing=filing.id or 0,
        profile=filing.profile,
        options=dict(filing.options),
        effective_at=filing.effective_at.isoformat(),
    )
