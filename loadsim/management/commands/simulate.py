"""``manage.py simulate --tables N --pace real|max --seconds S``: the load benchmark and live demo.

Dealer bots play real rounds at N tables through the real ASGI server and API while every table's
tablet, display, pit console and the surveillance wall listen; it prints what it measured
(``loadsim``). Against ``make run``'s server: ``--url http://127.0.0.1:8000``.
"""

from __future__ import annotations

import ipaddress
import os
from typing import Any
from urllib.parse import urlparse

from django.core.management.base import BaseCommand, CommandError, CommandParser

from loadsim.dealer import ROUNDS_PER_HOUR
from loadsim.run import NoTableReady, Options, simulate
from loadsim.server import SERVERS
from loadsim.transport import AUTHS


class Command(BaseCommand):
    help = (
        "Deal real rounds at N simulated tables through the server and its sockets, with every "
        "page a floor has open (tablets, displays, pit consoles, progressives pages, the "
        "surveillance wall, accounting) making the requests its script makes, and measure "
        "rounds and commands per second, latencies, notices lost, the pages' reads and CPU."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, required=True, help="Tables dealt at once.")
        parser.add_argument("--pace", choices=("real", "max"), default="real")
        parser.add_argument("--seconds", type=float, default=60.0, help="The measured window.")
        parser.add_argument(
            "--url", help="A running server (e.g. http://127.0.0.1:8000) instead of starting one."
        )
        parser.add_argument("--ws-url", help="With --url: the server of the sockets, if another.")
        parser.add_argument(
            "--server",
            choices=SERVERS,
            default="gunicorn+uvicorn",
            help=(
                "The server to start: gunicorn+uvicorn (as docker-compose.yml runs it: HTTP on "
                "gunicorn's threads, sockets on uvicorn), uvicorn alone, or daphne."
            ),
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=min(4, os.cpu_count() or 1),
            help="Server processes (default: the cores, at most 4).",
        )
        parser.add_argument("--tables-per-pit", type=int, default=10)
        parser.add_argument("--seed", type=int, help="Seed of the bots' random choices.")
        parser.add_argument(
            "--cards-per-shoe",
            type=int,
            help="Cards dealt before the cut card comes out (default: all but 14 to 30).",
        )
        parser.add_argument(
            "--rounds-per-hour",
            type=float,
            default=ROUNDS_PER_HOUR,
            help="A table's rounds an hour at real pace (default: %(default)s).",
        )
        parser.add_argument(
            "--auth",
            choices=AUTHS,
            default="session",
            help=(
                "How the dealer bots sign in: session (as the tablet: its session cookie and "
                "CSRF token; the default) or token (an API token, as a script)."
            ),
        )
        parser.add_argument(
            "--no-pages",
            dest="pages",
            action="store_false",
            help=(
                "The screens only listen, sending none of the reads their pages' scripts send "
                "(by default every page a floor has open is replayed: loadsim.pages)."
            ),
        )
        parser.add_argument(
            "--accounting-every",
            type=float,
            default=60.0,
            help="Seconds between two reads of the day's report by accounting (0: none).",
        )
        parser.add_argument(
            "--gaming-day",
            action="store_true",
            help=(
                "A gaming day in one run: the floor in a casino of its own whose day ends "
                "halfway through the window, then closed and checked (its figures against a "
                "recount of the rounds and wagers, every chain verified, the server's memory)."
            ),
        )
        parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tables"] < 1 or options["workers"] < 1:
            raise CommandError("--tables and --workers must be at least 1.")
        if options["seconds"] <= 0 or options["rounds_per_hour"] <= 0:
            raise CommandError("--seconds and --rounds-per-hour must be more than 0.")
        if options["tables_per_pit"] < 1:
            raise CommandError("--tables-per-pit must be at least 1.")
        url, ws_url = options["url"], options["ws_url"]
        if ws_url and not url:
            raise CommandError("--ws-url goes with --url.")
        if any(u and not _on_this_machine(u) for u in (url, ws_url)):
            raise CommandError(
                "The simulation talks only to this machine: give an http://127.x URL."
            )
        settings = Options(
            tables=options["tables"],
            pace=options["pace"],
            seconds=options["seconds"],
            url=url,
            ws_url=ws_url,
            server=options["server"],
            workers=options["workers"],
            tables_per_pit=options["tables_per_pit"],
            seed=options["seed"],
            cards_per_shoe=options["cards_per_shoe"],
            rounds_per_hour=options["rounds_per_hour"],
            auth=options["auth"],
            pages=options["pages"],
            accounting_every=options["accounting_every"],
            gaming_day=options["gaming_day"],
        )
        quiet = options["json"] or options["verbosity"] == 0
        try:
            report = simulate(settings, say=(lambda line: None) if quiet else self.stderr.write)
        except NoTableReady as error:
            raise CommandError(str(error)) from None
        self.stdout.write(report.as_json() if options["json"] else report.text())


def _on_this_machine(url: str) -> bool:
    """An http URL of the loopback (127.0.0.0/8, ::1 or localhost)."""
    parts = urlparse(url)
    if parts.scheme != "http" or not parts.hostname:
        return False
    if parts.hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        return False
