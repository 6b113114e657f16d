"""Whoever gets past the triggers (the database superuser) still leaves a broken chain."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from casino.models import Event
from casino.record import event_hash, verify_chain
from tablegame.models import Table
from tests.record.chains import record, triggers_bypassed


@pytest.fixture
def ten_cards(table: Table, other_table: Table) -> Table:
    for n in range(10):
        record(table, data={"card": "5S", "n": n})
    record(other_table)
    return table


def tamper(sql: str, *params: str | int) -> None:
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_an_edited_event_is_reported_as_altered(ten_cards: Table) -> None:
    tamper(
        """UPDATE casino_event SET data = '{"card": "9H", "n": 6}'
           WHERE chain_id = %s AND sequence = 7""",
        ten_cards.chain_id,
    )
    report = verify_chain(ten_cards.chain_id)
    assert not report.ok
    assert report.first_bad_sequence == 7
    assert report.checked == 6
    assert report.reason == "event 7 was altered: its hash does not match its contents"


def test_an_edited_event_with_its_hash_recomputed_breaks_the_link_from_the_next(
    ten_cards: Table,
) -> None:
    seventh = Event.objects.get(chain__table=ten_cards, sequence=7)
    forged = event_hash(
        chain_id=seventh.chain_id,
        sequence=7,
        actor_id=seventh.actor_id,
        action=seventh.action,
        data={"card": "9H", "n": 6},
        created_at=seventh.created_at,
        prev_hash=seventh.prev_hash,
    )
    tamper(
        """UPDATE casino_event SET data = '{"card": "9H", "n": 6}', hash = %s
           WHERE id = %s""",
        forged,
        seventh.pk,
    )
    report = verify_chain(ten_cards.chain_id)
    assert report.first_bad_sequence == 8
    assert report.checked == 7
    assert report.reason == "event 8 does not follow event 7"


def test_an_event_that_does_not_link_to_the_one_before_is_reported(ten_cards: Table) -> None:
    """Event 8 rewritten with a consistent hash of its own, but over a wrong previous hash."""
    eighth = Event.objects.get(chain__table=ten_cards, sequence=8)
    forged_prev = "b" * 64
    forged = event_hash(
        chain_id=eighth.chain_id,
        sequence=8,
        actor_id=eighth.actor_id,
        action=eighth.action,
        data=eighth.data,
        created_at=eighth.created_at,
        prev_hash=forged_prev,
    )
    tamper(
        "UPDATE casino_event SET prev_hash = %s, hash = %s WHERE id = %s",
        forged_prev,
        forged,
        eighth.pk,
    )
    report = verify_chain(ten_cards.chain_id)
    assert report.first_bad_sequence == 8
    assert report.reason == "event 8 does not follow event 7"


def test_a_deleted_middle_event_is_reported_as_missing(ten_cards: Table) -> None:
    tamper("DELETE FROM casino_event WHERE chain_id = %s AND sequence = 5", ten_cards.chain_id)
    report = verify_chain(ten_cards.chain_id)
    assert not report.ok
    assert report.first_bad_sequence == 5
    assert report.checked == 4
    assert report.reason == "event 5 is missing"


def test_a_deleted_first_event_is_reported_as_missing(ten_cards: Table) -> None:
    tamper("DELETE FROM casino_event WHERE chain_id = %s AND sequence = 1", ten_cards.chain_id)
    assert verify_chain(ten_cards.chain_id).reason == "event 1 is missing"


def test_verify_record_says_each_chain_is_intact(ten_cards: Table) -> None:
    out = StringIO()
    call_command("verify_record", stdout=out)
    mb1, mb2, total, checkpoints = out.getvalue().splitlines()
    assert mb1.startswith("MB-1: 10 events, chain intact, 10 not yet covered (the oldest ")
    assert mb2.startswith("MB-2: 1 event, chain intact, 1 not yet covered (the oldest ")
    assert total.startswith("Not yet covered: 11 events in 2 chains, the oldest ")
    assert checkpoints.startswith("Checkpoints: none in ")


def test_verify_record_exits_non_zero_naming_the_broken_table(ten_cards: Table) -> None:
    tamper("DELETE FROM casino_event WHERE chain_id = %s AND sequence = 5", ten_cards.chain_id)
    out = StringIO()
    with pytest.raises(CommandError, match="MB-1") as failed:
        call_command("verify_record", stdout=out)
    assert failed.value.returncode != 0
    broken, uncovered, mb2 = out.getvalue().splitlines()[:3]
    assert broken == "MB-1: BROKEN at event 5: event 5 is missing"
    assert uncovered.startswith("MB-1: 9 not yet covered (the oldest ")
    assert mb2.startswith("MB-2: 1 event, chain intact, 1 not yet covered")


def test_verify_record_checks_only_the_table_asked_for(ten_cards: Table) -> None:
    tamper("DELETE FROM casino_event WHERE chain_id = %s AND sequence = 5", ten_cards.chain_id)
    out = StringIO()
    call_command("verify_record", "--table", "MB-2", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("MB-2: 1 event, chain intact, 1 not yet")
    assert len(out.getvalue().splitlines()) == 3  # and the two summaries


def test_verify_record_refuses_a_table_that_does_not_exist(ten_cards: Table) -> None:
    with pytest.raises(CommandError, match="no table named 'BB-9'"):
        call_command("verify_record", "--table", "BB-9", stdout=StringIO())
