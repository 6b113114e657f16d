"""Irregularities: a card drawn in error, an unauthorized Player third card, a card face up.

000 §13, 002 (k), 004 §15. The engine's remedy decides where the card goes; the card leaves the
shoe's count, is recorded, and the dealer is told what to do.
"""

from __future__ import annotations

from baccarat.cards import Card, CardError
from baccarat.irregularities import (
    Disposition,
    IrregularityKind,
    Remedy,
    card_drawn_in_error,
    card_found_face_up,
    unauthorized_player_third,
)
from baccarat.profiles import RulesSubmission
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import ActionError, action, lock_table, record
from tablegame.actions.rounds import complete_coup
from tablegame.errors import MistypedCard
from tablegame.models import Card as DealtCard
from tablegame.models import Irregularity, Round, Shoe, Table
from tablegame.work import work

KINDS = tuple(k.value for k in IrregularityKind)


@action
def report_irregularity(
    table: Table, *, kind: str, card: str, disclosed: bool = False, actor: Actor
) -> Irregularity:
    """Record an irregularity with the card involved; returns what the dealer must do."""
    table = lock_table(table)
    if kind not in KINDS:
        raise ActionError(f"'{kind}' is not an irregularity: {', '.join(KINDS)}.")
    try:
        the_card = Card.parse(card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    game = table.active_round()
    if game is None or game.state not in (Round.State.DEALING, Round.State.COMPLETE):
        raise ActionError("Irregularities are reported while a round is being dealt.")
    rules = game.rules.submission
    remedy = _remedy(kind, game, the_card, disclosed, rules)
    shoe = Shoe.objects.select_for_update().get(pk=game.shoe_id)
    if shoe != table.current_shoe():
        raise ActionError("The round's shoe is no longer in play.")
    shoe.take(the_card)
    shoe.burned += remedy.extra_burn
    if remedy.disposition is Disposition.NEXT_HAND_FIRST:
        shoe.held_card = str(the_card)
    work().save_now(shoe, ["remaining", "burned", "held_card"])
    if remedy.disposition is Disposition.SIMULATED_ROUND:
        _simulated_round(game, the_card, actor)
    else:
        hand = {
            Disposition.BANKER_THIRD: DealtCard.Hand.BANKER,
            Disposition.NEXT_HAND_FIRST: DealtCard.Hand.NEXT_HAND,
        }.get(remedy.disposition, DealtCard.Hand.DISCARD)
        work().add_now(
            DealtCard(
                round=game,
                position=game.cards.count() + 1,
                code=str(the_card),
                hand=hand,
                dealt_by=actor,
            )
        )
        work().forget(game, "cards")
    found = work().add_now(
        Irregularity(
            round=game,
            kind=kind,
            card=str(the_card),
            disclosed=disclosed,
            disposition=remedy.disposition.value,
            extra_burn=remedy.extra_burn,
            instruction=remedy.instruction,
            reported_by=actor,
        )
    )
    work().forget(game, "irregularities")
    if remedy.disposition is Disposition.BANKER_THIRD:
        coup = game.coup()
        if coup.is_complete:
            complete_coup(game, coup)
    record(
        table,
        actor,
        events.IrregularityReported(
            round=game.number,
            irregularity=IrregularityKind(kind),
            card=str(the_card),
            disclosed=disclosed,
            disposition=remedy.disposition,
            extra_burn=remedy.extra_burn,
            instruction=remedy.instruction,
        ),
    )
    return found


def _remedy(kind: str, game: Round, card: Card, disclosed: bool, rules: RulesSubmission) -> Remedy:
    if kind == "card_face_up":
        return card_found_face_up(card, rules=rules)
    if kind == "card_drawn_in_error":
        return card_drawn_in_error(card, disclosed=disclosed, rules=rules)
    try:
        return unauthorized_player_third(game.coup(), card, disclosed=disclosed, rules=rules)
    except ValueError:
        raise ActionError(
            "That card was due to the Player: enter it as dealt, it is not an irregularity."
        ) from None


def _simulated_round(game: Round, card: Card, actor: Actor) -> Round:
    """A round without wagers that starts with the disclosed card (000 §13(c)(2), (d)).

    It is dealt and settled like any round, then the round it interrupted resumes.
    """
    number = (game.shoe.last_round_number() or game.number) + 1
    simulated = work().add_now(
        Round(
            table=game.table,
            shoe=game.shoe,
            number=number,
            rules=game.rules,
            simulated=True,
            state=Round.State.DEALING,
            no_more_bets_at=game.no_more_bets_at,
        )
    )
    game.shoe.note_round(number)
    work().add_now(
        DealtCard(
            round=simulated, position=1, code=str(card), hand=DealtCard.Hand.PLAYER, dealt_by=actor
        )
    )
    return simulated
