"""The seeded day's figures against the totals worked by hand in conftest.py."""

from __future__ import annotations

from decimal import Decimal

from accounting.reports import day_report

D = Decimal


def both(report, played_day):
    """The two tables' lines: Massachusetts mini, then Mini-Baccarat 5 % with markers."""
    lines = {t.table_id: t for t in report.tables}
    return lines[played_day.mb.pk], lines[played_day.s42.pk]


def test_each_table_wins_what_the_count_says(played_day):
    report = day_report(played_day.casino, played_day.day)
    mb, s42 = both(report, played_day)
    assert (mb.opener, mb.opener_source, mb.closer) == (D("10000"), "counted", D("10365"))
    assert (mb.fills, mb.credits, mb.drop) == (D("2000"), D("500"), D("1000"))
    assert mb.win == D("-135.00") and mb.hold == D("-13.50")
    assert (s42.opener, s42.opener_source, s42.closer) == (D("5000"), "last closer", D("4000"))
    assert (s42.fills, s42.credits, s42.drop) == (D("0"), D("0"), D("1200"))
    assert s42.win == D("200.00") and s42.hold == D("16.67")


def test_the_casino_totals_and_hold(played_day):
    total = day_report(played_day.casino, played_day.day).total
    assert (total.drop, total.win, total.hold) == (D("2200"), D("65.00"), D("2.95"))
    assert (total.fills, total.credits) == (D("2000"), D("500"))


def test_rounds_shoes_and_voids_come_from_the_record(played_day):
    report = day_report(played_day.casino, played_day.day)
    mb, s42 = both(report, played_day)
    assert (mb.rounds, mb.voids, mb.shoes) == (2, 1, 1)
    assert (s42.rounds, s42.voids, s42.shoes) == (2, 0, 1)
    assert [line.text for line in report.voids] == ["Shoe 1 round 3: Card dropped on the floor"]


def test_the_wager_tracked_result_per_table(played_day):
    report = day_report(played_day.casino, played_day.day)
    mb, s42 = both(report, played_day)
    assert (mb.tracked, s42.tracked) == (D("-135.00"), D("-150.00"))
    assert [t.table_id for t in report.tables if t.tables] == [played_day.mb.pk, played_day.s42.pk]
    assert report.total.tracked == D("-285.00")


def test_wagers_by_type_paid_collected_and_commission(played_day):
    report = day_report(played_day.casino, played_day.day)
    by_type = {line.type: line for line in report.wager_types}
    banker, player, tie = by_type["banker"], by_type["player"], by_type["tie"]
    assert (banker.count, banker.amount, banker.won, banker.paid) == (2, D(300), 2, D(300))
    assert banker.commission == D("15.00")
    assert (player.count, player.amount, player.won, player.paid) == (3, D(190), 1, D(100))
    assert (player.lost, player.collected) == (2, D(90))
    assert (tie.count, tie.lost, tie.collected) == (1, 1, D(10))
    assert (banker.result, player.result, tie.result) == (D(-295), D(-10), D(10))
    assert report.commission_at_payout == D("5.00")
    assert report.commission_marked == D("10.00")
    assert report.markers_collected == (1, D("10.00"))


def test_theoretical_win_is_each_wager_times_its_exact_house_edge(played_day):
    # Published exact edges for eight decks: Banker 1.0579 %, Player 1.2351 %, Tie at 8 to 1
    # 14.3596 %.
    banker, player, tie = D("0.010579"), D("0.012351"), D("0.143596")
    mb = 100 * banker + 150 * player + 10 * tie
    s42 = 200 * banker + 40 * player
    report = day_report(played_day.casino, played_day.day)
    lines = both(report, played_day)
    assert [t.theoretical for t in lines] == [mb.quantize(D("0.01")), s42.quantize(D("0.01"))]
    assert report.total.theoretical == D("6.96")


def test_the_void_fill_is_left_out_and_listed(played_day):
    report = day_report(played_day.casino, played_day.day)
    assert [(s.kind, s.serial, s.is_void) for s in report.slips] == [
        ("credit", 1, False),
        ("fill", 1, False),
        ("fill", 2, True),
    ]
