from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from casino.models import Casino, Pit
from tablegame.models import Table


@pytest.fixture
def pit(db: None) -> Pit:
    return Pit.objects.create(casino=Casino.objects.create(name="Test"), name="Pit 9")


def test_table_refuses_a_seat_count_outside_its_profile(pit: Pit) -> None:
    table = Table(pit=pit, name="BB-1", profile="ma-big", seat_count=9)
    with pytest.raises(ValidationError) as refused:
        table.full_clean()
    assert "10 to 14 seats, not 9" in str(refused.value.message_dict["seat_count"])


def test_table_accepts_the_profiles_seat_limits(pit: Pit) -> None:
    Table(pit=pit, name="BB-1", profile="ma-big", seat_count=10).full_clean()
    Table(pit=pit, name="BB-2", profile="ma-big", seat_count=14).full_clean()


def test_table_refuses_an_unknown_profile(pit: Pit) -> None:
    with pytest.raises(ValidationError) as refused:
        Table(pit=pit, name="MB-1", profile="vegas-made-up", seat_count=7).full_clean()
    assert set(refused.value.message_dict) == {"profile"}
