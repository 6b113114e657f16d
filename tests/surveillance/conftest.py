from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from casino.models import Casino, Pit
from tablegame.models import Table


@pytest.fixture
def pit(db: None) -> Pit:
    return Pit.objects.create(casino=Casino.objects.create(name="Test Casino"), name="Pit 1")


@pytest.fixture
def table(pit: Pit) -> Table:
    return Table.objects.create(pit=pit, name="MB-1", profile="ma-mini", seat_count=7)


@pytest.fixture
def dealer(db: None) -> User:
    return User.objects.create_user("dealer")
