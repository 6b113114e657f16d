# make run: the embedded demo on http://127.0.0.1:8000 (SQLite, in-memory channels, eager Celery).
# make test: lint, then pytest against the local PostgreSQL and Redis, then the tests marked sqlite
# again on SQLite (make test-sqlite).
# make test-fast: pytest without the slow tests (browsers, servers, workers, processes, real commits,
# waits, every profile played, long property tests, fuzzers) on two xdist workers, no lint.
.DEFAULT_GOAL := run
.PHONY: run test test-sqlite test-fast lint bench clean venv

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements.stamp
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/baccarat
TEST_REDIS_URL ?= redis://127.0.0.1:6379/0
TEST_SQLITE_URL ?= sqlite:///$(CURDIR)/var/test-sqlite/db.sqlite3
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/baccarat_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/15

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when requirements.txt is newer than the last install.
$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -r requirements.txt
	touch $@

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py run_schedule & schedule=$$!; \
	$(BIN)/python manage.py protect & protect=$$!; \
	trap 'kill $$schedule $$protect' EXIT INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: $(STAMP)
	scripts/ensure_services.sh
	scripts/ensure_chromium.sh
	$(MAKE) lint
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m pytest
	$(MAKE) test-sqlite

# The tests marked `sqlite` again on the demo's own shape (make run's): SQLite in a file, no Redis
# (the in-memory channel layer), Celery eager. Run by make test after the PostgreSQL pass.
test-sqlite: $(STAMP)
	mkdir -p var/test-sqlite
	env -u REDIS_URL DATABASE_URL=$(TEST_SQLITE_URL) $(BIN)/python -m pytest -m sqlite -p no:cacheprovider

# What a developer runs between changes: every test but those marked slow in tests/conftest.py
# (Chromium, live servers, Celery workers, the load simulator, tests that commit for real, wait out
# real time, start manage.py, build a SQLite database or play every profile, Hypothesis tests of
# hundreds of examples, the fuzzers); `make lint` apart. Two pytest-xdist workers, each on a
# database of its own (test_baccarat_gw0, _gw1) and a Redis database of its own (TEST_REDIS_URL's
# and the next: tests/redis_per_worker.py).
test-fast: $(STAMP)
	scripts/ensure_services.sh
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python -m pytest -m "not slow" -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy baccarat fastpath casino tablegame pit surveillance accounting protection config loadsim tests

# The engine's benchmarks, then the live floor against a database and Redis db of the bench's own;
# writes bench/RESULTS.md. BENCH_ARGS: e.g. --quick, or --sweep 25,100,300 --seconds 60.
bench: $(STAMP)
	scripts/ensure_services.sh
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(BIN)/python bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
