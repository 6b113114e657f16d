"""``manage.py settle``: settle one round given as JSON on stdin, print the settlement as JSON."""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

from baccarat.errors import RulesError
from baccarat.roundjson import settle_round


class Command(BaseCommand):
    help = (
        'Read one round as JSON on stdin ({"profile": ..., "player": [...], "banker": [...], '
        '"wagers": [...]}) and print its settlement in legal order as JSON.'
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = json.loads(sys.stdin.read())
        except json.JSONDecodeError as error:
            _refuse(f"The input is not valid JSON ({error.msg}, line {error.lineno}).")
        try:
            result = settle_round(data)
        except RulesError as error:
            _refuse(str(error))
        self.stdout.write(json.dumps(result, indent=2))


def _refuse(message: str) -> None:
    """One clear line on stderr and a non-zero exit status, no traceback."""
    sys.stderr.write(f"settle: {message}\n")
    raise SystemExit(2)
