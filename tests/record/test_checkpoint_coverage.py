"""Checkpoints that cover everything (issue 27): each checkpoint signs the one before it, so a
line, a file or the whole directory removed is reported; and the events after a chain's last
checkpoint are counted, "not yet covered", and reported once older than RECORD_CHECKPOINT_GRACE.

The clock is the test's: the recorder, the writer and ``verify_record`` all read
``django.utils.timezone.now``, which the ``clock`` fixture moves."""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import shutil
import threading
from io import StringIO
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone
from pytest_django import Settings

from casino.checkpoints import CheckpointRefused, write_checkpoints
from casino.tasks import checkpoint_record
from tablegame.models import Table
from tests.record.chains import record, triggers_bypassed
from tests.record.test_checkpoints import checkpoint, checkpoint_lines, raw_lines, verify

START = datetime.datetime(2026, 11, 27, 23, 50, tzinfo=datetime.UTC)
DAY_1 = "checkpoints-2026-11-27.jsonl"
DAY_2 = "checkpoints-2026-11-28.jsonl"


class Clock:
    def __init__(self) -> None:
        self.at = START

    def now(self) -> datetime.datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += datetime.timedelta(seconds=seconds)


@pytest.fixture
def clock(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Clock:
    settings.RECORD_CHECKPOINT_GRACE = 300
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock.now)
    return clock


def deal(table: Table, cards: int) -> None:
    for _ in range(cards):
        record(table, data={"card": "5S"})


def play(clock: Clock, table: Table, minutes: int) -> None:
    """A card every 20 s, and the beat's checkpoint at the end of each minute."""
    for _ in range(minutes):
        for _ in range(3):
            deal(table, 1)
            clock.advance(20)
        checkpoint()


def cut(table: Table, after: int) -> None:
    """What the tables' owner can do: delete a chain's events after ``after``."""
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM casino_event WHERE chain_id = %s AND sequence > %s",
            [table.chain_id, after],
        )


def directory(settings: Settings) -> Path:
    return Path(settings.RECORD_CHECKPOINT_DIR)


def remove_line(path: Path, number: int) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[: number - 1] + lines[number:]))


def test_verify_record_counts_the_events_not_yet_covered(
    clock: Clock, table: Table, other_table: Table
) -> None:
    deal(table, 6)
    checkpoint()
    clock.advance(10)
    deal(table, 4)
    clock.advance(20)
    deal(other_table, 1)
    clock.advance(10)
    lines, failed = verify()
    assert failed is None
    assert lines[:3] == [
        "MB-1: 10 events, chain intact, checkpointed up to event 6, 4 not yet covered "
        "(the oldest 30 s old)",
        "MB-2: 1 event, chain intact, 1 not yet covered (the oldest 10 s old)",
        "Not yet covered: 5 events in 2 chains, the oldest 30 s old.",
    ]
    checkpoint()
    lines, failed = verify()
    assert failed is None
    assert lines[:3] == [
        "MB-1: 10 events, chain intact, checkpointed up to event 10",
        "MB-2: 1 event, chain intact, checkpointed up to event 1",
        "Not yet covered: none, every event is covered by a checkpoint.",
    ]


def test_events_uncovered_for_longer_than_the_grace_fail(clock: Clock, table: Table) -> None:
    deal(table, 6)
    checkpoint()
    clock.advance(30)
    deal(table, 2)
    clock.advance(301)  # and no beat
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == (
        "MB-1: 8 events, chain intact, checkpointed up to event 6, 2 NOT COVERED by a "
        "checkpoint, the oldest 5 min old, more than RECORD_CHECKPOINT_GRACE (5 min): "
        "checkpoints were removed, or none was written (is the beat running?)"
    )
    assert (
        "the last checkpoint, 1 at 2026-11-27 23:50:00 UTC (checkpoints-2026-11-27.jsonl line "
        "1), is 5 min old, more than RECORD_CHECKPOINT_GRACE (5 min): checkpoints after it were "
        "removed, or none has been written since (is the beat running?)"
    ) in lines
    assert str(failed).endswith(
        "; events not covered by a checkpoint for more than RECORD_CHECKPOINT_GRACE (5 min) at "
        "MB-1."
    )
    # Covered late, the stretch without a checkpoint is still reported: nothing vouches for it.
    checkpoint()
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == "MB-1: 8 events, chain intact, checkpointed up to event 8"
    assert (
        f"{DAY_1} line 2: no checkpoint for 5 min before this line, checkpoint 2, since "
        f"checkpoint 1 ({DAY_1} line 1), more than RECORD_CHECKPOINT_GRACE (5 min): checkpoints "
        "were removed, or none was written then (the beat stopped)"
    ) in lines


def test_the_tail_cut_after_the_last_checkpoint_is_reported_once_older_than_the_grace(
    clock: Clock, table: Table
) -> None:
    deal(table, 6)
    checkpoint()
    clock.advance(20)
    deal(table, 4)
    cut(table, after=8)
    clock.advance(10)
    lines, failed = verify()
    assert failed is None
    assert lines[0] == (
        "MB-1: 8 events, chain intact, checkpointed up to event 6, 2 not yet covered "
        "(the oldest 10 s old)"
    )
    clock.advance(300)
    lines, failed = verify()
    assert failed is not None
    assert lines[0].startswith(
        "MB-1: 8 events, chain intact, checkpointed up to event 6, 2 NOT COVERED by a "
        "checkpoint, the oldest 5 min old"
    )


def test_a_checkpoint_line_removed_is_reported(
    settings: Settings, clock: Clock, table: Table
) -> None:
    """The owner cuts the chain's end and removes the checkpoint that named it."""
    deal(table, 6)
    checkpoint()
    clock.advance(60)
    deal(table, 4)
    checkpoint()
    clock.advance(60)
    checkpoint()
    cut(table, after=6)
    remove_line(directory(settings) / DAY_1, 2)
    clock.advance(60)
    checkpoint()  # the beat goes on
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == "MB-1: 6 events, chain intact, checkpointed up to event 6"
    assert lines[1] == (
        f"{DAY_1} line 2: checkpoint 2 is missing: this line, checkpoint 3, follows "
        f"checkpoint 1 ({DAY_1} line 1)"
    )
    assert lines[-1].endswith(
        ": checkpoints 1 to 4, the last at 2026-11-27 23:53:00 UTC; 1 problem."
    )
    assert "1 problem with the checkpoints" in str(failed)


def test_a_checkpoint_file_removed_is_reported(
    settings: Settings, clock: Clock, table: Table
) -> None:
    clock.advance(6 * 60)
    play(clock, table, 5)  # checkpoints 1 to 3 on the 27th (23:57 to 23:59), 4 and 5 on the 28th
    assert [p.name for p in sorted(directory(settings).iterdir())] == [
        ".checkpoints.lock",
        DAY_1,
        DAY_2,
    ]
    assert [len(line["heads"]) for line in checkpoint_lines(settings)] == [1, 1, 1, 1, 1]
    (directory(settings) / DAY_1).unlink()
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == "MB-1: 15 events, chain intact, checkpointed up to event 15"
    assert lines[1] == (
        f"{DAY_2} line 1: checkpoints 1 to 3 are missing: this line, checkpoint 4, is the "
        "first here"
    )


def test_the_newest_checkpoint_file_removed_is_reported(
    settings: Settings, clock: Clock, table: Table
) -> None:
    """The owner cuts the day's play and removes the day's checkpoints: the checkpoints before
    them are too old, and stay so once the beat writes again."""
    clock.advance(6 * 60)
    play(clock, table, 5)
    cut(table, after=9)
    (directory(settings) / DAY_2).unlink()
    clock.advance(5 * 60)  # 00:06
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == "MB-1: 9 events, chain intact, checkpointed up to event 9"
    assert lines[1] == (
        f"the last checkpoint, 3 at 2026-11-27 23:59:00 UTC ({DAY_1} line 3), is 7 min old, "
        "more than RECORD_CHECKPOINT_GRACE (5 min): checkpoints after it were removed, or none "
        "has been written since (is the beat running?)"
    )
    assert "Checkpoint 4 in " in checkpoint()
    lines, failed = verify()
    assert failed is not None
    assert lines[1].startswith(
        f"{DAY_2} line 1: no checkpoint for 7 min before this line, checkpoint 4, since "
        f"checkpoint 3 ({DAY_1} line 3)"
    )


def test_an_emptied_directory_is_reported_and_not_begun_again_silently(
    settings: Settings, clock: Clock, table: Table, other_table: Table
) -> None:
    deal(other_table, 1)
    play(clock, table, 10)
    assert verify()[1] is None
    shutil.rmtree(directory(settings))
    lines, failed = verify()
    assert failed is not None
    assert lines[0].startswith(
        "MB-1: 30 events, chain intact, 30 NOT COVERED by a checkpoint, the oldest 10 min old"
    )
    assert lines[1].startswith("MB-2: 1 event, chain intact, 1 NOT COVERED by a checkpoint")
    assert lines[2] == "Not yet covered: 31 events in 2 chains, the oldest 10 min old."
    assert lines[3].startswith("Checkpoints: none in ")
    assert "at MB-1, MB-2" in str(failed)

    refusal = (
        f"There is no checkpoint in {directory(settings)}, but the record holds events from "
        "2026-11-27 23:50:00 UTC on, older than RECORD_CHECKPOINT_GRACE (5 min): the "
        "checkpoints were removed, or were never written here."
    )
    with pytest.raises(CommandError, match="^" + refusal.replace("(", r"\(").replace(")", r"\)")):
        checkpoint()
    with pytest.raises(CheckpointRefused):
        checkpoint_record()  # the beat fails loudly, again and again
    assert not list(directory(settings).glob("checkpoints-*"))

    out = checkpoint_with("--start", "the checkpoint disk was replaced")
    assert out.startswith("Checkpoint 1 in ")
    lines, failed = verify()
    assert failed is None
    assert (
        f"{DAY_2} line 1: checkpoint 1, at 2026-11-28 00:00:00 UTC, began the checkpoints again "
        "by hand: 'the checkpoint disk was replaced'; what was recorded before it was not "
        "covered then."
    ) in lines


def test_the_checkpoints_begin_by_themselves_on_a_new_record(clock: Clock, table: Table) -> None:
    deal(table, 2)
    clock.advance(60)
    assert "Checkpoint 1 in " in checkpoint()
    with pytest.raises(CommandError, match=r"go on from checkpoint 1 \(checkpoints-2026-11-27"):
        checkpoint_with("--start", "again")
    with pytest.raises(CommandError, match="--start needs a reason"):
        checkpoint_with("--start", " ")


def test_old_format_lines_are_read_and_reported(
    settings: Settings, clock: Clock, table: Table
) -> None:
    deal(table, 3)
    event = table.chain.events.get(sequence=3)
    write_checkpoints()  # makes the key; this line is replaced by the old one below
    path = directory(settings) / DAY_1
    path.write_text(old_line(settings, table, 3, event.hash) + '\n{"chain": 1}\n')
    clock.advance(600)
    lines, failed = verify()
    assert failed is not None
    assert lines[0] == "MB-1: 3 events, chain intact, checkpointed up to event 3"
    assert f"{DAY_1} line 2: not a checkpoint line" in lines
    assert (
        "Checkpoints: 1 line in the old format (version 1: one chain's head a line, neither "
        "numbered nor chained): their heads are checked, but a removed one would not show."
    ) in lines
    # After old lines, the checkpoints of version 2 begin by themselves, every head in the first.
    checkpoint()
    assert [(line.get("version"), line.get("number")) for line in checkpoint_lines(settings)][
        2:
    ] == [(2, 1)]
    assert checkpoint_lines(settings)[2]["heads"][0]["sequence"] == 3


@pytest.mark.usefixtures("record_cleared_after")
def test_writers_at_once_each_take_the_next_number(settings: Settings, table: Table) -> None:
    deal(table, 3)
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def write() -> None:
        try:
            start.wait(timeout=10)
            for _ in range(5):
                write_checkpoints()
        except BaseException as exc:
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=write) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    lines = checkpoint_lines(settings)
    assert [line["number"] for line in lines] == list(range(1, 21))
    raw = raw_lines(settings)
    assert all(
        line["previous"] == hashlib.sha256(before).hexdigest()
        for line, before in zip(lines[1:], raw, strict=False)
    )
    assert [len(line["heads"]) for line in lines] == [1] + [0] * 19
    lines_said, failed = verify()
    assert failed is None, lines_said


def checkpoint_with(*args: str) -> str:
    out = StringIO()
    call_command("checkpoint_record", *args, stdout=out)
    return out.getvalue()


def old_line(settings: Settings, table: Table, sequence: int, digest: str) -> str:
    """A checkpoint line as version 1 wrote it: one chain's head, signed alone."""
    key = serialization.load_pem_private_key(
        Path(settings.RECORD_SIGNING_KEY_FILE).read_bytes(), password=None
    )
    assert isinstance(key, Ed25519PrivateKey)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    body = {
        "chain": table.chain_id,
        "scope": "table",
        "label": table.name,
        "sequence": sequence,
        "hash": digest,
        "at": timezone.now().isoformat(timespec="microseconds"),
        "key": hashlib.sha256(raw).hexdigest()[:16],
    }
    signed = b"baccarat-record-checkpoint/1\n" + json.dumps(
        body, sort_keys=True, separators=(",", ":")
    ).encode("utf-8")
    signature = base64.b64encode(key.sign(signed)).decode("ascii")
    return json.dumps({**body, "signature": signature}, sort_keys=True)
