from __future__ import annotations

import os
from io import StringIO

import pytest
from django.core.management import call_command
from pytest_django import Settings


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Settings) -> None:
    """The demo users' passwords are hashed cheaply; the real hasher is not under test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def own_checkpoints(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test signs and reads the record's checkpoints in a directory of its own, with a key
    made for it, never those of a demo run under var/."""
    place = tmp_path_factory.mktemp("record")
    settings.RECORD_CHECKPOINT_DIR = str(place / "checkpoints")
    settings.RECORD_SIGNING_KEY_FILE = str(place / "signing-key.pem")
    settings.RECORD_SIGNING_KEY_GENERATE = True
    settings.RECORD_VERIFY_KEY_FILE = ""


@pytest.fixture
def seeded(db: None) -> str:
    """The demo floor and users; returns what seed_demo printed."""
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


@pytest.fixture
def redis_url() -> str:
    """The Redis the tests run against; `make test` sets REDIS_URL."""
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.fail("REDIS_URL is not set: run the tests with `make test`")
    return url
