"""A player's session rated wager by wager at the exact edge of its shoe, checked by hand; a
counter flagged on the wall with the rounds that show it; the day's ratings as CSV and PDF."""

from __future__ import annotations

import io
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pypdf import PdfReader

from baccarat.cards import Card
from baccarat.composition import Composition
from baccarat.gamemath import analyse
from baccarat.profiles import PROFILES
from baccarat.royal9_odds import ROYAL_CARDS, royal9_edges
from protection.advantage import Finding
from protection.alerts import mark_findings
from protection.follower import follow
from protection.models import Edge, PlayerSession
from protection.ratings import ratings
from protection.rules import RulesInForce
from protection.sittings import Sittings, finding_data
from tablegame.marks.models import TableMark
from tablegame.models import ProgressiveMeter, Table
from tests.clients import signed_in
from tests.protection.conftest import eights_and_nines, play, ready_table

pytestmark = pytest.mark.django_db

#: Three rounds at a mini-baccarat table with pair bets (seat 1: $25 Banker, $5 Player Pair).
ROUNDS = [
    ["2C", "3D", "5H", "3S"],  # Player 7 over 6: Banker loses, no player pair
    ["KC", "4D", "QH", "5S"],  # Banker's natural 9: Banker wins even money, no player pair
    ["4C", "2D", "4H", "3S"],  # Player's natural 8 with a pair of fours: 11 to 1
]


def _by_hand(rounds: list[list[str]]) -> Fraction:
    """The theoretical win of seat 1's wagers, worked from the cards: the full shoe less the
    first card burned (3♦) and the cards dealt before each round, priced by the engine."""
    counts = [32] * 13
    counts[Card.parse("3D").rank] -= 1
    rules = PROFILES["mini-pairs"]
    theo = Fraction(0)
    for cards in rounds:
        edges = analyse(Composition(tuple(counts)), rules).house_edge
        theo += 25 * edges["banker"] + 5 * edges["player_pair"]
        for code in cards:
            counts[Card.parse(code).rank] -= 1
    return theo


def test_a_sessions_rating_is_summed_wager_by_wager_at_the_exact_edge(
    dealer: User, floor: User
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    for cards in ROUNDS:
        play(table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], cards)
    follow([table.pk])
    day = table.pit.casino.gaming_day(timezone.now())
    rated = {r.session.seat: r for r in ratings(day) if r.table == table.name}
    seat = rated[1]
    assert (seat.session.player, seat.rounds, seat.wagers) == ("Player 1", 3, 6)
    assert seat.wagered == Decimal("90.00") and seat.average_bet == Decimal("30.00")
    # -25 - 5, then +25 - 5, then -25 + 5 x 11: the player is $20 up.
    assert seat.result == Decimal("20.00")
    exact = _by_hand(ROUNDS)
    cents = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )
    assert seat.theoretical == cents
    page = signed_in(User.objects.get(username="pitboss")).get(
        f"/protection/sessions/{seat.session.pk}/"
    )
    text = page.content.decode()
    assert page.status_code == 200 and text.count("<tr><td>1</td>") == 6  # every wager
    assert "result $20.00" in text and "Player Pair" in text
    assert rated[2].wagers == 0 and rated[2].theoretical == Decimal("0.00")


def play_a_counter(table: Table, dealer: User) -> None:
    """Seat 2 bets Dragon 7 only when the follower has found it the players' (a counter), seat
    5 every third round whatever its edge (a steady side bettor): 12 rounds without an eight or
    a nine, then 16 stripping them, the follower reading after each."""
    suits = "CDHS"
    for turn in range(12):  # no eight, no nine: Dragon 7 stays the house's
        s, t = suits[turn % 4], suits[(turn + 1) % 4]
        wagers = [(2, "banker", "25"), (5, "banker", "25")]
        if turn % 3 == 0:
            wagers.append((5, "dragon7", "5"))
        play(table, dealer, wagers, [f"2{s}", f"3{s}", f"5{s}", f"3{t}"])
    for turn in range(16):
        follow([table.pk])
        edge = Edge.objects.filter(table=table).order_by("-shoe", "-round").first()
        assert edge is not None
        wagers = [(2, "banker", "25"), (5, "banker", "25")]
        if "dragon7" in edge.favourable:
            wagers.append((2, "dragon7", "25"))
        if turn % 3 == 0:
            wagers.append((5, "dragon7", "5"))
        play(table, dealer, wagers, eights_and_nines(turn))
    follow([table.pk])


def test_a_counter_is_flagged_on_the_wall_and_a_steady_side_bettor_is_not(
    dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    play_a_counter(table, dealer)
    counter = PlayerSession.objects.get(table=table, seat=2, left_at__isnull=True)
    steady = PlayerSession.objects.get(table=table, seat=5, left_at__isnull=True)
    assert counter.findings["dragon7"]["flagged"] is True
    assert len(counter.findings["dragon7"]["theirs"]) >= 3
    assert steady.findings.get("dragon7", {}).get("flagged") in (None, False)
    mark = TableMark.objects.get(table=table, key=f"player:{counter.pk}", cleared_at__isnull=True)
    assert mark.words.startswith("Seat 2, Player 2: Dragon 7 bets follow the edge: ")
    assert "on rounds it was the player's (shoe/round 1/" in mark.words
    assert not TableMark.objects.filter(table=table, key=f"player:{steady.pk}").exists()


def test_the_days_ratings_come_as_csv_and_pdf(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("mini-pairs", dealer, floor)
    play(table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], ROUNDS[0])
    follow([table.pk])
    day = table.pit.casino.gaming_day(timezone.now()).isoformat()
    client = signed_in(staff["accounting"])
    page = client.get("/protection/ratings/", {"day": day})
    assert page.status_code == 200 and "Player 1" in page.content.decode()
    assert 'data-live="1"' in page.content.decode()  # today's: the page reads it again
    partial = client.get("/protection/ratings/", {"day": day, "partial": "1"}).content.decode()
    assert partial.lstrip().startswith('<section class="card">') and "Player 1" in partial
    older = client.get("/protection/ratings/", {"day": "2026-01-02"}).content.decode()
    assert 'data-live=""' in older and "No player was rated on this gaming day." in older
    csv = client.get("/protection/ratings.csv", {"day": day})
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[1].startswith("Table,Seat,Player,Card,In,Out,Rounds,Wagers,Wagered")
    assert any(
        line.startswith(f"{table.name},1,Player 1,,") and ",30.00," in line for line in lines
    )
    pdf = client.get("/protection/ratings.pdf", {"day": day})
    assert pdf["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert f"Player ratings, gaming day {day}" in text and "Player 1" in text


def test_a_day_that_is_no_date_is_refused_in_words(staff: dict[str, User]) -> None:
    client = signed_in(staff["floor"])
    for raw, words in (
        ("9999-01-01", "There are no ratings for 9999-01-01: pick a day from 2000 to 2099."),
        ("2026-13-40", "Write the gaming day as year-month-day"),
        ("2026-11-27\x00", "Write the gaming day as year-month-day"),
    ):
        page = client.get("/protection/ratings/", {"day": raw})
        assert page.status_code == 400 and words in page.content.decode()
        assert client.get("/protection/ratings.csv", {"day": raw}).status_code == 400
    assert signed_in(staff["dealer"]).get("/protection/ratings/").status_code == 403


def test_a_royal_9_wager_is_rated_at_its_chairs_exact_edge(dealer: User, floor: User) -> None:
    """Round 1 deals K♥ 2♣ to the Player and 9♦ K♣ to the Banker (a natural 9): chair 1's
    Personal King-9 (K♣ 9♦) has one card fewer of each, chair 2's (K♣ 9♥) one King fewer,
    chair 4's (K♦ 9♣) all its cards. Seat 1's Royal 9 wager in round 2 is rated at chair 1's
    edge for that shoe and the meters the sign showed."""
    table = ready_table("ma-big", dealer, floor)
    royal9 = table.rules.royal9
    assert royal9 is not None
    play(table, dealer, [(1, "banker", "25")], ["KH", "9D", "2C", "KC"])
    follow([table.pk])  # the follower a round behind, as on the floor
    shown = {name: royal9.progressive(name).reseed for name in ("star", "spade", "heart")}
    shown |= {m.name: m.amount for m in ProgressiveMeter.objects.filter(table=table)}
    wagers = [(1, "banker", "25"), (1, "royal9", str(royal9.wager))]
    play(table, dealer, wagers, ["2C", "3D", "5H", "3S"])
    follow([table.pk])

    royals = [8] * 16
    for code in ("KH", "9D", "KC"):  # the 2♣ is counted by rank only
        royals[ROYAL_CARDS.index(Card.parse(code))] -= 1
    priced = Edge.objects.get(table=table, round=2)
    assert priced.royals == royals and sum(priced.counts) == 416 - 1 - 4  # 3♦ burned face up
    assert priced.meters == {name: str(amount) for name, amount in shown.items()}
    chairs = royal9_edges(royals, 411, royal9, shown)
    assert chairs[1] > chairs[2] > chairs[4]
    assert priced.edge("royal9", 1) == chairs[1] and priced.edge("royal9", 2) == chairs[2]
    day = table.pit.casino.gaming_day(timezone.now())
    seat = next(r for r in ratings(day) if r.table == table.name and r.session.seat == 1)
    counts = [32] * 13
    counts[Card.parse("3D").rank] -= 1
    total = 25 * analyse(Composition(tuple(counts)), table.rules).house_edge["banker"]
    for code in ("KH", "9D", "2C", "KC"):
        counts[Card.parse(code).rank] -= 1
    total += 25 * analyse(Composition(tuple(counts)), table.rules).house_edge["banker"]
    total += Fraction(royal9.wager) * chairs[1]
    cents = (Decimal(total.numerator) / Decimal(total.denominator)).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )
    assert (seat.rounds, seat.wagers, seat.unpriced) == (2, 3, 0)
    assert seat.theoretical == cents


def test_a_second_wager_flagged_restates_every_wager_flagged_in_the_session(
    dealer: User, floor: User
) -> None:
    """The session was flagged on Dragon 7 in an earlier batch; now Panda 8 is: the mark names
    both, each with its rounds."""
    table = ready_table("ma-mini-ez", dealer, floor)
    dragon7 = Finding(8, 4, ((1, 20), (1, 22), (1, 25)), Decimal("25.00"), None, 0.0002, True)
    panda8 = Finding(
        9, 3, ((1, 23), (1, 26), (1, 27)), Decimal("40.00"), Decimal("5.00"), 0.001, True
    )
    session = PlayerSession.objects.create(
        table=table, seat=2, player="Ann Lee", seated_at=timezone.now(),
        gaming_day=table.pit.casino.gaming_day(timezone.now()), sequence=1,
        findings={"dragon7": finding_data(dragon7)},
    )  # fmt: skip
    session.findings = {**session.findings, "panda8": finding_data(panda8)}
    mark_findings(
        {table.pk: table}, Sittings.of({}, RulesInForce([])), [(session, {"panda8": panda8})]
    )
    mark = TableMark.objects.get(table=table, key=f"player:{session.pk}", cleared_at__isnull=True)
    assert mark.words == (  # both in full would not fit the wall's mark: the page lists them
        "Seat 2, Ann Lee: Dragon 7 bets follow the edge: 3 on the player's rounds, the last "
        "1/25, $25.00 on average; Panda 8 bets follow the edge: 3 on the player's rounds, the "
        "last 1/27, $40.00 on average"
    )
    assert (mark.shoe, mark.round) == (1, 27)
