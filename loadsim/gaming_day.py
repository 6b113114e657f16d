"""A gaming day in one run (``simulate --gaming-day``): the floor in a casino of its own whose
gaming day ends during the run, then closed and checked.

A real gaming day is 24 hours; the run speeds one up: the casino's day begins (``Casino.
gaming_day_start``) a few minutes after the floor starts dealing, so the day that was in play
when the run began ends mid-run and the next begins, the shoes are short (``--cards-per-shoe``)
and every shoe has new decks (as the bots bring them), the rounds come as fast as ``--rounds-per-
hour`` says. Once the bots are done, accounting closes the day that ended (``accounting.services.
close_gaming_day``, as the scheduled close does) and the run checks what a regulator would:

- the closed day's figures (from the tallies each settlement wrote, frozen at the close) are
  those recounted from the rounds and wagers recorded (``accounting.reports.raw_day_report``),
  table by table and wager type by wager type;
- every chain of the casino's record verifies (``casino.record.verify_chain``);
- each server process's memory at the end of the window against its start (``Server.memory``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from accounting.reports import DayReport, day_report, raw_day_report
from accounting.services import close_gaming_day
from casino.models import Casino, Chain
from casino.record import verify_chain


def ending_at(casino: Casino, moment: datetime.datetime) -> datetime.date:
    """Make ``casino``'s gaming day begin at ``moment`` (its local time, to the next whole
    minute): the day in play before it ends then. Returns that day."""
    local = moment.astimezone(casino.zone)
    begins = (local + datetime.timedelta(minutes=1)).replace(second=0, microsecond=0)
    casino.gaming_day_start = begins.time()
    casino.save(update_fields=["gaming_day_start"])
    return casino.gaming_day(begins - datetime.timedelta(seconds=1))


def day_end(casino: Casino, day: datetime.date) -> datetime.datetime:
    return casino.gaming_day_bounds(day)[1]


@dataclass
class DayCheck:
    """What the close of the run's gaming day showed."""

    day: str
    closed: bool = False
    rounds: int = 0
    wagers: int = 0
    wagered: str = "0"
    tracked: str = "0"
    """The house's wager-tracked result of the day."""
    tables: int = 0
    tables_tied: int = 0
    wager_types_tied: bool = False
    differences: list[str] = field(default_factory=list)
    """Figures of the closed day (tallies) that differ from the recount (rounds and wagers)."""
    chains: int = 0
    chains_verified: int = 0
    broken: list[str] = field(default_factory=list)
    memory_mb: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Each server process, by name: resident memory at the window's start and end, in MB."""

    @property
    def ok(self) -> bool:
        return (
            self.closed
            and not self.differences
            and self.tables_tied == self.tables
            and self.chains_verified == self.chains
        )


TABLE_FIGURES = ("rounds", "voids", "shoes", "wagers", "wagered", "tracked")
TYPE_FIGURES = (
    "count",
    "amount",
    "won",
    "paid",
    "lost",
    "collected",
    "pushed",
    "returned",
    "commission",
    "fees",
    "result",
)


def close_and_check(casino: Casino, day: datetime.date, *, accountant: User) -> DayCheck:
    """Close ``day`` as ``accountant`` and check it (``DayCheck``)."""
    check = DayCheck(day=day.isoformat())
    recount = raw_day_report(casino, day)  # while the day is open: from the rows themselves
    check.closed = close_gaming_day(casino, day, actor=accountant) is not None
    closed = day_report(casino, day)
    check.rounds, check.wagers = closed.total.rounds, closed.total.wagers
    check.wagered, check.tracked = str(closed.total.wagered), str(closed.total.tracked)
    _compare(check, closed, recount)
    for chain in Chain.objects.filter(casino=casino).order_by("pk"):
        check.chains += 1
        report = verify_chain(chain)
        if report.ok:
            check.chains_verified += 1
        else:
            check.broken.append(f"{chain.label}: {report}")
    return check


def _compare(check: DayCheck, closed: DayReport, recount: DayReport) -> None:
    counted = {t.table_id: t for t in recount.tables}
    check.tables = len(closed.tables)
    for table in closed.tables:
        other = counted.get(table.table_id)
        wrong = [
            f"{table.table} {name}: {getattr(table, name)} closed, "
            f"{getattr(other, name) if other else 'none'} recounted"
            for name in TABLE_FIGURES
            if other is None or getattr(table, name) != getattr(other, name)
        ]
        check.differences += wrong
        check.tables_tied += not wrong
    lines = {line.type: line for line in recount.wager_types}
    wrong_types = [
        f"{line.type} {name}: {getattr(line, name)} closed, "
        f"{getattr(lines[line.type], name) if line.type in lines else 'none'} recounted"
        for line in closed.wager_types
        for name in TYPE_FIGURES
        if line.type not in lines or getattr(line, name) != getattr(lines[line.type], name)
    ]
    check.differences += wrong_types
    check.wager_types_tied = not wrong_types and len(lines) == len(closed.wager_types)
