"""The database refuses to change or remove the record: casino_event and casino_chain rows stay.

PostgreSQL: one trigger function, fired BEFORE UPDATE OR DELETE for each row and BEFORE TRUNCATE
for the statement (events only). A TRUNCATE of an already empty table is let through: it destroys nothing, and
Django's ``flush`` (run after every transactional test) truncates every table at once.

SQLite (the embedded ``make run``): BEFORE UPDATE and BEFORE DELETE triggers (SQLite has no
TRUNCATE). Beware: SQLite's schema editor rebuilds a table to alter it, which drops its
triggers, so a later migration that alters Event or Chain must create these triggers again.

Only a superuser or the tables' owner can get past the PostgreSQL triggers (``SET
session_replication_role = replica``, ``ALTER TABLE ... DISABLE TRIGGER``); the application runs
as a role that can do neither (``manage.py grant_app_role``), and what an owner rewrites fails
``verify_record`` against the signed checkpoints (``casino.checkpoints``).
"""

from django.db import migrations

#: The record's tables: its chains and their events.
RECORD_TABLES = ("casino_chain", "casino_event")

POSTGRESQL_FORWARD = [
    """
    CREATE FUNCTION casino_record_append_only() RETURNS trigger
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
        RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
            USING HINT = 'The record is never changed or removed; record a new event instead.';
    END;
    $$
    """,
    *(
        statement
        for table in RECORD_TABLES
        for statement in (
            f"""
            CREATE TRIGGER {table}_no_update_or_delete
            BEFORE UPDATE OR DELETE ON {table}
            FOR EACH ROW EXECUTE FUNCTION casino_record_append_only()
            """,
        )
    ),
    # A chain cannot be truncated while events refer to it; events are guarded here.
    """
    CREATE TRIGGER casino_event_no_truncate
    BEFORE TRUNCATE ON casino_event
    FOR EACH STATEMENT EXECUTE FUNCTION casino_record_append_only()
    """,
]
POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS casino_event_no_truncate ON casino_event",
    *(f"DROP TRIGGER IF EXISTS {table}_no_update_or_delete ON {table}" for table in RECORD_TABLES),
    "DROP FUNCTION IF EXISTS casino_record_append_only()",
]

SQLITE_FORWARD = [
    statement
    for table in RECORD_TABLES
    for statement in (
        f"""
        CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} is append-only: UPDATE refused'); END
        """,
        f"""
        CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} is append-only: DELETE refused'); END
        """,
    )
]
SQLITE_REVERSE = [
    statement
    for table in RECORD_TABLES
    for statement in (
        f"DROP TRIGGER IF EXISTS {table}_no_delete",
        f"DROP TRIGGER IF EXISTS {table}_no_update",
    )
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
            f"casino record append-only triggers exist for {', '.join(SQL)}, not {vendor}"
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
        ("casino", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(create_triggers, drop_triggers, elidable=False),
    ]
