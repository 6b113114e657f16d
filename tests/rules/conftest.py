"""The rules package is tested without Django: no settings, no database, no web client.

``tests/conftest.py`` has an autouse fixture that needs pytest-django's ``settings``; it is
overridden here so that ``pytest -p no:django tests/rules`` runs while the Django project is
being edited or is not configured.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing() -> None:
    """No passwords are hashed by the rules package; nothing to speed up."""
