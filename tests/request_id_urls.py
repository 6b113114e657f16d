"""The project's URLs and handler500, with a page and an API view that fail (tests of issue 28)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as project

__all__ = ["handler500", "urlpatterns"]


class Broken(Exception):
    """What the failing views raise."""


def fail(request: HttpRequest) -> HttpResponse:
    raise Broken("the view failed on purpose")


urlpatterns = [path("api/failing/", fail), path("failing/", fail), *project]
