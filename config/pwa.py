"""The installable app: the web app manifest, the service worker, the favicon and the page the
service worker shows offline for a page it never kept (templates/pwa/). Served from the root so
the worker's scope is the whole site; none of them holds anything of a member."""

import functools
import hashlib
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

NAME = "Chronicle"
DESCRIPTION = gettext_lazy("The King's Dilemma campaign and the table companion of your game nights.")
THEME_COLOUR = "#1f1a14"  # the top bar's ink (static/css/chronicle.css --ink)
BACKGROUND_COLOUR = "#f7f1e3"  # the page's parchment (--paper)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
# What the worker keeps at its installation: what every page loads (the pages themselves are kept
# as they are read), so a page read before the worker was there still finds its style offline.
PRECACHED_FOLDERS = ("css", "js", "icons")
PRECACHED_OTHERS = ("django_htmx/htmx-2.min.js", "django_htmx/django-htmx.js")
OFFLINE_TITLE = gettext_lazy("This page needs the server")
# The worker's words when even its offline page is missing.
UNREACHABLE = gettext_lazy("Chronicle cannot reach its server.")


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": NAME,
        "short_name": NAME,
        "description": DESCRIPTION,  # in the reader's language, as "lang" says
        "lang": translation.get_language(),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@functools.cache
def _static_files() -> tuple[tuple[str, ...], str]:
    """The static files the worker keeps at once, and a version that changes with any of them (and
    with the worker itself), so a new release replaces what the phones hold."""
    root = Path(settings.STATICFILES_DIRS[0])
    names = sorted(
        path.relative_to(root).as_posix()
        for folder in PRECACHED_FOLDERS
        for path in (root / folder).rglob("*")
        if path.is_file() and path.suffix in (".css", ".js", ".png")
    )
    digest = hashlib.sha256((Path(settings.BASE_DIR) / "templates" / "pwa" / "sw.js").read_bytes())
    for name in names:
        digest.update(name.encode() + (root / name).read_bytes())
    return (*names, *PRECACHED_OTHERS), digest.hexdigest()[:12]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    names, version = _static_files()
    response = render(
        request,
        "pwa/sw.js",
        {"version": version, "precached": [static(name) for name in names], "unreachable": UNREACHABLE},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser asks for a new worker at every visit
    return response


@require_safe
@cache_control(max_age=86400)
def favicon(request: HttpRequest) -> FileResponse:
    found = finders.find("icons/favicon.ico")
    if not found:
        raise Http404("favicon.ico")
    return FileResponse(open(found, "rb"), content_type="image/x-icon")  # FileResponse closes it


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/offline.html", {"title": OFFLINE_TITLE})


def clears_site_data(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Log-out on a shared device: the answer tells the browser to drop its cached pages (the service
    worker and the page drop the worker's own caches as the form is sent)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if request.method == "POST":
            response["Clear-Site-Data"] = '"cache"'
        return response

    return wrapped
