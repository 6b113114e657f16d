"""The map of what each kind of table event changes (``tablegame.kinds``), which the pages embed
and their scripts decide from: it covers every kind a notice can carry, and each screen's
question to it has the answer its own list of kinds had."""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.conf import settings
from django.template import engines

from tablegame.events import TableEvent
from tablegame.kinds import ALSO, touches
from tablegame.selectors import CHANGES, PARTS

TEMPLATES = Path(settings.BASE_DIR) / "templates"
STATIC_JS = Path(settings.BASE_DIR) / "static" / "js"
SCRIPTS_OF_KINDS = ("floor", "progressives", "progressive_strip", "surveillance_wall")
WORDS = {"notices", "seat_count", "progressives", "forms", "layout"}


def embedded() -> dict[str, dict[str, list[str]]]:
    text = engines["django"].from_string("{% load screens %}{% event_kinds %}").render({})
    found = re.fullmatch(r'<script id="event-kinds" type="application/json">(.*)</script>', text)
    assert found is not None, text
    loaded: dict[str, dict[str, list[str]]] = json.loads(found.group(1))
    return loaded


def kinds_where(**asked: tuple[str, ...]) -> set[str]:
    return {kind.value for kind in TableEvent if touches([{"action": kind.value}], **asked)}


def test_the_embedded_map_covers_every_kind_a_notice_can_carry():
    # Every event recorded is announced (``tablegame.actions.common.record``), of whatever kind.
    kinds = embedded()
    assert set(kinds) == {kind.value for kind in TableEvent}
    for kind in TableEvent:
        assert kinds[kind.value]["changes"] == list(CHANGES[kind])
        assert set(kinds[kind.value]["also"]) <= WORDS
    assert set(CHANGES) == set(TableEvent)
    assert {part for parts in CHANGES.values() for part in parts} <= set(PARTS)
    assert set(ALSO) <= set(TableEvent)


def test_a_kind_not_in_the_map_changes_everything():
    assert touches([{"action": "something_new"}])
    assert not touches([{"action": "card_dealt"}], changes=("rules",), also=("layout",))


def test_each_screen_reads_again_after_the_kinds_it_did_by_its_own_list():
    """The lists the scripts kept before the map (and ``loadsim.pages``, which plays them): the
    same questions, asked of the map, give the same kinds."""
    # floor.js: READ_AFTER
    assert kinds_where(changes=("rules",), also=("notices", "seat_count")) == {
        "notice_acknowledged",
        "rules_filed",
        "rules_in_force",
        "seats_set",
        "table_opened",
    }
    meters = {
        "progressive_hit",
        "progressive_parameters",
        "must_hit_won",
        "must_hit_paid",
        "must_hit_linked",
    }
    # progressives.js and progressive_strip.js: READ_AFTER
    assert kinds_where(also=("progressives",)) == meters
    assert kinds_where(changes=("rules",), also=("progressives",)) == meters | {
        "table_opened",
        "rules_filed",
        "rules_in_force",
    }
    # pit_forms.js: TABLE_EVENTS; surveillance_notices.js: WATCHED
    assert kinds_where(also=("forms",)) == {"vigorish_form_requested", "vigorish_collected"}
    assert kinds_where(also=("notices",)) == {"rules_filed", "notice_acknowledged"}
    # surveillance_wall.js: every kind but those of IN_PLACE
    in_place = {
        *("round_opened", "wager_placed", "wager_changed", "wager_withdrawn"),
        *("player_dealer_bank", "no_more_bets", "cards_relinquished", "card_dealt"),
        *("house_money_settled", "round_settled", "round_void", "progressive_contributed"),
        *("progressive_hit", "progressive_reset", "must_hit_won", "curator_taken"),
        *("shoe_passed", "player_dealer_taken", "player_dealer_rotates", "player_seated"),
        *("player_left", "cut_card_out", "shoe_call", "vigorish_collected"),
        *("vigorish_form_requested", "dealer_assigned", "dealer_relieved", "decks_inspected"),
        *("inspection_verified", "decks_spread", "decks_washed", "shuffled"),
        *("shuffle_verified", "cut", "recut_ordered", "burned"),
    }
    wall = kinds_where(
        changes=("rules", "limits", "deck_change"), also=("notices", "seat_count", "layout")
    )
    assert wall == {kind.value for kind in TableEvent} - in_place


def test_no_script_keeps_a_list_of_kinds_of_its_own():
    for path in STATIC_JS.glob("*.js"):
        text = path.read_text()
        for kind in ("rules_filed", "must_hit_paid", "vigorish_collected", "seats_set"):
            assert f'"{kind}"' not in text, f"{path.name} names {kind}: ask Live.touches"


def test_every_page_with_a_script_asking_the_map_embeds_it():
    for path in TEMPLATES.rglob("*.html"):
        if path.name.startswith("_"):
            continue  # a part of pages: the pages that include it embed the map
        text = path.read_text()
        asks = any(f"js/{name}.js" in text for name in (*SCRIPTS_OF_KINDS, "pit_forms"))
        asks = asks or "surveillance_notices.js" in text or "progressive_strip" in text
        if asks:
            assert "{% event_kinds %}" in text, path.relative_to(TEMPLATES)
