"""The Rules Submission in force at a table at a moment, for the follower's batches: the
tables' filings read in one light query (no model built), each distinct submission built once
a process (``baccarat.profiles.rules_submission``)."""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from baccarat.profiles import PROFILES, RulesSubmission, rules_submission
from tablegame.models import Table, TableRules


@functools.lru_cache(maxsize=1024)
def _submission(profile: str, options: str) -> RulesSubmission:
    return rules_submission(profile, json.loads(options))


class RulesInForce:
    """The filings of some tables, by table, in the order they take effect."""

    def __init__(self, tables: Iterable[Table]) -> None:
        self._profiles = {t.pk: t.profile for t in tables}
        self._filings: dict[int, list[tuple[datetime, int, str, str]]] = defaultdict(list)
        rows = TableRules.objects.filter(table_id__in=list(self._profiles)).values_list(
            "table_id", "effective_at", "pk", "profile", "options"
        )
        for table_id, effective_at, pk, profile, options in rows:
            self._filings[table_id].append((effective_at, pk, profile, _text(options)))

    def at(self, table_id: int, moment: datetime) -> tuple[int | None, RulesSubmission]:
        """The filing in force at ``moment`` (its id; None when none was filed) and its rules
        (the table's profile's when none was filed), as ``Table.rules_record`` says."""
        in_force = [f for f in self._filings.get(table_id, ()) if f[0] <= moment]
        if not in_force:
            return None, PROFILES[self._profiles[table_id]]
        _, pk, profile, options = max(in_force, key=lambda f: (f[0], f[1]))
        return pk, _submission(profile, options)


def _text(options: Any) -> str:
    return json.dumps(options, sort_keys=True)
