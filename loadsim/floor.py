"""The simulated floor in the database: its casino, pits, tables and staff, and where tables stand.

Everything here is synchronous ORM code, run before the bots start (or in a worker thread). The
floor is made once and reused: running the simulation again with more tables adds the missing
ones, so a sweep pays for setting up a table only the first time.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, TypeVar
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.crypto import get_random_string

from baccarat.profiles import PROFILES, TableType
from casino import roles
from casino.models import Casino, Event, Pit, PitSupervision
from casino.sessions import SessionStore
from tablegame.api.tokens import issue_api_token, issue_api_tokens
from tablegame.models import DealerAssignment, Round, Shoe, Table, VigorishMarker

T = TypeVar("T")

SIM_CASINO = "Simulated Floor"

#: The simulation's staff: username -> role, and a dealer per table (``dealer_name``), assigned
#: to it. They have no password: the bots use API tokens and session keys made here, never the
#: login page.
SIM_STAFF: dict[str, str] = {
    "sim-floor": roles.FLOORPERSON,
    "sim-surveillance": roles.SURVEILLANCE,
    "sim-accounting": roles.ACCOUNTING,
}


def pit_floorperson(index: int) -> str:
    """The floorperson who supervises the simulated pit ``index`` (``pit_name``): their pit
    console and progressives page show that pit."""
    return f"sim-floor-{index + 1:02d}"


@dataclass(frozen=True)
class SimTable:
    """A table of the simulated floor."""

    id: int
    name: str
    pit_id: int
    chain_id: int
    profile: str
    seat_count: int
    dealer: str
    """The username of the table's dealer, assigned to it (``dealer_name``)."""

    @property
    def progressives(self) -> bool:
        """Whether its screens show progressive meters: Royal 9's (the simulated floor links
        no must-hit meter)."""
        return PROFILES[self.profile].royal9 is not None


@dataclass(frozen=True)
class Staff:
    """How the bots and screens authenticate: API tokens and session keys by username."""

    tokens: dict[str, str]
    sessions: dict[str, str]


@dataclass(frozen=True)
class Floor:
    tables: tuple[SimTable, ...]
    pits: tuple[int, ...]
    """In the floor's order: pit ``i`` is supervised by ``pit_floorperson(i)``."""
    staff: Staff
    casino_id: int


def pit_name(index: int) -> str:
    return f"Sim Pit {index + 1:02d}"


def table_name(index: int, profile: str) -> str:
    """``MB-0001`` for a mini table, ``BB-0003`` for a big one, numbered across the floor."""
    prefix = "BB" if PROFILES[profile].table_type is TableType.BIG else "MB"
    return f"{prefix}-{index + 1:04d}"


#: The profiles in the order the floor's tables take them: a big table (with its curator) and a
#: California table (with its player-dealer) come first, so even two tables deal both.
FLOOR_ORDER = (
    "ma-big",
    "ca-commission-free",
    "ma-mini",
    "s42-mini",
    "mini-pairs",
    "ma-mini-ez",
    "s42-mini-4",
    "ma-big-ez",
    "s42-mini-tievig",
    "s42-mini-nocommission",
)


def dealer_name(table: str) -> str:
    """The simulated dealer of a table: ``sim-dealer-mb-0001`` deals ``MB-0001``."""
    return f"sim-dealer-{table.lower()}"


def profile_of(index: int) -> str:
    """Every bundled profile in turn, so any run of a few tables deals several kinds of game."""
    names = [n for n in FLOOR_ORDER if n in PROFILES]
    names += [n for n in PROFILES if n not in names]
    return names[index % len(names)]


@transaction.atomic
def prepare_floor(count: int, *, tables_per_pit: int, casino_name: str = SIM_CASINO) -> Floor:
    """The first ``count`` tables of the simulated floor (made if missing) and its staff, in
    the casino named ``casino_name`` (a run's own gaming day: a casino of its own)."""
    if count < 1 or tables_per_pit < 1:
        raise ValueError("The floor needs at least one table and one table per pit.")
    casino, _ = Casino.objects.get_or_create(name=casino_name)
    pits: list[Pit] = []
    for p in range((count + tables_per_pit - 1) // tables_per_pit):
        pit, _ = Pit.objects.get_or_create(casino=casino, name=pit_name(p))
        pits.append(pit)
    existing = {
        (t.pit_id, t.name): t for t in Table.objects.filter(pit__in=pits).select_related("pit")
    }
    tables: list[SimTable] = []
    for i in range(count):
        pit = pits[i // tables_per_pit]
        profile = profile_of(i)
        name = table_name(i, profile)
        table = existing.get((pit.pk, name))
        if table is None:
            table = Table(
                pit=pit, name=name, profile=profile, seat_count=PROFILES[profile].max_seats
            )
            table.full_clean()
            table.save()
        tables.append(
            SimTable(
                id=table.pk,
                name=table.name,
                pit_id=pit.pk,
                chain_id=table.chain_id,
                profile=table.profile,
                seat_count=table.seat_count,
                dealer=dealer_name(table.name),
            )
        )
    return Floor(
        tables=tuple(tables),
        pits=tuple(p.pk for p in pits),
        staff=_staff(tables, pits),
        casino_id=casino.pk,
    )


def _staff(tables: list[SimTable], pits: list[Pit]) -> Staff:
    tokens: dict[str, str] = {}
    sessions: dict[str, str] = {}
    for username, role in SIM_STAFF.items():
        user, made = User.objects.get_or_create(username=username)
        if made:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
        tokens[username] = issue_api_token(user, days=1, label="simulate")[1]
        sessions[username] = _session_for(user)
    floor = User.objects.get(username="sim-floor")
    dealers = _assign_dealers(tables, floor=floor)
    keys = issue_api_tokens(dealers, days=1, label="simulate")
    tokens.update((dealer.username, keys[dealer.pk]) for dealer in dealers)
    sessions.update(_sessions_for(dealers))
    supervisors = _supervise(pits, floor=floor)
    sessions.update(_sessions_for(supervisors))
    return Staff(tokens=tokens, sessions=sessions)


def _people(usernames: Iterable[str], role: str) -> dict[str, User]:
    """The simulated staff of these names, with ``role``, by username: made in bulk where
    missing, with no password."""
    names = set(usernames)
    found = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    unusable = make_password(None)
    User.objects.bulk_create([User(username=n, password=unusable) for n in names - found])
    users = {u.username: u for u in User.objects.filter(username__in=names)}
    group, _ = Group.objects.get_or_create(name=role)
    member = User.groups.through
    member.objects.bulk_create(
        [member(user_id=u.pk, group_id=group.pk) for u in users.values()], ignore_conflicts=True
    )
    return users


def _supervise(pits: list[Pit], *, floor: User) -> list[User]:
    """A floorperson per pit (``pit_floorperson``), supervising it, as a floor starts its day:
    made and given their pit in bulk (the supervision rows only: ``casino.supervision``'s
    ``supervise`` writes the pit's event too; a simulated floor does without it)."""
    names = {pit.pk: pit_floorperson(index) for index, pit in enumerate(pits)}
    users = _people(names.values(), roles.FLOORPERSON)
    wanted = {(pit_id, name) for pit_id, name in names.items()}
    theirs = PitSupervision.objects.current().filter(supervisor__in=users.values())
    stray = [
        s.pk
        for s in theirs.select_related("supervisor")
        if (s.pit_id, s.supervisor.username) not in wanted
    ]
    theirs.filter(pk__in=stray).update(relieved_at=timezone.now(), relieved_by=floor)
    current = set(
        PitSupervision.objects.current()
        .filter(pit_id__in=names)
        .values_list("pit_id", "supervisor__username")
    )
    PitSupervision.objects.bulk_create(
        [
            PitSupervision(pit_id=pit_id, supervisor=users[name], assigned_by=floor)
            for pit_id, name in names.items()
            if (pit_id, name) not in current
        ]
    )
    return [users[names[pit.pk]] for pit in pits]


def _assign_dealers(tables: list[SimTable], *, floor: User) -> list[User]:
    """A dealer per table, assigned to it by the simulated floorperson, as a floor starts its
    day: made and assigned in bulk, a few statements for hundreds of tables (the assignment
    rows only: the floor's ``assign_dealer``, one locked command per table, writes the
    ``dealer_assigned`` event too; a simulated floor does without it)."""
    names = {t.id: t.dealer for t in tables}
    users = _people(names.values(), roles.DEALER)
    wanted = {(table_id, users[name].pk) for table_id, name in names.items()}
    current = DealerAssignment.objects.current().filter(
        Q(table_id__in=names) | Q(dealer__in=users.values())
    )
    kept = {(a.table_id, a.dealer_id): a.pk for a in current}
    stray = [pk for pair, pk in kept.items() if pair not in wanted]
    DealerAssignment.objects.filter(pk__in=stray).update(
        relieved_at=timezone.now(), relieved_by=floor
    )
    DealerAssignment.objects.bulk_create(
        [
            DealerAssignment(table_id=table_id, dealer_id=dealer_id, assigned_by=floor)
            for table_id, dealer_id in sorted(wanted - set(kept))
        ]
    )
    return [users[names[t.id]] for t in tables]


def _sessions_for(users: list[User]) -> dict[str, str]:
    """Logged-in sessions for ``users`` by username, as :func:`_session_for` makes them; with
    the casino's session store, in one INSERT."""
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    if not issubclass(store_class, SessionStore):
        return {user.username: _session_for(user) for user in users}
    model = store_class.get_model_class()
    expires = timezone.now() + datetime.timedelta(seconds=settings.SESSION_COOKIE_AGE)
    made = {
        user.username: model(
            session_key=get_random_string(32, VALID_KEY_CHARS),
            session_data=store_class().encode(_logged_in(user)),
            expire_date=expires,
            user=user,
        )
        for user in users
    }
    model.objects.bulk_create(made.values())
    return {username: row.session_key for username, row in made.items()}


def _logged_in(user: User) -> dict[str, str]:
    return {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: settings.AUTHENTICATION_BACKENDS[0],
        HASH_SESSION_KEY: user.get_session_auth_hash(),
    }


def _session_for(user: User) -> str:
    """A logged-in session for ``user``, as the login page would make it (for the sockets)."""
    engine = import_module(settings.SESSION_ENGINE)
    store = engine.SessionStore()
    store.update(_logged_in(user))
    store.save()
    key: str = store.session_key
    return key


@dataclass(frozen=True)
class ShoeSituation:
    """The table's current shoe, as much as a dealer needs to go on dealing from it."""

    state: str
    decks: int
    remaining: dict[str, int]
    """Unseen cards by code, the cards burned face down among them."""
    burned: int
    cover_from_back: int | None
    cut_card_round: int | None
    rounds: int
    """Rounds dealt from it (the last one's number)."""
    held_card: str

    @property
    def physical_cards_left(self) -> int:
        return sum(self.remaining.values()) - self.burned


@dataclass(frozen=True)
class RoundSituation:
    """The round in play."""

    number: int
    state: str
    cards: tuple[str, ...]
    """In dealing order."""
    house_money: bool
    """A House Money wager is on the layout."""
    bank_set: bool
    """California: the player-dealer's bank is recorded."""


@dataclass(frozen=True)
class Situation:
    """Where a table stands, read from the database when a bot starts or has to start again."""

    is_open: bool
    seats: tuple[int, ...]
    curator_seat: int | None
    previous_curator_seat: int | None
    player_dealer_seat: int | None
    previous_player_dealer_seat: int | None
    player_dealer_hands: int
    shoe: ShoeSituation | None
    round: RoundSituation | None
    open_markers: tuple[int, ...]


def situation(table_id: int) -> Situation:
    """Where the table stands now (a handful of queries; not on any measured path)."""
    table = Table.objects.get(pk=table_id)
    shoe = table.current_shoe()
    game = table.active_round()
    return Situation(
        is_open=table.status == Table.Status.OPEN,
        seats=tuple(sorted(table.occupied_seats())),
        curator_seat=table.curator_seat,
        previous_curator_seat=table.previous_curator_seat,
        player_dealer_seat=table.player_dealer_seat,
        previous_player_dealer_seat=table.previous_player_dealer_seat,
        player_dealer_hands=table.player_dealer_hands,
        shoe=_shoe(shoe) if shoe else None,
        round=_round(game) if game else None,
        open_markers=tuple(
            table.markers.filter(status=VigorishMarker.Status.OPEN).values_list("pk", flat=True)
        ),
    )


def _shoe(shoe: Shoe) -> ShoeSituation:
    return ShoeSituation(
        state=shoe.state,
        decks=shoe.decks,
        remaining=dict(shoe.remaining),
        burned=shoe.burned,
        cover_from_back=shoe.cover_from_back,
        cut_card_round=shoe.cut_card_round,
        rounds=shoe.rounds.aggregate(last=Max("number"))["last"] or 0,
        held_card=shoe.held_card,
    )


def _round(game: Round) -> RoundSituation:
    return RoundSituation(
        number=game.number,
        state=game.state,
        cards=tuple(game.cards.order_by("position").values_list("code", flat=True)),
        house_money=game.wagers.filter(type="house_money").exists(),
        bank_set=bool(game.player_dealer_bank),
    )


def database_url() -> str:
    """This process's database as a URL, for a server that must use the very same one (in
    tests, the test database)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = quote(db.get("USER") or "", safe="")
    password = db.get("PASSWORD") or ""
    login = f"{user}:{quote(password, safe='')}@" if password else f"{user}@" if user else ""
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{login}{host}{port}/{quote(db['NAME'], safe='')}"


def in_thread(work: Callable[..., T], *args: Any) -> T:
    """Run ORM work in a worker thread (the event loop's thread may not), closing the thread's
    connection after it."""
    try:
        return work(*args)
    finally:
        connection.close()


def last_sequences(tables: Iterable[SimTable]) -> dict[int, int]:
    """Each table's last event sequence (0 before its first event)."""
    by_chain = {t.chain_id: t.id for t in tables}
    rows = (
        Event.objects.filter(chain_id__in=by_chain)
        .values("chain_id")
        .annotate(last=Max("sequence"))
        .values_list("chain_id", "last")
    )
    last = dict.fromkeys(by_chain.values(), 0)
    for chain_id, sequence in rows:
        last[by_chain[chain_id]] = sequence
    return last


def events_after(
    tables: Iterable[SimTable], base: dict[int, int], since: datetime.datetime
) -> dict[int, list[tuple[int, str]]]:
    """Each table's events after its ``base`` sequence: (sequence, kind), in order.

    ``since`` (a moment before the first of them) keeps the query to the run's events.
    """
    by_chain = {t.chain_id: t.id for t in tables}
    out: dict[int, list[tuple[int, str]]] = {t: [] for t in by_chain.values()}
    rows = (
        Event.objects.filter(chain_id__in=by_chain, created_at__gte=since)
        .order_by("chain_id", "sequence")
        .values_list("chain_id", "sequence", "action")
    )
    for chain_id, sequence, kind in rows.iterator(chunk_size=5000):
        table_id = by_chain[chain_id]
        if sequence > base[table_id]:
            out[table_id].append((sequence, kind))
    return out
