"""``manage.py verify_record [--table NAME]``: check every chain of the record, or one table's.

Prints one line per chain (the casino's, each pit's, each table's): whether it is intact from its
first event, whether it still holds the events its signed checkpoints name (``casino.checkpoints``:
what shows a chain rewritten whole or cut short at its end), and how many of its events come
after its last checkpoint, "not yet covered". Then the total not yet covered, whatever is wrong
with the checkpoints themselves (a line forged or unreadable, a checkpoint, line or file missing,
none for longer than ``RECORD_CHECKPOINT_GRACE``), and a summary of them. Then the checks the
apps register (``casino.verification``): the settled play of every gaming day (``--day`` for
one) against the record's settlement events, each disagreement named. Exits non-zero when any
chain is broken, anything is wrong with the checkpoints, an event has gone uncovered for longer
than ``RECORD_CHECKPOINT_GRACE``, or a day's play disagrees with the record.
"""

from __future__ import annotations

import argparse
import datetime
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from casino.checkpoints import (
    Tail,
    check_against_checkpoints,
    grace,
    read_checkpoints,
    span,
    tail,
    when,
)
from casino.models import Casino, Chain
from casino.record import verify_chain
from casino.verification import registered


class Command(BaseCommand):
    help = (
        "Recompute each hash chain of the record, check it against the signed checkpoints, and "
        "say whether it is intact."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--table", metavar="NAME", help='Only the table(s) with this sign, e.g. "MB-1".'
        )
        parser.add_argument(
            "--day",
            metavar="YYYY-MM-DD",
            type=_day,
            help="Check the play of this gaming day only (default: every day played).",
        )

    def handle(
        self,
        *args: Any,
        table: str | None = None,
        day: datetime.date | None = None,
        **options: Any,
    ) -> None:
        chains = Chain.objects.select_related("casino", "pit").order_by("scope", "label", "pk")
        if table is not None:
            chains = chains.filter(scope=Chain.Scope.TABLE, label=table)
        found = list(chains)
        now = timezone.now()
        log = read_checkpoints(now=now)
        checkpointed_only = {
            chain_id: checkpoints
            for chain_id, checkpoints in log.by_chain.items()
            if table is None
            or any(c.scope == Chain.Scope.TABLE and c.label == table for c in checkpoints.values())
        }
        if table is not None and not found and not checkpointed_only:
            raise CommandError(f"There is no table named {table!r}.")
        # Table signs are unique per pit only: name the pit too when a label appears twice.
        repeated = {k for k, n in Counter((c.scope, c.label) for c in found).items() if n > 1}
        broken = []
        overdue = []
        tails: list[Tail] = []
        for chain in found:
            label = chain.label if chain.scope == Chain.Scope.TABLE else str(chain)
            if (chain.scope, chain.label) in repeated:
                label = " / ".join(str(p) for p in (chain.casino, chain.pit, chain.label) if p)
            report = verify_chain(chain)
            checkpoints = checkpointed_only.pop(chain.pk, {})
            bad, said = check_against_checkpoints(chain.pk, checkpoints)
            uncovered = tail(chain.pk, checkpoints)
            tails.append(uncovered)
            if uncovered.overdue(now):
                overdue.append(label)
            if report.ok and bad is None:
                events = "event" if report.checked == 1 else "events"
                line = f"{label}: {report.checked} {events}, chain intact"
                if said:
                    line = f"{line}, {said}"
                if uncovered.count:
                    line = f"{line}, {_not_covered(uncovered, now)}"
                self.stdout.write(line)
                continue
            broken.append(label)
            if not report.ok:
                self.stdout.write(
                    f"{label}: BROKEN at event {report.first_bad_sequence}: {report.reason}"
                )
            if bad is not None:
                self.stdout.write(f"{label}: BROKEN from checkpoint {bad.sequence} on: {said}")
            if uncovered.count:
                self.stdout.write(f"{label}: {_not_covered(uncovered, now)}")
        existing = set(Chain.objects.filter(pk__in=checkpointed_only).values_list("pk", flat=True))
        for chain_id, checkpoints in sorted(checkpointed_only.items()):
            if chain_id in existing:
                continue  # another table's chain, left out by --table
            first = checkpoints[min(checkpoints)]
            label = f"{first.label} (chain {chain_id})"
            broken.append(label)
            self.stdout.write(
                f"{label}: BROKEN from checkpoint {first.sequence} on: the chain is missing "
                f"from the database ({first.where})"
            )
        for problem in log.problems:
            self.stdout.write(problem)
        for note in log.notes:
            self.stdout.write(note)
        self.stdout.write(_total_not_covered(tails, now))
        if not log.files:
            self.stdout.write(
                f"Checkpoints: none in {log.directory}, so events removed from a chain's end or "
                "a chain rewritten whole would not show."
            )
        else:
            lines = "line" if log.lines == 1 else "lines"
            files = "file" if log.files == 1 else "files"
            numbered = ""
            if log.first is not None and log.last is not None:
                numbered = (
                    f": checkpoints {log.first.number} to {log.last.number}, the last at "
                    f"{when(log.last.at)}"
                )
            valid = _problems(len(log.problems)) if log.problems else "every line valid"
            self.stdout.write(
                f"Checkpoints: {log.lines} {lines} in {log.files} {files} in {log.directory}"
                f"{numbered}; {valid}."
            )
        disagreeing = self._check_days(None if day is None else [day])
        failed = [f"broken event chain at {', '.join(broken)}"] if broken else []
        if disagreeing:
            failed.append(f"the play of {', '.join(disagreeing)} disagrees with the record")
        if log.problems:
            failed.append(f"{_problems(len(log.problems))} with the checkpoints")
        if overdue:
            failed.append(
                f"events not covered by a checkpoint for more than RECORD_CHECKPOINT_GRACE "
                f"({span(grace())}) at {', '.join(overdue)}"
            )
        if failed:
            message = "; ".join(failed)
            raise CommandError(f"{message[0].upper()}{message[1:]}.")

    def _check_days(self, days: list[datetime.date] | None) -> list[str]:
        """Run every registered check of the days' play; the days that disagree."""
        disagreeing = []
        for casino in Casino.objects.order_by("pk"):
            for name, check in registered().items():
                for report in check(casino, days):
                    self.stdout.write(f"{name.capitalize()}, {report.subject}: {report.summary}")
                    for discrepancy in report.discrepancies:
                        self.stdout.write(f"  {discrepancy}")
                    if not report.ok:
                        disagreeing.append(report.subject)
        return disagreeing


def _day(text: str) -> datetime.date:
    """A gaming day from the command line: a date, from 2000 to tomorrow."""
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day: write it YYYY-MM-DD") from None
    latest = timezone.localdate() + datetime.timedelta(days=1)
    if not datetime.date(2000, 1, 1) <= day <= latest:
        raise argparse.ArgumentTypeError(f"{day} is no gaming day played: 2000-01-01 to {latest}")
    return day


def _not_covered(uncovered: Tail, now: datetime.datetime) -> str:
    """A chain's events after its last checkpoint, in words; in capitals once overdue."""
    assert uncovered.oldest is not None
    age = span(now - uncovered.oldest)
    if uncovered.overdue(now):
        return (
            f"{uncovered.count} NOT COVERED by a checkpoint, the oldest {age} old, more than "
            f"RECORD_CHECKPOINT_GRACE ({span(grace())}): checkpoints were removed, or none was "
            "written (is the beat running?)"
        )
    return f"{uncovered.count} not yet covered (the oldest {age} old)"


def _total_not_covered(tails: list[Tail], now: datetime.datetime) -> str:
    left = [t for t in tails if t.count and t.oldest is not None]
    if not left:
        return "Not yet covered: none, every event is covered by a checkpoint."
    count = sum(t.count for t in left)
    events = "event" if count == 1 else "events"
    chains = "chain" if len(left) == 1 else "chains"
    oldest = min(t.oldest for t in left if t.oldest is not None)
    return (
        f"Not yet covered: {count} {events} in {len(left)} {chains}, the oldest "
        f"{span(now - oldest)} old."
    )


def _problems(count: int) -> str:
    return f"{count} problem" if count == 1 else f"{count} problems"
