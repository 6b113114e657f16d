"""A mis-keyed card corrected, a floorperson approving it (``tablegame.play.irregularities``),
run the one way (``tablegame.commands``)."""

from __future__ import annotations

from tablegame.actions.run import command, the_round

correct_card = command("correct_card", the_round)
