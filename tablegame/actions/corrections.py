"""A mis-keyed card corrected: the physical card was right, the dealer's entry wrong.

The correction is the dealer's, approved by a floorperson or pit boss at the tablet. The wrong
entry stays in the record (its ``card_dealt`` event); the ``card_corrected`` event says which card
it was instead and who approved it. The shoe's count gets the wrong card back and loses the right
one; the coup is read again with the right card, and the round follows it (complete, or waiting
for a card). A correction that would change which hand drew, or House Money already settled on
the cards, is refused: that round is a floorperson's decision (void it, or an irregularity).
"""

from __future__ import annotations

from django.contrib.auth.models import User

from baccarat.cards import Card, CardError
from baccarat.drawing import Coup, IllegalDeal
from baccarat.outcome import Hand
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    action,
    check_approver,
    check_text,
    lock_table,
    record,
)
from tablegame.actions.rounds import COMPLETION_FIELDS, complete_coup
from tablegame.errors import MistypedCard
from tablegame.models import Round, Table
from tablegame.work import work

State = Round.State
CORRECTABLE = (State.DEALING, State.HOUSE_MONEY, State.COMPLETE)
HANDS = (Hand.PLAYER.value, Hand.BANKER.value)


@action
def correct_card(
    table: Table,
    *,
    position: int,
    card: str,
    approver: User,
    reason: str = "",
    actor: Actor,
) -> Round:
    """Correct the card entered at ``position`` of the round in play to ``card``, with the
    approval of ``approver`` (a floorperson or pit boss other than the one correcting)."""
    table = lock_table(table)
    game = table.active_round()
    if game is None or game.state not in CORRECTABLE:
        raise ActionError("A card is corrected while the round is dealt, before it is settled.")
    check_approver(approver, actor, "authority:approve_card_correction", "the correction")
    if game.steps.exists():
        raise ActionError(
            "House Money was settled on these cards: a floorperson decides the round (void it)."
        )
    reason = check_text(reason, field="reason", limit=200)
    try:
        right = Card.parse(card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    cards = list(game.cards.all())
    in_coup = [c for c in cards if c.hand in HANDS]  # not a card discarded or held back
    entry = next((c for c in in_coup if c.position == position), None)
    if entry is None:
        raise ActionError(f"No card {position} was dealt to the Player or the Banker.")
    wrong = entry.code
    if str(right) == wrong:
        raise ActionError(f"Card {position} is already the {wrong}.")
    coup = Coup()
    for dealt in in_coup:
        was = coup.expected.hand
        try:
            coup = coup.deal(right if dealt.position == position else Card.parse(dealt.code))
        except IllegalDeal as error:
            raise _changes_the_draw(right, position, str(error)) from None
        if was != dealt.hand:
            raise _changes_the_draw(right, position, f"card {dealt.position} would go elsewhere")
    shoe = game.shoe
    shoe.remaining[wrong] = shoe.remaining.get(wrong, 0) + 1
    shoe.take(right)  # refuses a card the shoe no longer holds; the transaction rolls back
    work().save_now(shoe, ["remaining"])
    entry.code = str(right)
    work().save_now(entry, ["code"])
    _follow(game, coup)
    record(
        table,
        actor,
        events.CardCorrected(
            round=game.number,
            position=position,
            hand=Hand(entry.hand),
            entered=wrong,
            card=str(right),
            approved_by=approver.get_username(),
            reason=reason,
        ),
    )
    work().changed(game=game, shoe=shoe, cards=cards)
    return game


def _changes_the_draw(right: Card, position: int, why: str) -> ActionError:
    return ActionError(
        f"With the {right.face} as card {position} the hands draw differently ({why}): "
        "a floorperson decides the round (void it, or report the irregularity)."
    )


def _follow(game: Round, coup: Coup) -> None:
    """The round's state as the corrected coup has it (House Money waits as before)."""
    if game.state == State.HOUSE_MONEY:
        return
    if coup.is_complete:
        complete_coup(game, coup)
        return
    if game.state == State.COMPLETE:
        game.state, game.completed_at = State.DEALING, None
        game.player_total = game.banker_total = None
        game.winner, game.tags, game.announcement = "", [], ""
        work().save_now(game, [*COMPLETION_FIELDS, "state"])
