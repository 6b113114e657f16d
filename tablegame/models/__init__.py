"""Tables, seats, shoes, rounds, wagers, settlements and vigorish markers; and, by name, the
progressives' records (``tablegame.progressives.models``), so that Django registers every model of
the app from here."""

from tablegame.marks.models import TableMark
from tablegame.models.dealers import DealerAssignment
from tablegame.models.notices import ProcedureNotice
from tablegame.models.refusals import TableRefusal
from tablegame.models.rounds import Card, Irregularity, Round, SettlementStep, Wager
from tablegame.models.shoes import DeckChange, Shoe
from tablegame.models.tables import Seat, Table, TableLimit, TableRules, profile_choices
from tablegame.models.tokens import ApiToken
from tablegame.models.vigorish import CommandRecord, TableSnapshot, VigorishMarker
from tablegame.progressives.models import (
    MustHitLink,
    MustHitProgressive,
    MustHitWin,
    ProgressiveEntry,
    ProgressiveMeter,
)
from tablegame.tallies.models import RoundTally, WagerTally
from tablegame.vigorish_forms.models import VigorishForm, VigorishFormSeries

__all__ = [
    "ApiToken",
    "Card",
    "CommandRecord",
    "DealerAssignment",
    "DeckChange",
    "Irregularity",
    "MustHitLink",
    "MustHitProgressive",
    "MustHitWin",
    "ProcedureNotice",
    "ProgressiveEntry",
    "ProgressiveMeter",
    "Round",
    "RoundTally",
    "Seat",
    "SettlementStep",
    "Shoe",
    "Table",
    "TableLimit",
    "TableMark",
    "TableRefusal",
    "TableRules",
    "TableSnapshot",
    "VigorishForm",
    "VigorishFormSeries",
    "VigorishMarker",
    "Wager",
    "WagerTally",
    "profile_choices",
]
