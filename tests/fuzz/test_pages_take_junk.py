"""Junk, generated, at every page form, page-side JSON endpoint and page query, as each role the
access policy lets use it: no server error ever, and a refusal changes nothing in the record.

The routes and roles are the access matrix's own walk (tests/test_access_matrix.py). The API's
commands (api:*) are the schema conformance test's; the admin is Django's. Hypothesis is
derandomized and bounded, so CI sees the same inputs each run: ``pytest -m fuzz``.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote_from_bytes

import pytest
from django.contrib.auth.models import User
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounting import chips
from casino import access
from casino.models import Event, Pit
from protection.follower import follow
from protection.models import PlayerSession
from tests.pit.forms import a_void_form
from tests.tablegame.conftest import deal_at, play, ready_table, table_for
from tests.test_access_matrix import USERNAMES, access_of, allowed, concrete, routes

pytestmark = pytest.mark.fuzz

#: The fields the pages read (their templates' inputs, their scripts' bodies, their queries).
FIELDS = [
    *("action", "alert", "amount", "approver", "approver_password", "at", "carried_by"),
    *("casino", "compact", "configuration", "count", "day", "dealer", "due_at", "effective_at"),
    *("end", "first", "floorperson", "form", "forms", "hold_high", "hold_low", "kind", "label"),
    *("last", "maximum", "meter", "minimum", "name", "next", "notice", "option", "other_amount"),
    *("other_item", "page", "partial", "password", "patron_name", "person", "pit"),
    *("pit_effective_at", "pits", "profile", "reason", "received_by", "round", "row", "seat"),
    *("seats", "seats_reason", "sequence", "settlement", "shuffle", "signature", "since"),
    *("slip", "source", "star", "start", "statement", "table", "tables", "username"),
    *("variance_threshold", "win", "witness", "witness_password", "close_after_hours"),
    *("player", "player_seat", "card", "change"),
    *(f"chip_{chips.label(d)}" for d in chips.CHIPS),
    *(f"cash_{chips.label(d)}" for d in chips.CURRENCY),
]

#: What a typo, a stuck key or a stranger sends.
NASTY = [
    *("", " ", "0", "-1", "1e400", "-1e400", "NaN", "nan", "Infinity", "-inf", "1e-400", "0.001"),
    *(str(2**31), str(2**63), str(-(2**63) - 1), "12345678901234567890", "9" * 5000),
    *("²", "٣", "١٢", "\uff13", "½", "Ⅻ", "1_000", "0x10", " 7 ", "7\n", "1,5", "+5", "--5"),
    *(
        "\x00",
        "a\x00b",
        "\ud800",
        "x\udfffy",
        "\u202e",
        "\ufeff1",
        "\U0001d7d9\U0001d7da",
        "🂡" * 50,
    ),
    *("9999-12-31", "0001-01-01", "garbage", "2026-02-30", "2026-13-01", "99999-01-01"),
    *("9999-12-31T23:59", "0001-01-01T00:00", "2026-11-29T25:61", "2026-11-29T10:00+99:00"),
    *("true", "false", "null", "[]", "{}", "<script>", "'; drop table x; --", "A" * 100_000),
]


def _text() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(NASTY),
        st.text(max_size=30),
        st.integers().map(str),
        st.floats().map(str),
        st.dates().map(str),
        st.datetimes().map(lambda d: d.isoformat()),
    )


def _json_value() -> st.SearchStrategy[Any]:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(),
        _text(),
    )
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_key(), inner, max_size=3),
        max_leaves=8,
    )


def _key() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(FIELDS), st.text(max_size=10))


def _encoded(pairs: list[tuple[str, str]]) -> str:
    """Form or query encoding that keeps what a browser cannot send (a lone surrogate's bytes)."""
    return "&".join(
        quote_from_bytes(k.encode("utf-8", "surrogatepass"))
        + "="
        + quote_from_bytes(v.encode("utf-8", "surrogatepass"))
        for k, v in pairs
    )


FORM = st.lists(st.tuples(_key(), _text()), max_size=12)
QUERY = st.lists(st.tuples(_key(), _text()), min_size=1, max_size=5)
#: JSON bodies: objects of the pages' fields, any JSON, and what is not JSON at all.
JSON_BODY = st.one_of(
    st.dictionaries(_key(), _json_value(), max_size=8).map(json.dumps),
    _json_value().map(json.dumps),
    st.sampled_from(
        [
            "",
            "{",
            "[" * 100_000 + "]" * 100_000,
            '{"a":' * 50_000 + "1" + "}" * 50_000,
            '{"day": NaN}',
            '{"amount": Infinity}',
            '{"amount": 1e400}',
            '{"table": 1' + "0" * 5000 + "}",
            '{"reason": "\\u0000"}',
            '{"reason": "\\ud800"}',
            "\x00",
            '"just a string"',
            "[1, 2, 3]",
        ]
    ),
)
FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

#: Routes left out, each with why (the API's commands are the schema test's; the admin Django's).
LEFT_OUT: dict[str, str] = {}


def _floor() -> dict[str, Any]:
    """A floor at play, as the access matrix's walk has it: values for every route parameter."""
    User.objects.create_user("visitor", password="baccarat")
    staff = {u.username: u for u in User.objects.all()}
    dealer, floor = staff["dealer"], staff["floor"]
    watched = ready_table("ma-mini", dealer, floor)
    game = play(watched, dealer, [(1, "banker", "100")], ["4H", "9C", "2S", "KS"])
    worked = deal_at(table_for("s42-mini"), dealer, floor)
    form = a_void_form(Pit.objects.get(), staff["clerk"])
    follow([watched.pk])  # game protection's sessions of the watched table's players
    session = PlayerSession.objects.filter(table=watched).first()
    assert session is not None
    return {
        "staff": staff,
        "watched": {
            "table_id": watched.pk,
            "round_id": game.pk,
            "seat": 2,
            "marker_id": 1,
            "session_id": session.pk,
        },
        "worked": worked.pk,
        "form_id": form.pk,
        "pit_id": watched.pit_id,
    }


def _urls(role: str, floor: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, url, what) of every page and page command this role may use."""
    found = []
    for name, route, view in routes():
        what = access_of(name, view)
        if what is None or name.startswith("api:") or name in LEFT_OUT or what == "page:admin":
            continue
        if not allowed(role, what):
            continue
        table = floor["worked"] if what == "page:dealer" else floor["watched"]["table_id"]
        values = {**floor["watched"], "table_id": table}
        values |= {"form_id": floor["form_id"], "pit_id": floor["pit_id"]}
        found.append((name, concrete(route, values), what))
    return found


def _no_server_error(response: Any, sent: str) -> None:
    assert response.status_code < 500, (response.status_code, sent[:300])


def _refusal_changes_nothing(client: Client, method: str, url: str, **kwargs: Any) -> None:
    before = Event.objects.count()
    response = getattr(client, method)(url, **kwargs)
    sent = f"{method.upper()} {url} {str(kwargs.get('data', ''))[:300]!r}"
    _no_server_error(response, sent)
    if 400 <= response.status_code < 500:
        assert Event.objects.count() == before, f"a refusal changed the record: {sent}"


def _walk(client: Client, role: str, floor: dict[str, Any]) -> None:
    for _name, url, what in _urls(role, floor):
        _junk_at(client, url, what)


def _junk_at(client: Client, url: str, what: str) -> None:
    """Junk queries at a page; junk forms at it and at a command; junk JSON at a command."""
    if what.startswith("page:"):

        @FUZZ
        @given(query=QUERY)
        def junk_query(query: list[tuple[str, str]]) -> None:
            _refusal_changes_nothing(client, "get", f"{url}?{_encoded(query)}")

        junk_query()

    @FUZZ
    @given(form=FORM)
    def junk_form(form: list[tuple[str, str]]) -> None:
        _refusal_changes_nothing(
            client,
            "post",
            url,
            data=_encoded(form),
            content_type="application/x-www-form-urlencoded",
        )

    junk_form()

    if what.startswith("command:"):

        @FUZZ
        @given(body=JSON_BODY, key=st.none() | _text())
        def junk_json(body: str, key: str | None) -> None:
            headers = {} if key is None else {"Idempotency-Key": key}
            _refusal_changes_nothing(
                client,
                "post",
                url,
                data=body.encode("utf-8", "surrogatepass"),
                content_type="application/json",
                headers=headers,
            )

        junk_json()


def _sweep(client: Client, url: str, what: str) -> None:
    """Each nasty value in every field at once (a form, a query, a JSON object), and in the one
    field a page's number or date is most often read from."""
    for value in NASTY:
        if len(value) > 10_000:
            continue
        everywhere = [(field, value) for field in FIELDS]
        if what.startswith("page:"):
            for pairs in (everywhere, [("day", value)], [("table", value)], [("page", value)]):
                _refusal_changes_nothing(client, "get", f"{url}?{_encoded(pairs)}")
        _refusal_changes_nothing(
            client,
            "post",
            url,
            data=_encoded(everywhere),
            content_type="application/x-www-form-urlencoded",
        )
        if what.startswith("command:"):
            body = json.dumps(dict(everywhere)).encode("utf-8", "surrogatepass")
            _refusal_changes_nothing(
                client, "post", url, data=body, content_type="application/json"
            )


def test_no_nasty_value_in_any_field_is_a_server_error(seeded):
    """Every route once, as the first role (in the matrix's order) that may use it."""
    floor = _floor()
    seen: set[str] = set()
    for role in access.MATRIX_ROLES:
        client = Client(raise_request_exception=False)
        assert client.login(username=USERNAMES[role], password="baccarat")
        for _name, url, what in _urls(role, floor):
            if url not in seen:
                seen.add(url)
                _sweep(client, url, what)
    assert len(seen) > 40


@pytest.mark.parametrize("role", access.MATRIX_ROLES)
def test_no_junk_at_a_page_is_a_server_error(seeded, role):
    floor = _floor()
    client = Client(raise_request_exception=False)
    assert client.login(username=USERNAMES[role], password="baccarat")
    assert _urls(role, floor)
    _walk(client, role, floor)


def test_no_junk_at_the_sign_in_is_a_server_error(seeded):
    client = Client(raise_request_exception=False)

    @FUZZ
    @given(form=FORM)
    def junk_sign_in(form: list[tuple[str, str]]) -> None:
        _refusal_changes_nothing(
            client,
            "post",
            "/login/",
            data=_encoded(form),
            content_type="application/x-www-form-urlencoded",
        )

    junk_sign_in()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("x=" + "A" * 3_000_000, "application/x-www-form-urlencoded"),
        ("&".join(f"f{n}=1" for n in range(2000)), "application/x-www-form-urlencoded"),
        (json.dumps({"reason": "A" * 3_000_000}), "application/json"),
    ],
    ids=["oversized form", "too many fields", "oversized json"],
)
def test_an_oversized_body_is_refused_not_a_server_error(seeded, body, content_type):
    client = Client(raise_request_exception=False)
    assert client.login(username="floor", password="baccarat")
    for url in ("/floor/procedure/", "/dealers/assign/", "/alerts/acknowledge/"):
        _refusal_changes_nothing(client, "post", url, data=body, content_type=content_type)
