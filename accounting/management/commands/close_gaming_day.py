"""``manage.py close_gaming_day``: close a gaming day by hand (the schedule does it otherwise)."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounting.services import close_due_days, close_gaming_day
from casino.models import Casino
from casino.record import deployment_casino
from tablegame.errors import ActionError


class Command(BaseCommand):
    help = (
        "Close a casino's gaming day: final from then on. Without --day, close every day that "
        "is due, as the schedule does."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--casino", help="the casino's name (default: the deployment's)")
        parser.add_argument("--user", help="who closes it (recorded); default: the system")

    def handle(self, *args: Any, **options: Any) -> None:
        if not options["day"]:
            for name, day in close_due_days():
                self.stdout.write(f"{name}: gaming day {day} closed")
            return
        try:
            when = datetime.date.fromisoformat(options["day"])
        except ValueError:
            raise CommandError(f"{options['day']!r} is not a date (YYYY-MM-DD).") from None
        name = options["casino"]
        casino: Casino | None = (
            Casino.objects.filter(name=name).first() if name else deployment_casino()
        )
        if casino is None:
            raise CommandError(f"No casino {name!r}." if name else "No casino is set up yet.")
        actor = None
        if options["user"]:
            actor = User.objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(f"No user {options['user']!r}.")
        try:
            closed = close_gaming_day(casino, when, actor=actor)
        except ActionError as error:
            raise CommandError(str(error)) from None
        if closed is None:
            self.stdout.write(f"{casino}: gaming day {when} was already closed")
        else:
            self.stdout.write(f"{casino}: gaming day {when} closed")
