"""``manage.py verify_record [--table NAME]``: check every table's event chain, or one table's.

Prints one line per table and exits non-zero when any chain is broken.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from surveillance.record import verify_chain
from tablegame.models import Table


class Command(BaseCommand):
    help = "Recompute each table's event hash chain and say whether it is intact."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--table", metavar="NAME", help='Only the table(s) with this sign, e.g. "MB-1".'
        )

    def handle(self, *args: Any, table: str | None = None, **options: Any) -> None:
        tables = Table.objects.select_related("pit__casino").order_by("name", "pk")
        if table is not None:
            tables = tables.filter(name=table)
        tables = list(tables)
        if table is not None and not tables:
            raise CommandError(f"There is no table named {table!r}.")
        # Table signs are unique per pit only: name the pit too when a sign appears twice.
        repeated = {name for name, n in Counter(t.name for t in tables).items() if n > 1}
        broken = []
        for each in tables:
            label = each.name
            if each.name in repeated:
                label = f"{each.pit.casino} / {each.pit} / {each.name}"
            report = verify_chain(each)
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
