"""A shoe's commands (000 §3-5, 002 (a), (d), (e), 004 §3-5; ``tablegame.play.shoes``), run the
one way (``tablegame.commands``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command, the_new_shoe, the_shoe
from tablegame.commands import Done
from tablegame.models import DeckChange


def _schedule(done: Done, _: dict[str, Any]) -> DeckChange:
    assert done.state is not None
    return DeckChange.objects.get(table_id=done.state.table.key)


receive_decks = command("receive_decks", the_new_shoe)
inspect_decks = command("inspect_decks", the_shoe)
verify_inspection = command("verify_inspection", the_shoe)
spread_decks = command("spread_decks", the_shoe)
wash_decks = command("wash_decks", the_shoe)
shuffle_decks = command("shuffle_decks", the_shoe)
verify_shuffle = command("verify_shuffle", the_shoe)
respread_idle_shoe = command("respread_idle_shoe", the_new_shoe)
cut_cards = command("cut_cards", the_shoe)
order_recut = command("order_recut", the_shoe)
burn_cards = command("burn_cards", the_shoe)
set_deck_schedule = command("set_deck_schedule", _schedule)
end_shoe = command("end_shoe", the_shoe)
