"""Every wager, settlement step and irregularity has one label, defined in the engine."""

from __future__ import annotations

import enum

import pytest

from baccarat.irregularities import Disposition, IrregularityKind
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType


@pytest.mark.parametrize("kind", [WagerType, Action, IrregularityKind, Disposition])
def test_every_member_has_a_label_of_its_own(kind: type[enum.Enum]) -> None:
    labels = [member.label for member in kind]  # type: ignore[attr-defined]
    assert all(labels)
    assert len(set(labels)) == len(labels)


def test_the_labels_read_as_on_the_layout_and_in_the_settlement() -> None:
    assert WagerType.DRAGON_BONUS_PLAYER.label == "Dragon Bonus on Player"
    assert WagerType.ROYAL9.label == "Royal 9 Progressive"
    assert Action.COLLECT_VIGORISH.label == "Collect commission"
    assert Action.RIDE.label == "Let ride"
    assert IrregularityKind.CARD_FACE_UP.label == "card found face up"
    assert Disposition.BANKER_THIRD.label == "it becomes the Banker's third card"
