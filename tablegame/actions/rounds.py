"""A round's commands (000 §7-13, 002 (b)-(k), 004 §8-14, 001), run the one way
(``tablegame.commands``; what each does: ``tablegame.play.rounds`` and ``play.settlement``)."""

from __future__ import annotations

from typing import Any

from tablegame.actions.run import command, the_round, the_shoe
from tablegame.commands import Done
from tablegame.models import Wager


def _wager(done: Done, inputs: dict[str, Any]) -> Wager:
    game = the_round(done, inputs)
    return Wager.objects.get(round=game, seat=inputs["seat"], type=inputs["wager"])


open_round = command("open_round", the_round)
place_wager = command("place_wager", _wager)
withdraw_wager = command("withdraw_wager", lambda done, inputs: None)
set_player_dealer_bank = command("set_player_dealer_bank", the_round)
no_more_bets = command("no_more_bets", the_round)
relinquish_cards = command("relinquish_cards", the_round)
deal_card = command("deal_card", the_round)
settle_house_money_wagers = command("settle_house_money_wagers", the_round)
settle_round = command("settle_round", the_round)
void_round = command("void_round", the_round)
cut_card_out = command("cut_card_out", the_shoe)
