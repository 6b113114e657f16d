"""The dealer's tablet page gets its words from the engine: the labels it embeds for dealer.js."""

from __future__ import annotations

import json
import re
from typing import Any

from django.test import Client

from baccarat.irregularities import IrregularityKind
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from tablegame.dealers import dealer_of
from tests.tablegame.conftest import table_for


def embedded_labels(page: str) -> Any:
    """The labels the page hands to dealer.js."""
    found = re.search(r'<script id="labels" type="application/json">(.*?)</script>', page)
    assert found, "the page embeds no labels"
    return json.loads(found.group(1))


def test_the_tablet_page_embeds_the_engines_labels(client: Client, seeded: str) -> None:
    table = table_for("ma-big-ez")
    client.login(username=dealer_of(table), password="baccarat")  # the demo's dealer there
    page = client.get(f"/dealer/{table.pk}/").content.decode()
    labels = embedded_labels(page)
    assert labels["wagers"] == {t.value: t.label for t in WagerType}
    assert labels["wagers"]["dragon_bonus_player"] == "Dragon Bonus on Player"
    assert labels["steps"] == {a.value: a.label for a in Action}
    assert labels["irregularities"] == {k.value: k.label for k in IrregularityKind}
    http, page_script = page.index("js/http.js"), page.index("js/dealer.js")
    assert http < page_script  # the shared script comes first


def test_the_table_state_lists_the_offered_wagers_in_the_order_of_the_layout(
    client: Client, seeded: str
) -> None:
    client.login(username="floor", password="baccarat")  # the table is not dealer's
    table = table_for("ma-big-ez")
    wagers = client.get(f"/api/tables/{table.pk}/").json()["rules"]["wagers"]
    assert wagers == [
        "player",
        "banker",
        "tie",
        "dragon_bonus_player",
        "dragon_bonus_banker",
        "dragon7",
        "panda8",
        "house_money",
        "royal9",
    ]


def test_a_dealer_opening_another_tables_tablet_is_told_why_and_sent_to_their_own(
    client: Client, seeded: str
) -> None:
    client.login(username="dealer", password="baccarat")  # the demo's dealer, at MB-1
    mine, other = table_for("ma-mini"), table_for("ma-big-ez")
    answer = client.get(f"/dealer/{other.pk}/")
    page = answer.content.decode()
    assert answer.status_code == 403
    assert f"You cannot deal {other.name}" in page
    assert "You are assigned to MB-1: a dealer acts only at their own table." in page
    assert f'href="/dealer/{mine.pk}/"' in page
    assert "js/dealer.js" not in page  # no tablet, no buttons that would be refused
    assert client.get(f"/dealer/{mine.pk}/").status_code == 200
