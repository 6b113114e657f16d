"""Rules Submissions: every option of the five texts as data, with bundled presets by name.

(Interface placeholder being filled in: ``PROFILES`` maps a name to a ``RulesSubmission`` with at
least ``name``, ``title``, ``source``, ``table_type`` and ``max_seats``.)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class TableType(enum.Enum):
    """Minibaccarat (a house dealer deals) or big-table Baccarat (a player curator deals)."""

    MINI = "mini"
    BIG = "big"


@dataclass(frozen=True, kw_only=True)
class RulesSubmission:
    """The options a licensee chose for a table."""

    name: str
    title: str
    source: str
    table_type: TableType = TableType.MINI
    min_seats: int = 1
    max_seats: int = 9


PROFILES: dict[str, RulesSubmission] = {
    p.name: p
    for p in (
        RulesSubmission(name="ma-mini", title="Massachusetts Minibaccarat", source="000"),
        RulesSubmission(name="ma-mini-ez", title="Massachusetts EZ Baccarat (mini)", source="000"),
        RulesSubmission(
            name="ma-big", title="Massachusetts Baccarat (big table)", source="004",
            table_type=TableType.BIG, min_seats=10, max_seats=14,
        ),
        RulesSubmission(
            name="ma-big-ez", title="Massachusetts EZ Baccarat (big table)", source="004",
            table_type=TableType.BIG, min_seats=10, max_seats=14,
        ),
        RulesSubmission(name="s42-mini", title="Mini-Baccarat, 5% commission", source="002"),
        RulesSubmission(name="s42-mini-4", title="Mini-Baccarat, 4% commission", source="002"),
        RulesSubmission(
            name="s42-mini-tievig", title="Mini-Baccarat, 25% tie commission", source="002"
        ),
        RulesSubmission(
            name="s42-mini-nocommission", title="Mini-Baccarat, no commission", source="002"
        ),
        RulesSubmission(
            name="ca-commission-free", title="California Commission-Free Baccarat",
            source="001", max_seats=14,
        ),
        RulesSubmission(name="mini-pairs", title="Mini Baccarat with pair bets", source="003"),
    )
}
