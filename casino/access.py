"""Who may see or do what: the one access policy for pages, the API, sockets and buttons.

``decide(user, what)`` answers yes or no with the reason; ``require`` refuses with it. ``what``
names a page (``"page:floor"``), an API read (``"api:table"``) or command
(``"command:deal_card"``), a socket (``"socket:pit"``) or an authority inside an action
(``"authority:void_any_round"``). ``RULES`` is the matrix, as data: the roles that may do each
thing. The administrator (a Django superuser, whatever their groups) is a role of the matrix; so
is ``NO_ROLE``, a logged-in person without a role, who may open only the home page (it tells them
to ask for a role). A visitor who is not logged in may do nothing here.

Views ask through ``page``, the API through its permission class, consumers through ``decide``,
templates through ``may`` (``{% if may.command_open_table %}``), actions through their
decorator (``tablegame.actions.common.action`` asks for ``command:<the action's name>``).
Checks that are not about the role (a floorperson may not verify their own inspection) stay in
the actions.

Each refusal that reaches a person as a 403 (a page, the API, a socket closed with 4403) is kept
in the record of sign-ins and refusals (``casino.refusals``), which surveillance reads; a
decision asked for a button or a template is not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse

from casino import roles

ADMINISTRATOR = "administrator"
NO_ROLE = "no_role"

#: The columns of the matrix: the six floor roles, the administrator, and a person with no role.
MATRIX_ROLES: tuple[str, ...] = (*roles.ROLES, ADMINISTRATOR, NO_ROLE)

#: How a refusal names the people a thing is for ("Only a floorperson or pit boss may ...").
PEOPLE: Mapping[str, str] = {
    roles.DEALER: "dealer",
    roles.FLOORPERSON: "floorperson",
    roles.PIT_BOSS: "pit boss",
    roles.PIT_CLERK: "pit clerk",
    roles.SURVEILLANCE: "surveillance officer",
    roles.ACCOUNTING: "accountant",
    ADMINISTRATOR: "administrator",
}

LOG_IN = "Log in first."

#: Whoever asks: a user, the anonymous visitor, or nobody (a socket without a session).
Person = User | AnonymousUser | None


@dataclass(frozen=True)
class Rule:
    """Who may do one thing."""

    roles: frozenset[str]
    """The roles allowed (columns of ``MATRIX_ROLES``)."""
    doing: str
    """What it is, after "may": "verify a deck inspection"."""
    refusal: str = ""
    """The refusal, when "Only a ... may <doing>." does not say enough."""

    def reason(self) -> str:
        """Why someone outside ``roles`` is refused."""
        if self.refusal:
            return self.refusal
        if self.roles >= set(roles.ROLES):
            return f"Only casino staff with a role may {self.doing}: ask a pit boss for one."
        who = " or ".join(PEOPLE[role] for role in roles.ROLES if role in self.roles)
        return f"Only a {who} may {self.doing}."


STAFF = frozenset({*roles.ROLES, ADMINISTRATOR})
ANYONE_LOGGED_IN = frozenset({*STAFF, NO_ROLE})
#: The people who look after tables in the pit: floorpersons and pit bosses.
SUPERVISORS = frozenset({roles.FLOORPERSON, roles.PIT_BOSS, ADMINISTRATOR})
#: The people who work a table: its dealer and the supervisors.
TABLE_STAFF = frozenset({roles.DEALER, *SUPERVISORS})
#: The pit console's people: the supervisors and the pit clerk, who keeps the pit's paperwork.
PIT_CONSOLE = frozenset({*SUPERVISORS, roles.PIT_CLERK})
#: Everyone who watches a whole pit: all staff but the dealer, who works one table.
PIT_WATCHERS = STAFF - {roles.DEALER}
#: The surveillance room, and nobody from the gaming operation it watches. Surveillance watches the
#: pit, pit bosses included: a pit boss who could read the wall, search the rounds or review them
#: would see what surveillance sees of his own pit and of himself, so he may not (the
#: administrator, who runs the system and no table, may).
SURVEILLANCE_ROOM = frozenset({roles.SURVEILLANCE, ADMINISTRATOR})
_INDEPENDENT = "the surveillance room is independent of the gaming operation it watches"
#: The accounting department (and the administrator).
ACCOUNTS = frozenset({roles.ACCOUNTING, ADMINISTRATOR})


def _accounts(doing: str) -> Rule:
    return Rule(ACCOUNTS, doing, f"Only accounting may {doing}.")


#: The people of a Complimentary Vigorish Form: the three who sign it, and the floor.
FORM_SIGNERS = frozenset({roles.DEALER, roles.PIT_BOSS, roles.PIT_CLERK})
FORM_PEOPLE = frozenset({*FORM_SIGNERS, roles.FLOORPERSON, ADMINISTRATOR})


def _clerk(doing: str) -> Rule:
    return Rule(frozenset({roles.PIT_CLERK}), doing)


def _table_staff(doing: str) -> Rule:
    return Rule(TABLE_STAFF, doing)


def _supervisors(doing: str) -> Rule:
    return Rule(SUPERVISORS, doing)


def _surveillance(doing: str) -> Rule:
    return Rule(
        SURVEILLANCE_ROOM,
        doing,
        f"Only surveillance may {doing}: {_INDEPENDENT}, pit bosses included.",
    )


#: The matrix. Pages are named after their URL names, API commands after their actions.
RULES: Mapping[str, Rule] = {
    # Pages. Home says who you are and, to a person without a role, to ask for one.
    "page:home": Rule(ANYONE_LOGGED_IN, "open the home page"),
    "page:floor": Rule(PIT_CONSOLE, "open the pit console"),
    "page:dealer": Rule(TABLE_STAFF, "open the dealer's tablet"),
    "page:display": Rule(STAFF, "open a table display"),
    "page:display-roads": Rule(STAFF, "read a table display"),
    "page:surveillance:wall": _surveillance("watch the surveillance wall"),
    "page:surveillance:tile": _surveillance("watch the surveillance wall"),
    "page:surveillance:sequences": _surveillance("watch the surveillance wall"),
    "page:surveillance:rounds": _surveillance("search past rounds"),
    # The round review (tablegame's): surveillance's, and accounting opens, read-only, the
    # reviews its day report links each exception to.
    "page:round-review": Rule(
        SURVEILLANCE_ROOM | ACCOUNTS,
        "review a round from the record",
        "Only surveillance, or accounting from its reports, may review a round from the record: "
        f"{_INDEPENDENT}, pit bosses included.",
    ),
    "page:surveillance:notices": _surveillance("read the notices of procedure changes"),
    "page:surveillance:signins": _surveillance("read the record of sign-ins and refusals"),
    # Game protection (protection/): every table's edges now, a table's over its shoe, alerts.
    "page:protection:floor": _surveillance("watch the tables' edges and alerts"),
    # Players' ratings: the pit live, accounting and marketing per gaming day, surveillance.
    "page:protection:ratings": Rule(
        frozenset({*SUPERVISORS, *SURVEILLANCE_ROOM, *ACCOUNTS}), "read the players' ratings"
    ),
    "page:protection:table": _surveillance("watch a table's edges and alerts"),
    "page:protection:edges": _surveillance("watch a table's edges and alerts"),
    "page:surveillance:significant": _surveillance("read the significant events of the tables"),
    # Notices of a change of shuffle, commission or settlement procedure are written to
    # surveillance, who acknowledge each one.
    "command:acknowledge_procedure_notice": _surveillance(
        "acknowledge a notice of a procedure change"
    ),
    # Django's admin, for the administrator; the admin itself refuses everyone else (its login
    # page says the account may not open it).
    "page:admin": Rule(frozenset({ADMINISTRATOR}), "open the administration"),
    # The API's reads: every role reads the tables, as the display and the sockets do.
    "api:tables": Rule(STAFF, "read the tables"),
    "api:table": Rule(STAFF, "read a table"),
    # Sockets: the live notices of one table, one pit, or the whole floor for surveillance.
    "socket:table": Rule(STAFF, "follow a table live"),
    "socket:pit": Rule(PIT_WATCHERS, "follow a pit live"),
    "socket:surveillance": _surveillance("follow the floor live"),
    # Commands: the table's staff work it; changes of rules and limits, verifications and a
    # recut are a supervisor's (a dealer does not check his own work).
    "command:open_table": _table_staff("open a table"),
    "command:close_table": _table_staff("close a table"),
    "command:seat_player": _table_staff("seat a player"),
    "command:leave_seat": _table_staff("clear a seat"),
    # Who a seated player is (the name or card their ratings go to) is changed by the pit.
    "authority:change_seated_player": _supervisors("change the name or card of a seated player"),
    "api:recent_players": Rule(TABLE_STAFF, "read who sat at a table lately"),
    "command:file_rules": _supervisors("change a table's rules"),
    "command:set_limit": _supervisors("change table limits"),
    "command:set_seat_count": _supervisors("change the number of seats"),
    "command:file_pit_procedure": _supervisors("change the pit's settlement procedure"),
    "page:floor_table_rules": Rule(PIT_CONSOLE, "read a table's Rules Submission"),
    "command:take_shoe": _table_staff("record who holds the shoe"),
    "command:pass_shoe": _table_staff("pass the shoe"),
    "command:take_player_dealer": _table_staff("record the player-dealer"),
    "command:receive_decks": _table_staff("receive decks"),
    "command:set_deck_schedule": _supervisors("change when the decks are changed"),
    "command:inspect_decks": _table_staff("inspect decks"),
    "command:verify_inspection": _supervisors("verify a deck inspection"),
    "command:spread_decks": _table_staff("spread the decks"),
    "command:wash_decks": _table_staff("wash the decks"),
    "command:shuffle_decks": _table_staff("shuffle"),
    "command:verify_shuffle": _supervisors("verify a shuffle"),
    "command:respread_idle_shoe": _table_staff("spread the cards of an idle table"),
    "command:cut_cards": _table_staff("record the cut"),
    "command:order_recut": _supervisors("order a recut"),
    "command:burn_cards": _table_staff("burn cards"),
    "command:end_shoe": _table_staff("end the shoe"),
    "command:cut_card_out": _table_staff("record the cut card"),
    "command:open_round": _table_staff("open a round"),
    "command:place_wager": _table_staff("take wagers"),
    "command:withdraw_wager": _table_staff("take wagers"),
    "command:set_player_dealer_bank": _table_staff("record the player-dealer's bank"),
    "command:no_more_bets": _table_staff("call no more bets"),
    "command:relinquish_cards": _table_staff("record who turns the cards"),
    "command:deal_card": _table_staff("deal cards"),
    "command:correct_card": _table_staff("correct a mis-keyed card"),
    "command:settle_house_money_wagers": _table_staff("settle House Money"),
    "command:settle_round": _table_staff("settle a round"),
    "command:void_round": _table_staff("void a round"),
    "command:report_irregularity": _table_staff("report an irregularity"),
    "command:collect_marker": _table_staff("collect vigorish"),
    "command:request_vigorish_form": _table_staff("request a Complimentary Vigorish Form"),
    # Complimentary Vigorish Forms (002 (c)(3)(iii)): only pit clerks reach unused forms; the
    # dealer, pit boss and clerk each sign on their own screen; the dealer deposits the original
    # before the pit boss and clerk who signed; the clerk forwards the duplicates to accounting.
    "page:vigorish_forms": Rule(FORM_PEOPLE, "open the Complimentary Vigorish Forms"),
    "page:vigorish_form_pdf": Rule(FORM_PEOPLE, "print a Complimentary Vigorish Form"),
    "command:receive_form_series": _clerk("receive a series of Complimentary Vigorish Forms"),
    "command:prepare_vigorish_form": _clerk("prepare a Complimentary Vigorish Form"),
    "command:void_blank_vigorish_form": _clerk("void an unused Complimentary Vigorish Form"),
    "command:sign_vigorish_form": Rule(FORM_SIGNERS, "sign a Complimentary Vigorish Form"),
    "command:record_patron_signature": Rule(
        frozenset({roles.DEALER, roles.PIT_BOSS}), "record the patron's signature or statement"
    ),
    "command:deposit_vigorish_form": Rule(
        frozenset({roles.DEALER}), "deposit a form's original in the drop box"
    ),
    "command:witness_vigorish_deposit": Rule(
        frozenset({roles.PIT_BOSS, roles.PIT_CLERK}), "witness a form's deposit"
    ),
    "command:void_vigorish_form": _clerk("mark a Complimentary Vigorish Form VOID"),
    "command:sign_void_vigorish_form": Rule(
        frozenset({roles.PIT_BOSS}), "sign a VOID Complimentary Vigorish Form"
    ),
    "command:forward_vigorish_duplicates": _clerk("forward form duplicates to accounting"),
    # Progressives (004 §13(i)-(j)): everyone on staff reads the meters (the table display shows
    # them to the players); the floor sets them up and pays must-hit wins.
    "page:progressives": Rule(STAFF, "watch the progressive meters"),
    "page:progressives-state": Rule(STAFF, "watch the progressive meters"),
    "command:set_star_option": _supervisors("change the Star progressive's option"),
    "command:configure_must_hit": _supervisors("set up a must-hit progressive"),
    "command:set_must_hit_configuration": _supervisors("change a must-hit configuration"),
    "command:link_must_hit": _supervisors("link a table to a must-hit progressive"),
    "command:unlink_must_hit": _supervisors("unlink a table from a must-hit progressive"),
    "command:pay_must_hit_win": _supervisors("pay a must-hit progressive win"),
    # Dealers: the floor assigns a dealer to a table and relieves them (tablegame.dealers).
    "page:dealers": Rule(PIT_CONSOLE, "see which dealer works which table"),
    "command:assign_dealer": _supervisors("assign a dealer to a table"),
    "command:relieve_dealer": _supervisors("relieve a dealer"),
    # The console shows a person the pits they supervise (pit.supervision): the floor assigns
    # the console's people to pits on the dealers' page.
    "command:assign_supervisor": _supervisors("assign a person to supervise a pit"),
    "command:relieve_supervisor": _supervisors("relieve a person of a pit"),
    # Alerts of the pit's watch (pit.alerts): the console's people see them; a supervisor
    # acknowledges them.
    "page:alerts": Rule(PIT_CONSOLE, "see the pit's alerts"),
    "command:acknowledge_alert": _supervisors("acknowledge an alert"),
    # Inside an action: a dealer voids a round only when the shoe runs out (000 §13(e)); a
    # supervisor may void it for another reason, or approve the dealer's void at the tablet.
    "authority:void_any_round": _supervisors("void a round while the shoe still holds cards"),
    # California: a supervisor moves the player-dealer position out of its turn, saying why.
    "authority:move_player_dealer": _supervisors("move the player-dealer position out of turn"),
    # A mis-keyed card is corrected on the dealer's tablet with a supervisor's approval.
    "authority:approve_card_correction": _supervisors("approve the correction of a mis-keyed card"),
    # Accounting (issue 13): the reports and the count are the accounting department's; the pit
    # requests fills and credits and counts its trays; reopening a closed day needs a senior person.
    "page:accounting:day": _accounts("read the accounting reports"),
    "page:accounting:day-csv": _accounts("read the accounting reports"),
    "page:accounting:day-pdf": _accounts("read the accounting reports"),
    "page:accounting:master": _accounts("read the accounting reports"),
    # A table's rounds of a gaming day (settled within it), where the report's exceptions lead.
    "page:accounting:rounds": _accounts("read the accounting reports"),
    "page:accounting:close": _accounts("close or reopen a gaming day"),
    "page:accounting:drop": _accounts("enter a drop count"),
    "page:accounting:inventory": Rule(SUPERVISORS | ACCOUNTS, "record a table inventory"),
    "page:accounting:slip": Rule(PIT_CONSOLE | ACCOUNTS, "request a fill or credit"),
    "page:accounting:slip-void": Rule(SUPERVISORS | ACCOUNTS, "void a fill or credit"),
    "authority:witness_slip_void": Rule(SUPERVISORS | ACCOUNTS, "witness a void fill or credit"),
    "authority:count_drop": _accounts("count a drop box"),
    "authority:reopen_gaming_day": Rule(
        frozenset({ADMINISTRATOR}),
        "approve reopening a closed gaming day",
        "Only an administrator, a senior person, may approve reopening a closed gaming day.",
    ),
    # A wrong count is corrected by an amendment (issue 27): accounting makes it on the table's
    # page for the day; a second person approves it: a supervisor of the pit, who signs for its
    # trays, for an opener or closer; the count room (accounting) for a drop, which the pit
    # never touches.
    "page:accounting:table-day": _accounts("read and amend a table's counts"),
    "authority:amend_count": _accounts("amend a recorded count"),
    "authority:approve_inventory_amendment": Rule(
        SUPERVISORS,
        "approve the amendment of a table inventory",
        "Only a floorperson or pit boss, who sign for the trays, may approve the amendment of "
        "a table inventory.",
    ),
    "authority:approve_drop_amendment": Rule(
        ACCOUNTS,
        "approve the amendment of a drop count",
        "Only the count room (accounting) may approve the amendment of a drop count: the pit "
        "does not touch the drop.",
    ),
    # The variance threshold, hold bounds and close delay are accounting's (recorded).
    "page:accounting:settings": _accounts("set accounting's thresholds"),
    "authority:set_accounting_settings": _accounts("set accounting's thresholds"),
}

#: Pages anyone may open, logged in or not: logging in and out, and the API's description.
PUBLIC_PAGES = frozenset({"login", "logout", "schema"})


class UnknownWhat(LookupError):
    """``what`` names nothing in ``RULES``: a typo, or a new page without its rule."""


class Refused(PermissionDenied):
    """The policy said no; ``str(refusal)`` is the reason, shown on the 403 page."""


@dataclass(frozen=True)
class Decision:
    """The policy's answer for one person and one thing."""

    allowed: bool
    reason: str
    """Why not, in words for the person refused; or who may, when allowed."""

    def __bool__(self) -> bool:
        return self.allowed


def rule(what: str) -> Rule:
    """The rule of ``what``; ``UnknownWhat`` if there is none."""
    try:
        return RULES[what]
    except KeyError:
        raise UnknownWhat(f"No access rule for {what!r}: add it to casino.access.RULES.") from None


def matrix_role(user: Person) -> str | None:
    """The user's column of the matrix: administrator, a floor role, or ``NO_ROLE``; None when not
    logged in. Read once per user object (a request's user asks many times)."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return ADMINISTRATOR
    return floor_role(user) or NO_ROLE


#: Where ``floor_role`` remembers a user's role on the user object (one query per request).
_ROLE_CACHE = "_casino_role"


def floor_role(user: Person) -> str | None:
    """``roles.role_of``, remembered on the user object."""
    if user is None or not user.is_authenticated:
        return None
    if hasattr(user, _ROLE_CACHE):
        known: str | None = getattr(user, _ROLE_CACHE)
        return known
    known = roles.role_of(user)
    setattr(user, _ROLE_CACHE, known)
    return known


def remember_role(user: Person, role: str | None) -> None:
    """The user's role, read with the user (``roles.role_sql``): ``floor_role`` asks no more."""
    setattr(user, _ROLE_CACHE, role)


def decide(user: Person, what: str) -> Decision:
    """May ``user`` do ``what``? Yes or no, with the reason."""
    wanted = rule(what)
    role = matrix_role(user)
    if role is None:
        return Decision(False, LOG_IN)
    if role not in wanted.roles:
        return Decision(False, wanted.reason())
    who = "Anyone logged in" if role == NO_ROLE else f"A {PEOPLE[role]}"
    return Decision(True, f"{who} may {wanted.doing}.")


def require(user: Person, what: str) -> None:
    """Refuse (``Refused``, a 403 with the reason) unless ``user`` may do ``what``."""
    decision = decide(user, what)
    if not decision.allowed:
        raise Refused(decision.reason)


View = Callable[..., HttpResponse]


def page(what: str, *, json: bool = False) -> Callable[[View], View]:
    """A view for those the policy allows ``what``: a visitor is sent to log in; anyone else
    refused gets the 403 page with the reason (``json``: ``{"error": reason}``, for scripts)."""
    rule(what)  # a page without its rule fails when its module is imported

    def decorate(view: View) -> View:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            decision = decide(request.user, what)
            if not decision.allowed:
                _refusal_reached(request, what)
                if json:
                    return JsonResponse({"error": decision.reason}, status=403)
                raise Refused(decision.reason)
            return view(request, *args, **kwargs)

        guarded: Any = login_required(checked)
        guarded.access = what
        return guarded  # type: ignore[no-any-return]

    return decorate


def _refusal_reached(request: HttpRequest, what: str) -> None:
    """A page's refusal is kept in the record of sign-ins and refusals (``casino.refusals``)."""
    from casino import refusals  # its model is not loaded while this module is first imported

    refusals.refused_request(request, what, channel="page")


def template_key(what: str) -> str:
    """How a template names ``what``: ``command:open_table`` is ``may.command_open_table``."""
    return what.replace(":", "_").replace("-", "_")


_BY_TEMPLATE_KEY = {template_key(what): what for what in RULES}
assert len(_BY_TEMPLATE_KEY) == len(RULES), "two rules share a template name"


class May:
    """``may.<template key>`` in a template: whether the user may do it (an unknown key fails)."""

    def __init__(self, user: Person) -> None:
        self._user = user

    def __getitem__(self, key: str) -> bool:
        what = _BY_TEMPLATE_KEY.get(key)
        if what is None:
            raise UnknownWhat(f"No access rule is named may.{key} in a template.")
        return decide(self._user, what).allowed


def allowed_commands(user: Person) -> list[str]:
    """The commands ``user`` may give, by name (``deal_card``), for a page script to offer."""
    return sorted(
        what.removeprefix("command:")
        for what in RULES
        if what.startswith("command:") and decide(user, what).allowed
    )


def may(request: HttpRequest) -> dict[str, Any]:
    """Context processor: ``may``, what the user may open and do."""
    return {"may": May(request.user)}
