"""A page script's body that the record could not store is refused in words, and nothing changes."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from casino.models import Event
from tablegame.models import Table

pytestmark = pytest.mark.fuzz


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (json.dumps({"reason": "late\x00"}), "A field holds a NUL character; type it again."),
        (json.dumps({"reason": "\ud800"}), "A field holds a broken character; type it again."),
        ('{"due_at": NaN}', "NaN is not a number."),
        ("[" * 100_000 + "]" * 100_000, "The request is nested too deeply."),
        ("{", "The request is not JSON."),
    ],
    ids=["NUL", "lone surrogate", "NaN", "nested", "not JSON"],
)
def test_a_deck_schedule_the_record_cannot_hold_is_refused_in_words(seeded, body, words):
    client = Client()
    assert client.login(username="floor", password="baccarat")
    table = Table.objects.first()
    assert table is not None
    before = Event.objects.count()
    response = client.post(
        f"/floor/tables/{table.pk}/decks/", body, content_type="application/json"
    )
    assert response.status_code in (400, 409)  # refused as input, or by the command
    assert response.json() == {"error": words}
    assert Event.objects.count() == before
