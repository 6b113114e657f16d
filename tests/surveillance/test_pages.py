"""The surveillance pages: the live wall, the round search, and the round review from the record
(tablegame's page at ``/rounds/<id>/``, which surveillance opens from its wall and search)."""

from __future__ import annotations

import datetime
import html as html_lib
import re
import zoneinfo
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from casino.models import Event
from tablegame import actions
from tablegame.models import Card, Round, Table
from tests.conftest import kept_for_the_module
from tests.record.chains import triggers_bypassed
from tests.tablegame.conftest import _cut_order, deal_at, play, ready_table, shuffle_steps
from tests.values import present

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9: "Banker wins, 9 over 6"
PLAYER_DRAWS = ["2H", "3D", "2C", "TS", "5S", "QH"]  # Player 2+2 draws 5: 9; Banker 3 draws Q: 3


@pytest.fixture
def staff(seeded: str) -> dict[str, User]:
    """The demo floor's users by name (dealer, floor, pitboss, surveillance, admin...)."""
    return {u.username: u for u in User.objects.all()}


def part_of(page: str, pattern: str) -> str:
    """The first part of ``page`` that ``pattern`` matches (across lines); it must be there."""
    match = re.search(pattern, page, re.S)
    assert match is not None, pattern
    return match[0]


def client_for(username: str | None) -> Client:
    client = Client()
    if username:
        client.login(username=username, password="baccarat")
    return client


def page_of(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def tile_html(page: str, table: Table) -> str:
    """The one tile of ``table`` on the wall."""
    match = re.search(rf'<article[^>]*id="table-{table.pk}".*?</article>', page, re.S)
    assert match, f"no tile for {table}"
    return match.group(0)


def text_of(markup: str) -> str:
    """The visible words, one space between them."""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def ready(table: Table, staff: dict[str, User]) -> Table:
    """``ready_table`` for a table found by object rather than by profile."""
    dealer, floor = staff["dealer"], staff["floor"]
    deal_at(table, dealer, floor)  # the floor moves the dealer here
    actions.open_table(table, actor=dealer)
    for seat in (1, 2, 5):
        actions.seat_player(table, seat=seat, player=f"Player {seat}", actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    if "feather" in shuffle_steps(table):
        actions.verify_shuffle(table, actor=floor)
    actions.cut_cards(
        table, seat=None, declined=_cut_order(table), position=120, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    return table


def mid_round_with_irregularity(table: Table, dealer: User) -> Round:
    """A round being dealt: two cards out, then a card found face up in the shoe."""
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=2, wager="player", amount="50", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="8D", actor=dealer)
    actions.deal_card(table, card="QC", actor=dealer)
    actions.report_irregularity(table, kind="card_face_up", card="5S", actor=dealer)
    return Round.objects.get(table=table, state=Round.State.DEALING, simulated=False)


URLS = ["/surveillance/", "/surveillance/rounds/", "/surveillance/sequences/"]


# --- Who may look -------------------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    client = client_for(None)
    for url in [
        *URLS,
        f"/rounds/{game.pk}/",
        f"/surveillance/tables/{table.pk}/tile/",
    ]:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(f"/login/?next={url}")


@pytest.mark.parametrize("username", ["dealer", "floor", "pitboss", "clerk", "accounting"])
def test_the_gaming_operation_is_refused_and_told_why(staff, username):
    """Surveillance watches the pit, pit bosses included: nobody from the pit reads its pages."""
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    client = client_for(username)
    urls = [*URLS, f"/surveillance/tables/{table.pk}/tile/"]
    if username != "accounting":  # accounting reviews the rounds its reports link to
        urls += [f"/rounds/{game.pk}/", f"/surveillance/rounds/{game.pk}/"]  # and its old address
    for url in urls:
        response = client.get(url)
        assert response.status_code == 403, url
        assert "the surveillance room is independent of the gaming operation it watches" in (
            html_lib.unescape(response.content.decode())
        ), url


@pytest.mark.parametrize("username", ["surveillance", "admin"])
def test_surveillance_and_the_administrator_may_watch(staff, username):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    client = client_for(username)
    for url in [
        *URLS,
        f"/rounds/{game.pk}/",
        f"/surveillance/tables/{table.pk}/tile/",
    ]:
        assert client.get(url).status_code == 200, url


def test_surveillance_may_read_a_table_from_the_api(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    response = client_for("surveillance").get(f"/api/tables/{table.pk}/")
    assert response.status_code == 200
    assert response.json()["table"]["name"] == table.name


# --- The wall -----------------------------------------------------------------------------------


def test_the_wall_has_a_tile_for_every_table(staff):
    page = page_of(client_for("surveillance"), "/surveillance/")
    tables = list(Table.objects.all())
    assert len(tables) >= 10
    for table in tables:
        tile = text_of(tile_html(page, table))
        assert table.name in tile
        assert table.rules.title in tile
        assert "Closed" in tile
        assert f'href="/surveillance/rounds/?table={table.pk}"' in tile_html(page, table)


def test_a_tile_shows_the_shoe_the_round_the_layout_the_wagers_and_the_result(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = play(table, dealer, [(1, "banker", "100"), (5, "player", "40")], BANKER_NATURAL)
    tile = tile_html(page_of(client_for("surveillance"), "/surveillance/"), table)
    words = text_of(tile)
    assert "Open" in words
    assert f"Shoe 1 · {table.shoes.get().cards_left - table.shoes.get().burned} cards left" in words
    assert "Round 1 · Settled" in words
    assert "Player 6 4♥ 2♠" in words
    assert "Banker 9 9♣ K♠" in words
    assert "$140.00 · 2 wagers" in words
    assert "Banker wins, 9 over 6" in words
    assert f'href="/rounds/{game.pk}/?back=/surveillance/"' in tile  # the review, back to the wall
    assert f'data-sequence="{Event.objects.filter(chain__table=table).count()}"' in tile


def test_the_next_round_shows_the_last_result_until_its_own(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=2, wager="tie", amount="10", actor=dealer)
    words = text_of(tile_html(page_of(client_for("surveillance"), "/surveillance/"), table))
    assert "Round 2 · Taking wagers" in words
    assert "$10.00 · 1 wager" in words
    assert "Last: Round 1: Banker wins, 9 over 6" in words


def test_an_irregularity_in_the_current_round_is_highlighted(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    mid_round_with_irregularity(table, staff["dealer"])
    tile = tile_html(page_of(client_for("surveillance"), "/surveillance/"), table)
    assert 'class="stile open alert"' in tile
    words = text_of(tile)
    assert "Round 2 · No more bets: dealing (simulated)" in words  # the card starts round 2
    assert "Irregularity in round 1: card found face up 5♠. Deal a simulated round" in words
    others = [t for t in Table.objects.exclude(pk=table.pk)]
    page = page_of(client_for("surveillance"), "/surveillance/")
    assert all(" alert" not in tile_html(page, t).split(">")[0] for t in others)


def test_open_vigorish_markers_are_on_the_tile(staff):
    dealer = staff["dealer"]
    table = ready_table(
        "ma-mini", dealer, staff["floor"], options={"vigorish_collection": "deferred"}
    )
    play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    marker = table.markers.get()
    words = text_of(tile_html(page_of(client_for("surveillance"), "/surveillance/"), table))
    assert f"Markers open: seat 1 ${marker.amount}" in words


def test_the_tile_fragment_is_the_one_table(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    response = client_for("surveillance").get(f"/surveillance/tables/{table.pk}/tile/")
    html = response.content.decode()
    assert html.strip().startswith(f'<article class="stile open" id="table-{table.pk}"')
    assert html.count("<article") == 1
    assert client_for("surveillance").get("/surveillance/tables/999999/tile/").status_code == 404


def test_the_sequences_name_every_table_and_its_last_event(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    answer = client_for("surveillance").get("/surveillance/sequences/").json()["tables"]
    assert answer[str(table.pk)] == Event.objects.filter(chain__table=table).count()
    assert set(answer) == {str(pk) for pk in Table.objects.values_list("pk", flat=True)}


def wall_queries(client: Client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/surveillance/").status_code == 200
    return len(queries)


def test_the_wall_runs_as_many_queries_for_thirty_tables_as_for_two(
    staff, django_assert_max_num_queries
):
    dealer = staff["dealer"]
    client = client_for("surveillance")
    mini = ready_table("ma-mini", dealer, staff["floor"])
    play(mini, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    mid_round_with_irregularity(ready_table("s42-mini", dealer, staff["floor"]), dealer)
    few = wall_queries(client)

    pit = mini.pit
    for n in range(20):
        table = Table.objects.create(pit=pit, name=f"MB-{50 + n}", profile="ma-mini", seat_count=7)
        if n % 4 == 0:
            ready(table, staff)
            play(table, dealer, [(1, "banker", "100"), (2, "tie", "5")], PLAYER_DRAWS)
        if n % 4 == 1:
            ready(table, staff)
            mid_round_with_irregularity(table, dealer)
    assert Table.objects.count() >= 30
    many = wall_queries(client)
    assert many == few
    with django_assert_max_num_queries(12):  # two for the strip of significant events, one marks
        page = page_of(client, "/surveillance/")
    assert page.count('class="stile') == Table.objects.count()


def test_a_tile_fragment_runs_a_fixed_handful_of_queries(staff, django_assert_max_num_queries):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    mid_round_with_irregularity(table, staff["dealer"])
    client = client_for("surveillance")
    with django_assert_max_num_queries(10):
        client.get(f"/surveillance/tables/{table.pk}/tile/")


# --- The search -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def history_kept(demo_floor: str, django_db_blocker: Any) -> Iterator[dict[str, int]]:
    """``history`` played once for the module's tests, each of which changes it only in its own
    transaction; the rounds' pks."""
    yield from kept_for_the_module(django_db_blocker, _play_history)


@pytest.fixture
def history(history_kept: dict[str, int], seeded: str) -> dict[str, Round]:
    """Rounds at two tables: small and big wagers, one with an irregularity."""
    return {name: Round.objects.get(pk=pk) for name, pk in history_kept.items()}


def _play_history() -> dict[str, int]:
    dealer, floor = (User.objects.get(username=name) for name in ("dealer", "floor"))
    mini = ready_table("ma-mini", dealer, floor)
    other = ready_table("s42-mini", dealer, floor)
    small = play(mini, dealer, [(1, "player", "25")], BANKER_NATURAL)
    big = play(mini, dealer, [(2, "banker", "2500"), (5, "player", "30")], PLAYER_DRAWS)
    elsewhere = play(other, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    irregular = mid_round_with_irregularity(other, dealer)
    for card in ["AC", "4S"]:  # Player 9, a Natural
        actions.deal_card(other, card=card, actor=dealer)
    irregular = actions.settle_round(other, actor=dealer)
    played = {"small": small, "big": big, "elsewhere": elsewhere, "irregular": irregular}
    return {name: one.pk for name, one in played.items()}


def found(query: str) -> list[int]:
    page = page_of(client_for("surveillance"), f"/surveillance/rounds/{query}")
    return [int(pk) for pk in re.findall(r'<tr class="[^"]*" data-round="(\d+)"', page)]


def test_every_round_is_listed_newest_first(history):
    assert found("") == [r.pk for r in reversed(history.values())]


def test_rounds_are_found_by_table(history):
    table = history["small"].table
    assert found(f"?table={table.pk}") == [history["big"].pk, history["small"].pk]


def test_rounds_are_found_by_the_size_of_a_wager(history):
    assert found("?min_wager=1000") == [history["big"].pk]
    assert found("?min_wager=100") == [
        history["elsewhere"].pk,
        history["big"].pk,
    ]


def test_rounds_with_an_irregularity_are_found(history):
    assert found("?irregular=on") == [history["irregular"].pk]


def test_rounds_are_found_by_shoe_number(history):
    assert len(found("?shoe=1")) == 4
    assert found("?shoe=2") == []


def test_rounds_are_found_by_local_time(history):
    zone = zoneinfo.ZoneInfo(history["big"].table.pit.casino.time_zone)
    then = datetime.datetime(2026, 3, 2, 22, 30, tzinfo=zone)  # local evening
    with triggers_bypassed():  # a settled round is final: set up as its owner
        Round.objects.filter(pk=history["big"].pk).update(opened_at=then)
    assert found("?start=2026-03-02T22:00&end=2026-03-02T23:00") == [history["big"].pk]
    assert found("?start=2026-03-02T22:31&end=2026-03-02T23:00") == []


def test_the_list_shows_table_shoe_round_result_total_and_the_flag(history):
    page = page_of(client_for("surveillance"), "/surveillance/rounds/")
    row = present(
        re.search(rf'<tr class="[^"]*" data-round="{history["big"].pk}">.*?</tr>', page, re.S)
    ).group(0)
    words = text_of(row)
    assert words.startswith(f"{history['big'].table.name} 1 2 ")
    assert "Player wins, 9 over 3" in words
    assert "$2530.00" in words
    flagged = re.search(
        rf'<tr class="flagged" data-round="{history["irregular"].pk}">.*?</tr>', page, re.S
    )
    assert flagged and "⚠ 1" in flagged.group(0)


def test_a_bad_search_says_what_is_wrong(history):
    page = page_of(client_for("surveillance"), "/surveillance/rounds/?min_wager=lots&shoe=0")
    assert "Enter a number." in page
    assert "Correct the search above." in page


def test_the_list_is_paginated(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    for n in range(26):
        suit = "SHDC"[n % 4]  # four suits, so eight decks hold every card dealt
        play(table, dealer, [(1, "banker", "25")], [c[:-1] + suit for c in BANKER_NATURAL])
    first = page_of(client_for("surveillance"), f"/surveillance/rounds/?table={table.pk}")
    assert "26 rounds" in first and "page 1 of 2" in first
    assert f'href="?table={table.pk}&amp;page=2"' in first
    assert len(found(f"?table={table.pk}")) == 25
    assert len(found(f"?table={table.pk}&page=2")) == 1


def test_the_search_runs_a_fixed_handful_of_queries(history, django_assert_max_num_queries):
    client = client_for("surveillance")
    with django_assert_max_num_queries(8):
        client.get("/surveillance/rounds/?min_wager=10&irregular=on")


# --- The review ---------------------------------------------------------------------------------


def events_of(page: str) -> list[tuple[int, str, str]]:
    """(sequence, action, words) of every row of the event table, in page order."""
    body = present(re.search(r'<table class="list events".*?</table>', page, re.S)).group(0)
    return [
        (int(seq), action, text_of(row))
        for seq, action, row in re.findall(
            r'<tr class="ev [^"]*" data-sequence="(\d+)" data-action="([a-z_]+)">(.*?)</tr>',
            body,
            re.S,
        )
    ]


def test_the_review_tells_the_round_event_by_event(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=2, wager="player", amount="50", actor=dealer)
    actions.place_wager(table, seat=2, wager="player", amount="75", actor=dealer)
    actions.place_wager(table, seat=5, wager="tie", amount="10", actor=dealer)
    actions.withdraw_wager(table, seat=5, wager="tie", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in PLAYER_DRAWS:
        actions.deal_card(table, card=card, actor=staff["pitboss"] if card == "5S" else dealer)
    game = actions.settle_round(table, actor=dealer)

    rows = events_of(page_of(client_for("surveillance"), f"/rounds/{game.pk}/"))
    assert [action for _, action, _ in rows] == [
        "round_opened",
        "wager_placed",
        "wager_placed",
        "wager_changed",
        "wager_placed",
        "wager_withdrawn",
        "no_more_bets",
        *["card_dealt"] * 6,
        "round_settled",
    ]
    sequences = [seq for seq, _, _ in rows]
    assert sequences == sorted(sequences) and len(set(sequences)) == len(sequences)
    cards = [words for _, action, words in rows if action == "card_dealt"]
    assert [present(re.search(r"Card (\d): (\S+) to the (\w+)", w)).groups() for w in cards] == [
        ("1", "2♥", "Player"),
        ("2", "3♦", "Banker"),
        ("3", "2♣", "Player"),
        ("4", "10♠", "Banker"),
        ("5", "5♠", "Player"),
        ("6", "Q♥", "Banker"),
    ]
    assert all(" dealer " in f" {w} " for w in cards[:4])
    assert " pitboss " in f" {cards[4]} "
    words = dict((action, w) for _, action, w in rows)
    assert "Seat 2: Player $50.00 → $75.00" in words["wager_changed"]
    assert "Seat 5: Tie" in words["wager_withdrawn"]
    assert "Player's cards turned by seat 2, Banker's by seat 1" in words["no_more_bets"]
    settled = words["round_settled"]
    assert "Player wins" in settled
    assert "Collect · seat 1 · Banker · $100.00" in settled
    assert "Pay · seat 2 · Player · $75.00" in settled


def test_the_review_shows_utc_and_local_time(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    event = Event.objects.filter(chain__table=table, action="round_settled").get()
    zone = zoneinfo.ZoneInfo(table.pit.casino.time_zone)
    page = page_of(client_for("surveillance"), f"/rounds/{game.pk}/")
    settled = next(w for _, a, w in events_of(page) if a == "round_settled")
    assert event.created_at.astimezone(zone).strftime("%H:%M:%S") in settled
    assert event.created_at.astimezone(datetime.UTC).strftime("%H:%M:%S") in settled
    assert str(zone) in page


def test_the_review_lists_the_final_cards_wagers_and_settlement_steps(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = play(table, dealer, [(1, "banker", "100"), (5, "player", "40")], BANKER_NATURAL)
    page = page_of(client_for("surveillance"), f"/rounds/{game.pk}/")
    final = text_of(part_of(page, r'<section class="card layout-final">.*?</section>'))
    assert "Player 6 1 4♥ 3 2♠ Banker 9 2 9♣ 4 K♠" in final
    assert "Banker wins, 9 over 6" in final
    wagers = text_of(part_of(page, r'<table class="list wagers".*?</table>'))
    assert "5 Player $40.00 lose $0.00 $0.00 $0.00 dealer" in wagers
    assert "1 Banker $100.00 win $100.00 $5.00 $0.00 dealer" in wagers
    steps = re.findall(r"<li class=\"a-[a-z_]+\">(.*?)</li>", page.split('id="steps"')[1])
    stored = [(s.action, s.seat) for s in game.steps.order_by("index")]
    assert stored == [("collect", 5), ("collect_vigorish", 1), ("pay", 1)]
    assert [text_of(s) for s in steps] == [
        "Collect seat 5 Player $40.00",
        "Collect commission seat 1 Banker $5.00",
        "Pay seat 1 Banker $100.00",
    ]
    assert "Chain intact" in page
    assert 'id="differences"' not in page


def test_the_review_shows_an_irregularity_with_its_instruction(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = mid_round_with_irregularity(table, dealer)
    irregularity = game.irregularities.get()
    page = page_of(client_for("surveillance"), f"/rounds/{game.pk}/")
    row = next(w for _, a, w in events_of(page) if a == "irregularity")
    assert "Card found face up: 5♠" in row
    assert f"Instruction: {irregularity.instruction}" in row
    assert irregularity.instruction in text_of(page.split('class="card irregularities"')[1])
    assert 'id="differences"' not in page


def test_a_tampered_event_shows_the_broken_chain(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    third = Event.objects.filter(chain__table=table, action="card_dealt").order_by("sequence")[2]
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            """UPDATE casino_event SET data = jsonb_set(data, '{card}', '"9S"')
               WHERE id = %s""",
            [third.pk],
        )
    page = page_of(client_for("surveillance"), f"/rounds/{game.pk}/")
    assert "Chain intact" not in page
    chain = text_of(part_of(page, r'<div class="chain broken".*?</div>'))
    assert f"Chain broken at event {third.sequence}:" in chain
    assert f"event {third.sequence} was altered" in chain
    rows = {seq: w for seq, _, w in events_of(page)}
    assert "9♠" in rows[third.sequence] and "✘ broken" in rows[third.sequence]
    assert re.search(rf'<tr class="ev card_dealt broken" data-sequence="{third.sequence}"', page)
    assert all("✔" in w for seq, w in rows.items() if seq < third.sequence)
    assert all("?" in w for seq, w in rows.items() if seq > third.sequence)
    # the record now says 9♠ where the stored card is 2♠: the page says so too
    assert "The stored rows differ from the record" in page


def test_a_card_row_changed_behind_the_records_back_is_shown(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    Card.objects.filter(round=game, position=2).update(code="8C")
    page = page_of(client_for("surveillance"), f"/rounds/{game.pk}/")
    differences = text_of(part_of(page, r'<div class="differences".*?</div>'))
    assert (
        "Card 2: the record has 9♣ to the Banker's hand, the stored row 8♣ to the Banker's hand."
        in differences
    )
    assert "Card 1" not in differences
    assert "Chain intact" in page  # the record itself is untouched


def test_a_round_of_an_earlier_shoe_shows_only_its_own_events(staff):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    first = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    actions.end_shoe(table, actor=dealer)
    actions.receive_decks(table, decks=8, new_decks=False, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=dealer)
    actions.verify_shuffle(table, actor=staff["floor"])
    actions.cut_cards(
        table, seat=None, declined=_cut_order(table), position=120, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    second = play(table, dealer, [(2, "player", "60")], PLAYER_DRAWS)
    assert (first.number, second.number) == (1, 1)
    page = page_of(client_for("surveillance"), f"/rounds/{first.pk}/")
    cards = [w for _, a, w in events_of(page) if a == "card_dealt"]
    assert len(cards) == 4 and "4♥" in cards[0]
    assert "60.00" not in text_of(page.split('id="events"')[1].split("</table>")[0])
    page = page_of(client_for("surveillance"), f"/rounds/{second.pk}/")
    assert len([w for _, a, w in events_of(page) if a == "card_dealt"]) == 6
    assert 'id="differences"' not in page


def test_a_missing_round_is_404(staff):
    assert client_for("surveillance").get("/rounds/999999/").status_code == 404


def test_the_reviews_old_address_sends_a_bookmark_on_for_good(staff):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    client = client_for("surveillance")
    response = client.get(f"/surveillance/rounds/{game.pk}/")
    assert (response.status_code, response["Location"]) == (301, f"/rounds/{game.pk}/")
    response = client.get(f"/surveillance/rounds/{game.pk}/?back=/surveillance/")
    assert response["Location"] == f"/rounds/{game.pk}/?back=/surveillance/"


def test_the_review_goes_back_to_the_page_that_linked_to_it(staff):
    """The round search's links carry the search, filters and all, and the review links back."""
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    client = client_for("surveillance")
    search = f"/surveillance/rounds/?table={table.pk}&shoe=1"
    link = re.search(r'<a href="(/rounds/\d+/\?back=[^"]+)">Review</a>', page_of(client, search))
    assert link is not None
    review = page_of(client, html_lib.unescape(link[1]))
    assert f'<a id="back" href="{html_lib.escape(search)}">Back</a>' in review
    assert "/accounting/" not in review and 'href="/surveillance/"' not in review  # only its own
    assert f"/rounds/{game.pk}/" in link[1]


@pytest.mark.parametrize(
    "back",
    ["https://evil.example/", "//evil.example/", "/\\evil.example/", "/\t/evil", "javascript:x"],
)
def test_the_review_shows_no_way_back_to_another_site(staff, back):
    table = ready_table("ma-mini", staff["dealer"], staff["floor"])
    game = play(table, staff["dealer"], [(1, "banker", "100")], BANKER_NATURAL)
    response = client_for("surveillance").get(f"/rounds/{game.pk}/", {"back": back})
    assert response.status_code == 200
    assert 'id="back"' not in response.content.decode()


def test_a_simulated_round_starts_with_the_disclosed_card_and_the_round_it_interrupted_resumes(
    staff,
):
    dealer = staff["dealer"]
    table = ready_table("ma-mini", dealer, staff["floor"])
    interrupted = mid_round_with_irregularity(table, dealer)  # 8♦ 10♣ out, then 5♠ face up
    for card in ["8H", "4D", "TC"]:
        actions.deal_card(table, card=card, actor=dealer)
    simulated = actions.settle_round(table, actor=dealer)
    assert simulated.simulated
    for card in ["AC", "4S"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)
    client = client_for("surveillance")

    page = page_of(client, f"/rounds/{simulated.pk}/")
    rows = events_of(page)
    assert [a for _, a, _ in rows] == ["irregularity", *["card_dealt"] * 3, "round_settled"]
    assert "5♠" in rows[0][2] and "Round 1:" in rows[0][2]
    final = text_of(part_of(page, r'<section class="card layout-final">.*?</section>'))
    assert "Player 9 1 5♠ 3 4♦ Banker 8 2 8♥ 4 10♣" in final
    assert 'id="differences"' not in page

    page = page_of(client, f"/rounds/{interrupted.pk}/")
    rows = events_of(page)
    assert [a for _, a, _ in rows][:6] == [
        "round_opened",
        "wager_placed",
        "no_more_bets",
        "card_dealt",
        "card_dealt",
        "irregularity",
    ]
    context = re.findall(r'<tr class="ev (\w+) verified context" data-sequence', page)
    assert context == ["card_dealt"] * 3 + ["round_settled"]  # the simulated round, in between
    assert any("Round 2: Card 2: 8♥ to the Banker's hand" in w for _, _, w in rows)
    final = text_of(part_of(page, r'<section class="card layout-final">.*?</section>'))
    assert "Player 9 1 8♦ 3 A♣ Banker 4 2 Q♣ 4 4♠" in final
    assert 'id="differences"' not in page
