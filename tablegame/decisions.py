"""The decisions a gaming day's exceptions list from the record: the supervisors' overrides at
the tables and the cards corrected with their approval.

They are a few among the day's millions of events (every wager and card is one). The partial
index ``event_decisions`` on ``casino_event (created_at)`` (migration 0011) holds exactly these
events, and :func:`decided` asks for them with the same condition, written out as the index's,
so PostgreSQL reads that index and never the day's other events. The record
(``casino``) knows nothing of these kinds: the index belongs here, with them.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable

from django.db import connection
from django.db.models import BooleanField, QuerySet
from django.db.models.expressions import RawSQL

from casino.models import Event
from tablegame.events import (
    CardCorrected,
    CardsRelinquished,
    LimitSet,
    ProgressiveParameters,
    RecutOrdered,
    RulesFiled,
    SeatsSet,
    ShoePassed,
    TablePayload,
)

#: The supervisors' decisions the day's exceptions list besides the voids and the corrected
#: cards (listed on their own): a recut ordered, the shoe passed on an order, the cards' turn
#: relinquished, limits, seats, rules and progressive parameters changed.
OVERRIDES: tuple[type[TablePayload], ...] = (
    RecutOrdered,
    ShoePassed,
    CardsRelinquished,
    LimitSet,
    SeatsSet,
    RulesFiled,
    ProgressiveParameters,
)

#: The kinds of event every one of which is a decision, sorted. A shoe passed is one only when
#: ordered (``ORDERED``): the rules pass it whenever Banker loses at a big table, about half its
#: rounds, and those passes stay out of the index.
_DECIDED: tuple[type[TablePayload], ...] = (*OVERRIDES, CardCorrected)
KINDS: tuple[str, ...] = tuple(sorted(k.kind.value for k in _DECIDED if k is not ShoePassed))
ORDERED = ShoePassed.kind.value

#: The partial index of ``casino_event`` holding the decisions (migration 0011, whose condition
#: is ``predicate`` as it was then: a change here needs a migration that makes the index again;
#: ``tests/accounting/test_decisions.py`` compares them).
INDEX = "event_decisions"


def predicate(vendor: str, table: str = "") -> str:
    """The SQL condition of a decision, the index's own, on ``vendor`` (``postgresql`` or
    ``sqlite``); ``table``: the table's name or alias to qualify the columns with. The kinds are
    literals, not parameters, so that a prepared statement's generic plan uses the index too."""
    assert all(re.fullmatch(r"[a-z0-9_]+", kind) for kind in (*KINDS, ORDERED))
    column = f"{table}." if table else ""
    kinds = ", ".join(f"'{kind}'" for kind in KINDS)
    if vendor == "postgresql":
        ordered = f"{column}data @> '{{\"ordered\": true}}'"
    else:
        ordered = f"json_extract({column}data, '$.ordered') = 1"
    return f"({column}action IN ({kinds}) OR ({column}action = '{ORDERED}' AND {ordered}))"


def decided(
    table_ids: Iterable[int], start: datetime.datetime, end: datetime.datetime
) -> QuerySet[Event]:
    """The decisions recorded at these tables from ``start`` to ``end``, oldest first, with
    their table and who decided."""
    return (
        Event.objects.filter(
            RawSQL(predicate(connection.vendor, f'"{Event._meta.db_table}"'), (), BooleanField()),
            chain__table__in=list(table_ids),
            created_at__gte=start,
            created_at__lt=end,
        )
        .select_related("chain__table", "actor")
        .order_by("created_at", "pk")
    )


def is_override(payload: TablePayload) -> bool:
    """An override the day lists: a shoe passed because the rules said so (Banker lost) or by
    choice is no decision; a corrected card is listed with the corrections."""
    if isinstance(payload, ShoePassed):
        return payload.ordered
    return isinstance(payload, OVERRIDES)
