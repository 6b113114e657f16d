"""``manage.py issue_token USERNAME``: a new API token for a tablet or script (printed once; only
its digest is kept), expiring after ``API_TOKEN_DAYS`` (or ``--days``)."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tablegame.api.tokens import issue_api_token


class Command(BaseCommand):
    help = "Print a new API token for a user (header: Authorization: Token …); it expires."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--days", type=int, default=None, help="Days until it expires.")
        parser.add_argument("--label", default="", help='What uses it, e.g. "MB-1 tablet".')

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user = User.objects.get(username=options["username"])
        except User.DoesNotExist:
            raise CommandError(f"There is no user '{options['username']}'.") from None
        if options["days"] is not None and options["days"] < 1:
            raise CommandError("A token lasts at least one day.")
        _token, key = issue_api_token(user, days=options["days"], label=options["label"])
        self.stdout.write(key)
