"""The request our pages receive: Django's, with django-htmx's ``request.htmx`` declared for the type
checker (the middleware sets it on every request)."""

from django.http import HttpRequest as DjangoHttpRequest
from django_htmx.middleware import HtmxDetails


class HttpRequest(DjangoHttpRequest):
    htmx: HtmxDetails
    campaign_role: str  # set by the campaign pages once the member's role is checked (campaign/access.py)
