"""The suits' symbols have one definition (``baccarat.cards.SUIT_SYMBOLS``): the server draws
cards with it, and the pages embed it for their scripts (``{% labels %}``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.template import engines

from baccarat.cards import SUIT_SYMBOLS

BASE = Path(settings.BASE_DIR)
WRITTEN = re.compile(r"[♠♥♦♣]|\\u266[0-7]|&(spades|hearts|diams|clubs);", re.IGNORECASE)


def test_the_pages_embed_the_engines_suit_symbols_in_order():
    text = engines["django"].from_string("{% load screens %}{% labels %}").render({})
    found = re.fullmatch(r'<script id="labels" type="application/json">(.*)</script>', text)
    assert found is not None, text
    suits = json.loads(found.group(1))["suits"]
    assert list(suits.items()) == list(SUIT_SYMBOLS.items())


def test_no_script_or_template_writes_a_suit_symbol_of_its_own():
    for path in [*(BASE / "static" / "js").glob("*.js"), *(BASE / "templates").rglob("*.html")]:
        assert not WRITTEN.search(path.read_text()), path.relative_to(BASE)
