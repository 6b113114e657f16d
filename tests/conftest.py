from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection, transaction
from django.test import override_settings
from pytest_django import Settings

from tests.chromium import Chromium
from tests.record.chains import triggers_bypassed

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

#: Fixtures that start something slow: Chromium, a live server (Django's, Daphne), a Celery worker;
#: or that wait out real time: a hung Redis's 2 s timeouts (``hung_redis``, about 4 s), a gaming
#: day's start a few seconds away (``played_across_the_start``, 4 s).
#: A test that commits for real is slow too (``commits_for_real``): Django's flush empties every
#: table after it, about half a second a test where a rolled-back test costs milliseconds.
SLOW_FIXTURES = frozenset(
    {"browser", "chromium", "live_server", "daphne", "worker", "hung_redis",
     "played_across_the_start"}
)  # fmt: skip
#: Directories whose every test is slow: Chromium, and the load simulator under uvicorn/gunicorn.
SLOW_DIRECTORIES = (TESTS / "browser", TESTS / "bench")
#: Modules whose every test starts ``manage.py`` in a new interpreter (about 1.5 s each) or builds
#: the embedded demo's SQLite database from the migrations; and the tallies' module, which plays
#: a table of every profile (about 4 s, once for the module).
SLOW_MODULES = (
    TESTS / "test_commands.py",
    TESTS / "test_deploy_check.py",
    TESTS / "test_demo_deals_on_sqlite.py",
    TESTS / "test_sqlite_writers.py",
    TESTS / "record" / "test_sqlite_triggers.py",
    TESTS / "accounting" / "test_tallies.py",
)
#: Hypothesis draws this many examples a test by default; a test that asks for more (the rules'
#: properties: 300 to 1,500 random coups, 1 to 2 s each) is slow.
HYPOTHESIS_EXAMPLES = 100


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test that starts a browser, a server, a worker or the load simulator,
    waits out real time, commits to the database for real, starts ``manage.py``, builds a SQLite
    database or plays every profile, asks Hypothesis for hundreds of examples, or runs the
    fuzzers (``make test-fast`` leaves them out): by the fixtures it uses, its ``django_db``
    marker, its directory or module, its Hypothesis settings and the ``fuzz`` marker."""
    slow = pytest.mark.slow
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        path = Path(str(item.path))
        if (
            fixtures & SLOW_FIXTURES
            or commits_for_real(item)
            or any(path.is_relative_to(place) for place in SLOW_DIRECTORIES)
            or path in SLOW_MODULES
            or item.get_closest_marker("fuzz") is not None
            or _examples(item) > HYPOTHESIS_EXAMPLES
        ):
            item.add_marker(slow)
    items.sort(key=_run_order)  # stable: pytest-django's order within each group kept


def _examples(item: pytest.Item) -> int:
    """How many examples the test asks Hypothesis for (0: not a Hypothesis test, or its
    default)."""
    chosen = getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)
    return int(chosen.max_examples) if chosen is not None else 0


def commits_for_real(item: pytest.Item) -> bool:
    """The test commits for real: ``@pytest.mark.django_db(transaction=True)``, or its fixtures
    (``transactional_db``, a live server's too)."""
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    return bool(marker is not None and marker.kwargs.get("transaction")) or bool(
        fixtures & {"transactional_db", "live_server"}
    )


#: The session fixture that commits a gaming day played on the demo floor once a run
#: (``tests/accounting/conftest.py``) for rolled-back tests that read it, each changing it only in
#: its own transaction: those tests run after the others on the demo floor, which never see it.
PLAYED_ONCE = "played_once"
#: The module-scoped fixtures whose rows stay, uncommitted, for their module's tests
#: (``kept_for_the_module``): the tests that ask for one run after the module's others, which
#: never see its rows.
KEPT_FOR_THE_MODULE = frozenset(
    {
        "every_profile_played", "mini_kept", "played_across_the_start", "played_kept",
        "history_kept", "stax_day_kept",
    }
)  # fmt: skip


def _run_order(item: pytest.Item) -> tuple[int, bool]:
    """Where a test runs, as pytest-django orders them (rolled back, committing, no database),
    with the rolled-back tests on the demo floor seeded once (``demo_floor``) after the others,
    and those on the day played once on it (``PLAYED_ONCE``) last of them; in each group, the
    tests on rows kept for their module (``KEPT_FOR_THE_MODULE``) after the others."""
    fixtures = set(getattr(item, "fixturenames", ()))
    kept = bool(fixtures & KEPT_FOR_THE_MODULE)
    if commits_for_real(item):
        return 3, kept
    if PLAYED_ONCE in fixtures:
        return 2, kept
    if "seeded" in fixtures:
        return 1, kept
    if "db" in fixtures or item.get_closest_marker("django_db") is not None:
        return 0, kept
    return 4, kept


#: The demo users' passwords are hashed cheaply; the real hasher is not under test.
FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    """The demo users' passwords are hashed cheaply; the real hasher is not under test."""
    settings.PASSWORD_HASHERS = [FAST_HASHER]


@pytest.fixture(autouse=True)
def own_checkpoints(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test signs and reads the record's checkpoints in a directory of its own, with a key
    made for it, never those of a demo run under var/."""
    place = tmp_path_factory.mktemp("record")
    settings.RECORD_CHECKPOINT_DIR = str(place / "checkpoints")
    settings.RECORD_SIGNING_KEY_FILE = str(place / "signing-key.pem")
    settings.RECORD_SIGNING_KEY_GENERATE = True
    settings.RECORD_VERIFY_KEY_FILE = ""


#: Whether the demo floor seeded once for the rolled-back tests (``demo_floor``) is in the
#: database: taken out before the first test that commits for real, which begins empty.
_DEMO_FLOOR = {"in": False}


@pytest.fixture(scope="session")
def demo_floor(django_db_setup: None, django_db_blocker: Any) -> str:
    """The demo floor and users, committed once a run for every test that asks for ``seeded``
    (each rolled back, so each finds it as seeded); returns what seed_demo printed. Those tests
    run after the other rolled-back ones (``pytest_collection_modifyitems``), which find the
    database empty."""
    out = StringIO()
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=[FAST_HASHER]):
        call_command("seed_demo", stdout=out)
    _DEMO_FLOOR["in"] = True
    return out.getvalue()


@pytest.fixture
def seeded(request: pytest.FixtureRequest, demo_floor: str, db: None) -> str:
    """The demo floor and users; returns what seed_demo printed when it made them: once a run
    for the rolled-back tests (``demo_floor``), for a test that commits for real its own (the
    database emptied after it, as before it: ``commits_begin_empty``)."""
    if not commits_for_real(request.node):
        return demo_floor
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture(autouse=True)
def commits_begin_empty(request: pytest.FixtureRequest, django_db_blocker: Any) -> None:
    """A test that commits for real begins with an empty database, outside any transaction: the
    rows kept for its module's rolled-back tests (``kept_for_the_module``: they ran before it)
    are rolled back, and the demo floor seeded once for the rolled-back tests is taken out
    before the first of them (they run last)."""
    if not commits_for_real(request.node):
        return
    with django_db_blocker.unblock():
        _roll_back_the_kept()
        if _DEMO_FLOOR["in"]:
            empty_the_events()
            call_command("flush", interactive=False, verbosity=0)
    _DEMO_FLOOR["in"] = False


T = TypeVar("T")
#: The transactions ``kept_for_the_module`` holds open (at most one a module: the innermost last).
_KEPT: list[transaction.Atomic] = []


def kept_for_the_module(django_db_blocker: Any, make: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture: what ``make`` writes, in a transaction left open around the
    module's tests, each of which finds it (pytest-django's transaction of a test nests in it,
    as a savepoint rolled back after the test); rolled back after the last of them, or before
    a test of the module that commits for real (``commits_begin_empty``), whichever is first.
    The fixture's rolled-back tests run after the module's others (``KEPT_FOR_THE_MODULE``);
    one that commits for real makes its own rows."""
    with django_db_blocker.unblock():
        kept = transaction.atomic()
        kept.__enter__()
        _KEPT.append(kept)
        try:
            made = make()
        except BaseException:
            _roll_back_the_kept()
            raise
    try:
        yield made
    finally:
        if kept in _KEPT:
            with django_db_blocker.unblock():
                _roll_back_the_kept()


def _roll_back_the_kept() -> None:
    """Every transaction ``kept_for_the_module`` holds open, rolled back."""
    while _KEPT:
        transaction.set_rollback(True)
        _KEPT.pop().__exit__(None, None, None)


@pytest.fixture
def events_cleared_after(transactional_db: None) -> Iterator[None]:
    """For transactional tests: the append-only event table is emptied (triggers bypassed)
    before Django's flush, which the triggers allow only on an empty table."""
    yield
    empty_the_events()


def empty_the_events() -> None:
    """The append-only event table emptied, its triggers bypassed: what Django's flush needs.
    On SQLite every table (Django's flush, the triggers bypassed): its flush deletes row by row,
    which the guards of the record and of settled rows refuse (PostgreSQL's TRUNCATE passes
    them)."""
    if connection.vendor == "sqlite":
        with triggers_bypassed():
            call_command("flush", interactive=False, verbosity=0)
        return
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM casino_event")


@pytest.fixture
def floor_staff(events_cleared_after: None) -> dict[str, User]:
    """The demo floor and its users by username, committed for real so that other connections
    (threads, a live server, a worker, the ASGI app) see them; the events cleared after."""
    call_command("seed_demo", verbosity=0)
    return {u.username: u for u in User.objects.all()}


@pytest.fixture
def redis_url() -> str:
    """The Redis the tests run against; `make test` sets REDIS_URL."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.fail("REDIS_URL is not set: run the tests with `make test`")
    return url


def database_url_of_this_run() -> str:
    """DATABASE_URL, naming the database pytest-django made for this run."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@dataclass(frozen=True)
class Worker:
    queue: str  #: the queue of this test's own that the worker consumes
    log: Path  #: what it wrote


@pytest.fixture
def worker(floor_staff: dict[str, User], redis_url: str) -> Iterator[Worker]:
    """A real Celery worker (``celery -A config worker``, a subprocess) on the test database and
    Redis, consuming a queue of this test's own; its log under test-output/."""
    queue = f"test-worker-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_this_run(),
        "REDIS_URL": redis_url,
        "DATABASE_POOL": "false",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo"]
    command += ["-Q", queue, "--without-heartbeat", "--without-gossip", "--without-mingle"]
    (ROOT / "test-output").mkdir(exist_ok=True)
    log = ROOT / "test-output" / f"{queue}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*command, "--loglevel=INFO"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield Worker(queue, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def browser() -> Iterator[Chromium]:
    """Chromium, started by the test when its data is ready (``browser.start()``).

    Playwright's sync API runs an event loop in this thread; starting it only after the test
    has prepared its tables keeps the actions' after-commit notices out of that loop.
    """
    handle = Chromium()
    yield handle
    handle.stop()
