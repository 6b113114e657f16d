"""``manage.py simulate --tables N --pace real|max --seconds S``: the load benchmark and live demo.

Dealer bots play real rounds at N tables through the real ASGI server and API while every table's
tablet, display, pit console and the surveillance wall listen; it prints what it measured
(``tablegame.simulation``). Against ``make run``'s server: ``--url http://127.0.0.1:8000``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tablegame.simulation.run import Options, simulate


class Command(BaseCommand):
    help = (
        "Deal real rounds at N simulated tables through the server and its sockets, and measure "
        "rounds and commands per second, latencies, notices lost and CPU."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, required=True, help="Tables dealt at once.")
        parser.add_argument("--pace", choices=("real", "max"), default="real")
        parser.add_argument("--seconds", type=float, default=60.0, help="The measured window.")
        parser.add_argument(
            "--url", help="A running server (e.g. http://127.0.0.1:8000) instead of starting one."
        )
        parser.add_argument("--workers", type=int, default=1, help="Server processes (daphne).")
        parser.add_argument("--tables-per-pit", type=int, default=10)
        parser.add_argument("--seed", type=int, help="Seed of the bots' random choices.")
        parser.add_argument(
            "--cards-per-shoe",
            type=int,
            help="Cards dealt before the cut card comes out (default: all but 14 to 30).",
        )
        parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tables"] < 1 or options["seconds"] <= 0 or options["workers"] < 1:
            raise CommandError("--tables, --seconds and --workers must be at least 1.")
        url = options["url"]
        if url and not url.startswith(("http://127.", "http://localhost")):
            raise CommandError("The simulation talks only to this machine: give a 127.x URL.")
        settings = Options(
            tables=options["tables"],
            pace=options["pace"],
            seconds=options["seconds"],
            url=url,
            workers=options["workers"],
            tables_per_pit=options["tables_per_pit"],
            seed=options["seed"],
            cards_per_shoe=options["cards_per_shoe"],
        )
        quiet = options["json"] or options["verbosity"] == 0
        report = simulate(settings, say=(lambda line: None) if quiet else self.stderr.write)
        self.stdout.write(report.as_json() if options["json"] else report.text())
