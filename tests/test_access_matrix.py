"""The access matrix, walked: every role (and a person with none) against every page, API read and
command, and socket, as the real views, endpoints and consumers answer; and every route has a rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.contrib.staticfiles.views import serve as serve_static
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.html import escape
from pytest_django import Settings

from casino import access, roles
from casino.models import Pit
from protection.follower import follow
from protection.models import PlayerSession
from tablegame.consumers import FORBIDDEN, close_reason
from tests.pit.forms import a_void_form
from tests.realtime.conftest import socket
from tests.tablegame.conftest import deal_at, play, ready_table, table_for

#: The demo user in each column of the matrix ("visitor" is made here, with no role).
USERNAMES = {
    roles.DEALER: "dealer",
    roles.FLOORPERSON: "floor",
    roles.PIT_BOSS: "pitboss",
    roles.PIT_CLERK: "clerk",
    roles.SURVEILLANCE: "surveillance",
    roles.ACCOUNTING: "accounting",
    access.ADMINISTRATOR: "admin",
    access.NO_ROLE: "visitor",
}

#: A valid body for each command (by its URL name, the action's name): an allowed command must
#: reach its action, which answers 200 or refuses by the rules (409), never by the role.
BODIES: dict[str, dict[str, Any]] = {
    "seat_player": {"player": "Ana"},
    "file_rules": {"profile": "s42-mini"},
    "set_limit": {"wager": "banker", "minimum": "10", "maximum": "500"},
    "receive_decks": {"decks": 8},
    "shuffle_decks": {"machine": True},
    "respread_idle_shoe": {},
    "cut_cards": {"seat": None, "position": 120, "cover_from_back": 20},
    "order_recut": {"reason": "The cut was too shallow."},
    "burn_cards": {"first_card": "3D"},
    "take_shoe": {"seat": None},
    "pass_shoe": {},
    "take_player_dealer": {"seat": 1},
    "place_wager": {"seat": 1, "type": "banker", "amount": "100"},
    "withdraw_wager": {"seat": 1, "type": "banker"},
    "set_player_dealer_bank": {"bank": "500"},
    "deal_card": {"card": "4D"},
    "correct_card": {"position": 1, "card": "4D", "floorperson": "floor", "password": "baccarat"},
    "relinquish_cards": {"hand": "player"},
    "settle_house_money_wagers": {},
    "void_round": {"reason": "The shoe ran out."},
    "report_irregularity": {"kind": "card_face_up", "card": "5S"},
    "request_vigorish_form": {"reason": "A regular."},
}
NO_BODY = {
    "open_table",
    "close_table",
    "leave_seat",
    "inspect_decks",
    "verify_inspection",
    "spread_decks",
    "wash_decks",
    "verify_shuffle",
    "end_shoe",
    "cut_card_out",
    "open_round",
    "no_more_bets",
    "settle_round",
    "collect_marker",
}


def routes(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, Callable[..., Any] | None]]:
    """Every URL of the site: (name with namespace, route, view); Django's admin as one entry."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                yield "admin:index", route, None
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from routes(pattern.url_patterns, route, inner)
        elif isinstance(pattern, URLPattern):
            if pattern.callback is serve_static:
                continue  # DEBUG's static files (config.urls), public, present when imported so
            yield namespace + (pattern.name or ""), route, pattern.callback


def access_of(name: str, view: Callable[..., Any] | None) -> str | None:
    """What the view says it is in the policy (None: it says nothing)."""
    if name == "admin:index":
        return "page:admin"
    for holder in (view, getattr(view, "view_class", None)):
        what = getattr(holder, "access", None)
        if what is not None:
            return str(what)
    return None


def socket_routes() -> list[tuple[str, str]]:
    """Every WebSocket route and what its consumer says it is."""
    from config.asgi import websocket_urlpatterns

    routes = []
    for pattern in websocket_urlpatterns:
        # ``as_asgi()`` makes the route's application and hangs its consumer's class on it.
        consumer = vars(pattern.callback)["consumer_class"]
        routes.append((str(pattern.pattern), consumer.access))
    return routes


#: Pages that show one thing chosen in the query (their links always name it).
QUERIES = {"accounting:rounds": "?table={table_id}"}

#: Old addresses kept for bookmarks: the same rule as the page they send on to, which answers 301.
MOVED = {"surveillance:round-moved"}


def concrete(route: str, values: dict[str, int]) -> str:
    """The route with its parameters filled in: ``tables/<int:table_id>/`` -> ``tables/7/``."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def allowed(role: str, what: str) -> bool:
    """What the matrix says, read from the data itself."""
    return role in access.RULES[what].roles


# --- Every route has its rule ------------------------------------------------------------------


def test_every_page_and_api_route_names_a_rule_of_the_matrix():
    missing = [
        name
        for name, _route, view in routes()
        if name not in access.PUBLIC_PAGES and access_of(name, view) not in access.RULES
    ]
    assert missing == []


def test_every_socket_route_names_a_rule_of_the_matrix():
    whats = [what for _route, what in socket_routes()]
    # The pit's second socket is its tables with meters (the progressives page).
    assert whats == ["socket:table", "socket:pit", "socket:pit", "socket:surveillance"]
    assert all(what in access.RULES for what in whats)


def test_every_rule_of_the_matrix_is_for_a_route_that_exists():
    used = {access_of(name, view) for name, _route, view in routes()}
    used |= {what for _route, what in socket_routes()}
    stale = {what for what in access.RULES if not what.startswith("authority:")} - used
    assert stale == set()


def test_every_command_has_a_body_for_the_walk():
    commands = {name.removeprefix("api:") for name, _r, v in routes() if name.startswith("api:")}
    assert commands - {"tables", "table", "recent_players"} == set(BODIES) | NO_BODY


# --- Pages and the API, role by role -----------------------------------------------------------


def _refusal_shown(response: Any, reason: str) -> bool:
    if response["Content-Type"].startswith("application/json"):
        result: bool = json.loads(response.content) == {"error": reason}
        return result
    return escape(reason) in response.content.decode()


@pytest.mark.parametrize("role", access.MATRIX_ROLES)
def test_each_page_and_api_answers_as_the_matrix_says(seeded, role):
    User.objects.create_user("visitor", password="baccarat")
    staff = {u.username: u for u in User.objects.all()}
    dealer, floor = staff["dealer"], staff["floor"]
    watched = ready_table("ma-mini", dealer, floor)
    game = play(watched, dealer, [(1, "banker", "100")], ["4H", "9C", "2S", "KS"])
    worked = deal_at(table_for("s42-mini"), dealer, floor)  # the dealer's table now
    form = a_void_form(Pit.objects.get(), staff["clerk"])
    follow([watched.pk])  # game protection's sessions of the watched table's players
    session = PlayerSession.objects.filter(table=watched).first()
    assert session is not None
    client = Client()
    assert client.login(username=USERNAMES[role], password="baccarat")
    user = staff[USERNAMES[role]]
    assert access.matrix_role(user) == role

    wrong = []
    for name, route, view in routes():
        if name in access.PUBLIC_PAGES:
            continue
        what = access_of(name, view)
        assert what is not None, name
        command = what.startswith("command:")
        # The tablet and its state (which holds its helps): the dealer's own table.
        at_work = command or what in ("page:dealer", "api:table", "api:recent_players")
        values = {"table_id": (worked if at_work else watched).pk, "round_id": game.pk}
        url = concrete(
            route,
            {
                **values,
                "seat": 2,
                "marker_id": 1,
                "session_id": session.pk,
                "form_id": form.pk,
                "pit_id": watched.pit_id,
            },
        )
        url += QUERIES.get(name, "").format(**values)
        if command:
            body = BODIES.get(name.removeprefix("api:"), {})
            response = client.post(
                url, body, content_type="application/json", headers={"Idempotency-Key": url}
            )
        else:
            response = client.get(url)
        status = response.status_code
        if what == "page:admin":  # the admin sends those it refuses to its own login page
            ok = status == 200 if allowed(role, what) else status == 302
        elif not allowed(role, what):
            reason = access.decide(user, what).reason
            ok = status == 403 and _refusal_shown(response, reason)
        elif command:
            ok = status in (200, 409)  # done, or refused by the rules of the game, not the role
        elif name in MOVED:
            ok = status == 301
        else:
            ok = status == 200
        if not ok:
            wrong.append((url, status, allowed(role, what)))
    assert wrong == []


# --- Sockets, every role ------------------------------------------------------------------------


def test_each_socket_answers_as_the_matrix_says(floor_staff, settings: Settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    users = {**floor_staff, "visitor": User.objects.create_user("visitor")}
    values = {"table_id": table_for("ma-mini").pk, "pit_id": Pit.objects.get().pk}

    async def answer(client: Any) -> tuple[str, int | None, str]:
        connected, _ = await client.connect()
        assert connected
        message = await client.receive_output()
        if message["type"] == "websocket.close":
            await client.disconnect()
            return "closed", message.get("code"), message.get("reason", "")
        await client.disconnect()
        return json.loads(message["text"])["type"], None, ""

    wrong = []
    for role in access.MATRIX_ROLES:
        user = users[USERNAMES[role]]
        for route, what in socket_routes():
            got = async_to_sync(answer)(socket(concrete(route, values), user=user))
            expected: tuple[str, int | None, str]
            if allowed(role, what):
                expected = ("hello", None, "")
            else:
                expected = ("closed", FORBIDDEN, close_reason(access.decide(user, what).reason))
            if got != expected:
                wrong.append((role, route, got))
    assert wrong == []
