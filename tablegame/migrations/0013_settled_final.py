"""Settled means final in the database: a settled round, its wagers, its steps and the day's
tallies, and a progressive win written without its ledger line and its event, are refused.

- ``tablegame_round``: once settled or void (``settled_at`` set) a round is never changed or
  removed (an UPDATE that writes the same values is let through).
- ``tablegame_wager``: a settled wager (its ``result`` written) is never changed or removed, and
  no wager is added to a round once it is settled.
- ``tablegame_settlementstep``: the steps of a settled round are never changed or removed.
- ``tablegame_wagertally`` / ``tablegame_roundtally``: a tally only grows by whole settled
  rounds, as settlement adds them (``tablegame.tallies``): no row is removed, no key changes, no
  count or sum goes down, and a wager group's sums change only with its count (``n``, one per
  wager) and a round tally's only with its rounds or voids. What a tally holds beyond that is
  checked against the record by ``tablegame.verification`` (``verify_record``, the day's close).
- The progressive meters: a win (``hits`` + 1) commits only with its ledger line (the meter's
  ``hits``-th ``hit`` line) and its event (``progressive_hit`` / ``must_hit_won`` in the table's
  chain within an hour of it; for must-hit, and the ``MustHitWin`` of that number): a constraint
  trigger, DEFERRABLE INITIALLY DEFERRED, checks it when the transaction commits.

PostgreSQL: plpgsql triggers. SQLite (the embedded ``make run``): the same row guards as BEFORE
triggers; SQLite has no deferred triggers, so the meter's win check is PostgreSQL's only. As with
the record's triggers (casino 0002), SQLite's schema editor drops these when it rebuilds a table:
a later migration that alters one must create its SQLite triggers again.

Only the tables' owner or a superuser can get past them (``grant_app_role``); what they change
fails ``verify_record`` against the record's settlement events.
"""

from django.db import migrations

ROUND = "tablegame_round"
WAGER = "tablegame_wager"
STEP = "tablegame_settlementstep"
WAGER_TALLY = "tablegame_wagertally"
ROUND_TALLY = "tablegame_roundtally"
METER = "tablegame_progressivemeter"
MUST_HIT = "tablegame_musthitprogressive"
LEDGER = "tablegame_progressiveentry"
WINS = "tablegame_musthitwin"
TABLE = "tablegame_table"
EVENT = "casino_event"

#: The sums of a wager tally, and their count.
WAGER_SUMS = ("amount", "payout", "vigorish", "returned", "fee", "ride_back")
WAGER_KEY = ("table_id", "day", "rules_id", "decks", "type", "result", "award")
ROUND_KEY = ("table_id", "day", "shoe_id")


def _row(prefix: str, columns: tuple[str, ...]) -> str:
    return "(" + ", ".join(f"{prefix}.{c}" for c in columns) + ")"


POSTGRESQL_FORWARD = [
    f"""
    CREATE FUNCTION tablegame_settled_final() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        settled boolean;
    BEGIN
        IF TG_TABLE_NAME = '{ROUND}' THEN
            settled := OLD.settled_at IS NOT NULL;
        ELSIF TG_TABLE_NAME = '{WAGER}' AND TG_OP = 'INSERT' THEN
            SELECT settled_at IS NOT NULL INTO settled FROM {ROUND} WHERE id = NEW.round_id;
            IF settled THEN
                RAISE EXCEPTION 'round %: settled, it takes no more wagers', NEW.round_id
                    USING HINT = 'A settled round is final.';
            END IF;
            RETURN NEW;
        ELSIF TG_TABLE_NAME = '{WAGER}' THEN
            settled := OLD.result <> '';
        ELSE
            SELECT settled_at IS NOT NULL INTO settled FROM {ROUND} WHERE id = OLD.round_id;
        END IF;
        IF NOT coalesce(settled, false) THEN
            RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
        END IF;
        IF TG_OP = 'UPDATE' AND NEW IS NOT DISTINCT FROM OLD THEN
            RETURN NEW;  -- the same values written again
        END IF;
        RAISE EXCEPTION '% %: settled, it is final: % refused', TG_TABLE_NAME, OLD.id, TG_OP
            USING HINT = 'A settled round, its wagers and its steps are never changed; '
                         'corrections are new rows that point at what they correct.';
    END;
    $$
    """,
    *(
        f"""
        CREATE TRIGGER {table}_settled_final BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION tablegame_settled_final()
        """
        for table in (ROUND, STEP)
    ),
    f"""
    CREATE TRIGGER {WAGER}_settled_final BEFORE INSERT OR UPDATE OR DELETE ON {WAGER}
    FOR EACH ROW EXECUTE FUNCTION tablegame_settled_final()
    """,
    f"""
    CREATE FUNCTION tablegame_tally_grows() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION '% %: a tally is never removed', TG_TABLE_NAME, OLD.id
                USING HINT = 'Tallies grow only as rounds are settled.';
        END IF;
        IF TG_TABLE_NAME = '{WAGER_TALLY}' THEN
            IF {_row("NEW", WAGER_KEY)} IS DISTINCT FROM {_row("OLD", WAGER_KEY)}
               OR NEW.n < OLD.n
               {"".join(f" OR NEW.{s} < OLD.{s}" for s in WAGER_SUMS)}
               OR (NEW.n = OLD.n AND {_row("NEW", WAGER_SUMS)} IS DISTINCT FROM
                                     {_row("OLD", WAGER_SUMS)}) THEN
                RAISE EXCEPTION '% %: a tally only grows by settled wagers', TG_TABLE_NAME, OLD.id
                    USING HINT = 'Its key never changes, its count and sums never go down, and '
                                 'its sums change only with its count.';
            END IF;
        ELSE
            IF {_row("NEW", ROUND_KEY)} IS DISTINCT FROM {_row("OLD", ROUND_KEY)}
               OR NEW.rounds < OLD.rounds OR NEW.voids < OLD.voids
               OR NEW.hand_fees < OLD.hand_fees
               OR (NEW.rounds = OLD.rounds AND NEW.hand_fees <> OLD.hand_fees)
               OR (NEW.rounds + NEW.voids = OLD.rounds + OLD.voids
                   AND (NEW.rounds, NEW.voids) IS DISTINCT FROM (OLD.rounds, OLD.voids)) THEN
                RAISE EXCEPTION '% %: a tally only grows by settled rounds', TG_TABLE_NAME, OLD.id
                    USING HINT = 'Its key never changes, its counts never go down, and its '
                                 'fees change only with its rounds.';
            END IF;
        END IF;
        RETURN NEW;
    END;
    $$
    """,
    *(
        f"""
        CREATE TRIGGER {table}_grows BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION tablegame_tally_grows()
        """
        for table in (WAGER_TALLY, ROUND_TALLY)
    ),
    f"""
    CREATE FUNCTION tablegame_meter_win_recorded() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        line timestamptz;
        chain bigint;
        won record;
    BEGIN
        IF NEW.hits = OLD.hits THEN
            RETURN NULL;
        END IF;
        IF TG_TABLE_NAME = '{METER}' THEN
            -- The ledger's hit line of this win: the meter's hits-th.
            SELECT at INTO line FROM {LEDGER} WHERE royal9_id = NEW.id AND kind = 'hit'
                ORDER BY id OFFSET NEW.hits - 1 LIMIT 1;
            SELECT chain_id INTO chain FROM {TABLE} WHERE id = NEW.table_id;
            IF line IS NULL OR NOT EXISTS (
                SELECT 1 FROM {EVENT} e WHERE e.chain_id = chain
                   AND e.created_at BETWEEN line - interval '1 hour' AND line + interval '1 hour'
                   AND e.action = 'progressive_hit' AND e.data->>'meter' = NEW.name) THEN
                RAISE EXCEPTION '% % (%): win % written without its ledger line and its event',
                    TG_TABLE_NAME, NEW.id, NEW.name, NEW.hits
                    USING HINT = 'A meter is won by settling the round that wins it.';
            END IF;
        ELSE
            SELECT at INTO line FROM {LEDGER} WHERE must_hit_id = NEW.id AND kind = 'hit'
                ORDER BY id OFFSET NEW.hits - 1 LIMIT 1;
            SELECT w.table_id, w.won_at INTO won FROM {WINS} w
                WHERE w.meter_id = NEW.id AND w.number = NEW.hits;
            SELECT chain_id INTO chain FROM {TABLE} WHERE id = won.table_id;
            IF line IS NULL OR chain IS NULL OR NOT EXISTS (
                SELECT 1 FROM {EVENT} e WHERE e.chain_id = chain
                   AND e.created_at BETWEEN won.won_at - interval '1 hour'
                                        AND won.won_at + interval '1 hour'
                   AND e.action = 'must_hit_won' AND e.data->>'meter' = NEW.name
                   AND e.data->>'number' = NEW.hits::text) THEN
                RAISE EXCEPTION '% % (%): win % written without its ledger line, its win and its '
                                'event', TG_TABLE_NAME, NEW.id, NEW.name, NEW.hits
                    USING HINT = 'A meter is won by settling the round that wins it.';
            END IF;
        END IF;
        RETURN NULL;
    END;
    $$
    """,
    *(
        f"""
        CREATE CONSTRAINT TRIGGER {table}_win_recorded AFTER UPDATE ON {table}
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION tablegame_meter_win_recorded()
        """
        for table in (METER, MUST_HIT)
    ),
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {t}_win_recorded ON {t}" for t in (METER, MUST_HIT)),
    *(f"DROP TRIGGER IF EXISTS {t}_grows ON {t}" for t in (WAGER_TALLY, ROUND_TALLY)),
    *(f"DROP TRIGGER IF EXISTS {t}_settled_final ON {t}" for t in (ROUND, WAGER, STEP)),
    "DROP FUNCTION IF EXISTS tablegame_meter_win_recorded()",
    "DROP FUNCTION IF EXISTS tablegame_tally_grows()",
    "DROP FUNCTION IF EXISTS tablegame_settled_final()",
]


def _changed(columns: tuple[str, ...]) -> str:
    return " OR ".join(f"NEW.{c} IS NOT OLD.{c}" for c in columns)


ROUND_COLUMNS = (
    "table_id",
    "shoe_id",
    "number",
    "state",
    "simulated",
    "rules_id",
    "opened_at",
    "no_more_bets_at",
    "completed_at",
    "settled_at",
    "player_total",
    "banker_total",
    "winner",
    "tags",
    "announcement",
    "player_turner",
    "banker_turner",
    "turn_declined",
    "curator_seat",
    "player_dealer_seat",
    "player_dealer_bank",
    "void_reason",
)
WAGER_COLUMNS = (
    "round_id",
    "seat",
    "type",
    "amount",
    "ride",
    "placed_by_id",
    "placed_at",
    "result",
    "payout",
    "vigorish",
    "returned",
    "ridden",
    "fee",
    "award",
)
STEP_COLUMNS = ("round_id", '"index"', "phase", "action", "seat", "wager_type", "amount")
SETTLED_ROUND = f"(SELECT settled_at FROM {ROUND} WHERE id = OLD.round_id) IS NOT NULL"


def _sqlite_final(table: str, settled: str, columns: tuple[str, ...]) -> list[str]:
    message = f"{table}: settled, it is final"
    return [
        f"""
        CREATE TRIGGER {table}_settled_no_update BEFORE UPDATE ON {table}
        WHEN {settled} AND ({_changed(columns)})
        BEGIN SELECT RAISE(ABORT, '{message}: UPDATE refused'); END
        """,
        f"""
        CREATE TRIGGER {table}_settled_no_delete BEFORE DELETE ON {table} WHEN {settled}
        BEGIN SELECT RAISE(ABORT, '{message}: DELETE refused'); END
        """,
    ]


SQLITE_FORWARD = [
    *_sqlite_final(ROUND, "OLD.settled_at IS NOT NULL", ROUND_COLUMNS),
    *_sqlite_final(WAGER, "OLD.result <> ''", WAGER_COLUMNS),
    *_sqlite_final(STEP, SETTLED_ROUND, STEP_COLUMNS),
    f"""
    CREATE TRIGGER {WAGER}_settled_no_insert BEFORE INSERT ON {WAGER}
    WHEN (SELECT settled_at FROM {ROUND} WHERE id = NEW.round_id) IS NOT NULL
    BEGIN SELECT RAISE(ABORT, '{WAGER}: the round is settled, it takes no more wagers'); END
    """,
    f"""
    CREATE TRIGGER {WAGER_TALLY}_grows BEFORE UPDATE ON {WAGER_TALLY}
    WHEN {_changed(WAGER_KEY)} OR NEW.n < OLD.n
      {"".join(f" OR NEW.{s} < OLD.{s}" for s in WAGER_SUMS)}
      OR (NEW.n = OLD.n AND ({_changed(WAGER_SUMS)}))
    BEGIN SELECT RAISE(ABORT, '{WAGER_TALLY}: a tally only grows by settled wagers'); END
    """,
    f"""
    CREATE TRIGGER {ROUND_TALLY}_grows BEFORE UPDATE ON {ROUND_TALLY}
    WHEN {_changed(ROUND_KEY)} OR NEW.rounds < OLD.rounds OR NEW.voids < OLD.voids
      OR NEW.hand_fees < OLD.hand_fees
      OR (NEW.rounds = OLD.rounds AND NEW.hand_fees <> OLD.hand_fees)
      OR (NEW.rounds + NEW.voids = OLD.rounds + OLD.voids
          AND (NEW.rounds <> OLD.rounds OR NEW.voids <> OLD.voids))
    BEGIN SELECT RAISE(ABORT, '{ROUND_TALLY}: a tally only grows by settled rounds'); END
    """,
    *(
        f"""
        CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
        BEGIN SELECT RAISE(ABORT, '{table}: a tally is never removed'); END
        """
        for table in (WAGER_TALLY, ROUND_TALLY)
    ),
]
SQLITE_REVERSE = [
    *(
        f"DROP TRIGGER IF EXISTS {table}_settled_{what}"
        for table in (ROUND, WAGER, STEP)
        for what in ("no_update", "no_delete")
    ),
    f"DROP TRIGGER IF EXISTS {WAGER}_settled_no_insert",
    *(f"DROP TRIGGER IF EXISTS {t}_grows" for t in (WAGER_TALLY, ROUND_TALLY)),
    *(f"DROP TRIGGER IF EXISTS {t}_no_delete" for t in (WAGER_TALLY, ROUND_TALLY)),
]

SQL = {
    "postgresql": (POSTGRESQL_FORWARD, POSTGRESQL_REVERSE),
    "sqlite": (SQLITE_FORWARD, SQLITE_REVERSE),
}


def _statements(schema_editor, direction):
    vendor = schema_editor.connection.vendor
    if vendor not in SQL:
        raise NotImplementedError(f"settled-row guards exist for {', '.join(SQL)}, not {vendor}")
    return SQL[vendor][direction]


def create_guards(apps, schema_editor):
    for statement in _statements(schema_editor, 0):
        schema_editor.execute(statement, params=None)


def drop_guards(apps, schema_editor):
    for statement in _statements(schema_editor, 1):
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tablegame", "0012_decks_in_use"),
        ("casino", "0006_pit_supervision"),
    ]

    operations = [
        migrations.RunPython(create_guards, drop_guards, elidable=False),
    ]
