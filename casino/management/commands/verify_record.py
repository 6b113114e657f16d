"""``manage.py verify_record [--table NAME]``: check every chain of the record, or one table's.

Prints one line per chain (the casino's, each pit's, each table's) and exits non-zero when any
chain is broken.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.models import Chain
from casino.record import verify_chain


class Command(BaseCommand):
    help = "Recompute each hash chain of the record and say whether it is intact."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--table", metavar="NAME", help='Only the table(s) with this sign, e.g. "MB-1".'
        )

    def handle(self, *args: Any, table: str | None = None, **options: Any) -> None:
        chains = Chain.objects.select_related("casino", "pit").order_by("scope", "label", "pk")
        if table is not None:
            chains = chains.filter(scope=Chain.Scope.TABLE, label=table)
        found = list(chains)
        if table is not None and not found:
            raise CommandError(f"There is no table named {table!r}.")
        # Table signs are unique per pit only: name the pit too when a label appears twice.
        repeated = {k for k, n in Counter((c.scope, c.label) for c in found).items() if n > 1}
        broken = []
        for chain in found:
            label = chain.label if chain.scope == Chain.Scope.TABLE else str(chain)
            if (chain.scope, chain.label) in repeated:
                label = " / ".join(str(p) for p in (chain.casino, chain.pit, chain.label) if p)
            report = verify_chain(chain)
            if report.ok:
                events = "event" if report.checked == 1 else "events"
                self.stdout.write(f"{label}: {report.checked} {events}, chain intact")
            else:
                broken.append(label)
                self.stdout.write(
                    f"{label}: BROKEN at event {report.first_bad_sequence}: {report.reason}"
                )
        if broken:
            raise CommandError(f"Broken event chain at {', '.join(broken)}.")
