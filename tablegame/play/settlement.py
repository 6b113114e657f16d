"""A round's end as functions of the state in play: House Money settled on the first four cards,
the round settled in the legal order (its progressives, deferred vigorish marked, the day's
tallies, the curator's and the player-dealer's turns), a round void, the cut card out
(000 §8(c)(3), §9(e), §12-13, 002 (k), 004 §13-14, 001).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from baccarat.cutcard import ShoeCall, after_round
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.irregularities import enough_cards
from baccarat.outcome import Outcome
from baccarat.royal9 import Royal9Award
from baccarat.seating import curator_must_pass, next_player_dealer
from baccarat.settlement import Action as StepAction
from baccarat.settlement import SettledWager, Step, settle, settle_house_money
from baccarat.wagertypes import WagerType
from fastpath.rows import Addition
from tablegame import events
from tablegame.errors import ActionError
from tablegame.models import Round, Shoe
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, check_approver, check_text
from tablegame.play.progressives import MustHitLocked, contribute, reseed_won
from tablegame.play.rounds import complete_coup, engine_wagers, in_play, player_dealer
from tablegame.play.rows import MarkerRow, RoundRow, StepRow, WagerRow
from tablegame.play.state import InPlay
from tablegame.tallies.figures import SettledWager as TalliedWager
from tablegame.tallies.figures import round_figures, wager_groups
from tablegame.tallies.models import RoundTally, WagerTally

State = Round.State
SETTLED_FIELDS = ("result", "payout", "vigorish", "returned", "fee", "award")


def settle_house_money_wagers(
    state: InPlay, command: Command, *, rides: dict[int, str | None] | None = None
) -> Changes:
    """Settle House Money on the first four cards; each winner may let the payout ride."""
    game = in_play(state)
    if game.state != State.HOUSE_MONEY:
        raise ActionError("House Money is settled after the first four cards, before third cards.")
    rides = rides or {}
    taken = state.wagers
    house_money = [w for w in taken if w.type == WagerType.HOUSE_MONEY.value]
    hm_seats = {w.seat for w in house_money}
    by_kind = {(w.seat, w.type): w for w in taken}
    strays = sorted(seat for seat, choice in rides.items() if choice and seat not in hm_seats)
    if strays:
        raise ActionError(f"Seat {strays[0]} has no House Money wager to let ride.")
    for w in house_money:
        choice = rides.get(w.seat)
        if choice and choice not in (WagerType.PLAYER.value, WagerType.BANKER.value):
            raise ActionError("A House Money payout rides only on the Player or Banker wager.")
        if choice and (w.seat, choice) not in by_kind:
            raise ActionError(
                f"Seat {w.seat} has no {WagerType(choice).label} wager: a House Money payout "
                "rides on the player's original wager (000 §8(c)(3))."
            )
    ridden = {w.seat: rides.get(w.seat) or "" for w in house_money}
    coup = state.coup()
    staked = [
        _with_ride(w, ridden[w.seat]) if w.type == WagerType.HOUSE_MONEY.value else w for w in taken
    ]
    try:
        hm = settle_house_money(coup, engine_wagers(staked), state.round_submission)
    except RulesError as error:
        raise ActionError(str(error)) from None
    done = c.insert(*_steps(game, hm.steps, start=1))
    for settled in hm.wagers:
        row = by_kind[(settled.seat, settled.type.value)]
        done += c.update(
            row,
            ride=ridden[settled.seat],
            result=settled.result.value,
            payout=settled.payout,
            ridden=settled.ridden,
        )[1]
    if coup.is_complete:
        done += complete_coup(state, game, coup, command)
    else:
        done += c.update(game, state=State.DEALING)[1]
    return done + c.event(
        command.actor_id,
        events.HouseMoneySettled(
            round=game.number,
            steps=tuple(_step_record(s) for s in hm.steps),
            wagers=tuple(
                _wager_record(
                    s,
                    by_kind[(s.seat, s.type.value)].amount,
                    ride=WagerType(rides[s.seat]) if rides.get(s.seat) else None,
                )
                for s in hm.wagers
            ),
        ),
    )


def _with_ride(wager: WagerRow, ride: str) -> WagerRow:
    return c.update(wager, ride=ride)[0]


def _step_record(step: Step) -> events.StepRecord:
    return events.StepRecord(
        action=step.action, seat=step.seat, wager=step.wager, amount=step.amount, phase=step.phase
    )


def _wager_record(
    settled: SettledWager, amount: Decimal, ride: WagerType | None = None
) -> events.WagerRecord:
    """Every figure of a settled wager (``amount``: as placed), for the record."""
    return events.WagerRecord(
        seat=settled.seat,
        wager=settled.type,
        result=settled.result,
        payout=settled.payout,
        vigorish=settled.vigorish,
        returned=settled.returned,
        ridden=settled.ridden,
        fee=settled.fee,
        award=Royal9Award(settled.award) if settled.award else None,
        ride=ride,
        amount=amount,
    )


def _steps(game: RoundRow, steps: Sequence[Step], start: int) -> list[StepRow]:
    """The settlement's steps, in order, as rows to write."""
    assert game.id is not None
    return [
        StepRow(
            round_id=game.id,
            index=start + i,
            phase=s.phase,
            action=s.action.value,
            seat=s.seat,
            wager_type=s.wager.value if s.wager else "",
            amount=s.amount,
        )
        for i, s in enumerate(steps)
    ]


def settle_round(
    state: InPlay, command: Command, *, must_hit: MustHitLocked | None = None
) -> Changes:
    """Settle every wager in the table's legal order; mark deferred vigorish on the seat.
    (``must_hit``: the must-hit meter the table feeds, locked: ``progressives.lock_must_hit``.)"""
    game = in_play(state)
    if game.state != State.COMPLETE:
        raise ActionError("The coup is not complete: deal the cards the rules call for.")
    rules = state.round_submission
    coup = state.coup()  # the coup counts the two hands' cards only
    if game.simulated:  # no wagers, no fees, no meters: only its outcome (000 §13(d))
        return _settle_simulated(state, game, coup, command)
    meters, done = contribute(state, game, must_hit, command.at)
    taken = state.wagers
    try:
        result = settle(
            coup,
            engine_wagers(taken),
            rules,
            player_dealer=player_dealer(game),
            meters={m.name: m.amount for m in meters},
        )
    except RulesError as error:
        raise ActionError(str(error)) from None
    done += reseed_won(state, game, meters, result, command.at)
    earlier = list(state.steps)  # House Money's, settled before the third cards
    round_steps = [s for s in result.steps if s.phase != "house_money"]
    saved = _steps(game, round_steps, start=len(earlier) + 1)
    done += c.insert(*saved)
    by_kind = {(w.seat, w.type): w for w in taken}
    settled: dict[tuple[int, str], WagerRow] = {}
    for s in result.wagers:
        if s.type is WagerType.HOUSE_MONEY:
            continue
        row, changed = c.update(
            by_kind[(s.seat, s.type.value)],
            result=s.result.value,
            payout=s.payout,
            vigorish=s.vigorish,
            returned=s.returned,
            fee=s.fee,
            award=s.award or "",
        )
        settled[(row.seat, row.type)] = row
        done += changed
    done += _markers(state, game, round_steps, command)
    game, changed = c.update(game, state=State.SETTLED, settled_at=command.at)
    done += changed
    after = [settled.get((w.seat, w.type), w) for w in taken]
    done += _tallies(state, game, after, [*earlier, *saved])
    outcome = result.outcome
    done += _settled(
        state,
        command,
        game,
        outcome,
        steps=tuple(_step_record(s) for s in round_steps),
        wagers=tuple(
            _wager_record(s, by_kind[(s.seat, s.type.value)].amount)
            for s in result.wagers
            if s.type is not WagerType.HOUSE_MONEY
        ),
    )
    return done + _after_settlement(state, game, outcome_loses_banker=curator_must_pass(outcome))


def _settle_simulated(state: InPlay, game: RoundRow, coup: Coup, command: Command) -> Changes:
    """A simulated round settled: dealt without wagers, it pays and collects nothing, and no
    player-dealer banks it (no fee); its outcome is recorded, it counts among the day's rounds,
    and the round it interrupted goes on (the state after it is read again: 000 §13(d))."""
    outcome = Outcome.of(coup)
    game, done = c.update(game, state=State.SETTLED, settled_at=command.at)
    done += _tallies(state, game, [], [])
    return done + _settled(state, command, game, outcome) + Changes(read_again=True)


def _settled(
    state: InPlay,
    command: Command,
    game: RoundRow,
    outcome: Outcome,
    *,
    steps: tuple[events.StepRecord, ...] = (),
    wagers: tuple[events.WagerRecord, ...] = (),
) -> Changes:
    """The settlement's event: the outcome and the dealer's words, every step and wager."""
    return c.event(
        command.actor_id,
        events.RoundSettled(
            round=game.number,
            winner=outcome.winner,
            player_total=outcome.player_total,
            banker_total=outcome.banker_total,
            tags=tuple(outcome.tags),
            announcement=outcome.announcement(ez=state.round_submission.is_ez),
            steps=steps,
            wagers=wagers,
        ),
    )


def _markers(state: InPlay, game: RoundRow, steps: Sequence[Step], command: Command) -> Changes:
    """One marker for each vigorish the settled round's steps mark (000 §12(d)(2)), named as
    the seat knows the player: their name, else their players' club card."""
    marks = [step for step in steps if step.action is StepAction.MARK_VIGORISH]
    if not marks:
        return c.NONE
    names = {
        s.number: s.player_name or (f"card {s.player_card}" if s.player_card else "")
        for s in state.seats
    }
    assert game.id is not None and state.shoe is not None and state.shoe.id is not None
    return c.insert(
        *(
            MarkerRow(
                table_id=game.table_id,
                shoe_id=state.shoe.id,
                round_id=game.id,
                seat=step.seat,
                player_name=names.get(step.seat, ""),
                amount=step.amount,
                marked_at=command.at,
            )
            for step in marks
        )
    )


def _tallies(
    state: InPlay, game: RoundRow, wagers: Sequence[WagerRow], steps: Sequence[StepRow]
) -> Changes:
    """The settled round, its wagers (House Money's included) and steps added to the tallies
    of its gaming day (``tablegame.tallies``)."""
    settled = [
        TalliedWager(
            seat=w.seat, type=w.type, result=w.result, amount=w.amount, payout=w.payout,
            vigorish=w.vigorish, returned=w.returned, fee=w.fee, award=w.award, ride=w.ride,
            ridden=w.ridden,
        )
        for w in wagers
    ]  # fmt: skip
    figures = round_figures(void=False, steps=[(s.action, s.wager_type, s.amount) for s in steps])
    return _added(state, game, wager_groups(settled), figures)


def _added(
    state: InPlay, game: RoundRow, groups: Sequence[dict[str, Any]], figures: dict[str, Any]
) -> Changes:
    assert game.settled_at is not None and state.shoe is not None
    day = state.casino.gaming_day(game.settled_at)
    table_id = game.table_id
    wagers = [
        {
            "table_id": table_id,
            "day": day,
            "rules_id": game.rules_id,
            "decks": state.shoe.decks,
            **g,
        }
        for g in groups
    ]
    played = [{"table_id": table_id, "day": day, "shoe_id": game.shoe_id, **figures}]
    return Changes(
        additions=(
            Addition(WagerTally, WagerTally.KEY, wagers),
            Addition(RoundTally, RoundTally.KEY, played),
        )
    )


def _after_settlement(state: InPlay, game: RoundRow, *, outcome_loses_banker: bool) -> Changes:
    """The curator passes when Banker loses; the player-dealer rotates every two hands; the
    cut card's last hand is called."""
    rules = state.round_submission
    table = state.table
    done = c.NONE
    if rules.has_curator and table.curator_seat and outcome_loses_banker:
        done += c.event(
            None,
            events.ShoePassed(seat=table.curator_seat, ordered=False, reason="Banker's hand lost"),
        )
        table, changed = c.update(
            table, previous_curator_seat=table.curator_seat, curator_seat=None
        )
        done += changed
    if rules.player_dealer and table.player_dealer_seat is not None:
        hands = table.player_dealer_hands + 1
        if hands >= rules.player_dealer_rotation_hands:
            seats = list(state.occupied)
            offered = (
                next_player_dealer(table.player_dealer_seat, seats) if len(seats) > 1 else None
            )
            done += c.event(
                None,
                events.PlayerDealerRotates(seat=table.player_dealer_seat, offered_to=offered),
            )
            table, changed = c.update(
                table,
                previous_player_dealer_seat=table.player_dealer_seat,
                player_dealer_seat=None,
                player_dealer_hands=0,
            )
        else:
            table, changed = c.update(table, player_dealer_hands=hands)
        done += changed
    shoe = state.shoe
    assert shoe is not None
    call = after_round(game.number, shoe.cut_card_round)
    if call is not ShoeCall.CONTINUE:
        done += c.event(None, events.ShoeCallMade(call=call, round=game.number))
    return done


def cut_card_out(state: InPlay, command: Command) -> Changes:
    """The cut card came out: complete this hand, then "last hand" (000 §9(e))."""
    shoe = state.shoe
    if shoe is None or shoe.state != Shoe.State.IN_PLAY:
        raise ActionError("No shoe is in play.")
    if shoe.cut_card_round is not None:
        raise ActionError("The cut card already came out in this shoe.")
    game = state.in_play
    number = game.number if game else state.rounds_in_shoe + 1
    _, changed = c.update(shoe, cut_card_round=number)
    return changed + c.event(command.actor_id, events.CutCardOut(shoe=shoe.number, round=number))


def void_round(state: InPlay, command: Command, *, reason: str, approver: Any = None) -> Changes:
    """Not enough cards to complete the round: it is void and every wager returned (000 §13(e)).
    A floorperson or pit boss voids it for another reason, or approves the dealer's void at the
    tablet (``approver``, checked by the caller: ``tablegame.api.approvals``; recorded)."""
    game = in_play(state)
    if game.state == State.BETTING:
        raise ActionError("Wagers are still open: a round is void only once dealing began.")
    if game.state == State.COMPLETE:
        # The winner is known: voiding now would take back lost wagers (000 §13(e), 002 (k)(4)
        # void a round the shoe cannot complete, never one whose outcome is known).
        raise ActionError(
            f"The coup is complete ({game.announcement or 'the winner is known'}): a round is "
            "not void once its outcome is known; settle it."
        )
    if state.steps:
        raise ActionError("House Money was settled already; this round cannot be voided.")
    reason = check_text(reason, field="reason", limit=200)
    if approver is not None:  # checked whenever given: the record never names a wrong approver
        check_approver(approver, command, "authority:void_any_round", "the void")
    shoe = state.shoe
    assert shoe is not None
    left = shoe.physical_cards_left
    supervisor = approver is not None or command.may("authority:void_any_round")
    if enough_cards(left) and not supervisor:
        raise ActionError(
            f"The shoe still holds about {left} cards: a round is void when the shoe runs out "
            "(000 §13(e)); a floorperson may void it, or approve its void, for another reason."
        )
    if not reason:
        raise ActionError("Say why the round is void.")
    wagers = sorted(state.wagers, key=lambda w: (-w.seat, w.type))
    assert game.id is not None
    steps = [
        StepRow(
            round_id=game.id,
            index=i,
            phase="round",
            action=StepAction.RETURN.value,
            seat=w.seat,
            wager_type=w.type,
            amount=w.amount,
        )
        for i, w in enumerate(wagers, start=1)
    ]
    done = c.insert(*steps)
    for w in wagers:
        done += c.update(w, result="push")[1]
    game, changed = c.update(game, state=State.VOID, void_reason=reason, settled_at=command.at)
    done += changed
    done += _added(state, game, [], round_figures(void=True, steps=()))
    if game.simulated:  # the round it interrupted goes on: the state after is read (000 §13(d))
        done += Changes(read_again=True)
    return done + c.event(
        command.actor_id,
        events.RoundVoid(
            round=game.number,
            reason=reason,
            approved_by=approver.get_username() if approver is not None else None,
            steps=tuple(
                events.StepRecord(
                    action=StepAction(s.action),
                    seat=s.seat,
                    wager=WagerType(s.wager_type),
                    amount=s.amount,
                    phase=s.phase,
                )
                for s in steps
            ),
        ),
    )
