"""The application's database role may read and append to the record, and nothing more.

``grant_app_role`` is run against the test database as its owner (the tests' superuser); the
test then connects as the application's role, as web, worker and beat do in production.
"""

from __future__ import annotations

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from casino.models import Event
from casino.record import event_hash, verify_chain
from tablegame.models import Table
from tests.record.chains import record
from tests.record.conftest import AsApp

pytestmark = pytest.mark.usefixtures("record_cleared_after")

REFUSED = {
    "update": "UPDATE {table} SET id = id",
    "delete": "DELETE FROM {table}",
    "truncate": "TRUNCATE {table} CASCADE",
    "disable-triggers": "ALTER TABLE {table} DISABLE TRIGGER ALL",
    "drop-trigger": "DROP TRIGGER {table}_no_update_or_delete ON {table}",
    "take-ownership": "ALTER TABLE {table} OWNER TO CURRENT_USER",
    "replication-role": "SET session_replication_role = replica",
    "replace-trigger-function": "CREATE OR REPLACE FUNCTION casino_record_append_only() "
    "RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END; $$",
}


def test_the_application_role_is_no_superuser_and_owns_nothing(app_role: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls,
                      (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
               FROM pg_roles r WHERE rolname = %s""",
            [app_role],
        )
        assert cursor.fetchone() == (False, False, False, False, False, 0)


def test_the_application_role_appends_an_event_that_verifies_and_reads_it_back(
    as_app: AsApp, table: Table
) -> None:
    record(table, data={"card": "AS"})
    first = Event.objects.get(chain_id=table.chain_id)
    created_at = timezone.now()
    data = '{"card": "KD"}'
    digest = event_hash(
        chain_id=table.chain_id,
        sequence=2,
        actor_id=None,
        action="card_dealt",
        data={"card": "KD"},
        created_at=created_at,
        prev_hash=first.hash,
    )
    as_app(
        """INSERT INTO casino_event
           (chain_id, sequence, actor_id, action, data, created_at, prev_hash, hash)
           VALUES (%s, 2, NULL, 'card_dealt', %s, %s, %s, %s)""",
        table.chain_id,
        data,
        created_at,
        first.hash,
        digest,
    )
    assert as_app(
        "SELECT sequence, hash FROM casino_event WHERE chain_id = %s ORDER BY sequence",
        table.chain_id,
    ) == [(1, first.hash), (2, digest)]
    report = verify_chain(table.chain_id)
    assert (report.ok, report.checked) == (True, 2)


def test_the_application_role_adds_a_chain_and_still_changes_its_own_tables(
    as_app: AsApp, table: Table
) -> None:
    chain = table.chain
    as_app(
        "INSERT INTO casino_chain (casino_id, pit_id, scope, label) VALUES (%s, %s, 'table', 'X')",
        chain.casino_id,
        chain.pit_id,
    )
    assert as_app("SELECT label FROM casino_chain ORDER BY id") == [("MB-1",), ("X",)]
    as_app("UPDATE tablegame_table SET name = 'MB-7' WHERE id = %s", table.pk)
    table.refresh_from_db()
    assert table.name == "MB-7"


@pytest.mark.parametrize("table_name", ["casino_event", "casino_chain"])
@pytest.mark.parametrize("statement", REFUSED.values(), ids=REFUSED.keys())
def test_the_application_role_cannot_change_remove_or_unguard_the_record(
    as_app: AsApp, table: Table, table_name: str, statement: str
) -> None:
    record(table, data={"card": "AS"})
    before = list(Event.objects.values_list("chain_id", "sequence", "data", "hash"))
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        as_app(statement.format(table=table_name))
    assert list(Event.objects.values_list("chain_id", "sequence", "data", "hash")) == before
    assert Event.objects.get().chain_id == table.chain_id
    assert verify_chain(table.chain_id).ok
    guards = {f"{table_name}_no_update_or_delete"} | (
        {"casino_event_no_truncate"} if table_name == "casino_event" else set()
    )
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT tgname FROM pg_trigger
               WHERE tgrelid = %s::regclass AND NOT tgisinternal AND tgenabled = 'O'""",
            [table_name],
        )
        assert {name for (name,) in cursor.fetchall()} == guards


def test_the_command_refuses_to_grant_to_the_owner_itself(transactional_db: None) -> None:
    with pytest.raises(CommandError, match="the application needs a role of its own"):
        call_command("grant_app_role", "--role", connection.settings_dict["USER"])
