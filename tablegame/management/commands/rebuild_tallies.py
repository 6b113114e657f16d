"""``manage.py rebuild_tallies``: write a gaming day's tallies again from its rounds and wagers."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.models import Casino
from casino.record import deployment_casino
from tablegame.tallies import days_played, rebuild


class Command(BaseCommand):
    help = (
        "Write a casino's tallies of a gaming day (what accounting's day report reads) again "
        "from the rounds and wagers settled in it. Without --day, every day played."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="the casino's name (default: the deployment's)")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["casino"]
        casino: Casino | None = (
            Casino.objects.filter(name=name).first() if name else deployment_casino()
        )
        if casino is None:
            raise CommandError(f"No casino {name!r}." if name else "No casino is set up yet.")
        if options["day"]:
            try:
                days = [datetime.date.fromisoformat(options["day"])]
            except ValueError:
                raise CommandError(f"{options['day']!r} is not a date (YYYY-MM-DD).") from None
        else:
            days = days_played(casino)
        for day in days:
            groups, shoes = rebuild(casino, day)
            self.stdout.write(f"{casino}: gaming day {day}: {groups} wager groups, {shoes} shoes")
