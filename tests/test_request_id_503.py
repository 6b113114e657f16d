"""A 503 (the database away, or a table busy past the lock timeout) shows the request's id as a
500 does, in JSON on the API and to the pages' scripts and as a reference on the page, and its
log line carries the same id (issue 28)."""

from __future__ import annotations

import logging

import pytest
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client, override_settings
from django.urls import path
from psycopg import errors as pg_errors

from config.middleware import BUSY, UNAVAILABLE
from config.request_id import RequestIdFilter
from config.urls import urlpatterns as project

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def busy(request: HttpRequest) -> HttpResponse:
    raise OperationalError("canceling statement due to lock timeout") from (
        pg_errors.LockNotAvailable("canceling statement due to lock timeout")
    )


def down(request: HttpRequest) -> HttpResponse:
    raise OperationalError("connection refused")


urlpatterns = [
    path("api/busy/", busy),
    path("api/down/", down),
    path("busy/", busy),
    path("down/", down),
    *project,
]

PROXY_ID = "0123456789abcdef0123"


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.handler.addFilter(RequestIdFilter())
    caplog.set_level(logging.WARNING, logger="config.middleware")
    return caplog


def _line(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    [record] = [r for r in caplog.records if r.name == "config.middleware"]
    return record


@override_settings(DEBUG=False)
def test_a_busy_page_shows_the_id_its_log_line_has(logged: pytest.LogCaptureFixture) -> None:
    response = Client().get("/busy/")
    assert response.status_code == 503
    request_id = response["X-Request-ID"]
    page = response.content.decode()
    assert BUSY in page
    assert f'<code class="request-id">{request_id}</code>' in page
    line = _line(logged)
    assert line.request_id == request_id  # type: ignore[attr-defined]
    assert request_id in line.getMessage() and "table busy" in line.getMessage()
    assert line.levelno == logging.WARNING


@override_settings(DEBUG=False)
def test_the_api_answers_503_in_json_with_the_proxys_id(logged: pytest.LogCaptureFixture) -> None:
    response = Client().get("/api/down/", headers={"X-Request-ID": PROXY_ID})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {"error": UNAVAILABLE, "request_id": PROXY_ID}
    line = _line(logged)
    assert line.request_id == PROXY_ID  # type: ignore[attr-defined]
    assert line.levelno == logging.ERROR and PROXY_ID in line.getMessage()


@override_settings(DEBUG=False)
def test_a_busy_command_answers_json_with_its_id(logged: pytest.LogCaptureFixture) -> None:
    response = Client().post("/api/busy/")
    assert (response.status_code, response["Retry-After"]) == (503, "2")
    assert response.json() == {"error": BUSY, "request_id": response["X-Request-ID"]}


@override_settings(DEBUG=False)
def test_a_pages_script_is_answered_in_json(logged: pytest.LogCaptureFixture) -> None:
    response = Client().post("/down/", headers={"Accept": "application/json"})
    assert response.status_code == 503
    assert response.json() == {"error": UNAVAILABLE, "request_id": response["X-Request-ID"]}
