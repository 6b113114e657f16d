"""The API asks ``casino.access``: a view's ``access`` names what it is (``"api:table"``,
``"command:deal_card"``). A refusal answers 403 ``{"error": reason}`` and is kept in the record of
refusals (``casino.refusals``); no login answers 401."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from casino import access, refusals


class Policy(BasePermission):
    """Allowed when the policy allows the user the view's ``access``."""

    def has_permission(self, request: Request, view: Any) -> bool:
        decision = access.decide(request.user, view.access)
        if not decision.allowed:
            self.message = decision.reason  # REST framework's 403 detail (read per check)
            if request.user.is_authenticated:  # else REST framework answers 401: log in
                refusals.refused_request(request._request, view.access, channel="api")
        return decision.allowed
