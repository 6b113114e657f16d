"""With DEBUG off, a server error is logged with its traceback and the request's id, and the
page or the JSON body shows the same id (issue 28)."""

from __future__ import annotations

import logging
from typing import Any, cast

import pytest
from django.test import Client, override_settings

from config.request_id import RequestIdFilter

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.urls("tests.request_id_urls"),
]


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """The log records, each with its ``request_id`` as settings.LOGGING's handler adds it."""
    caplog.handler.addFilter(RequestIdFilter())
    caplog.set_level(logging.ERROR, logger="django.request")
    return caplog


def _failure(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    [record] = [r for r in caplog.records if r.name == "django.request"]
    return record


@override_settings(DEBUG=False)
def test_a_failing_page_shows_the_id_its_traceback_is_logged_with(logged) -> None:
    response = Client(raise_request_exception=False).get("/failing/")

    assert response.status_code == 500
    request_id = response["X-Request-ID"]
    page = response.content.decode()
    assert "the failure is logged" in page
    assert f'<code class="request-id">{request_id}</code>' in page
    record = _failure(logged)
    assert record.request_id == request_id  # type: ignore[attr-defined]
    assert record.exc_info is not None
    assert "the view failed on purpose" in logged.text  # the traceback, in the log


@override_settings(DEBUG=False)
def test_a_failing_api_call_answers_json_with_the_proxys_id(logged) -> None:
    response = Client(raise_request_exception=False).get(
        "/api/failing/", headers={"X-Request-ID": "0123456789abcdef0123"}
    )

    assert response.status_code == 500
    assert response.json() == {
        "error": "The server failed to answer; the failure is logged.",
        "request_id": "0123456789abcdef0123",
    }
    assert _failure(logged).request_id == "0123456789abcdef0123"  # type: ignore[attr-defined]


@override_settings(DEBUG=False)
def test_a_pages_script_gets_json_and_an_id_not_the_proxys_is_replaced(logged) -> None:
    response = Client(raise_request_exception=False).get(
        "/failing/", headers={"Accept": "application/json", "X-Request-ID": "bad id\nFAKE LINE"}
    )

    body = response.json()
    assert response.status_code == 500
    assert body["request_id"] == response["X-Request-ID"] != "bad id\nFAKE LINE"
    assert _failure(logged).request_id == body["request_id"]  # type: ignore[attr-defined]


def test_the_log_line_names_the_request_id() -> None:
    from django.conf import settings

    logging = cast(dict[str, Any], settings.LOGGING)  # dictConfig's nested dictionaries
    assert "%(request_id)s" in logging["formatters"]["line"]["format"]
    assert logging["handlers"]["stderr"]["stream"] == "ext://sys.stderr"


def test_a_celery_tasks_log_lines_carry_its_id(caplog: pytest.LogCaptureFixture) -> None:
    from celery import signals

    import config.celery  # noqa: F401  (connects the receivers)
    from config.request_id import current_id

    caplog.handler.addFilter(RequestIdFilter())
    before = current_id.get()
    signals.task_prerun.send(sender=None, task_id="t-1", task=None)
    logging.getLogger("celery.app.trace").error("Task failed")
    signals.task_postrun.send(sender=None, task_id="t-1", task=None)

    [record] = [r for r in caplog.records if r.name == "celery.app.trace"]
    assert record.request_id == "task:t-1"  # type: ignore[attr-defined]
    assert current_id.get() == before  # a task run eagerly gives the request its id back
