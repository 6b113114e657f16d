"""A page script's body that the record could not store is refused in words, and nothing changes."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from casino.bodies import LONE_SURROGATE, MAX_BODY_BYTES
from casino.models import Event
from tablegame.models import Table

pytestmark = pytest.mark.fuzz


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            json.dumps({"reason": "late\x00"}),
            "The body is not valid JSON: it holds a NUL character.",
        ),
        (json.dumps({"reason": "\ud800"}), LONE_SURROGATE),
        ('{"due_at": NaN}', "The body is not valid JSON: NaN is not a JSON number."),
        ("[" * 9 + "]" * 9, "The body is not valid JSON: it is nested too deeply."),
        (
            "[" * 5000 + "]" * 5000,
            "The body is not valid JSON: it is nested too deeply.",
        ),
        (
            "{",
            "The body is not valid JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1).",
        ),
        ("[" * 100_000 + "]" * 100_000, f"The body is over the limit of {MAX_BODY_BYTES} bytes."),
    ],
    ids=["NUL", "lone surrogate", "NaN", "nested", "nested past the decoder", "not JSON", "large"],
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
    assert response.status_code == (413 if len(body) > MAX_BODY_BYTES else 400)
    assert response.json() == {"error": words}
    assert Event.objects.count() == before
