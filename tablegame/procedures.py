"""What the rules texts say of a change of procedure, shared by a filing and the pit's pages:
how far ahead and how late rules may be filed, the notice surveillance is given, the procedures
a pit keeps alike, and a filing for later recorded in force at its time.
"""

from __future__ import annotations

import datetime
import logging
from decimal import Decimal
from typing import Any

from baccarat.profiles import RulesSubmission, ShuffleProcedure

log = logging.getLogger(__name__)

#: The least notice surveillance is given of a change of procedure (002 (e)(2)(ii)B,
#: (j)(3)(ii)); a Rules Submission may ask for more, never less.
LEAST_NOTICE_MINUTES = 30

#: A stated time this little past is taken as now (the pit's form states minutes).
PAST_GRACE = datetime.timedelta(minutes=1)
#: The furthest ahead a filing may take effect: a time past it no casino means (9999-12-31).
FURTHEST_AHEAD = datetime.timedelta(days=5 * 365)

#: What every table of a pit dealt under the same rules text keeps alike, by text: 002's
#: shuffling or lacing option and settlement procedure ((e)(3), (j)(3)(i)), 004's shuffling or
#: lacing option (§5(b)). The other texts leave each table its own.
PIT_WIDE: dict[str, tuple[str, ...]] = {"002": ("settlement", "shuffle"), "004": ("shuffle",)}
#: Where the texts ask for one procedure per pit (``PIT_WIDE``).
PIT_WIDE_CITED = {"002": "002 (e)(3), (j)(3)(i)", "004": "004 §5(b)"}

#: The shuffling or lacing options of those texts (002 (e)(2); 004 §5(a)).
PIT_SHUFFLES: dict[str, tuple[ShuffleProcedure, ...]] = {
    "002": (
        ShuffleProcedure.FEATHERED,
        ShuffleProcedure.LACED,
        ShuffleProcedure.LACED_THEN_RESHUFFLED,
    ),
    "004": (
        ShuffleProcedure.LACED,
        ShuffleProcedure.LACED_THEN_RESHUFFLED,
        ShuffleProcedure.WASH_AND_THREE_DEALERS,
    ),
}


def plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """Rule options as plain JSON for the record: numbers with a fraction become strings."""
    return {
        key: str(value) if isinstance(value, float | Decimal) else value
        for key, value in options.items()
    }


def procedure_changes(old: RulesSubmission, new: RulesSubmission) -> list[str]:
    """What changes that surveillance must be told of in advance: the settlement or shuffle
    procedure (002 (e)(2)(ii)B, (j)(3)(ii)), a shuffle machine taken into or out of use (a change
    of the shuffle procedure, 004 §4(e)) and the type or rate of commission (002 (c)(5))."""
    return [
        what
        for what, before, after in (
            ("settlement procedure", old.settlement, new.settlement),
            ("shuffle procedure", old.shuffle, new.shuffle),
            ("automatic shuffler", old.shuffler_decks is None, new.shuffler_decks is None),
            ("commission", old.commission, new.commission),
            ("commission rate", old.commission_rate, new.commission_rate),
            ("commission on ties", old.tie_commission_rate, new.tie_commission_rate),
        )
        if before != after
    ]


def procedure_of(rules: RulesSubmission) -> str:
    """The procedures a notice names, as surveillance reads them."""
    commission = rules.commission.value.replace("_", " ")
    if rules.commission.value == "on_banker_win":
        commission += f" {(rules.commission_rate * 100).normalize():f} %"
    elif rules.commission.value == "on_tie":
        commission += f" {(rules.tie_commission_rate * 100).normalize():f} %"
    machine = (
        f" and a shuffler of {rules.shuffler_decks[0]}-{rules.shuffler_decks[1]} decks"
        if rules.shuffler_decks
        else ""
    )
    return (
        f"settlement {rules.settlement.value.replace('_', ' ')}; "
        f"shuffle {rules.shuffle.value.replace('_', ' ')}{machine}; commission {commission}"
    )


def schedule_in_force(filing_id: int, eta: datetime.datetime) -> None:
    """Once committed: have a filing for later recorded in force and told to the screens at its
    time (``tablegame.tasks.rules_take_effect``)."""
    from tablegame.tasks import rules_take_effect  # it runs a command, which imports this

    try:
        rules_take_effect.apply_async((filing_id,), eta=eta)
    except Exception:  # the filing stands: the state read after its time shows it
        log.warning("could not schedule filing %s taking effect", filing_id, exc_info=True)
