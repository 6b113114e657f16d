"""The table's own commands (open and close, limits, Rules Submissions, seats, curator and
player-dealer: ``tablegame.play.tables`` and ``play.rules``), run the one way
(``tablegame.commands``); and a change of procedure for a whole pit, each table's part run so.
"""

from __future__ import annotations

import datetime
import zoneinfo
from typing import Any

from django.db import transaction
from django.utils import timezone

from baccarat.profiles import SettlementProcedure, ShuffleProcedure
from casino import access
from casino.models import Pit
from casino.roles import Actor
from tablegame.actions.run import command, run, the_table
from tablegame.commands import Done
from tablegame.errors import ActionError, NotAllowed
from tablegame.models import Table, TableLimit, TableRules
from tablegame.play.rules import check_pit_alike, moment, pit_tables
from tablegame.procedures import PIT_SHUFFLES, PIT_WIDE


def _limit(done: Done, inputs: dict[str, Any]) -> TableLimit:
    assert done.state is not None
    return TableLimit.objects.get(table_id=done.state.table.key, wager_type=inputs["wager"])


def _filed(done: Done, _: dict[str, Any]) -> TableRules:
    assert done.state is not None
    return TableRules.objects.filter(table_id=done.state.table.key).latest("pk")


open_table = command("open_table", the_table)
close_table = command("close_table", the_table)
set_limit = command("set_limit", _limit)
take_shoe = command("take_shoe", the_table)
pass_shoe = command("pass_shoe", the_table)
take_player_dealer = command("take_player_dealer", the_table)
file_rules = command("file_rules", _filed)
set_seat_count = command("set_seat_count", the_table)


def record_rules_in_force(filing_id: int) -> int | None:
    """The filing has taken effect: record it in force (no person's command) and tell the
    screens, if it is the table's Rules Submission in force now and was not recorded so already.
    Its event's sequence, else None. Run at its time by ``tablegame.tasks.rules_take_effect``;
    the task run twice at once (a broker's redelivery) takes its turn at the table's lock."""
    table_id = TableRules.objects.filter(pk=filing_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return None
    done = run(table_id, None, "record_rules_in_force", filing_id=filing_id)
    before, after = done.before, done.state
    assert before is not None and after is not None
    return after.head.sequence if after.head != before.head else None


@transaction.atomic
def file_pit_procedure(
    pit: Pit,
    *,
    source: str = "002",
    settlement: str = "",
    shuffle: str = "",
    effective_at: datetime.datetime,
    actor: Actor,
) -> list[TableRules]:
    """Change the settlement or shuffle procedure of every table of the pit dealt under the
    rules text ``source``, all at one stated time, at least the notice after now (002 (e)(3),
    (j)(3); 004 §5(b)). Each table's part is a command of its own (``file_procedure``: a filing
    of what differs there at that time, over the rules in force then), all in one transaction,
    each table locked in turn and held; then every table of the pit is checked alike."""
    decision = access.decide(actor, "command:file_pit_procedure")
    if not decision.allowed:
        raise NotAllowed(decision.reason)
    fields = PIT_WIDE.get(source)
    if fields is None:
        raise ActionError(
            f"Rules text {source} leaves each table its own procedures: change them at the table."
        )
    changes: dict[str, str] = {}
    try:
        if settlement:
            changes["settlement"] = SettlementProcedure(settlement).value
        if shuffle:
            changes["shuffle"] = ShuffleProcedure(shuffle).value
    except ValueError:
        raise ActionError("That is not a settlement or shuffle procedure of the rules.") from None
    if not changes:
        raise ActionError("Choose the settlement or shuffle procedure the pit changes to.")
    if "settlement" in changes and "settlement" not in fields:
        raise ActionError(
            f"Rules text {source} leaves the settlement procedure to each table; the pit keeps "
            f"one shuffle procedure."
        )
    if "shuffle" in changes and ShuffleProcedure(changes["shuffle"]) not in PIT_SHUFFLES[source]:
        allowed = ", ".join(p.value.replace("_", " ") for p in PIT_SHUFFLES[source])
        raise ActionError(f"Rules text {source} allows these shuffle procedures: {allowed}.")
    pit = Pit.objects.select_related("casino").get(pk=pit.pk)
    zone = zoneinfo.ZoneInfo(pit.casino.time_zone)
    when = moment(effective_at, timezone.now(), zone)
    # Race: the dealer acts at a table of the pit meanwhile; each table is locked in turn, in
    # order, and held until every part is written.
    tables = list(Table.objects.filter(pit=pit).order_by("pk").values_list("pk", flat=True))
    filed: list[int] = []
    for table_id in tables:
        done = run(table_id, actor, "file_procedure", source=source, changes=changes, when=when)
        assert done.before is not None and done.state is not None
        if done.state.head != done.before.head:
            filed.append(table_id)
    found = pit_tables(pit.pk)
    dealt = [t for t in found if t.in_force(when).source == source]
    if not dealt:
        raise ActionError(f"{pit} has no table dealt under rules text {source}.")
    if not filed:
        raise ActionError(
            f"Every table of {pit} dealt under rules text {source} uses that procedure then "
            f"already."
        )
    for table in found:
        if table.table_id in filed:
            check_pit_alike(table.table_id, pit.name, found, table.filings, since=when, zone=zone)
    return [TableRules.objects.filter(table_id=table_id).latest("pk") for table_id in filed]
