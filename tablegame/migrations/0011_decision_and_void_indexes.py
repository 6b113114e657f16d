"""Indexes for the day's exceptions (``accounting.reports``): two partial ones, of the decisions
among the record's events (``tablegame.decisions``) and of the void rounds, each a few among
millions; and the rounds of a table by when they opened, to find the round each decision is
reviewed in (the one in play then) without reading all the table's rounds.

Built CONCURRENTLY on PostgreSQL (outside a transaction: this migration is not atomic), so that
play goes on while the record's events are read; a plain CREATE INDEX on SQLite. The decisions'
condition is written out as it was when this was written: a kind added to
``tablegame.decisions`` needs a migration of its own that makes the index again
(``tests/accounting/test_decisions.py`` compares them).
"""

from typing import Any

from django.db import migrations, models

#: ``tablegame.decisions.predicate`` when this was written, on each database.
DECISIONS = {
    "postgresql": (
        "(action IN ('card_corrected', 'cards_relinquished', 'limit_set', "
        "'progressive_parameters', 'recut_ordered', 'rules_filed', 'seats_set') "
        """OR (action = 'shoe_passed' AND data @> '{"ordered": true}'))"""
    ),
    "sqlite": (
        "(action IN ('card_corrected', 'cards_relinquished', 'limit_set', "
        "'progressive_parameters', 'recut_ordered', 'rules_filed', 'seats_set') "
        "OR (action = 'shoe_passed' AND json_extract(data, '$.ordered') = 1))"
    ),
}
VOIDS = "round_void ON tablegame_round (settled_at) WHERE state = 'void'"
OPENED = "round_opened_per_table ON tablegame_round (table_id, opened_at)"


def _indexes(vendor: str) -> tuple[str, ...]:
    decisions = f"event_decisions ON casino_event (created_at) WHERE {DECISIONS[vendor]}"
    return (decisions, VOIDS, OPENED)


def _create(apps: Any, schema_editor: Any) -> None:
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for index in _indexes(schema_editor.connection.vendor):
        name = index.split()[0]
        # An index left invalid by a build that failed half-way is made again.
        schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")
        schema_editor.execute(f"CREATE INDEX {concurrently}{index}")


def _drop(apps: Any, schema_editor: Any) -> None:
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for index in _indexes(schema_editor.connection.vendor):
        schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {index.split()[0]}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("casino", "0004_sign_in_lockout"),
        ("tablegame", "0010_day_tallies"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_create, _drop)],
            state_operations=[
                migrations.AddIndex(
                    model_name="round",
                    index=models.Index(
                        fields=["table", "opened_at"], name="round_opened_per_table"
                    ),
                ),
                migrations.AddIndex(
                    model_name="round",
                    index=models.Index(
                        condition=models.Q(("state", "void")),
                        fields=["settled_at"],
                        name="round_void",
                    ),
                ),
            ],
        ),
    ]
