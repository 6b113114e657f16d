"""``manage.py verify_record [--table NAME]``: check every chain of the record, or one table's.

Prints one line per chain (the casino's, each pit's, each table's): whether it is intact from its
first event, and whether it still holds the events its signed checkpoints name
(``casino.checkpoints``), which is what shows a chain rewritten whole or cut short at its end.
Then any checkpoint line that is forged or unreadable, and a summary of the checkpoints. Exits
non-zero when any chain is broken or any checkpoint line fails.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.checkpoints import check_against_checkpoints, read_checkpoints
from casino.models import Chain
from casino.record import verify_chain


class Command(BaseCommand):
    help = (
        "Recompute each hash chain of the record, check it against the signed checkpoints, and "
        "say whether it is intact."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--table", metavar="NAME", help='Only the table(s) with this sign, e.g. "MB-1".'
        )

    def handle(self, *args: Any, table: str | None = None, **options: Any) -> None:
        chains = Chain.objects.select_related("casino", "pit").order_by("scope", "label", "pk")
        if table is not None:
            chains = chains.filter(scope=Chain.Scope.TABLE, label=table)
        found = list(chains)
        log = read_checkpoints()
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
        for chain in found:
            label = chain.label if chain.scope == Chain.Scope.TABLE else str(chain)
            if (chain.scope, chain.label) in repeated:
                label = " / ".join(str(p) for p in (chain.casino, chain.pit, chain.label) if p)
            report = verify_chain(chain)
            bad, said = check_against_checkpoints(chain.pk, checkpointed_only.pop(chain.pk, {}))
            if report.ok and bad is None:
                events = "event" if report.checked == 1 else "events"
                line = f"{label}: {report.checked} {events}, chain intact"
                self.stdout.write(f"{line}, {said}" if said else line)
                continue
            broken.append(label)
            if not report.ok:
                self.stdout.write(
                    f"{label}: BROKEN at event {report.first_bad_sequence}: {report.reason}"
                )
            if bad is not None:
                self.stdout.write(f"{label}: BROKEN from checkpoint {bad.sequence} on: {said}")
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
        if not log.files:
            self.stdout.write(
                f"Checkpoints: none in {log.directory}, so events removed from a chain's end or "
                "a chain rewritten whole would not show."
            )
        else:
            lines = "line" if log.lines == 1 else "lines"
            files = "file" if log.files == 1 else "files"
            valid = f"{len(log.problems)} failed" if log.problems else "every signature valid"
            self.stdout.write(
                f"Checkpoints: {log.lines} {lines} in {log.files} {files} in {log.directory}, "
                f"{valid}."
            )
        if broken or log.problems:
            failed = [f"broken event chain at {', '.join(broken)}"] if broken else []
            if log.problems:
                failed.append(f"{len(log.problems)} checkpoint lines failed")
            message = "; ".join(failed)
            raise CommandError(f"{message[0].upper()}{message[1:]}.")
