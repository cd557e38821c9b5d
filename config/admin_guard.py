"""/admin/ from this machine only: under the embedded default ``make run`` serves the whole
home network, and the admin is no business of the phones at the table. Others get the site's 404, as
if there were no admin. ``ADMIN_FROM_NETWORK`` (CHRONICLE_ADMIN_FROM_NETWORK) opens it: the default
in production, where every peer is the TLS proxy (docs/operations.md)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404

from config.network import request_from_this_machine

ADMIN_PREFIX = "/admin/"


class AdminFromThisMachineMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.path_info.startswith(ADMIN_PREFIX)
            and not settings.ADMIN_FROM_NETWORK
            and not request_from_this_machine(request)
        ):
            raise Http404
        return self.get_response(request)
