"""``manage.py issue_token USERNAME``: the API token a tablet or script authenticates with."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Print the API token of a user, creating it if needed (header: Authorization: Token …)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user = User.objects.get(username=options["username"])
        except User.DoesNotExist:
            raise CommandError(f"There is no user '{options['username']}'.") from None
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
