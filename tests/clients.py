"""Django test clients for the demo staff, as their screens would be."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import User
from django.test import Client


def logged_in(username: str) -> Client:
    """A client logged in through the password (every demo user's is ``baccarat``)."""
    client = Client()
    assert client.login(username=username, password="baccarat")
    return client


def signed_in(user: User) -> Client:
    """A client with ``user``'s session, without the password check."""
    client = Client()
    client.force_login(user)
    return client


def post_json(client: Client, url: str, body: Any) -> tuple[int, Any]:
    """POST ``body`` as JSON, as the pages' scripts do; the status and the decoded answer."""
    answer = client.post(url, body, content_type="application/json")
    return answer.status_code, json.loads(answer.content)
