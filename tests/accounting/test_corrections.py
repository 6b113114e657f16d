"""A card keyed in error and corrected with a floorperson's approval is an exception of the day:
on the report, with what was keyed, what was dealt, who approved, and its round to review."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from pypdf import PdfReader

from accounting.exports import day_pdf
from accounting.reports import day_report, master_report
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db


def test_a_corrected_card_is_listed_with_its_round(staff: dict[str, User]) -> None:
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    game = actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ("4H", "8C", "2S", "KS"):  # the Banker's 9C keyed as 8C
        actions.deal_card(table, card=card, actor=dealer)
    correct_card(table, position=2, card="9C", approver=floor, reason="Keyed 8", actor=dealer)
    actions.settle_round(table, actor=dealer)
    casino = table.pit.casino
    report = day_report(casino, casino.gaming_day(timezone.now()))
    (line,) = report.corrections
    assert (line.table, line.round_id) == (table.name, game.pk)
    assert "8♣ keyed in error, corrected to 9♣, approved by floor (Keyed 8)" in line.text
    pdf = PdfReader(io.BytesIO(day_pdf(report, master=master_report(casino, report.day))))
    text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())
    assert "Card corrected" in text
