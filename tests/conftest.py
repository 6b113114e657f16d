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
