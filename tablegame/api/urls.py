"""``/api/``: tables by id, and one POST endpoint per action with its input and key rule.

``key``: the command must carry an ``Idempotency-Key`` header (every command accepts one).
"""

from __future__ import annotations

from typing import TypedDict

from django.urls import include, path

from tablegame import actions as a
from tablegame.api import serializers as s
from tablegame.api.corrections import CorrectCard
from tablegame.api.tablet import tablet_view
from tablegame.api.views import RecentPlayersRead, TableDetail, TableList, action_name, command
from tablegame.api.voids import VoidRound

app_name = "api"


class _Key(TypedDict):
    """``command(..., **KEY)``: the command must carry an ``Idempotency-Key``."""

    key_required: bool


KEY: _Key = {"key_required": True}

COMMANDS = [
    ("open/", command(a.open_table)),
    ("close/", command(a.close_table)),
    ("seats/<int:seat>/sit/", command(a.seat_player, s.SitInput)),
    ("seats/<int:seat>/leave/", command(a.leave_seat)),
    ("rules/", command(a.file_rules, s.RulesInput)),
    ("limits/", command(a.set_limit, s.LimitInput)),
    ("shoe/receive/", command(a.receive_decks, s.ReceiveDecksInput)),
    ("shoe/inspect/", command(a.inspect_decks)),
    ("shoe/verify/", command(a.verify_inspection)),
    ("shoe/spread/", command(a.spread_decks)),
    ("shoe/wash/", command(a.wash_decks)),
    ("shoe/shuffle/", command(a.shuffle_decks, s.ShuffleInput)),
    ("shoe/verify-shuffle/", command(a.verify_shuffle)),
    ("shoe/respread/", command(a.respread_idle_shoe, s.RespreadInput)),
    ("shoe/cut/", command(a.cut_cards, s.CutInput)),
    ("shoe/recut/", command(a.order_recut, s.ReasonInput)),
    ("shoe/burn/", command(a.burn_cards, s.BurnInput)),
    ("shoe/cut-card/", command(a.cut_card_out)),
    ("shoe/end/", command(a.end_shoe)),
    ("curator/", command(a.take_shoe, s.CuratorInput)),
    ("curator/pass/", command(a.pass_shoe, s.PassShoeInput)),
    ("player-dealer/", command(a.take_player_dealer, s.PlayerDealerInput)),
    ("round/open/", command(a.open_round)),
    ("round/wagers/", command(a.place_wager, s.WagerInput, **KEY)),
    ("round/wagers/withdraw/", command(a.withdraw_wager, s.WithdrawInput, **KEY)),
    ("round/player-dealer-bank/", command(a.set_player_dealer_bank, s.BankInput, **KEY)),
    ("round/no-more-bets/", command(a.no_more_bets, **KEY)),
    ("round/cards/", command(a.deal_card, s.CardInput, **KEY)),
    ("round/corrections/", CorrectCard.as_view()),
    ("round/relinquish/", command(a.relinquish_cards, s.RelinquishInput, **KEY)),
    ("round/house-money/", command(a.settle_house_money_wagers, s.HouseMoneyInput, **KEY)),
    ("round/settle/", command(a.settle_round, **KEY)),
    ("round/void/", VoidRound.as_view()),
    ("round/irregularities/", command(a.report_irregularity, s.IrregularityInput, **KEY)),
    ("markers/<int:marker_id>/collect/", command(a.collect_marker)),
    ("markers/<int:marker_id>/form/", command(a.request_vigorish_form, s.ReasonInput)),
]

#: The taps of every round, matched first (in the order of ``COMMANDS``): Django tries a
#: table's routes in order.
ROUND_TAPS = (
    "round/cards/",
    "round/wagers/",
    "round/no-more-bets/",
    "round/open/",
    "round/settle/",
)

urlpatterns = [
    path("tables/", TableList.as_view(), name="tables"),
    # One table's URLs under one prefix: a tap's path is matched against its table's routes only.
    path(
        "tables/<int:table_id>/",
        include(
            [
                *(
                    path(route, tablet_view(view), name=action_name(view))
                    for route, view in sorted(COMMANDS, key=lambda c: c[0] not in ROUND_TAPS)
                ),
                path("", TableDetail.as_view(), name="table"),
                path("players/recent/", RecentPlayersRead.as_view(), name="recent_players"),
            ]
        ),
    ),
]
