"""``manage.py protect``: follow every table's record, price each round, raise the alerts."""

from __future__ import annotations

import contextlib
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from protection.follower import behind, follow
from protection.worker import SWEEP_EVERY, run

#: How much lower than the servers the follower runs, by default.
NICENESS = 10


class Command(BaseCommand):
    help = (
        "Game protection's follower: reads each table's record after the fact, prices every "
        "round's wagers exactly from the cards seen, and marks a table whose wager favours the "
        "players. Runs until stopped; --once reads what is behind and exits."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="Read what is behind, then exit.")
        parser.add_argument(
            "--from-start",
            action="store_true",
            help="With --once: read tables never followed from their first event, not from "
            "their current shoe.",
        )
        parser.add_argument(
            "--nice",
            type=int,
            default=NICENESS,
            help=f"Added to the process's niceness (default {NICENESS}): on a machine it shares "
            "with the servers, the follower takes only the cores the live path leaves idle and "
            "falls behind, never the dealers.",
        )
        parser.add_argument(
            "--sweep-every",
            type=float,
            default=SWEEP_EVERY,
            help=f"Seconds between sweeps for notices lost (default {SWEEP_EVERY:g}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            progress = follow(behind(), from_start=options["from_start"])
            self.stdout.write(
                f"Read {progress.events} events of {progress.tables} tables; "
                f"priced {progress.priced} rounds."
            )
            for lost in progress.lost:
                self.stderr.write(f"Count lost: {lost}")
            return
        if options["sweep_every"] <= 0:
            self.stderr.write("--sweep-every must be a number of seconds above zero.")
            raise SystemExit(2)
        if options["nice"]:
            os.nice(options["nice"])
        self.stdout.write("Following the tables' records (Ctrl-C stops).")
        with contextlib.suppress(KeyboardInterrupt):
            run(sweep_every=options["sweep_every"])
