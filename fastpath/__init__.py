"""The speed machinery, in one bottom layer: what makes a dealer's tap a few statements.

- ``rows``: hand-written SQL written once from the models' columns (rows read as JSON on
  PostgreSQL and SQLite alike, their columns converted as the ORM converts them), and the
  statements of the one writer (``tablegame.play.writing``: inserts, updates, deletes and
  additions to running totals, run as one statement); psycopg made to keep the live path's
  statements parsed;
- ``related``: a row's related row set, and a prefetched list read, by hand as the ORM keeps them;
- ``postgresql``: Django's PostgreSQL backend, its pool checking only idle connections and its
  timestamps read by psycopg's C loader (``DATABASES["default"]["ENGINE"]``, ``config/env.py``);
- ``heap``: what a server process loads at startup frozen out of the garbage collector's way.

The rule: nothing here knows baccarat, the house or the tables (it imports Django and psycopg,
never ``casino``, ``tablegame`` or any app above: import-linter's layers contract), and every
private part of Django or psycopg it uses is listed here and has its test in
``tests/test_private_hooks.py``, which fails the day an upgrade moves it (requirements.txt pins
both):

- psycopg ``_queries``: ``MAX_CACHED_STATEMENT_LENGTH``, ``MAX_CACHED_STATEMENT_PARAMS``,
  ``_query2pg``, ``_query2pg_nocache`` (``rows.keep_statements_parsed``);
- Django ``ModelState`` (``_state.adding``, ``_state.db``) and an instance made without
  ``Model.__init__`` (``rows._made``, ``rows.insert``);
- Django ``_state.fields_cache`` (``related.relate``);
- Django's ``_prefetched_objects_cache`` and a queryset's ``_result_cache``
  (``related.prefetched``);
- Django ``BaseDatabaseWrapper._close`` and an attribute of ours on psycopg's connection
  (``postgresql.base``: when a connection went back to the pool).
"""
