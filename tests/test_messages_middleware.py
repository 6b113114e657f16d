"""The message store is made only when a view uses it (``config.middleware.MessageMiddleware``):
a request that adds no message makes none and sets no cookie; one that adds a message stores it
for the next page, as Django's middleware does."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.functional import empty

from config.middleware import MessageMiddleware


def _request():
    request = RequestFactory().get("/")
    request.session = SessionStore()
    return request


def _through(view):
    request = _request()
    middleware = MessageMiddleware(lambda req: view(req))
    return request, middleware(request)


def test_a_request_that_adds_no_message_makes_no_store_and_sets_no_cookie():
    request, response = _through(lambda req: HttpResponse("tap"))
    assert request._messages._wrapped is empty
    assert "messages" not in response.cookies


def test_a_message_added_is_stored_for_the_next_page():
    def view(req):
        messages.success(req, "Gaming day 2026-11-26 closed.")
        return HttpResponse("done")

    request, response = _through(view)
    assert isinstance(request._messages._wrapped, FallbackStorage)
    assert "messages" in response.cookies

    later = _request()
    later.COOKIES["messages"] = response.cookies["messages"].value
    MessageMiddleware(lambda req: HttpResponse()).process_request(later)
    assert [str(m) for m in messages.get_messages(later)] == ["Gaming day 2026-11-26 closed."]
