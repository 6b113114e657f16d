"""``manage.py settle``: settle one round given as JSON on stdin, print the settlement as JSON."""

import json
import sys
from decimal import Decimal
from typing import Any, NoReturn

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
            data = json.loads(
                sys.stdin.read(),
                parse_float=Decimal,
                parse_int=_whole_number,
                parse_constant=_no_constant,
            )
        except json.JSONDecodeError as error:
            _refuse(f"The input is not valid JSON ({error.msg}, line {error.lineno}).")
        except RecursionError:
            _refuse("The input is not valid JSON (it is nested too deeply).")
        except ValueError as error:  # NaN or Infinity, or a number of hundreds of digits
            _refuse(f"The input is not valid JSON ({error}).")
        try:
            result = settle_round(data)
        except RulesError as error:
            _refuse(str(error))
        self.stdout.write(json.dumps(result, indent=2))


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _whole_number(text: str) -> int:
    if len(text) > 100:
        raise ValueError(f"a number of {len(text)} digits is more than any amount or count")
    return int(text)


def _refuse(message: str) -> NoReturn:
    """One clear line on stderr and a non-zero exit status, no traceback."""
    sys.stderr.write(f"settle: {message}\n")
    raise SystemExit(2)
