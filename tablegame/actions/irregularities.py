"""An irregularity reported (000 §13, 002 (k), 004 §15; ``tablegame.play.irregularities``), run
the one way (``tablegame.commands``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command
from tablegame.commands import Done
from tablegame.models import Irregularity


def _reported(done: Done, _: dict[str, Any]) -> Irregularity:
    assert done.before is not None and done.before.in_play is not None
    return Irregularity.objects.filter(round_id=done.before.in_play.key).latest("pk")


report_irregularity = command("report_irregularity", _reported)
