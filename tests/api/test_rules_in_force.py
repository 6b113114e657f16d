"""Rules filed for later, as the dealer's tablet sees them: the table state read after their time
shows them with no new event, and the first command after it deals under them and tells the
screens (issue 27)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal
from unittest import mock

from django.utils import timezone

from casino.models import Event
from tablegame import actions
from tablegame.models import Table
from tests.api.conftest import Tablet


def commission_for_later(table: Table, floor) -> datetime.datetime:
    """4 % commission filed at an open table, from 31 minutes on (surveillance's notice)."""
    when = timezone.now() + datetime.timedelta(minutes=31)
    actions.file_rules(
        table,
        profile="ma-mini",
        options={"commission_rate": "0.04"},
        effective_at=when,
        actor=floor,
    )
    return when


def test_the_table_state_shows_the_rules_in_force_once_their_time_has_come(
    tablet_for: Callable[[str], Tablet], mini: Table, floor
):
    when = commission_for_later(mini, floor)
    before = tablet_for("dealer").state(mini)
    assert before["rules"]["commission_rate"] == "0.05"
    assert before["rules"]["changes_at"] == when.isoformat()
    with mock.patch("django.utils.timezone.now", return_value=when):
        after = tablet_for("dealer").state(mini)  # a screen that joins, or reads again
    assert after["sequence"] == before["sequence"]  # no event since
    assert after["rules"]["commission_rate"] == "0.04"
    assert after["rules"]["changes_at"] is None


def test_the_first_command_after_their_time_deals_under_them_and_tells_the_screens(
    tablet_for: Callable[[str], Tablet], mini: Table, floor
):
    when = commission_for_later(mini, floor)
    shown = tablet_for("dealer").state(mini)
    with mock.patch("django.utils.timezone.now", return_value=when + datetime.timedelta(seconds=1)):
        tablet = tablet_for("dealer")
        tablet.kept[mini.pk] = shown  # the tablet as it was drawn before
        # ``do`` checks that the answer leaves the tablet as the whole state would.
        state = tablet.do(mini, "round/open/")
        game = mini.active_round()
        assert game is not None
        assert game.rules.submission.commission_rate == Decimal("0.04")
    assert state["rules"]["commission_rate"] == "0.04"
    told = Event.objects.filter(chain=mini.chain).order_by("-sequence")[:2]
    assert [e.action for e in told] == ["round_opened", "rules_in_force"]
    assert told[1].actor is None and told[1].data["options"] == {"commission_rate": "0.04"}
