"""The supervisor's approval on the tablet is no password oracle and no way to lock them out:
every refusal is the same JSON, counted apart from sign-ins, and kept in the failure log."""

from __future__ import annotations

from axes.models import AccessAttempt, AccessFailureLog
from django.test import Client
from pytest_django import Settings

from tablegame.api.approvals import TOO_MANY_REFUSALS, WRONG_APPROVAL
from tablegame.models import Table
from tests.api.conftest import Tablet

APPROVED = {"reason": "Shoe damaged", "floorperson": "floor", "password": "baccarat"}


def deal_a_card(tablet: Tablet, table: Table) -> None:
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    tablet.do(table, "round/cards/", {"card": "4H"})


def test_unknown_user_wrong_password_and_dealer_get_the_same_json_refusal(
    tablet: Tablet, mini: Table
) -> None:
    deal_a_card(tablet, mini)
    answers = [
        tablet.post(mini, "round/void/", APPROVED | wrong)
        for wrong in (
            {"floorperson": "nobody"},
            {"password": "guess"},
            {"floorperson": "dealer2"},
        )
    ]
    assert {(a.status_code, a["Content-Type"], a.content) for a in answers} == {
        (403, "application/json", f'{{"error":"{WRONG_APPROVAL}"}}'.encode())
    }
    kept = AccessFailureLog.objects.filter(path_info=f"/api/tables/{mini.pk}/round/void/")
    assert sorted(kept.values_list("username", flat=True)) == ["dealer2", "floor", "nobody"]


def test_refused_approvals_stop_at_the_tablet_and_never_lock_the_supervisors_sign_in(
    tablet: Tablet, mini: Table, settings: Settings
) -> None:
    settings.APPROVAL_REFUSALS_BEFORE_LOCKOUT = 6
    deal_a_card(tablet, mini)
    for _ in range(6):
        refused = tablet.post(mini, "round/void/", APPROVED | {"password": "guess"})
        assert refused.status_code == 403
    stopped = tablet.post(mini, "round/void/", APPROVED)  # even the right password, now
    assert (stopped.status_code, stopped.json()) == (429, {"error": TOO_MANY_REFUSALS})
    assert stopped["Retry-After"] == "900"
    assert not AccessAttempt.objects.exists()  # nothing counted against a sign-in
    signed_in = Client().post("/login/", {"username": "floor", "password": "baccarat"})
    assert signed_in.status_code == 302
