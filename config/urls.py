"""URLs: home, the tablet and display, the pit console, surveillance, the API, login, admin."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.urls import staticfiles_urlpatterns
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from casino.signin import SignInForm
from config import views_home
from pit import views as pit_views

urlpatterns = [
    # The API first: a dealer's tap is resolved before the pages' patterns are tried.
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/", include("tablegame.api.urls")),
    path("", views_home.home, name="home"),
    path("floor/", pit_views.floor, name="floor"),
    path("progressives/", include("pit.progressives")),
    path("alerts/", include("pit.alerts_views")),
    path("dealers/", include("pit.dealers")),
    path("floor/", include("pit.urls")),
    path("surveillance/", include("surveillance.urls")),
    path("protection/", include("protection.urls")),
    path("accounting/", include("accounting.urls")),
    path("login/", auth_views.LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("tablegame.urls")),
]

# A server error: 503 when PostgreSQL is the cause, else 500 with the request's id, in JSON on
# the API and to the pages' scripts (config/request_id.py).
handler500 = "config.request_id.server_error"

if settings.DEBUG:
    # runserver serves static files itself; this covers daphne run directly (docker compose).
    urlpatterns += staticfiles_urlpatterns()
