"""The database refuses to change or remove events: surveillance_event is append-only.

PostgreSQL: one trigger function, fired BEFORE UPDATE OR DELETE for each row and BEFORE TRUNCATE
for the statement. A TRUNCATE of an already empty table is let through: it destroys nothing, and
Django's ``flush`` (run after every transactional test) truncates every table at once.

SQLite (the embedded ``make run``): BEFORE UPDATE and BEFORE DELETE triggers (SQLite has no
TRUNCATE). Beware: SQLite's schema editor rebuilds a table to alter it, which drops its
triggers, so a later migration that alters Event must create these triggers again.

Only a superuser can get past the PostgreSQL triggers (``SET session_replication_role =
replica``); the hash chain (``surveillance.record.verify_chain``) shows what they changed.
"""

from django.db import migrations

POSTGRESQL_FORWARD = [
    """
    CREATE FUNCTION surveillance_event_append_only() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        has_rows boolean;
    BEGIN
        IF TG_OP = 'TRUNCATE' THEN
            EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.%I)', TG_TABLE_SCHEMA, TG_TABLE_NAME)
                INTO has_rows;
            IF NOT has_rows THEN
                RETURN NULL;
            END IF;
        END IF;
        RAISE EXCEPTION 'surveillance_event is append-only: % refused', TG_OP
            USING HINT = 'Events are never changed or removed; record a new event instead.';
    END;
    $$
    """,
    """
    CREATE TRIGGER surveillance_event_no_update_or_delete
    BEFORE UPDATE OR DELETE ON surveillance_event
    FOR EACH ROW EXECUTE FUNCTION surveillance_event_append_only()
    """,
    """
    CREATE TRIGGER surveillance_event_no_truncate
    BEFORE TRUNCATE ON surveillance_event
    FOR EACH STATEMENT EXECUTE FUNCTION surveillance_event_append_only()
    """,
]
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS surveillance_event_no_truncate ON surveillance_event",
    "DROP TRIGGER IF EXISTS surveillance_event_no_update_or_delete ON surveillance_event",
    "DROP FUNCTION IF EXISTS surveillance_event_append_only()",
]

SQLITE_FORWARD = [
    """
    CREATE TRIGGER surveillance_event_no_update BEFORE UPDATE ON surveillance_event
    BEGIN SELECT RAISE(ABORT, 'surveillance_event is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER surveillance_event_no_delete BEFORE DELETE ON surveillance_event
    BEGIN SELECT RAISE(ABORT, 'surveillance_event is append-only: DELETE refused'); END
    """,
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS surveillance_event_no_delete",
    "DROP TRIGGER IF EXISTS surveillance_event_no_update",
]

SQL = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_REVERSE),
    "sqlite": (SQLITE_FORWARD, SQLITE_REVERSE),
}


def _statements(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        # An audit record without its guard must not pass unnoticed.
        raise NotImplementedError(
            f"surveillance_event append-only triggers exist for {', '.join(SQL)}, not {vendor}"
        )
    return SQL[vendor][direction]


def create_triggers(apps, schema_editor):
    for statement in _statements(schema_editor, 0):
        # params=None: the SQL holds literal % signs (format(), RAISE) and no placeholders.
        schema_editor.execute(statement, params=None)


def drop_triggers(apps, schema_editor):
    for statement in _statements(schema_editor, 1):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("surveillance", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_triggers, drop_triggers, elidable=False),
    ]
