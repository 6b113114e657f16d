"""The wagers of the five texts, by the names the API and the commands use."""

import enum


class WagerType(enum.Enum):
    """A kind of wager. The order of the members is the order of the layout (the three main
    wagers, then the side wagers) and the order a seat's wagers are settled in."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    DRAGON_BONUS_PLAYER = "dragon_bonus_player"
    DRAGON_BONUS_BANKER = "dragon_bonus_banker"
    DRAGON7 = "dragon7"
    PANDA8 = "panda8"
    HOUSE_MONEY = "house_money"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    ROYAL9 = "royal9"

    @property
    def label(self) -> str:
        """The name a dealer reads on the layout: the one label every screen shows."""
        return _LABELS[self]

    @property
    def short_label(self) -> str:
        """The label where a line is narrow (a seat's tile, a settlement step in columns)."""
        return _SHORT_LABELS.get(self, _LABELS[self])

    @property
    def mark(self) -> str:
        """A letter or two for the wager, as on a spot or a narrow seat: P, B, T, D7."""
        return _MARKS[self]

    @property
    def is_main(self) -> bool:
        """Player, Banker or Tie."""
        return self in (WagerType.PLAYER, WagerType.BANKER, WagerType.TIE)


_LABELS = {
    WagerType.PLAYER: "Player",
    WagerType.BANKER: "Banker",
    WagerType.TIE: "Tie",
    WagerType.DRAGON_BONUS_PLAYER: "Dragon Bonus on Player",
    WagerType.DRAGON_BONUS_BANKER: "Dragon Bonus on Banker",
    WagerType.DRAGON7: "Dragon 7",
    WagerType.PANDA8: "Panda 8",
    WagerType.HOUSE_MONEY: "House Money",
    WagerType.PLAYER_PAIR: "Player Pair",
    WagerType.BANKER_PAIR: "Banker Pair",
    WagerType.ROYAL9: "Royal 9 Progressive",
}

_SHORT_LABELS = {
    WagerType.DRAGON_BONUS_PLAYER: "DB Player",
    WagerType.DRAGON_BONUS_BANKER: "DB Banker",
    WagerType.ROYAL9: "Royal 9",
}

_MARKS = {
    WagerType.PLAYER: "P",
    WagerType.BANKER: "B",
    WagerType.TIE: "T",
    WagerType.DRAGON_BONUS_PLAYER: "DBP",
    WagerType.DRAGON_BONUS_BANKER: "DBB",
    WagerType.DRAGON7: "D7",
    WagerType.PANDA8: "P8",
    WagerType.HOUSE_MONEY: "HM",
    WagerType.PLAYER_PAIR: "PP",
    WagerType.BANKER_PAIR: "BP",
    WagerType.ROYAL9: "R9",
}
