"""``manage.py checkpoint_record [--public-key]``: sign each chain's head into the checkpoints.

Celery beat does this every ``RECORD_CHECKPOINT_SECONDS``; run by hand it does the same once.
``--public-key`` prints the public key to give the verifier (``RECORD_VERIFY_KEY_FILE``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.checkpoints import public_key_pem, signing_key, write_checkpoints


class Command(BaseCommand):
    help = "Write a signed checkpoint of each chain whose head moved, outside the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--public-key",
            action="store_true",
            help="Print the signing key's public key (PEM) instead, for RECORD_VERIFY_KEY_FILE.",
        )

    def handle(self, *args: Any, public_key: bool = False, **options: Any) -> None:
        if public_key:
            self.stdout.write(public_key_pem(signing_key().public_key()), ending="")
            return
        done = write_checkpoints()
        chains = "chain" if done.written == 1 else "chains"
        self.stdout.write(
            f"Checkpointed {done.written} {chains} in {done.path} "
            f"({done.unchanged} unchanged since their last checkpoint)."
        )
