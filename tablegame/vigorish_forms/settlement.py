"""The settlement's hook: the vigorish it marks on the layout, where a form starts.

000 §12(d)(2): commission the player does not pay at once is marked at their seat number
(a ``mark_vigorish`` step of the rules' settlement). Each mark becomes a ``VigorishMarker`` of the
table, which the dealer later collects or turns into a form request
(``tablegame.actions.markers``); a requested one waits in the pit's register for its form.
"""

from __future__ import annotations

from collections.abc import Iterable

from baccarat.settlement import Action as StepAction
from baccarat.settlement import Step
from tablegame.models import Round, Shoe, Table, VigorishMarker
from tablegame.work import work


def mark_deferred_vigorish(table: Table, game: Round, shoe: Shoe, steps: Iterable[Step]) -> None:
    """One marker for each vigorish the settled round's ``steps`` mark, with the command's
    record; now, as the answer reads the table's markers."""
    marks = [step for step in steps if step.action is StepAction.MARK_VIGORISH]
    if not marks:
        return
    # The player as the seat knows them: their name, else their players' club card.
    names = {
        number: name or (f"card {card}" if card else "")
        for number, name, card in table.seats.values_list("number", "player_name", "player_card")
    }
    markers = [
        VigorishMarker(
            table=table,
            shoe=shoe,
            round=game,
            seat=step.seat,
            player_name=names.get(step.seat, ""),
            amount=step.amount,
        )
        for step in marks
    ]
    work().add_all(markers, now=True)  # now: the answer reads the table's markers
