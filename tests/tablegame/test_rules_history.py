"""Rules in force are one ordered history (issue 27): no filing skips surveillance's notice by
closing the table, a filing for now outlives one filed earlier for later, nothing filed is lost,
and what takes effect is recorded and told to the screens when it does."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from casino.models import Event
from tablegame import actions
from tablegame.actions import ActionError
from tablegame.models import TableRules
from tablegame.tasks import rules_take_effect
from tests.tablegame.conftest import deal_at, table_for
from tests.values import present


def minutes(n: int) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(minutes=n)


@contextmanager
def at(moment: datetime.datetime) -> Iterator[None]:
    """The clock shows ``moment`` (a filing's time has come)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def test_a_commission_change_filed_at_a_closed_table_still_waits_for_its_notice(db, dealer, floor):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    actions.close_table(table, actor=dealer)
    with pytest.raises(ActionError, match="30 minutes before the commission rate change"):
        actions.file_rules(
            table, profile="s42-mini", options={"commission_rate": "0.04"}, actor=floor
        )
    assert not TableRules.objects.filter(table=table, options__commission_rate="0.04").exists()
    when = minutes(31)
    actions.file_rules(
        table,
        profile="s42-mini",
        options={"commission_rate": "0.04"},
        effective_at=when,
        actor=floor,
    )
    actions.open_table(table, actor=dealer)  # reopened at once: the notice still runs
    assert table.rules.commission_rate == Decimal("0.05")
    with at(when - datetime.timedelta(seconds=1)):
        assert table.rules.commission_rate == Decimal("0.05")
    with at(when):
        assert table.rules.commission_rate == Decimal("0.04")


def test_a_change_filed_for_now_outlives_one_filed_earlier_for_later(db, dealer, floor):
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    when = minutes(31)
    first = actions.file_rules(
        table,
        profile="ma-mini",
        options={"commission_rate": "0.04"},
        effective_at=when,
        actor=floor,
    )
    actions.file_rules(table, profile="ma-mini", options={"tie_odds": 9}, actor=floor)
    assert (table.rules.tie_odds, table.rules.commission_rate) == (9, Decimal("0.05"))
    last = minutes(40)
    actions.file_rules(
        table, profile="ma-mini", options={"tie_odds": 10}, effective_at=last, actor=floor
    )
    with at(when + datetime.timedelta(minutes=1)):
        assert (table.rules.tie_odds, table.rules.commission_rate) == (9, Decimal("0.04"))
    with at(last):
        assert (table.rules.tie_odds, table.rules.commission_rate) == (10, Decimal("0.04"))
    first.refresh_from_db()
    assert first.changes == {"commission_rate": "0.04"}  # as filed
    restated = Event.objects.get(chain=table.chain, action="rules_restated")
    assert restated.data["filing"] == first.pk
    assert restated.data["before"] == {"commission_rate": "0.04"}
    assert restated.data["options"] == {"commission_rate": "0.04", "tie_odds": 9}


def test_a_change_a_later_filing_could_not_stand_over_is_refused_and_changes_nothing(
    db, dealer, floor
):
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    ez = {"commission": "ez", "vigorish_rounding": None}
    first = actions.file_rules(
        table, profile="ma-mini", options=ez, effective_at=minutes(31), actor=floor
    )
    filed = TableRules.objects.filter(table=table).count()
    with pytest.raises(ActionError, match=r"cannot come before the rules filed for .*no vigorish"):
        actions.file_rules(
            table, profile="ma-mini", options={"vigorish_collection": "deferred"}, actor=floor
        )
    assert TableRules.objects.filter(table=table).count() == filed
    assert table.rules.vigorish_collection.value == "at_payout"
    first.refresh_from_db()
    assert first.options == {"commission": "ez", "vigorish_rounding": None}


def test_a_change_a_later_filing_would_undo_without_notice_is_refused(db, dealer, floor):
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    # The whole EZ preset (feathered) from an hour on, with notice of its commission only.
    actions.file_rules(table, profile="ma-mini-ez", effective_at=minutes(60), actor=floor)
    with pytest.raises(ActionError, match="change the shuffle procedure with no notice"):
        actions.file_rules(
            table,
            profile="ma-mini",
            options={"shuffle": "laced"},
            effective_at=minutes(31),
            actor=floor,
        )
    # Filed for after it, the lacing is set over the EZ preset instead.
    later = minutes(91)
    actions.file_rules(
        table, profile="ma-mini-ez", options={"shuffle": "laced"}, effective_at=later, actor=floor
    )
    assert present(table.rules_record(later)).submission.shuffle.value == "laced"


def test_a_time_already_past_is_refused(db, dealer, floor):
    table = table_for("ma-mini")
    with pytest.raises(ActionError, match="has passed"):
        actions.file_rules(
            table,
            profile="ma-mini",
            options={"tie_odds": 9},
            effective_at=minutes(-10),
            actor=floor,
        )
    assert table.rules.tie_odds == 8


def test_a_filing_that_changes_nothing_is_refused(db, dealer, floor):
    table = table_for("ma-mini")
    with pytest.raises(ActionError, match="Nothing changes"):
        actions.file_rules(table, profile="ma-mini", options={"tie_odds": 8}, actor=floor)


def test_rules_taking_effect_are_recorded_once_and_told_to_the_screens(
    db, dealer, floor, django_capture_on_commit_callbacks
):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    when = minutes(31)
    with (
        mock.patch("tablegame.tasks.rules_take_effect.apply_async") as schedule,
        django_capture_on_commit_callbacks(execute=True),
    ):
        filed = actions.file_rules(
            table,
            profile="s42-mini",
            options={"commission_rate": "0.04"},
            effective_at=when,
            actor=floor,
        )
    schedule.assert_called_once_with((filed.pk,), eta=when)
    with mock.patch("tablegame.tasks.rules_take_effect.apply_async") as again:
        assert rules_take_effect(filed.pk) is None  # early: due again at its time
    again.assert_called_once_with((filed.pk,), eta=when)
    with (
        at(when + datetime.timedelta(seconds=5)),
        mock.patch("tablegame.broadcast.announce_change") as told,
        django_capture_on_commit_callbacks(execute=True),
    ):
        sequence = rules_take_effect(filed.pk)
        assert rules_take_effect(filed.pk) is None  # recorded once
    event = Event.objects.get(chain=table.chain, action="rules_in_force")
    assert (event.sequence, event.actor, event.data["filing"]) == (sequence, None, filed.pk)
    assert event.data["options"] == {"commission_rate": "0.04"}
    told.assert_called_once()
    assert told.call_args.args == (table.pk, sequence, "rules_in_force")
