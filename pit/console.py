"""A pit console tile as data: what it shows of a table's state, and which of its parts show.

The console (``/floor/``) draws each tile once from the server (``templates/pit/_floor_tile.html``)
and then keeps it current from the table's notices alone (``static/js/floor.js``): a notice carries
the parts of the table state its command changed (``tablegame.selectors.command_answer``), and the
tile keeps the few of their fields it shows (:func:`tile_state`, the same names as those parts).
Which buttons, alerts and lines a tile shows follows from that state through :data:`SHOWN_WHEN`,
which the page embeds, so the server's first drawing and the script's later ones decide alike
(``tests/browser/test_floor_console_live.py`` compares a patched tile with a fresh one).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tablegame.models import Round, Shoe, Table
from tablegame.models.rounds import ACTIVE_ROUND_STATES

#: Each state-dependent part of a tile (``data-when`` in the template) and the facts it needs:
#: every fact named must have one of the values listed (``None``: no shoe, no round in play).
SHOWN_WHEN: dict[str, dict[str, list[Any]]] = {
    "open": {"status": ["open"]},
    "closed": {"status": ["closed"]},
    "verify_inspection": {"needs": ["verify_inspection"]},
    "verify_shuffle": {"needs": ["verify_shuffle"]},
    "void": {"round": [Round.State.DEALING.value, Round.State.HOUSE_MONEY.value]},
    "recut": {"shoe": [Shoe.State.CUT.value]},
    "relinquish": {"round": [Round.State.DEALING.value]},
    "respread": {"shoe": [Shoe.State.IN_PLAY.value], "round": [None]},
    "pass": {"curator": [True], "round": [None, Round.State.BETTING.value]},
    "between_rounds": {"round": [None]},
    "decks_due": {"decks_due": [True]},
    "cut_card": {"cut_card": [True]},
    "markers": {"markers": [True]},
    "attention": {"attention": [True]},
}


def tile_state(
    table: Table,
    *,
    shoe: Shoe | None,
    game: Round | None,
    markers: int,
    markers_total: Decimal,
    decks_due: bool,
    players: list[dict[str, Any]],
) -> dict[str, Any]:
    """What the tile shows of the table, as plain JSON under the names of the table state's
    parts (``table``, ``shoe``, ``round``, ``markers``, ``seats``); ``players`` are the occupied
    seats as the table state has them (``Seat.as_data``), in order."""
    return {
        "status": table.status,
        "curator_seat": table.curator_seat,
        "player_dealer_seat": table.player_dealer_seat,
        "shoe": None
        if shoe is None
        else {
            "number": shoe.number,
            "state": shoe.state,
            "state_label": shoe.get_state_display(),
            "cut_card_round": shoe.cut_card_round,
            "needs_shuffle_verification": "feather" in shoe.shuffle
            and shoe.shuffle_verified_by_id is None,
        },
        "round": None
        if game is None
        else {"number": game.number, "state": game.state, "state_label": game.get_state_display()},
        "markers": {"count": markers, "total": str(markers_total)},
        "decks_due": decks_due,
        "seated": [seat["number"] for seat in players],
        "players": players,
    }


def facts(state: dict[str, Any]) -> dict[str, Any]:
    """The facts :data:`SHOWN_WHEN` asks about (``floor.js`` derives them the same way)."""
    shoe, game = state["shoe"], state["round"]
    needs = None
    if shoe and shoe["state"] == Shoe.State.INSPECTED:
        needs = "verify_inspection"
    elif shoe and shoe["state"] == Shoe.State.SHUFFLED and shoe["needs_shuffle_verification"]:
        needs = "verify_shuffle"
    found = {
        "status": state["status"],
        "shoe": shoe["state"] if shoe else None,
        "round": game["state"] if game else None,
        "needs": needs,
        "curator": state["curator_seat"] is not None,
        "decks_due": bool(state["decks_due"]),
        "cut_card": bool(shoe and shoe["cut_card_round"]),
        "markers": state["markers"]["count"] > 0,
    }
    found["attention"] = bool(needs or found["decks_due"] or found["cut_card"] or found["markers"])
    return found


def shown(state: dict[str, Any]) -> dict[str, bool]:
    """Which of the tile's parts show for this state."""
    known = facts(state)
    return {
        part: all(known[fact] in values for fact, values in needs.items())
        for part, needs in SHOWN_WHEN.items()
    }


#: What ``floor.js`` needs to draw a tile as the server does (embedded in the console page).
TILES: dict[str, Any] = {
    "when": SHOWN_WHEN,
    "active_rounds": list(ACTIVE_ROUND_STATES),
    "status_labels": dict(Table.Status.choices),
}
