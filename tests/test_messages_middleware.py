"""Messages under Django's own middleware (``bench/bench_middleware.py`` measured what ours, which
made the store only when used, saved: too little to keep it): a request that adds no message
sets no cookie; one that adds a message stores it for the next page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory


def _request():
    request = RequestFactory().get("/")
    request.session = SessionStore()
    return request


def _through(view):
    request = _request()
    middleware = MessageMiddleware(lambda req: view(req))
    return request, middleware(request)


def test_a_request_that_adds_no_message_sets_no_cookie():
    _, response = _through(lambda req: HttpResponse("tap"))
    assert "messages" not in response.cookies


def test_a_message_added_is_stored_for_the_next_page():
    def view(req):
        messages.success(req, "Gaming day 2026-11-26 closed.")
        return HttpResponse("done")

    request, response = _through(view)
    assert isinstance(request._messages, FallbackStorage)
    assert "messages" in response.cookies

    later = _request()
    later.COOKIES["messages"] = response.cookies["messages"].value
    MessageMiddleware(lambda req: HttpResponse()).process_request(later)
    assert [str(m) for m in messages.get_messages(later)] == ["Gaming day 2026-11-26 closed."]
