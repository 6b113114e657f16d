"""``manage.py simulate``: dealer bots play through the real server while every page a floor has
open listens and sends the requests its script sends."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from casino.record import verify_chain
from tablegame.models import Table


@pytest.mark.usefixtures("events_cleared_after", "redis_url")
def test_two_tables_deal_whole_rounds_and_every_screen_hears_every_card_with_none_lost():
    # A big table (with its curator) and a California table (with its player-dealer), as fast as
    # the server answers for 5 s, with short shoes so that one is dealt out and the next readied.
    out = StringIO()
    call_command(
        "simulate",
        *("--tables", "2", "--pace", "max", "--seconds", "5"),
        *("--cards-per-shoe", "4", "--seed", "7", "--json"),
        stdout=out,
    )
    report = json.loads(out.getvalue())

    assert report["tables_playing"] == 2
    assert report["rounds"] >= 2
    assert (report["failed_commands"], report["refusals"]) == ({}, [])
    assert {t.profile for t in Table.objects.all()} == {"ma-big", "ca-commission-free"}
    for table in Table.objects.all():
        assert table.rounds.filter(state="settled").count() >= 1
        assert verify_chain(table.chain_id).ok
    for route in ("curator/", "player-dealer/", "shoe/cut-card/", "shoe/end/", "shoe/burn/"):
        assert report["by_route"][route]["count"] >= 1, route

    # A tablet and a display per table; the pit's console and progressives page; the wall.
    assert report["screens"] == 2 * 2 + 2 + 1
    assert report["screens_refused"] == []
    assert set(report["card_to_screen_by_kind"]) == {
        "tablet",
        "display",
        "pit console",
        "progressives",
        "surveillance",
    }
    assert report["card_to_every_screen"]["count"] >= report["by_route"]["round/cards/"]["count"]
    assert report["cards_unmatched"] == 0
    assert report["notices_expected"] > 0
    assert report["notices_lost"] == 0
    # Each new shoe's decks are what a notice does not carry: the console and the wall read that
    # table's tile (every read answered); a wager or a card reads nothing.
    assert report["pages"] and report["page_reads"] >= 2
    assert report["reads_failed"] == {}
    assert {"console tile", "wall tile"} <= set(report["reads_by_what"])
    # The tablet reads its state only when a settlement's notice, which withholds the wagers to
    # repeat, beats its own command's answer (dealer.js does the same); never for a wager or card.
    tablet_reads = report["reads_by_what"].get("tablet state", {"count": 0})["count"]
    assert tablet_reads <= report["by_route"]["round/settle/"]["count"]
