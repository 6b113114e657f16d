"""The count-room win against the wager-tracked result: flagged over the casino's threshold, with
a link to the rounds behind it; voids link to their review."""

from __future__ import annotations

from decimal import Decimal

from django.test import Client
from django.urls import reverse

from accounting.models import AccountingSettings
from accounting.reports import day_report


def test_a_difference_over_the_threshold_is_flagged(played_day):
    report = day_report(played_day.casino, played_day.day)
    lines = {t.table_id: t for t in report.tables}
    mb, s42 = lines[played_day.mb.pk], lines[played_day.s42.pk]
    assert (mb.variance, mb.variance_flagged) == (Decimal("0.00"), False)
    assert (s42.variance, s42.variance_flagged) == (Decimal("350.00"), True)
    assert (played_day.s42.name, "Count-room win $200.00 and wager-tracked result $-150.00 "
            "differ by $350.00 (threshold $100.00)") in report.flags  # fmt: skip


def test_the_threshold_is_the_casinos(played_day):
    AccountingSettings.objects.create(casino=played_day.casino, variance_threshold=Decimal(400))
    lines = {t.table_id: t for t in day_report(played_day.casino, played_day.day).tables}
    assert lines[played_day.s42.pk].variance_flagged is False


def test_a_hold_outside_the_bounds_is_flagged(played_day):
    lines = {t.table_id: t for t in day_report(played_day.casino, played_day.day).tables}
    assert lines[played_day.mb.pk].hold_flagged  # -13.50 % is under 8 %
    assert not lines[played_day.s42.pk].hold_flagged  # 16.67 %


def test_the_page_links_the_flag_to_the_rounds_and_the_void_to_its_review(played_day):
    client = Client()
    client.force_login(played_day.staff["accounting"])
    page = client.get(reverse("accounting:day"), {"day": played_day.day.isoformat()})
    assert page.status_code == 200
    html = page.content.decode()
    day = played_day.day.isoformat()
    rounds = f"{reverse('accounting:rounds')}?casino={played_day.casino.pk}&amp;day={day}"
    assert (
        f"{rounds}&amp;table={played_day.s42.pk}" in html
    )  # tests/accounting/test_variance_rounds
    void = played_day.mb.rounds.get(state="void")
    assert reverse("round-review", args=[void.pk]) in html
    assert "differ by $350.00" in html
