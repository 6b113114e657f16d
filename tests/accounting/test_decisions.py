"""The day's decisions (the overrides and the corrected cards) are read through the partial index
of the record's events that holds exactly their kinds (``tablegame.decisions``): the day lists
those made in it, and not those of the day before."""

from __future__ import annotations

import datetime
import importlib
import re
from decimal import Decimal
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from accounting.reports import day_report
from tablegame import actions, decisions
from tablegame.actions.corrections import correct_card
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("tablegame.migrations.0011_decision_and_void_indexes")


def _index_definition(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = %s", [name])
        row = cursor.fetchone()
    assert row is not None, f"no index {name}"
    return str(row[0])


def test_the_index_holds_the_decisions_the_report_asks_for() -> None:
    for vendor in ("postgresql", "sqlite"):
        assert MIGRATION.DECISIONS[vendor] == decisions.predicate(vendor), vendor
    definition = _index_definition(decisions.INDEX)
    assert " ON public.casino_event USING btree (created_at) WHERE " in definition
    kinds = re.findall(r"'([a-z_]+)'::(?:character varying|text)", definition)
    assert kinds == [*decisions.KINDS, decisions.ORDERED]
    assert """'{"ordered": true}'::jsonb""" in definition
    # The report's query carries the index's condition, written the same way.
    query = str(decisions.decided([1], timezone.now(), timezone.now()).query)
    assert decisions.predicate("postgresql", '"casino_event"') in query


def test_every_override_and_correction_kind_is_a_decision() -> None:
    assert {*decisions.KINDS, decisions.ORDERED} == {
        *(kind.kind.value for kind in decisions.OVERRIDES),
        "card_corrected",
    }


def _limit(table, floor, reason: str) -> None:
    actions.set_limit(
        table, wager="banker", minimum=Decimal(25), maximum=Decimal(5000), reason=reason,
        actor=floor,
    )  # fmt: skip


def test_the_day_lists_the_decisions_made_in_it_not_the_day_befores(
    staff: dict[str, User],
) -> None:
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    casino = table.pit.casino
    now = timezone.now()
    today = casino.gaming_day(now)
    with mock.patch("django.utils.timezone.now", return_value=now - datetime.timedelta(days=1)):
        _limit(table, floor, "Yesterday's high roller")
    _limit(table, floor, "Today's high roller")
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ("4H", "8C", "2S", "KS"):
        actions.deal_card(table, card=card, actor=dealer)
    correct_card(table, position=2, card="9C", approver=floor, reason="Keyed 8", actor=dealer)
    actions.settle_round(table, actor=dealer)

    report = day_report(casino, today)
    overrides = " ".join(line.text for line in report.overrides)
    assert "Today's high roller" in overrides and "Yesterday's" not in overrides
    (correction,) = report.corrections
    assert "approved by floor (Keyed 8)" in correction.text
    before = day_report(casino, today - datetime.timedelta(days=1))
    assert [line.text for line in before.overrides] == [
        "Limit set: Banker: $25 to $5000 (Yesterday's high roller) (by floor)"
    ]
    assert before.corrections == []


def test_postgresql_can_read_the_decisions_from_their_index_alone(staff: dict[str, User]) -> None:
    """The planner proves the report's condition implies the index's (with sequential scans
    off, as a small table would otherwise be read whole; ``bench/bench_accounting.py`` checks
    the plan of a full-size day)."""
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    _limit(table, staff["floor"], "High roller")
    start, end = table.pit.casino.gaming_day_bounds(table.pit.casino.gaming_day(timezone.now()))
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = decisions.decided([table.pk], start, end).explain()
    assert decisions.INDEX in plan, plan
