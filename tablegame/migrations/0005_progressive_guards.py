"""The database guards the progressive meters, as regulators require of a progressive controller.

- A meter never goes down, except when won: then in the same UPDATE its ``hits`` count goes up by
  exactly one and its amount is its reseed (Royal 9) or reset (must-hit). A meter that is not yet
  live (no contribution ever) holds only the house's seed and may be set up freely.
- A live meter's parameters (reseed and contribution rate; reset, maximum, increment rate,
  configuration, hidden hit value) change only with a win, when the meter starts again.
- A live meter stays live, and is never deleted.
- The ledger (``tablegame_progressiveentry``) is never changed or removed; a must-hit win keeps
  its figures, and only goes from pending to paid.

PostgreSQL: plpgsql trigger functions, BEFORE UPDATE OR DELETE for each row. SQLite (the embedded
``make run``): BEFORE UPDATE / DELETE triggers with the same conditions. As with the record's
triggers (casino 0002), SQLite's schema editor drops them when it rebuilds one of these tables: a
later migration that alters them must create the SQLite triggers again.

It also gives the Royal 9 meters of tables opened before it their reseed and contribution rate,
from the Rules Submission in force.
"""

from decimal import Decimal

from django.db import migrations

METER = "tablegame_progressivemeter"
MUST_HIT = "tablegame_musthitprogressive"
LEDGER = "tablegame_progressiveentry"
WINS = "tablegame_musthitwin"

POSTGRESQL_FORWARD = [
    f"""
    CREATE FUNCTION tablegame_progressive_meter_guard() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        won boolean;
        start numeric;
        changed boolean;
    BEGIN
        IF TG_OP = 'DELETE' THEN
            IF OLD.live THEN
                RAISE EXCEPTION '% %: a live progressive meter is never deleted', TG_TABLE_NAME, OLD.id;
            END IF;
            RETURN OLD;
        END IF;
        won := NEW.hits = OLD.hits + 1;
        IF TG_TABLE_NAME = '{METER}' THEN
            start := NEW.reseed;
            changed := (NEW.reseed, NEW.contribution) IS DISTINCT FROM (OLD.reseed, OLD.contribution);
        ELSE
            start := NEW.reset;
            changed := (NEW.reset, NEW.maximum, NEW.increment_rate, NEW.configuration,
                        NEW.hit_value, NEW.hit_nonce)
                       IS DISTINCT FROM (OLD.reset, OLD.maximum, OLD.increment_rate,
                                         OLD.configuration, OLD.hit_value, OLD.hit_nonce);
        END IF;
        IF NEW.hits <> OLD.hits AND NOT won THEN
            RAISE EXCEPTION '% %: wins count up one at a time (% to %)',
                TG_TABLE_NAME, OLD.id, OLD.hits, NEW.hits;
        END IF;
        IF NOT OLD.live THEN
            RETURN NEW;  -- nothing contributed yet: only the house's seed is in it
        END IF;
        IF NOT NEW.live THEN
            RAISE EXCEPTION '% %: a live progressive meter stays live', TG_TABLE_NAME, OLD.id;
        END IF;
        IF won AND NEW.amount <> start THEN
            RAISE EXCEPTION '% %: a won meter starts again at its reseed', TG_TABLE_NAME, OLD.id;
        END IF;
        IF NEW.amount < OLD.amount AND NOT won THEN
            RAISE EXCEPTION '% %: a progressive meter never goes down except when won (% to %)',
                TG_TABLE_NAME, OLD.id, OLD.amount, NEW.amount
                USING HINT = 'Record the win: hits + 1, the amount back to its reseed.';
        END IF;
        IF changed AND NOT won THEN
            RAISE EXCEPTION '% %: the parameters of a live meter change only when it is won',
                TG_TABLE_NAME, OLD.id;
        END IF;
        RETURN NEW;
    END;
    $$
    """,
    *(
        f"""
        CREATE TRIGGER {table}_guard BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION tablegame_progressive_meter_guard()
        """
        for table in (METER, MUST_HIT)
    ),
    """
    CREATE FUNCTION tablegame_progressive_ledger_guard() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_TABLE_NAME = 'tablegame_musthitwin' AND TG_OP = 'UPDATE'
           AND OLD.status = 'pending' AND NEW.status = 'paid'
           AND (NEW.meter_id, NEW.number, NEW.table_id, NEW.round_id, NEW.seat, NEW.amount,
                NEW.won_at, NEW.participants::text)
               IS NOT DISTINCT FROM
               (OLD.meter_id, OLD.number, OLD.table_id, OLD.round_id, OLD.seat, OLD.amount,
                OLD.won_at, OLD.participants::text) THEN
            RETURN NEW;
        END IF;
        RAISE EXCEPTION '% is kept as written: % refused', TG_TABLE_NAME, TG_OP
            USING HINT = 'The progressive ledger is append-only; a win only goes from pending to paid.';
    END;
    $$
    """,
    *(
        f"""
        CREATE TRIGGER {table}_guard BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION tablegame_progressive_ledger_guard()
        """
        for table in (LEDGER, WINS)
    ),
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {t}_guard ON {t}" for t in (METER, MUST_HIT, LEDGER, WINS)),
    "DROP FUNCTION IF EXISTS tablegame_progressive_meter_guard()",
    "DROP FUNCTION IF EXISTS tablegame_progressive_ledger_guard()",
]


def _sqlite_meter(table: str, start: str, parameters: tuple[str, ...]) -> list[str]:
    changed = " OR ".join(f"NEW.{p} IS NOT OLD.{p}" for p in parameters)
    won = "NEW.hits = OLD.hits + 1"
    return [
        f"""
        CREATE TRIGGER {table}_guard_update BEFORE UPDATE ON {table}
        WHEN (NEW.hits <> OLD.hits AND NOT {won})
          OR (OLD.live AND (
                NOT NEW.live
             OR ({won} AND NEW.{start} <> NEW.amount)
             OR (NEW.amount < OLD.amount AND NOT {won})
             OR (({changed}) AND NOT {won})))
        BEGIN SELECT RAISE(ABORT, '{table}: a live progressive meter never goes down and keeps
          its parameters, except when won'); END
        """,
        f"""
        CREATE TRIGGER {table}_guard_delete BEFORE DELETE ON {table} WHEN OLD.live
        BEGIN SELECT RAISE(ABORT, '{table}: a live progressive meter is never deleted'); END
        """,
    ]


SQLITE_FORWARD = [
    *_sqlite_meter(METER, "reseed", ("reseed", "contribution")),
    *_sqlite_meter(
        MUST_HIT,
        "reset",
        ("reset", "maximum", "increment_rate", "configuration", "hit_value", "hit_nonce"),
    ),
    f"""
    CREATE TRIGGER {LEDGER}_no_update BEFORE UPDATE ON {LEDGER}
    BEGIN SELECT RAISE(ABORT, '{LEDGER} is kept as written: UPDATE refused'); END
    """,
    f"""
    CREATE TRIGGER {LEDGER}_no_delete BEFORE DELETE ON {LEDGER}
    BEGIN SELECT RAISE(ABORT, '{LEDGER} is kept as written: DELETE refused'); END
    """,
    f"""
    CREATE TRIGGER {WINS}_only_paid BEFORE UPDATE ON {WINS}
    WHEN NOT (OLD.status = 'pending' AND NEW.status = 'paid' AND NEW.amount = OLD.amount
              AND NEW.seat = OLD.seat AND NEW.number = OLD.number AND NEW.meter_id = OLD.meter_id)
    BEGIN SELECT RAISE(ABORT, '{WINS}: a win only goes from pending to paid'); END
    """,
    f"""
    CREATE TRIGGER {WINS}_no_delete BEFORE DELETE ON {WINS}
    BEGIN SELECT RAISE(ABORT, '{WINS} is kept as written: DELETE refused'); END
    """,
]
SQLITE_REVERSE = [
    *(
        f"DROP TRIGGER IF EXISTS {name}"
        for name in (
            f"{METER}_guard_update",
            f"{METER}_guard_delete",
            f"{MUST_HIT}_guard_update",
            f"{MUST_HIT}_guard_delete",
            f"{LEDGER}_no_update",
            f"{LEDGER}_no_delete",
            f"{WINS}_only_paid",
            f"{WINS}_no_delete",
        )
    ),
]

SQL = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_REVERSE),
    "sqlite": (SQLITE_FORWARD, SQLITE_REVERSE),
}


def _statements(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        raise NotImplementedError(
            f"progressive meter guards exist for {', '.join(SQL)}, not {vendor}"
        )
    return SQL[vendor][direction]


def create_guards(apps, schema_editor):
    for statement in _statements(schema_editor, 0):
        schema_editor.execute(statement, params=None)


def drop_guards(apps, schema_editor):
    for statement in _statements(schema_editor, 1):
        schema_editor.execute(statement, params=None)


def fill_parameters(apps, schema_editor):
    """Meters made before the controller: reseed and rate from the rules in force."""
    from baccarat.profiles import rules_submission

    meter_model = apps.get_model("tablegame", "ProgressiveMeter")
    rules_model = apps.get_model("tablegame", "TableRules")
    for meter in meter_model.objects.filter(contribution=Decimal(0)):
        record = (
            rules_model.objects.filter(table_id=meter.table_id).order_by("-effective_at").first()
        )
        if record is None:
            continue
        royal9 = rules_submission(record.profile, record.options).royal9
        if royal9 is None:
            continue
        progressive = royal9.progressive(meter.name)
        meter.reseed = min(progressive.reseed, meter.amount)
        meter.contribution = progressive.contribution
        meter.live = meter.amount > meter.reseed
        meter.save(update_fields=["reseed", "contribution", "live"])


class Migration(migrations.Migration):
    dependencies = [
        ("tablegame", "0004_progressive_controller"),
    ]

    operations = [
        migrations.RunPython(fill_parameters, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(create_guards, drop_guards, elidable=False),
    ]
