"""Tables, seats, shoes, rounds, wagers, settlements and vigorish markers."""

from tablegame.models.rounds import Card, Irregularity, Round, SettlementStep, Wager
from tablegame.models.shoes import DeckChange, Shoe
from tablegame.models.tables import Seat, Table, TableLimit, TableRules, profile_choices
from tablegame.models.vigorish import (
    CommandRecord,
    ProgressiveMeter,
    TableSnapshot,
    VigorishMarker,
)

__all__ = [
    "Card",
    "CommandRecord",
    "DeckChange",
    "Irregularity",
    "ProgressiveMeter",
    "Round",
    "Seat",
    "SettlementStep",
    "Shoe",
    "Table",
    "TableLimit",
    "TableRules",
    "TableSnapshot",
    "VigorishMarker",
    "Wager",
    "profile_choices",
]
