"""``manage.py gamemath``: exact outcome probabilities and house edges for a shoe composition."""

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from baccarat.composition import Composition
from baccarat.errors import RulesError
from baccarat.gamemath import analyse, analysis_json
from baccarat.profiles import RulesSubmission, rules_submission
from baccarat.shoe import check_composition, check_shoe


class Command(BaseCommand):
    help = (
        "Compute exactly, by full enumeration, the probability of each outcome and the house edge "
        "of every wager a profile offers, for a full shoe or any remaining composition."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--profile", required=True, help="rules profile, e.g. ma-mini-ez")
        shoe = parser.add_mutually_exclusive_group(required=True)
        shoe.add_argument("--decks", help="a full shoe of N decks")
        shoe.add_argument("--ranks", help="13 counts by rank, Ace to King: 32,32,...,32")
        shoe.add_argument("--ranks-file", help="one composition per line; one JSON line out each")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--exact", action="store_true", help="exact fractions as 'p/q'")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            rules = rules_submission(options["profile"])
            if options["ranks_file"]:
                self._each_line(Path(options["ranks_file"]), rules, exact=options["exact"])
                return
            if options["decks"] is not None:
                decks = _decks(options["decks"])
                check_shoe(rules, decks)
                comp = Composition.of_decks(decks)
            else:
                comp = Composition.parse(options["ranks"])
            check_composition(rules, comp)
            data = analysis_json(analyse(comp, rules), exact=options["exact"])
        except (RulesError, ValueError, OSError) as error:
            sys.stderr.write(f"gamemath: {error}\n")
            raise SystemExit(2) from None
        if options["json"]:
            self.stdout.write(json.dumps(data))
        else:
            self.stdout.write(_table(rules, comp, data))

    def _each_line(self, path: Path, rules: RulesSubmission, *, exact: bool) -> None:
        with path.open() as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                try:
                    comp = Composition.parse(line)
                    check_composition(rules, comp)
                except ValueError as error:
                    raise ValueError(f"{path}, line {number}: {error}") from None
                data = analysis_json(analyse(comp, rules), exact=exact)
                self.stdout.write(json.dumps(data))


def _decks(text: str) -> int:
    """``--decks``: a whole number, refused in one line (argparse would print its usage too)."""
    if not (text.isascii() and text.isdecimal()):
        raise ValueError(f"--decks takes a whole number of decks, not {text!r}.")
    return int(text)


def _table(rules: RulesSubmission, comp: Composition, data: dict[str, dict[str, Any]]) -> str:
    rows = [f"{rules.title} ({rules.name}), {comp.total} cards", "", "Probability"]
    rows += [f"  {k:<22} {_show(v, 100)}" for k, v in data["probabilities"].items()]
    rows += ["", "House edge (per initial wager)"]
    rows += [f"  {k:<22} {_show(v, 100)}" for k, v in data["house_edge"].items()]
    return "\n".join(rows)


def _show(value: Any, scale: int) -> str:
    return value if isinstance(value, str) else f"{value * scale:9.4f} %"
