"""Complimentary Vigorish Forms, 002 (c)(3)(iii)-(iv): from the series received to accounting."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino import roles
from casino.models import Chain, Event
from tablegame import actions
from tablegame.actions import ActionError, NotAllowed
from tablegame.actions.dealers import assign_dealer, relieve_dealer
from tablegame.models import VigorishForm, VigorishFormSeries
from tablegame.vigorish_forms import actions as forms
from tests.pit.conftest import deferred_table, person, requested_marker


@pytest.fixture
def clerk(staff):
    return staff["clerk"]


@pytest.fixture
def boss(staff):
    return staff["pitboss"]


def signed_form(table, dealer, boss, clerk, pit):
    marker = requested_marker(table, dealer)
    form = forms.prepare_vigorish_form(marker.pk, actor=clerk)
    forms.sign_vigorish_form(form.pk, actor=dealer)
    forms.sign_vigorish_form(form.pk, actor=boss)
    forms.sign_vigorish_form(form.pk, actor=clerk)
    forms.record_patron_signature(form.pk, signature="Ana Ruiz", actor=dealer)
    form.refresh_from_db()
    return form


def test_the_clerk_prepares_the_next_form_with_the_amount_and_patron(db, pit, dealer, floor, clerk):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=4501, last_number=4550, actor=clerk)
    marker = requested_marker(table, dealer)
    form = forms.prepare_vigorish_form(marker.pk, actor=clerk)
    assert (form.printed_number, form.amount, form.patron_name) == (
        "004501",
        Decimal("5.00"),
        "Player 2",
    )
    assert (form.table, form.seat, form.reason) == (table, 2, "The patron left in a hurry.")
    assert form.status == VigorishForm.Status.PREPARED
    assert VigorishFormSeries.objects.get().next_number == 4502
    chain = Chain.objects.of_pit(pit)
    event = Event.objects.filter(chain=chain, action="vigorish_form_prepared").get()
    assert event.data["number"] == "004501" and event.data["amount"] == "5.00"
    assert event.actor == clerk


def test_only_a_pit_clerk_reaches_unused_forms(db, pit, dealer, floor, staff):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=5, actor=staff["clerk"])
    marker = requested_marker(table, dealer)
    for who in ("dealer", "floor", "pitboss", "surveillance", "accounting", "admin"):
        with pytest.raises(NotAllowed):
            forms.prepare_vigorish_form(marker.pk, actor=staff[who])
        with pytest.raises(NotAllowed):
            forms.receive_form_series(pit, first_number=10, last_number=20, actor=staff[who])
        with pytest.raises(NotAllowed):
            forms.void_blank_vigorish_form(pit, reason="Torn.", actor=staff[who])
    assert VigorishForm.objects.count() == 0


def test_a_series_that_overlaps_one_received_is_refused(db, pit, clerk):
    forms.receive_form_series(pit, first_number=100, last_number=199, actor=clerk)
    with pytest.raises(ActionError, match="overlap the series 000100-000199"):
        forms.receive_form_series(pit, first_number=150, last_number=250, actor=clerk)
    with pytest.raises(ActionError, match="first number up to its last"):
        forms.receive_form_series(pit, first_number=300, last_number=299, actor=clerk)


def test_series_are_used_in_order_received_and_every_number_is_accounted_for(
    db, pit, dealer, floor, clerk
):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=900, last_number=901, actor=clerk)
    forms.receive_form_series(pit, first_number=10, last_number=19, actor=clerk)
    numbers = []
    for _ in range(3):
        marker = requested_marker(table, dealer)
        numbers.append(forms.prepare_vigorish_form(marker.pk, actor=clerk).number)
    numbers.append(forms.void_blank_vigorish_form(pit, reason="Smudged.", actor=clerk).number)
    assert numbers == [900, 901, 10, 11]  # the first series used up before the next
    first, second = VigorishFormSeries.objects.order_by("received_at", "pk")
    assert (first.unused, second.unused) == (0, 8)
    used = set(VigorishForm.objects.values_list("number", flat=True))
    unused = set(range(second.next_number, second.last_number + 1))
    assert used | unused == {900, 901, *range(10, 20)} and not used & unused


def test_no_unused_form_is_a_refusal_not_a_gap(db, pit, dealer, floor, clerk):
    table = deferred_table(dealer, floor)
    marker = requested_marker(table, dealer)
    with pytest.raises(ActionError, match="no unused Complimentary Vigorish Form"):
        forms.prepare_vigorish_form(marker.pk, actor=clerk)


def test_an_open_marker_needs_the_dealers_request_and_a_collected_one_no_form(
    db, pit, dealer, floor, clerk
):
    from tests.tablegame.conftest import play

    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    play(table, dealer, [(2, "banker", "100")], ["4H", "9C", "2S", "KS"])
    marker = table.markers.get()
    with pytest.raises(ActionError, match="still on the layout"):
        forms.prepare_vigorish_form(marker.pk, actor=clerk)
    actions.collect_marker(table, marker_id=marker.pk, actor=dealer)
    with pytest.raises(ActionError, match="no form is needed"):
        forms.prepare_vigorish_form(marker.pk, actor=clerk)
    assert VigorishFormSeries.objects.get().next_number == 1


def test_a_marker_goes_on_one_form(db, pit, dealer, floor, clerk):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    marker = requested_marker(table, dealer)
    forms.prepare_vigorish_form(marker.pk, actor=clerk)
    with pytest.raises(ActionError, match="already on form 000001"):
        forms.prepare_vigorish_form(marker.pk, actor=clerk)


def test_dealer_pit_boss_and_clerk_sign_each_for_themselves(db, pit, dealer, floor, clerk, boss):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    form = forms.prepare_vigorish_form(requested_marker(table, dealer).pk, actor=clerk)
    with pytest.raises(NotAllowed):
        forms.sign_vigorish_form(form.pk, actor=floor)  # a floorperson is not on the form
    forms.sign_vigorish_form(form.pk, actor=dealer)
    with pytest.raises(ActionError, match="signed by dealer already as dealer"):
        forms.sign_vigorish_form(form.pk, actor=person("relief", roles.DEALER))
    forms.sign_vigorish_form(form.pk, actor=boss)
    forms.sign_vigorish_form(form.pk, actor=clerk)
    form.refresh_from_db()
    assert (form.dealer, form.pit_boss, form.clerk) == (dealer, boss, clerk)
    assert form.status == VigorishForm.Status.PREPARED  # the patron's part is still missing
    with pytest.raises(ActionError, match="not complete"):
        forms.deposit_vigorish_form(form.pk, actor=dealer)


def test_the_dealer_who_dealt_the_table_signs_and_a_dealer_of_another_table_is_refused(
    db, pit, dealer, floor, clerk, staff
):
    table = deferred_table(dealer, floor)  # s42-mini, dealt by the demo's dealer
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    form = forms.prepare_vigorish_form(requested_marker(table, dealer).pk, actor=clerk)
    other = staff["dealer2"]  # the demo's dealer at MB-2
    with pytest.raises(ActionError, match=r"is for MB-3: the dealer who dealt it signs \(dealer\)"):
        forms.sign_vigorish_form(form.pk, actor=other)
    relief = person("relief", roles.DEALER)  # a dealer assigned to no table at all
    with pytest.raises(ActionError, match=r"the dealer who dealt it signs \(dealer\)"):
        forms.sign_vigorish_form(form.pk, actor=relief)
    assert VigorishForm.objects.get(pk=form.pk).dealer is None
    relieve_dealer(table, actor=floor)  # a break: the dealer who dealt it still signs
    forms.sign_vigorish_form(form.pk, actor=dealer)
    assert VigorishForm.objects.get(pk=form.pk).dealer == dealer


def test_a_relief_dealer_assigned_after_the_marker_may_sign_for_the_table(
    db, pit, dealer, floor, clerk
):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    form = forms.prepare_vigorish_form(requested_marker(table, dealer).pk, actor=clerk)
    relief = person("relief", roles.DEALER)
    relieve_dealer(table, actor=floor)
    assign_dealer(table, dealer=relief, actor=floor)
    forms.sign_vigorish_form(form.pk, actor=relief)
    assert VigorishForm.objects.get(pk=form.pk).dealer == relief


def test_the_patron_signs_or_a_statement_says_why_not(db, pit, dealer, floor, clerk, boss):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    form = forms.prepare_vigorish_form(requested_marker(table, dealer).pk, actor=clerk)
    with pytest.raises(ActionError, match="Either the patron signs"):
        forms.record_patron_signature(form.pk, actor=boss)
    with pytest.raises(ActionError, match="Either the patron signs"):
        forms.record_patron_signature(form.pk, signature="Ana", statement="Left", actor=boss)
    with pytest.raises(NotAllowed):
        forms.record_patron_signature(form.pk, statement="Left.", actor=clerk)
    forms.record_patron_signature(form.pk, statement="Left before the shoe ended.", actor=boss)
    form.refresh_from_db()
    assert (form.no_signature_statement, form.patron_part_by) == (
        "Left before the shoe ended.",
        boss,
    )


def test_the_dealer_who_signed_deposits_before_the_pit_boss_and_clerk_who_signed(
    db, pit, dealer, floor, clerk, boss
):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    form = signed_form(table, dealer, boss, clerk, pit)
    assert form.status == VigorishForm.Status.SIGNED
    with pytest.raises(ActionError, match="not deposited yet"):
        forms.witness_vigorish_deposit(form.pk, actor=boss)
    with pytest.raises(ActionError, match="The dealer who signed"):
        forms.deposit_vigorish_form(form.pk, actor=person("relief", roles.DEALER))
    forms.deposit_vigorish_form(form.pk, actor=dealer)
    with pytest.raises(ActionError, match="pit boss who signed"):
        forms.witness_vigorish_deposit(form.pk, actor=person("boss2", roles.PIT_BOSS))
    with pytest.raises(NotAllowed):
        forms.witness_vigorish_deposit(form.pk, actor=dealer)
    forms.witness_vigorish_deposit(form.pk, actor=boss)
    form.refresh_from_db()
    assert form.status == VigorishForm.Status.SIGNED  # the clerk has not confirmed yet
    forms.witness_vigorish_deposit(form.pk, actor=clerk)
    form.refresh_from_db()
    assert form.status == VigorishForm.Status.DEPOSITED
    assert form.deposited_by == dealer and form.deposit_pit_boss_at and form.deposit_clerk_at
    with pytest.raises(ActionError, match="in the drop box"):
        forms.void_vigorish_form(form.pk, reason="Oops.", actor=clerk)


def test_a_void_form_is_signed_by_clerk_and_pit_boss_and_its_marker_gets_the_next_form(
    db, pit, dealer, floor, clerk, boss
):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    marker = requested_marker(table, dealer)
    form = forms.prepare_vigorish_form(marker.pk, actor=clerk)
    with pytest.raises(NotAllowed):
        forms.void_vigorish_form(form.pk, reason="Wrong amount.", actor=boss)
    forms.void_vigorish_form(form.pk, reason="Wrong amount written.", actor=clerk)
    with pytest.raises(NotAllowed):
        forms.sign_void_vigorish_form(form.pk, actor=clerk)
    forms.sign_void_vigorish_form(form.pk, actor=boss)
    form.refresh_from_db()
    assert form.is_void and form.void_complete and form.voided_by == clerk
    with pytest.raises(ActionError, match="is VOID"):
        forms.sign_vigorish_form(form.pk, actor=dealer)
    again = forms.prepare_vigorish_form(marker.pk, actor=clerk)
    assert again.number == 2  # VOID keeps number 1: no gap, no reuse
    assert VigorishForm.objects.filter(number=1, status="void").exists()


def test_duplicates_go_to_accounting_only_when_every_form_of_the_day_is_done(
    db, pit, dealer, floor, clerk, boss
):
    table = deferred_table(dealer, floor)
    forms.receive_form_series(pit, first_number=1, last_number=9, actor=clerk)
    done = signed_form(table, dealer, boss, clerk, pit)
    spoiled = forms.void_blank_vigorish_form(pit, reason="Torn.", actor=clerk)
    with pytest.raises(ActionError, match="000001, 000002 must be deposited"):
        forms.forward_vigorish_duplicates(pit, actor=clerk)
    forms.deposit_vigorish_form(done.pk, actor=dealer)
    forms.witness_vigorish_deposit(done.pk, actor=boss)
    forms.witness_vigorish_deposit(done.pk, actor=clerk)
    forms.sign_void_vigorish_form(spoiled.pk, actor=boss)
    with pytest.raises(NotAllowed):
        forms.forward_vigorish_duplicates(pit, actor=boss)
    sent = forms.forward_vigorish_duplicates(pit, actor=clerk)
    assert [f.printed_number for f in sent] == ["000001", "000002"]
    assert all(f.forwarded_by == clerk for f in VigorishForm.objects.all())
    event = Event.objects.filter(action="vigorish_duplicates_forwarded").get()
    assert event.data["total"] == "5.00" and event.data["numbers"] == ["000001", "000002"]
    with pytest.raises(ActionError, match="No form of gaming day"):
        forms.forward_vigorish_duplicates(pit, actor=clerk)


def test_every_open_marker_is_collected_or_documented_before_the_shoe_ends_or_the_patron_leaves(
    db, dealer, floor
):
    from tests.tablegame.conftest import play

    table = deferred_table(dealer, floor)
    play(table, dealer, [(2, "banker", "100")], ["4H", "9C", "2S", "KS"])
    with pytest.raises(ActionError, match="Vigorish is still marked at seat 2"):
        actions.leave_seat(table, seat=2, actor=dealer)
    with pytest.raises(ActionError, match="Vigorish is still marked at seat 2"):
        actions.end_shoe(table, actor=dealer)
    marker = table.markers.get()
    actions.request_vigorish_form(table, marker_id=marker.pk, reason="Left.", actor=dealer)
    actions.leave_seat(table, seat=2, actor=dealer)
    actions.end_shoe(table, actor=dealer)
