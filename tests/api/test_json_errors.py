"""Every answer of ``/api/`` is JSON ``{"error": ...}``, whatever its status and whoever gave it
(the API's views, Django's resolver, its CSRF and host checks, the server error handler)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.http import HttpResponse, HttpResponseBase
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from config.middleware import API_ERRORS, ApiAnswersJson
from tablegame.models import Table
from tests.api.conftest import Tablet, new_key


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = json.loads(response.content)
    assert isinstance(body["error"], str) and body["error"]
    return str(body["error"])


@pytest.mark.parametrize("path", ["/api/nothing/", "/api/tables/1/nothing/", "/api/x"])
def test_an_address_under_api_that_matches_no_route_answers_404_in_json(
    tablet: Tablet, path: str
) -> None:
    assert "no such address" in error_of(tablet.client.get(path), 404)
    assert "no such address" in error_of(APIClient().get(path), 404)


def test_an_unknown_table_and_a_wrong_method_answer_in_json(tablet: Tablet, mini: Table) -> None:
    error_of(tablet.client.get("/api/tables/999999/"), 404)
    error_of(tablet.client.get(f"/api/tables/{mini.pk}/round/open/"), 405)


def test_no_login_and_no_csrf_token_answer_in_json(dealer: Any, mini: Table) -> None:
    anonymous = APIClient().get("/api/tables/")
    assert anonymous.status_code in (401, 403)
    error_of(anonymous, anonymous.status_code)
    browser = Client(enforce_csrf_checks=True)
    assert browser.login(username="dealer", password="baccarat")
    sent = browser.post(
        f"/api/tables/{mini.pk}/round/open/",
        "{}",
        content_type="application/json",
        headers={"Idempotency-Key": new_key()},
    )
    assert "CSRF" in error_of(sent, 403)


def test_a_body_over_the_limit_and_a_host_not_served_answer_in_json(
    tablet: Tablet, mini: Table
) -> None:
    body = {"seat": 1, "type": "banker", "amount": "1" * 40_000}
    error_of(tablet.post(mini, "round/wagers/", body), 413)
    error_of(Client().get("/api/tables/", headers={"Host": "elsewhere.example"}), 400)


@pytest.mark.parametrize("status", [400, 403, 404, 405, 413, 500, 502, 503, 599])
def test_an_html_error_under_api_is_replaced_by_json_and_a_page_keeps_its_own(status: int) -> None:
    def page(request: Any) -> HttpResponse:
        return HttpResponse("<h1>Error</h1>", status=status, headers={"Retry-After": "5"})

    answer = ApiAnswersJson(page)(RequestFactory().get("/api/tables/1/"))
    assert isinstance(answer, HttpResponseBase)
    message = error_of(answer, status)
    assert message == API_ERRORS.get(status, message)
    assert "<" not in message
    assert answer["Retry-After"] == "5"
    kept = ApiAnswersJson(page)(RequestFactory().get("/floor/"))
    assert isinstance(kept, HttpResponse)
    assert kept.content == b"<h1>Error</h1>"
