"""Shoe procedures: decks, batches, the shuffle, the cut, the cover cards and the burn.

000 §3-5, 002 (a), (e), 004 §3, §5.
"""

from __future__ import annotations

import contextlib
import datetime
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from baccarat.cards import Card, burn_count
from baccarat.composition import Composition
from baccarat.errors import RulesError
from baccarat.profiles import RulesSubmission, ShuffleProcedure

#: The longest the decks of a table changed every 24 hours stay in use (000 §3(c)).
DECKS_LAST = datetime.timedelta(hours=24)


def check_decks(rules: RulesSubmission, decks: int, *, automatic_shuffler: bool = False) -> None:
    """Refuse a number of decks the table's rules do not allow (000 §3(a)-(b))."""
    if rules.royal9 is not None:
        batched = automatic_shuffler and rules.shuffler_batches
        in_shoe = decks // 2 if batched and not decks % 2 else decks
        if in_shoe not in (6, 8):
            held = "two batches of six or eight (12 or 16 decks)" if batched else "six or eight"
            raise RulesError(
                f"With the Royal 9 progressive the shoe holds {held} decks, not {decks}."
            )
    if automatic_shuffler:
        if rules.shuffler_decks is None:
            raise RulesError("This game is not dealt with an automatic shuffler's batches.")
        low, high = rules.shuffler_decks
        if not rules.shuffler_batches:
            if not low <= decks <= high:
                raise RulesError(f"With the shuffler the game uses {low} decks, not {decks}.")
            return
        if not low <= decks <= high or decks % 2:
            raise RulesError(
                f"With an automatic shuffler the table uses {low} to {high} decks in two equal "
                f"batches of different back colours, not {decks}."
            )
        return
    low, high = rules.decks
    if not low <= decks <= high:
        span = f"{low}" if low == high else f"{low} to {high}"
        raise RulesError(f"This table deals {span} decks, not {decks}.")


def shoe_decks(rules: RulesSubmission) -> tuple[int, ...]:
    """Every number of decks a shoe of these rules is dealt from, fewest first: a manual shoe
    (``check_decks``), or one of the automatic shuffler's two batches (all its decks without)."""
    sizes: set[int] = set()
    low, high = rules.decks
    for decks in range(low, high + 1):
        with contextlib.suppress(RulesError):
            check_decks(rules, decks)
            sizes.add(decks)
    if rules.shuffler_decks is not None:
        low, high = rules.shuffler_decks
        for decks in range(low, high + 1):
            with contextlib.suppress(RulesError):
                check_decks(rules, decks, automatic_shuffler=True)
                sizes.add(decks // 2 if rules.shuffler_batches else decks)
    return tuple(sorted(sizes))


def _dealt_from(rules: RulesSubmission) -> tuple[int, ...]:
    sizes = shoe_decks(rules)
    if not sizes:
        raise RulesError(f"{rules.title}: no number of decks fits these options.")
    return sizes


def check_shoe(rules: RulesSubmission, decks: int) -> None:
    """Refuse a full shoe of a number of decks these rules never deal from."""
    sizes = _dealt_from(rules)
    if decks not in sizes:
        said = " or ".join(filter(None, [", ".join(map(str, sizes[:-1])), str(sizes[-1])]))
        raise RulesError(f"{rules.title} is dealt from a shoe of {said} decks, not {decks}.")


def check_composition(rules: RulesSubmission, comp: Composition) -> None:
    """Refuse what is left in a shoe when no shoe of these rules holds so many of a rank."""
    most = max(_dealt_from(rules))
    try:
        comp.check_within(most)
    except ValueError as error:
        raise RulesError(f"{rules.title} is dealt from at most {most} decks: {error}") from None


def batch_for_shoe(shoe_number: int) -> int:
    """Which of the two batches (0 or 1) deals shoe ``shoe_number`` (1-based): they alternate."""
    if shoe_number < 1:
        raise RulesError("Shoes are numbered from 1.")
    return (shoe_number - 1) % 2


class ShuffleStep(enum.Enum):
    """Steps of a shuffle by hand (000 §5(h), 004 §5(g)) and of the licensee's procedure."""

    PLUG = "plug"
    RIFFLE = "riffle"
    TURN = "turn"
    STRIP = "strip"
    CUT = "cut"
    FEATHER = "feather"  # left feathered for the floorperson to verify (000 §5(a))
    LACE = "lace"  # about one deck laced evenly into the stack (002 (e)(2)(ii), 004 §5(a)(1))
    RESHUFFLE = "reshuffle"  # some or all shuffled again after lacing (002 (e)(2)(ii)(A))
    WASH = "wash"  # washed and stacked before the three dealers shuffle (004 §5(a)(2))
    DEALER_SHUFFLE = "dealer_shuffle"  # one of the three dealers' independent shuffles


MANUAL_STEPS = (
    ShuffleStep.PLUG,
    ShuffleStep.RIFFLE,
    ShuffleStep.TURN,
    ShuffleStep.STRIP,
    ShuffleStep.CUT,
)


def check_shuffle_steps(steps: Sequence[ShuffleStep]) -> None:
    """A manual shuffle incorporates each step; no strip before two riffles; the cut comes last."""
    core = [s for s in steps if s in MANUAL_STEPS]
    missing = [s.value for s in MANUAL_STEPS if s not in core]
    if missing:
        raise RulesError("The manual shuffle is missing: " + ", ".join(missing) + ".")
    riffles = 0
    for step in core:
        if step is ShuffleStep.RIFFLE:
            riffles += 1
        if step is ShuffleStep.STRIP and riffles < 2:
            raise RulesError("The strip may not come before at least two riffles.")
    if core[-1] is not ShuffleStep.CUT:
        raise RulesError("The cut is the last step before the cards go into the shoe.")


def check_shuffle(procedure: ShuffleProcedure, steps: Sequence[ShuffleStep]) -> None:
    """The manual steps plus what the table's procedure adds (000 §5(a), 002 (e)(2), 004 §5(a))."""
    check_shuffle_steps(steps)
    tail = [s for s in steps if s not in MANUAL_STEPS and s is not ShuffleStep.DEALER_SHUFFLE]
    wanted = {
        ShuffleProcedure.FEATHERED: [ShuffleStep.FEATHER],
        ShuffleProcedure.LACED: [ShuffleStep.LACE],
        ShuffleProcedure.LACED_THEN_RESHUFFLED: [ShuffleStep.LACE, ShuffleStep.RESHUFFLE],
        ShuffleProcedure.WASH_AND_THREE_DEALERS: [ShuffleStep.WASH],
    }[procedure]
    if tail != wanted:
        said = ", then ".join(s.value for s in wanted)
        raise RulesError(f"This table's shuffle procedure is: the manual steps with {said}.")
    if procedure is ShuffleProcedure.WASH_AND_THREE_DEALERS:
        if steps[0] is not ShuffleStep.WASH or steps.count(ShuffleStep.DEALER_SHUFFLE) != 3:
            raise RulesError("The cards are washed first, then each of three dealers shuffles.")
    elif ShuffleStep.DEALER_SHUFFLE in steps:
        raise RulesError("Three dealers shuffle only under the big table's wash procedure.")


@dataclass(frozen=True, slots=True)
class Cut:
    """Where the cover card went in (cards from the top), and the second one (from the back)."""

    position: int
    cover_from_back: int


def check_cut(rules: RulesSubmission, stack_size: int, cut: Cut) -> None:
    """The cut at least 10 cards (a deck, big table) from either end; cover ≥ 14 from the back."""
    least = rules.cut_min_from_end
    if not least <= cut.position <= stack_size - least:
        what = "a deck (52 cards)" if least == 52 else f"{least} cards"
        raise RulesError(
            f"The cut must be at least {what} in from either end of the {stack_size}-card stack; "
            f"{cut.position} is not."
        )
    if not rules.second_cover_min_from_back <= cut.cover_from_back < stack_size:
        raise RulesError(
            f"The second cover card goes at least {rules.second_cover_min_from_back} cards in from "
            f"the back; {cut.cover_from_back} is not."
        )


def cut_stack(cards: Sequence[Card], position: int) -> tuple[Card, ...]:
    """The cards above the cover card go to the bottom of the stack (000 §5(d))."""
    return tuple(cards[position:]) + tuple(cards[:position])


def burn(first_card: Card) -> int:
    """Cards drawn face down after the exposed first card: its face value (000 §5(f))."""
    return burn_count(first_card)
