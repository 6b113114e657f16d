"""What goes wrong with the cards, as functions of the state in play: an irregularity (a card
drawn in error, an unauthorized Player third card, a card face up: 000 §13, 002 (k), 004 §15),
and a mis-keyed card corrected with a floorperson's approval.

An irregularity's card leaves the shoe's count and is recorded; the engine's remedy says where it
goes and what the dealer does. A correction leaves the wrong entry in the record (its
``card_dealt`` event) and says which card it was instead: the shoe gets the wrong card back and
loses the right one, and the round follows the corrected coup. A correction that would change
which hand drew, or House Money already settled on the cards, is refused: that round is a
floorperson's decision.
"""

from __future__ import annotations

from typing import Any

from baccarat.cards import Card, CardError
from baccarat.drawing import Coup, IllegalDeal
from baccarat.irregularities import (
    Disposition,
    IrregularityKind,
    Remedy,
    card_drawn_in_error,
    card_found_face_up,
    unauthorized_player_third,
)
from baccarat.outcome import Hand
from tablegame import events
from tablegame.errors import ActionError, MistypedCard
from tablegame.models import Card as DealtCard
from tablegame.models import Round
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_approver, check_text
from tablegame.play.rounds import complete_coup, take
from tablegame.play.rows import CardRow, IrregularityRow, RoundRow, Row, coup
from tablegame.play.state import InPlay

State = Round.State
KINDS = tuple(k.value for k in IrregularityKind)
CORRECTABLE = (State.DEALING, State.HOUSE_MONEY, State.COMPLETE)
HANDS = (Hand.PLAYER.value, Hand.BANKER.value)


def report_irregularity(
    state: InPlay, command: Command, *, kind: str, card: str, disclosed: bool = False
) -> Changes:
    """Record an irregularity with the card involved, and what the dealer must do."""
    if kind not in KINDS:
        raise ActionError(f"'{kind}' is not an irregularity: {', '.join(KINDS)}.")
    try:
        the_card = Card.parse(card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    game = state.in_play
    if game is None or game.state not in (State.DEALING, State.COMPLETE):
        raise ActionError("Irregularities are reported while a round is being dealt.")
    remedy = _remedy(kind, state, the_card, disclosed)
    shoe = state.shoe
    if shoe is None or shoe.id != game.shoe_id:
        raise ActionError("The round's shoe is no longer in play.")
    counted = take(shoe, the_card)
    held = str(the_card) if remedy.disposition is Disposition.NEXT_HAND_FIRST else shoe.held_card
    done = c.update(
        shoe, remaining=counted.remaining, burned=shoe.burned + remedy.extra_burn, held_card=held
    )[1]
    assert game.id is not None
    if remedy.disposition is Disposition.SIMULATED_ROUND:
        done += _simulated_round(state, game, the_card, command)
    else:
        hand = {
            Disposition.BANKER_THIRD: DealtCard.Hand.BANKER,
            Disposition.NEXT_HAND_FIRST: DealtCard.Hand.NEXT_HAND,
        }.get(remedy.disposition, DealtCard.Hand.DISCARD)
        new_card = CardRow(
            round_id=game.id,
            position=len(state.cards) + 1,
            code=str(the_card),
            hand=hand,
            dealt_by_id=command.actor_id,
            dealt_at=command.at,
        )
        done += c.insert(new_card)
        if remedy.disposition is Disposition.BANKER_THIRD:
            dealt = coup((*state.cards, new_card))
            if dealt.is_complete:
                done += complete_coup(state, game, dealt, command)
    done += c.insert(
        IrregularityRow(
            round_id=game.id,
            kind=kind,
            card=str(the_card),
            disclosed=disclosed,
            disposition=remedy.disposition.value,
            extra_burn=remedy.extra_burn,
            instruction=remedy.instruction,
            reported_by_id=command.actor_id,
            reported_at=command.at,
        )
    )
    return done + c.event(
        command.actor_id,
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


def _remedy(kind: str, state: InPlay, card: Card, disclosed: bool) -> Remedy:
    rules = state.round_submission
    if kind == "card_face_up":
        return card_found_face_up(card, rules=rules)
    if kind == "card_drawn_in_error":
        return card_drawn_in_error(card, disclosed=disclosed, rules=rules)
    try:
        return unauthorized_player_third(state.coup(), card, disclosed=disclosed, rules=rules)
    except ValueError:
        raise ActionError(
            "That card was due to the Player: enter it as dealt, it is not an irregularity."
        ) from None


def _simulated_round(state: InPlay, game: RoundRow, card: Card, command: Command) -> Changes:
    """A round without wagers that starts with the disclosed card (000 §13(c)(2), (d)): dealt
    and settled like any round, then the round it interrupted resumes."""
    number = (state.rounds_in_shoe or game.number) + 1
    simulated = RoundRow(
        table_id=game.table_id,
        shoe_id=game.shoe_id,
        number=number,
        rules_id=game.rules_id,
        simulated=True,
        state=State.DEALING,
        opened_at=command.at,
        no_more_bets_at=game.no_more_bets_at,
    )

    def first_card(key_of: Any) -> Row:
        return CardRow(
            round_id=key_of(simulated),
            position=1,
            code=str(card),
            hand=DealtCard.Hand.PLAYER,
            dealt_by_id=command.actor_id,
            dealt_at=command.at,
        )

    return c.insert(simulated) + Changes(referring=(first_card,))


def correct_card(
    state: InPlay,
    command: Command,
    *,
    position: int,
    card: str,
    approver: Any,
    reason: str = "",
) -> Changes:
    """Correct the card entered at ``position`` of the round in play to ``card``, with the
    approval of ``approver`` (a floorperson or pit boss other than the one correcting)."""
    game = state.in_play
    if game is None or game.state not in CORRECTABLE:
        raise ActionError("A card is corrected while the round is dealt, before it is settled.")
    check_approver(approver, command, "authority:approve_card_correction", "the correction")
    if state.steps:
        raise ActionError(
            "House Money was settled on these cards: a floorperson decides the round (void it)."
        )
    reason = check_text(reason, field="reason", limit=200)
    try:
        right = Card.parse(card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    in_coup = [k for k in state.cards if k.hand in HANDS]  # not a card discarded or held back
    entry = next((k for k in in_coup if k.position == position), None)
    if entry is None:
        raise ActionError(f"No card {position} was dealt to the Player or the Banker.")
    wrong = entry.code
    if str(right) == wrong:
        raise ActionError(f"Card {position} is already the {wrong}.")
    dealt = Coup()
    for k in in_coup:
        was = dealt.expected.hand
        try:
            dealt = dealt.deal(right if k.position == position else Card.parse(k.code))
        except IllegalDeal as error:
            raise _changes_the_draw(right, position, str(error)) from None
        if was != k.hand:
            raise _changes_the_draw(right, position, f"card {k.position} would go elsewhere")
    shoe = state.shoe
    assert shoe is not None
    returned = c.update(shoe, remaining={**shoe.remaining, wrong: shoe.remaining.get(wrong, 0) + 1})
    counted = take(returned[0], right)  # refuses a card the shoe no longer holds
    done = c.update(shoe, remaining=counted.remaining)[1]
    done += c.update(entry, code=str(right))[1]
    done += _follow(state, game, dealt, command)
    return done + c.event(
        command.actor_id,
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


def _changes_the_draw(right: Card, position: int, why: str) -> ActionError:
    return ActionError(
        f"With the {right.face} as card {position} the hands draw differently ({why}): "
        "a floorperson decides the round (void it, or report the irregularity)."
    )


def _follow(state: InPlay, game: RoundRow, dealt: Coup, command: Command) -> Changes:
    """The round's state as the corrected coup has it (House Money waits as before)."""
    if game.state == State.HOUSE_MONEY:
        return c.NONE
    if dealt.is_complete:
        return complete_coup(state, game, dealt, command)
    if game.state == State.COMPLETE:
        return c.update(
            game,
            state=State.DEALING,
            completed_at=None,
            player_total=None,
            banker_total=None,
            winner="",
            tags=[],
            announcement="",
        )[1]
    return c.NONE
