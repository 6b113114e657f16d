"""``manage.py revoke_tokens USERNAME [--prefix=ABCD1234]``: the user's API tokens (or the one
whose key starts so) stop working now. Write the prefix after "=": a key may begin with "-"."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tablegame.api.tokens import revoke_api_token
from tablegame.models import ApiToken


class Command(BaseCommand):
    help = "Revoke a user's API tokens (all, or the one whose key starts with --prefix)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--prefix",
            default="",
            help="The key's first characters, after '=' (a key may begin with '-').",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"There is no user '{options['username']}'.")
        tokens = ApiToken.objects.filter(user=user, revoked_at__isnull=True)
        if options["prefix"]:
            tokens = tokens.filter(prefix__startswith=options["prefix"][:8])
        revoked = [revoke_api_token(t, actor=None) for t in tokens]
        self.stdout.write(f"{len(revoked)} token(s) of {user.username} revoked.")
