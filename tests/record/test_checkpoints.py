"""Signed checkpoints outside the database catch what the chain alone cannot: a chain rewritten
whole with the application's own hash, or cut short at its end, even by a database superuser."""

from __future__ import annotations

import hashlib
import json
import stat
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
)
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection
from pytest_django import Settings

from casino.models import Event
from casino.record import event_hash, verify_chain
from casino.tasks import checkpoint_record
from config.celery import app
from tablegame.models import Table
from tests.record.chains import record, triggers_bypassed


def checkpoint() -> str:
    out = StringIO()
    call_command("checkpoint_record", stdout=out)
    return out.getvalue()


def verify(*args: str) -> tuple[list[str], CommandError | None]:
    out = StringIO()
    try:
        call_command("verify_record", *args, stdout=out)
    except CommandError as failed:
        return out.getvalue().splitlines(), failed
    return out.getvalue().splitlines(), None


def raw_lines(settings: Settings) -> list[bytes]:
    """Every checkpoint line as written, in order, without its newline."""
    files = sorted(Path(settings.RECORD_CHECKPOINT_DIR).glob("checkpoints-*.jsonl"))
    return [line for path in files for line in path.read_bytes().splitlines()]


def checkpoint_lines(settings: Settings) -> list[dict[str, Any]]:
    return [json.loads(line) for line in raw_lines(settings)]


def rewrite_from(table: Table, sequence: int) -> None:
    """What an owner or superuser could do: change event ``sequence``'s data and recompute the
    hash of it and every later event, so the chain is consistent again."""
    events = list(Event.objects.filter(chain_id=table.chain_id).order_by("sequence"))
    prev_hash = events[sequence - 2].hash if sequence > 1 else events[0].prev_hash
    with triggers_bypassed(), connection.cursor() as cursor:
        for event in events[sequence - 1 :]:
            data = {"card": "9H", "n": event.sequence} if event.sequence == sequence else event.data
            digest = event_hash(
                chain_id=event.chain_id,
                sequence=event.sequence,
                actor_id=event.actor_id,
                action=event.action,
                data=data,
                created_at=event.created_at,
                prev_hash=prev_hash,
            )
            cursor.execute(
                "UPDATE casino_event SET data = %s, prev_hash = %s, hash = %s WHERE id = %s",
                [json.dumps(data), prev_hash, digest, event.pk],
            )
            prev_hash = digest


@pytest.fixture
def dealt(table: Table, other_table: Table) -> Table:
    """MB-1 with 6 cards, checkpointed, then 4 more, checkpointed again; MB-2 with one."""
    for n in range(6):
        record(table, data={"card": "5S", "n": n + 1})
    record(other_table)
    checkpoint()
    for n in range(6, 10):
        record(table, data={"card": "5S", "n": n + 1})
    checkpoint()
    return table


def test_a_checkpoint_signs_the_previous_one_and_the_head_of_each_chain_that_moved(
    settings: Settings, table: Table, other_table: Table
) -> None:
    for n in range(3):
        record(table, data={"card": "5S", "n": n})
    record(other_table)
    assert "Checkpoint 1 in " in checkpoint()
    assert ": 0 chains' heads (2 unchanged since their last checkpoint)" in checkpoint()
    last = record(table)
    assert ": 1 chain's head (1 unchanged since their last checkpoint)" in checkpoint()
    lines = checkpoint_lines(settings)
    assert [line["number"] for line in lines] == [1, 2, 3]
    assert [[(h["label"], h["sequence"]) for h in line["heads"]] for line in lines] == [
        [("MB-1", 3), ("MB-2", 1)],
        [],
        [("MB-1", 4)],
    ]
    assert lines[-1]["heads"] == [
        {
            "chain": table.chain_id,
            "scope": "table",
            "label": "MB-1",
            "sequence": 4,
            "hash": last.hash,
        }
    ]
    written = raw_lines(settings)
    assert lines[0]["previous"] is None
    assert lines[1]["previous"] == hashlib.sha256(written[0]).hexdigest()
    assert lines[2]["previous"] == hashlib.sha256(written[1]).hexdigest()
    assert all(line["version"] == 2 and line["signature"] for line in lines)


def test_verify_record_checks_each_chain_against_its_checkpoints(dealt: Table) -> None:
    lines, failed = verify()
    assert failed is None
    assert lines[:3] == [
        "MB-1: 10 events, chain intact, checkpointed up to event 10",
        "MB-2: 1 event, chain intact, checkpointed up to event 1",
        "Not yet covered: none, every event is covered by a checkpoint.",
    ]
    assert lines[3].startswith("Checkpoints: 2 lines in 1 file in ")
    assert ": checkpoints 1 to 2, the last at " in lines[3]
    assert lines[3].endswith(" UTC; every line valid.")


def test_a_chain_rewritten_with_every_hash_recomputed_fails_against_its_checkpoint(
    dealt: Table,
) -> None:
    rewrite_from(dealt, 3)
    assert verify_chain(dealt.chain_id).ok  # the chain alone looks intact
    lines, failed = verify()
    assert failed is not None
    assert "MB-1" in str(failed)
    assert lines[0].startswith(
        "MB-1: BROKEN from checkpoint 6 on: event 6 is not the one checkpointed at "
    )
    assert lines[1] == "MB-2: 1 event, chain intact, checkpointed up to event 1"


def test_a_rewrite_between_two_checkpoints_is_caught_at_the_later_one(
    dealt: Table,
) -> None:
    rewrite_from(dealt, 8)
    lines, failed = verify()
    assert failed is not None
    assert lines[0].startswith("MB-1: BROKEN from checkpoint 10 on: event 10 is not the one")


def test_events_removed_from_the_end_are_caught(dealt: Table) -> None:
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM casino_event WHERE chain_id = %s AND sequence > 7", [dealt.chain_id]
        )
    assert verify_chain(dealt.chain_id).ok
    lines, failed = verify()
    assert failed is not None
    assert lines[0].startswith("MB-1: BROKEN from checkpoint 10 on: event 10 is missing")


def test_a_forged_checkpoint_line_is_reported(settings: Settings, dealt: Table) -> None:
    """A rewrite covered by editing the checkpoints too: the signature no longer fits."""
    rewrite_from(dealt, 3)
    path = next(Path(settings.RECORD_CHECKPOINT_DIR).glob("checkpoints-*.jsonl"))
    rows = path.read_text().splitlines()
    by_sequence = {e.sequence: e.hash for e in Event.objects.filter(chain_id=dealt.chain_id)}
    forged = []
    for row in rows:
        line = json.loads(row)
        for head in line["heads"]:
            if head["chain"] == dealt.chain_id:
                head["hash"] = by_sequence[head["sequence"]]
        forged.append(json.dumps(line))
    path.write_text("\n".join(forged) + "\n")
    lines, failed = verify()
    assert failed is not None
    assert f"{path.name} line 1: FORGED: its signature does not verify" in lines
    assert f"{path.name} line 2: FORGED: its signature does not verify" in lines
    # Nothing left to check MB-1 against, and nothing left to cover its events.
    assert lines[0].startswith("MB-1: 10 events, chain intact, 10 not yet covered (the oldest ")
    assert lines[-1].endswith(" in 1 file in " + str(path.parent) + "; 2 problems.")
    assert "2 problems with the checkpoints" in str(failed)


def test_a_line_signed_with_another_key_is_reported(settings: Settings, dealt: Table) -> None:
    Path(settings.RECORD_SIGNING_KEY_FILE).write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()
        )
    )
    record(dealt)
    checkpoint()
    lines, failed = verify()
    assert failed is not None
    # The lines signed before the key changed; the checkpoint after them goes on from them.
    assert sum("signed with another key" in line for line in lines) == 2
    assert [line["number"] for line in checkpoint_lines(settings)] == [1, 2, 3]


def test_a_verifier_with_only_the_public_key_checks_the_checkpoints(
    settings: Settings, tmp_path: Path, dealt: Table
) -> None:
    out = StringIO()
    call_command("checkpoint_record", "--public-key", stdout=out)
    assert out.getvalue().startswith("-----BEGIN PUBLIC KEY-----")
    public = tmp_path / "verify-key.pem"
    public.write_text(out.getvalue())
    settings.RECORD_VERIFY_KEY_FILE = str(public)
    settings.RECORD_SIGNING_KEY_FILE = str(tmp_path / "not-here.pem")
    lines, failed = verify()
    assert failed is None
    assert lines[-1].endswith("; every line valid.")


def test_the_signing_key_is_made_once_readable_by_its_owner_only(
    settings: Settings, table: Table
) -> None:
    record(table)
    checkpoint()
    key = Path(settings.RECORD_SIGNING_KEY_FILE)
    made = key.read_bytes()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    record(table)
    checkpoint()
    assert key.read_bytes() == made
    assert not list(key.parent.glob(".signing-key-*"))


def test_without_debug_the_signing_key_must_be_configured(
    settings: Settings, tmp_path: Path, table: Table
) -> None:
    record(table)
    settings.RECORD_SIGNING_KEY_GENERATE = False
    settings.RECORD_SIGNING_KEY_FILE = ""
    with pytest.raises(ImproperlyConfigured, match="RECORD_SIGNING_KEY_FILE must name"):
        checkpoint()
    settings.RECORD_SIGNING_KEY_FILE = str(tmp_path / "missing.pem")
    with pytest.raises(ImproperlyConfigured, match="There is no signing key at"):
        checkpoint()
    assert not Path(settings.RECORD_CHECKPOINT_DIR).exists()


def test_celery_beat_runs_the_checkpoint_task(settings: Settings, table: Table) -> None:
    schedule = app.conf.beat_schedule["checkpoint-the-record"]
    assert schedule["task"] == "casino.tasks.checkpoint_record"
    assert schedule["schedule"] == 60
    assert checkpoint_record.name in app.tasks
    record(table)
    assert checkpoint_record() == 1
    assert checkpoint_record() == 0
    lines = checkpoint_lines(settings)
    assert [(line["number"], len(line["heads"])) for line in lines] == [(1, 1), (2, 0)]
