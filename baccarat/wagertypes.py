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
