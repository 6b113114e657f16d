"""The follower prices every round from the cards the record shows leave the shoe."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from baccarat.cards import Card
from baccarat.gamemath import analyse
from baccarat.royal9 import MUST_HIT_CONFIGURATIONS
from baccarat.royal9_odds import ROYAL_CARDS, must_hit_award, royal9_edges
from baccarat.seating import curator_offer_order
from protection.alerts import percent
from protection.follower import behind, follow
from protection.models import Edge, Follow, PlayerSession, Wagered
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tablegame.marks.models import TableMark
from tablegame.models import ProgressiveMeter, Shoe, Table
from tablegame.progressives.actions import configure_must_hit
from tests.protection.conftest import eights_and_nines, play, ready_table, strip_rounds

pytestmark = pytest.mark.django_db

ROUNDS = [
    ["2C", "3D", "4H", "5S", "6C"],  # Player 6, Banker 8 after two each: Banker stands; P draws
    ["KC", "9D", "QH", "TS"],  # naturals both sides? P 0, B 9: Banker natural
    ["AC", "AD", "7H", "7S"],
]


def _shoe(table: Table) -> Shoe:
    shoe = table.current_shoe()
    assert shoe is not None
    return shoe


def test_each_round_is_priced_from_the_cards_seen_before_it(dealer: User, floor: User) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    follow([table.pk])
    shoe = _shoe(table)
    first = Edge.objects.get(table=table, shoe=shoe.number, round=1)
    assert first.seen == 1  # the first card, shown at the burn
    assert first.edges == _exact(analyse(shoe.composition(), table.rules).house_edge)
    for cards in ROUNDS[1:]:
        play(table, dealer, [(1, "banker", "25"), (1, "dragon7", "5")], cards)
    follow([table.pk])
    shoe.refresh_from_db()
    last = Edge.objects.filter(table=table, shoe=shoe.number).order_by("-round").first()
    assert last is not None and last.round == 3  # priced once round 2 settled, for round 3
    assert tuple(last.counts) == shoe.composition().counts
    assert last.edges == _exact(analyse(shoe.composition(), table.rules).house_edge)
    assert set(last.edges) >= {"banker", "player", "tie", "dragon7", "panda8"}


def test_a_held_card_and_a_correction_leave_the_count_as_the_shoe_has_it(
    dealer: User, floor: User
) -> None:
    table = ready_table("s42-mini", dealer, floor)
    play(table, dealer, [(1, "player", "25")], ["2C", "3D", "4H", "5S"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="KC", actor=dealer)
    actions.deal_card(table, card="9D", actor=dealer)
    actions.report_irregularity(
        table, kind="card_drawn_in_error", card="5H", disclosed=False, actor=dealer
    )
    correct_card(table, position=1, card="KD", approver=floor, actor=dealer)
    actions.deal_card(table, card="QH", actor=dealer)
    actions.deal_card(table, card="TS", actor=dealer)
    actions.settle_round(table, actor=dealer)
    follow([table.pk])
    shoe = _shoe(table)
    assert shoe.held_card == "5H"
    follow_row = Follow.objects.get(table=table)
    assert (follow_row.lost, follow_row.held) == ("", "5H")
    assert tuple(follow_row.counts) == shoe.composition().counts
    play(table, dealer, [(1, "banker", "25")], ["5H", "AD", "3C", "2S"])
    follow([table.pk])
    shoe.refresh_from_db()
    follow_row.refresh_from_db()
    assert (follow_row.lost, follow_row.held) == ("", "")
    assert tuple(follow_row.counts) == shoe.composition().counts
    assert Edge.objects.get(table=table, shoe=shoe.number, round=4).counts == list(
        shoe.composition().counts
    )


def test_a_table_behind_is_found_and_read_up_to_its_last_event(dealer: User, floor: User) -> None:
    table = ready_table("s42-mini", dealer, floor)
    assert table.pk in behind()
    follow(behind())
    assert table.pk not in behind()
    play(table, dealer, [(1, "banker", "25")], ["AC", "AD", "7H", "7S"])
    assert table.pk in behind()


def test_a_shoe_stripped_of_eights_and_nines_marks_the_table_for_dragon_7(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16)
    follow([table.pk])
    shoe = _shoe(table)
    counts = shoe.composition().counts
    assert counts[7] == counts[8] == 0  # no eight, no nine left
    last = Edge.objects.filter(table=table, shoe=shoe.number).order_by("-round").first()
    assert last is not None and "dragon7" in last.favourable
    assert Fraction(last.edges["dragon7"]) < 0
    turned = (
        Edge.objects.filter(table=table, shoe=shoe.number, favourable__contains=["dragon7"])
        .order_by("round")
        .first()
    )
    assert turned is not None
    mark = TableMark.objects.get(table=table, cleared_at__isnull=True)
    assert mark.source == "protection" and mark.key == "favourable"
    assert mark.words.startswith(f"Shoe {shoe.number}: favours the players: ")
    now = last.edge("dragon7")
    assert now is not None
    assert f"Dragon 7 since round {turned.round}, now {percent(now)}" in mark.words
    assert mark.round is not None and mark.round <= turned.round
    assert mark.link == f"/protection/tables/{table.pk}/"


def test_the_mark_is_restated_only_when_the_wagers_change(dealer: User, floor: User) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16)
    follow([table.pk])
    mark = TableMark.objects.get(table=table, cleared_at__isnull=True)
    play(table, dealer, [(1, "banker", "25")], ["AC", "AD", "7H", "7S"])
    follow([table.pk])
    again = TableMark.objects.get(table=table, cleared_at__isnull=True)
    edge = Edge.objects.filter(table=table).order_by("-round").first()
    assert edge is not None
    assert sorted(edge.favourable) == sorted(Follow.objects.get(table=table).alerted["since"])
    assert (again.pk, again.restated, again.words) == (mark.pk, mark.restated, mark.words)


def test_the_mark_clears_when_the_shoe_ends(dealer: User, floor: User) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16)
    follow([table.pk])
    assert TableMark.objects.filter(table=table, cleared_at__isnull=True).exists()
    actions.end_shoe(table, actor=dealer)
    follow([table.pk])
    assert not TableMark.objects.filter(table=table, cleared_at__isnull=True).exists()
    assert TableMark.objects.filter(table=table, cleared_at__isnull=False).count() == 1


def test_reading_many_tables_costs_the_same_statements_as_reading_one(
    dealer: User, floor: User
) -> None:
    tables = [ready_table(p, dealer, floor) for p in ("s42-mini", "mini-pairs", "ma-mini")]
    follow([t.pk for t in tables])
    for table in tables:
        play(table, dealer, [(1, "banker", "25")], ["AC", "AD", "7H", "7S"])
    with CaptureQueriesContext(connection) as one:
        follow([tables[0].pk])
    with CaptureQueriesContext(connection) as three:
        assert follow([t.pk for t in tables]).priced == 2  # the other two tables' round 2
    assert len(three) == len(one)
    edge_reads = [q["sql"] for q in three.captured_queries if q["sql"].startswith("SELECT")
                  and '"protection_edge"' in q["sql"]]  # fmt: skip
    assert len(edge_reads) == 1  # the edges of the rounds settled, priced in the last batch
    assert "tablegame_table" not in edge_reads[0]


def _exact(edges: dict[str, Fraction]) -> dict[str, str]:
    return {w: f"{e.numerator}/{e.denominator}" for w, e in edges.items()}


def test_eights_and_nines_rounds_are_four_cards_each() -> None:
    assert all(len(eights_and_nines(t)) == 4 for t in range(16))


def test_a_follower_put_back_reads_the_record_again_to_the_same_rows(
    dealer: User, floor: User
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    play(table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], ["AC", "AD", "7H", "7S"])
    follow([table.pk])
    play(table, dealer, [(1, "banker", "25")], ["2C", "3D", "5H", "3S"])
    follow([table.pk])
    rows = (Edge.objects.count(), PlayerSession.objects.count(), Wagered.objects.count())
    assert rows[1] == 3 and rows[2] == 3
    Follow.objects.filter(table=table).delete()  # its place lost: read from the opening again
    follow([table.pk])
    assert (Edge.objects.count(), PlayerSession.objects.count(), Wagered.objects.count()) == rows
    assert Wagered.objects.filter(session__isnull=True).count() == 0


def _royals_after(cards: list[str], decks: int = 8) -> list[int]:
    royals = [decks] * len(ROYAL_CARDS)
    for code in cards:
        card = Card.parse(code)
        if card in ROYAL_CARDS:
            royals[ROYAL_CARDS.index(card)] -= 1
    return royals


def test_a_royal_9_table_is_priced_at_every_chair_from_the_nines_and_pictures_seen(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-big", dealer, floor)
    royal9 = table.rules.royal9
    assert royal9 is not None
    for turn in range(2):  # 9♣ 8♣ 9♦ 8♦, then 9♥ 8♥ 9♠ 8♠: the Banker loses, the shoe passes
        play(table, dealer, [(1, "banker", "25")], eights_and_nines(turn))
        table.refresh_from_db()
        offered = curator_offer_order(table.occupied_seats(), previous=table.previous_curator_seat)
        actions.take_shoe(table, seat=offered[0], actor=dealer)
    follow([table.pk])
    shoe = _shoe(table)
    last = Edge.objects.get(table=table, shoe=shoe.number, round=3)
    seen = eights_and_nines(0) + eights_and_nines(1)
    assert last.royals == _royals_after(seen)  # a nine of each suit gone
    meters = {name: Decimal(amount) for name, amount in last.meters.items()}
    chairs = royal9_edges(last.royals, sum(last.counts), royal9, meters)
    assert len(chairs) == len(royal9.personal_combinations)
    assert {k: v for k, v in last.edges.items() if k.startswith("royal9/")} == {
        f"royal9/{chair}": f"{e.numerator}/{e.denominator}" for chair, e in chairs.items()
    }
    assert (
        last.edges["banker"]
        == _exact(analyse(shoe.composition(), table.rules).house_edge)["banker"]
    )


def test_the_meters_the_record_shows_price_the_next_round(dealer: User, floor: User) -> None:
    """A Royal 9 wager feeds the meters (``progressive_contributed``): the next round's pricing
    pays the personal awards from the meters after it."""
    table = ready_table("ma-big", dealer, floor)
    royal9 = table.rules.royal9
    assert royal9 is not None
    follow([table.pk])
    before = Edge.objects.get(table=table, round=1).meters
    play(table, dealer, [(1, "banker", "25"), (1, "royal9", "5")], ["2C", "3D", "4H", "5S"])
    follow([table.pk])
    after = Edge.objects.get(table=table, round=2).meters
    meters = {m.name: str(m.amount) for m in ProgressiveMeter.objects.filter(table=table)}
    assert after == meters and after != before
    assert Follow.objects.get(table=table).meters == after


def test_a_chair_whose_royal_9_is_the_players_marks_the_table(dealer: User, floor: User) -> None:
    """A Star meter grown past what its chance costs makes Royal 9 the players' at every chair
    (Personal vs. Personal pays it): one part of the mark names the chairs."""
    table = ready_table("ma-big", dealer, floor)
    ProgressiveMeter.objects.update_or_create(
        table=table, name="star", defaults={"amount": Decimal("9000000.00")}
    )
    follow([table.pk])
    mark = TableMark.objects.get(table=table, cleared_at__isnull=True)
    first = Edge.objects.get(table=table, round=1)
    chairs = sorted(first.favourable)
    assert len(chairs) == 14 and all(k.startswith("royal9/") for k in chairs)
    best = first.edge("royal9", 1)
    assert best is not None and best < 0
    assert mark.words == (
        f"Shoe {first.shoe}: favours the players: Royal 9 Progressive at chairs "
        f"{', '.join(str(c) for c in range(1, 15))} since round 1, now {percent(best)} at chair 1"
    )


def test_a_table_feeding_a_must_hit_meter_prices_a_lone_wagers_share_of_it(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-big", dealer, floor)
    royal9 = table.rules.royal9
    assert royal9 is not None
    stax = configure_must_hit(table.pit, name="Stax", configuration=3, tables=[table], actor=floor)
    stax.refresh_from_db()
    with CaptureQueriesContext(connection) as read:
        follow([table.pk])
    assert not [q for q in read.captured_queries if "hit_value" in q["sql"]]  # never read
    first = Edge.objects.get(table=table, round=1)
    assert first.meters["must_hit"] == {  # as the sign shows it: never its hidden hit value
        "name": "Stax",
        "amount": str(stax.amount),
        "maximum": "200.00",
        "increment_rate": "0.0200",
    }
    paytable = royal9_edges(
        first.royals,
        sum(first.counts),
        royal9,
        {n: Decimal(a) for n, a in first.meters.items() if n != "must_hit"},
    )
    share = must_hit_award(stax.amount, MUST_HIT_CONFIGURATIONS[3], royal9.wager)
    assert share > 0
    assert first.edge("royal9", 1) == paytable[1] - share / Fraction(royal9.wager)
