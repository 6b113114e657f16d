"""Django's admin, opened through the access policy (``"page:admin"``: the administrator only).

Django's own site lets in anyone ``is_staff``; :class:`PolicyAdminSite` asks ``casino.access``
instead, so a floor role given ``is_staff`` by mistake gets no further than the admin's login
page. :class:`PolicyAdminConfig` (in ``INSTALLED_APPS`` in place of ``django.contrib.admin``)
makes it ``admin.site``, the site every app's ``admin.register`` fills.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.http import HttpRequest


class PolicyAdminSite(admin.AdminSite):
    """The admin site; who may open it is the access policy's answer."""

    def has_permission(self, request: HttpRequest) -> bool:
        from casino import access  # the policy reads the roles' models: not at app loading

        user = request.user
        return bool(user.is_active and access.decide(user, "page:admin").allowed)


class PolicyAdminConfig(AdminConfig):
    """``django.contrib.admin`` with :class:`PolicyAdminSite` as its default site."""

    default_site = "casino.admin_site.PolicyAdminSite"
