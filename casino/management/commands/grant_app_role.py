"""``manage.py grant_app_role --role NAME [--password ...]``: the application's database role.

Run by the owner of the tables (the role ``migrate`` runs as), after every ``migrate``: it creates
the application's login role if missing (not a superuser, cannot create databases or roles, owns
nothing) and grants it what the application needs: CONNECT, USAGE on the schema, SELECT, INSERT,
UPDATE and DELETE on every table except the record's, where it may only SELECT and INSERT (no
UPDATE, DELETE, TRUNCATE, TRIGGER or REFERENCES), and USAGE and SELECT on the sequences. Such a
role can neither change an event nor switch off the triggers that guard them (only an owner or a
superuser can). Idempotent. PostgreSQL only.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from psycopg import sql

#: The record's tables: the application may read them and append to them, nothing else.
RECORD_TABLES = ("casino_chain", "casino_event")
#: What the application's role must never hold on the record's tables.
REFUSED_ON_RECORD = ("UPDATE", "DELETE", "TRUNCATE", "TRIGGER", "REFERENCES")
PASSWORD_VARIABLE = "APP_DATABASE_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create the application's database role if missing and grant it what it needs: "
        "read and append to the record, never change it. Run as the tables' owner after migrate."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", required=True, help="The application's login role.")
        parser.add_argument(
            "--password",
            help=f"Its password (default: ${PASSWORD_VARIABLE}; none: the role keeps its own).",
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(
        self, *args: Any, role: str, password: str | None, database: str, **options: Any
    ) -> None:
        connection = connections[database]
        if connection.vendor != "postgresql":
            self.stdout.write(
                f"The database is {connection.vendor}, not PostgreSQL: there are no roles to "
                "grant, nothing to do."
            )
            return
        password = password or os.environ.get(PASSWORD_VARIABLE) or None
        with transaction.atomic(using=database), connection.cursor() as cursor:
            cursor.execute("SELECT current_user, current_database(), current_schema()")
            owner, database_name, schema = cursor.fetchone()
            if role == owner:
                raise CommandError(
                    f"{role!r} is the role running this command (the tables' owner): the "
                    "application needs a role of its own."
                )
            name = sql.Identifier(role)
            cursor.execute(
                "SELECT rolsuper, rolreplication, rolbypassrls FROM pg_roles WHERE rolname = %s",
                [role],
            )
            found = cursor.fetchone()
            if found is None:
                cursor.execute(
                    sql.SQL(
                        "CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION "
                        "NOBYPASSRLS"
                    ).format(name)
                )
                self.stdout.write(f"Created the role {role}.")
            else:
                if any(found):
                    raise CommandError(
                        f"{role!r} is a superuser, or may replicate or bypass row security: "
                        "it could get past the record's triggers. Use another role."
                    )
                cursor.execute(sql.SQL("ALTER ROLE {} LOGIN NOCREATEDB NOCREATEROLE").format(name))
            if password is not None:
                # A utility statement takes no bound parameter: the password is quoted here.
                cursor.execute(
                    sql.SQL("ALTER ROLE {} PASSWORD {}").format(name, sql.Literal(password))
                )
            self._refuse_an_owner(cursor, role, owner)

            in_schema = sql.Identifier(schema)
            tables = sql.SQL(", ").join(sql.Identifier(schema, t) for t in RECORD_TABLES)
            refused = sql.SQL(", ").join(sql.SQL(p) for p in REFUSED_ON_RECORD)
            for statement in (
                sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(
                    sql.Identifier(database_name), name
                ),
                sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(in_schema, name),
                sql.SQL(
                    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {} TO {}"
                ).format(in_schema, name),
                sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
                    in_schema, name
                ),
                sql.SQL("REVOKE ALL ON {} FROM {}").format(tables, name),
                sql.SQL("GRANT SELECT, INSERT ON {} TO {}").format(tables, name),
                sql.SQL("REVOKE {} ON {} FROM {}").format(refused, tables, name),
            ):
                cursor.execute(statement)
            self._check_the_record_is_read_and_append_only(cursor, role, schema)
        self.stdout.write(
            f"{role} may read and change the application's tables in {database_name}.{schema}, "
            f"and only read and append to the record ({', '.join(RECORD_TABLES)})."
        )

    def _refuse_an_owner(self, cursor: Any, role: str, owner: str) -> None:
        """A role that owns a table or the trigger function (or is a member of their owner) could
        drop or replace the triggers."""
        cursor.execute(
            """
            SELECT (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
                 + (SELECT count(*) FROM pg_proc WHERE proowner = r.oid)
                 + (SELECT count(*) FROM pg_namespace WHERE nspowner = r.oid)
                 + (SELECT count(*) FROM pg_database WHERE datdba = r.oid)
            FROM pg_roles r WHERE r.rolname = %s
            """,
            [role],
        )
        (owned,) = cursor.fetchone()
        cursor.execute("SELECT pg_has_role(%s, %s, 'MEMBER')", [role, owner])
        (member,) = cursor.fetchone()
        if owned or member:
            what = (
                f"owns {owned} tables, functions, schemas or databases"
                if owned
                else (f"is a member of {owner}")
            )
            raise CommandError(
                f"{role!r} {what}: it could switch off the record's triggers. Use another role."
            )

    def _check_the_record_is_read_and_append_only(
        self, cursor: Any, role: str, schema: str
    ) -> None:
        """Refuse to finish when the role still holds a refused privilege some other way (a
        grant to PUBLIC or to a role it belongs to)."""
        for table in RECORD_TABLES:
            for privilege in REFUSED_ON_RECORD:
                cursor.execute(
                    "SELECT has_table_privilege(%s, %s, %s)",
                    [role, f"{schema}.{table}", privilege],
                )
                if cursor.fetchone()[0]:
                    raise CommandError(
                        f"{role!r} still has {privilege} on {table} (granted to PUBLIC or to a "
                        "role it belongs to): revoke it there."
                    )
