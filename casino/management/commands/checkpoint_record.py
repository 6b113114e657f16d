"""``manage.py checkpoint_record [--public-key | --start REASON]``: sign the next checkpoint.

Celery beat does this every ``RECORD_CHECKPOINT_SECONDS``; run by hand it does the same once: the
previous checkpoint's hash and the head of each chain that moved (``casino.checkpoints``).
``--public-key`` prints the public key to give the verifier (``RECORD_VERIFY_KEY_FILE``).
``--start REASON`` begins the checkpoints at 1 in a directory that holds none although the record
holds older events (after they were lost, or when checkpoints are first set up for a record
already in use); the reason is signed into checkpoint 1 and ``verify_record`` shows it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.checkpoints import (
    CheckpointRefused,
    public_key_pem,
    signing_key,
    write_checkpoints,
)


class Command(BaseCommand):
    help = (
        "Write the next signed checkpoint of the record, outside the database: the previous "
        "checkpoint's hash and the head of each chain that moved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument(
            "--public-key",
            action="store_true",
            help="Print the signing key's public key (PEM) instead, for RECORD_VERIFY_KEY_FILE.",
        )
        what.add_argument(
            "--start",
            metavar="REASON",
            help="Begin the checkpoints at 1 although the record holds older events, saying why.",
        )

    def handle(
        self, *args: Any, public_key: bool = False, start: str | None = None, **options: Any
    ) -> None:
        if public_key:
            self.stdout.write(public_key_pem(signing_key().public_key()), ending="")
            return
        try:
            done = write_checkpoints(start=start)
        except CheckpointRefused as refused:
            raise CommandError(str(refused)) from None
        chains = "chain's head" if done.written == 1 else "chains' heads"
        self.stdout.write(
            f"Checkpoint {done.number} in {done.path}: {done.written} {chains} "
            f"({done.unchanged} unchanged since their last checkpoint)."
        )
