"""A table's events are numbered from 1 and each one carries the hash of the one before."""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from casino.models import GENESIS_HASH, Event
from casino.record import record_event, verify_chain
from tablegame.models import Table
from tests.record.chains import record


def test_events_of_a_table_are_numbered_from_1_and_link_to_the_previous_hash(
    table: Table, dealer: User
) -> None:
    for card in ("AS", "KD", "9H", "2C"):
        record(table, data={"card": card}, actor=dealer)
    events = list(Event.objects.filter(chain__table=table).order_by("sequence"))
    assert [e.sequence for e in events] == [1, 2, 3, 4]
    assert events[0].prev_hash == GENESIS_HASH
    for before, after in itertools.pairwise(events):
        assert after.prev_hash == before.hash
    assert all(re.fullmatch(r"[0-9a-f]{64}", e.hash) for e in events)
    assert len({e.hash for e in events}) == 4


def test_the_hash_is_sha256_of_the_canonical_json(table: Table, dealer: User) -> None:
    event = record(table, action="card_dealt", data={"card": "QH", "box": "player"}, actor=dealer)
    event.refresh_from_db()
    assert event.created_at.utcoffset() == datetime.timedelta(0)
    canonical = json.dumps(
        {
            "chain": table.chain_id,
            "sequence": 1,
            "actor": dealer.pk,
            "action": "card_dealt",
            "data": {"card": "QH", "box": "player"},
            "created_at": event.created_at.isoformat(timespec="microseconds"),
            "prev_hash": GENESIS_HASH,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert event.hash == hashlib.sha256(canonical.encode()).hexdigest()


def test_chains_of_two_tables_are_independent(table: Table, other_table: Table) -> None:
    record(table)
    record(other_table)
    record(table)
    record(other_table)
    record(other_table)

    def numbers(of: Table) -> list[int]:
        return list(of.chain.events.order_by("sequence").values_list("sequence", flat=True))

    assert numbers(table) == [1, 2]
    assert numbers(other_table) == [1, 2, 3]


def test_verify_chain_passes_on_an_untouched_chain(table: Table, dealer: User) -> None:
    record(table, action="shoe_opened", data={})
    for n in range(30):
        record(table, data={"card": "5S", "n": n, "player": "Zoë ☘", "seats": [1, None, True]})
    record(table, action="round_settled", data={"payout": "195.00"}, actor=dealer)
    report = verify_chain(table.chain_id)
    assert report.ok
    assert report.checked == 32
    assert report.first_bad_sequence is None
    assert report.reason == "chain intact"


def test_verify_chain_passes_on_a_table_without_events(table: Table) -> None:
    assert verify_chain(table.chain_id).ok
    assert verify_chain(table.chain_id).checked == 0


def test_the_system_records_events_without_an_actor(table: Table) -> None:
    assert record(table, action="round_opened", actor=None).actor is None
    assert verify_chain(table.chain_id).ok


def test_record_event_refuses_a_decimal_in_data(table: Table) -> None:
    with pytest.raises(TypeError, match=r"data\['wager'\]\['amount'\] is a Decimal.*string"):
        record(table, action="wager_placed", data={"wager": {"amount": Decimal("25.00")}})
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "value",
    [1.5, float("nan"), (1, 2), {1, 2}, datetime.date(2025, 1, 1), b"AS", "A\x00S"],
    ids=["float", "nan", "tuple", "set", "date", "bytes", "nul"],
)
def test_record_event_refuses_data_that_is_not_plain_json(table: Table, value: object) -> None:
    with pytest.raises(TypeError, match=r"data\['value'\]"):
        record(table, data={"value": value})


def test_record_event_refuses_a_non_string_key(table: Table) -> None:
    with pytest.raises(TypeError, match="key 1 that is not a string"):
        record(table, data={1: "AS"})  # type: ignore[dict-item]


def test_record_event_refuses_an_action_that_is_not_a_slug(table: Table) -> None:
    for _ in range(2):  # the names found good are kept; a refused one is refused again
        with pytest.raises(ValueError, match="not a slug"):
            record(table, action="card dealt")
    with pytest.raises(ValueError, match="longer than"):
        record(table, action="x" * 200)


@pytest.mark.django_db(transaction=True)
def test_record_event_outside_a_transaction_raises(table: Table) -> None:
    with pytest.raises(transaction.TransactionManagementError, match=r"transaction\.atomic"):
        record_event(chain_id=table.chain_id, actor=None, action="card_dealt", data={"card": "AS"})
    assert not Event.objects.exists()
