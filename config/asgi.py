"""The ASGI application: pages, the API and the live event streams (games/live/streams.py), served by
uvicorn (make run) or gunicorn with uvicorn workers (docker/)."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# WhiteNoise 6 serves static files with a synchronous iterator, which Django's ASGI handler reads in
# a thread and warns about on every file: expected here, so not logged each time.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

django_application = get_asgi_application()

from django.conf import settings  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from config.pages import WsgiPages  # noqa: E402
from config.uploads import body_limit  # noqa: E402
from games.live.asgi import streams_apart  # noqa: E402  (once Django is set up)
from games.live.nudges import after_answer  # noqa: E402

# A request whose body, if any, has a declared length (a page, a panel, a tap, the API): Django's
# WSGI handler on a pool of threads (config/pages.py). What it runs is synchronous; Django's ASGI handler
# starts a new thread for each request's sync code (its ThreadSensitiveContext) and hops to it and
# back several times: 3 ms of CPU a request on a 2-core machine, more than a panel costs
# (docs/benchmarks.md). A declared length over the limit is refused before (config/uploads.py). A
# body of undeclared length (chunked) keeps Django's ASGI handler, which receives it whole before
# the view runs, so that config/uploads.py cuts it at the limit while it is being received.
pages = WsgiPages(get_wsgi_application(), workers=settings.PAGE_THREADS)

WITHOUT_BODY = ("GET", "HEAD", "OPTIONS", "DELETE")


def _length_declared(scope) -> bool:
    """The body's length is known before it is read: a Content-Length and no chunked encoding, or
    no body (a method that has none and says nothing of one)."""
    names = {name for name, _ in scope.get("headers", ())}
    if b"transfer-encoding" in names:
        return False
    return b"content-length" in names or scope.get("method") in WITHOUT_BODY


def lengths_apart(undeclared, declared):
    """ASGI middleware: an HTTP request whose body length is declared to ``declared``, anything
    else to ``undeclared``."""

    async def application(scope, receive, send):
        if scope["type"] == "http" and _length_declared(scope):
            return await declared(scope, receive, send)
        return await undeclared(scope, receive, send)

    return application


# A request's nudges go out once its answer is sent (games/live/nudges.py); a body over the limit is
# answered 413 while it is being received (config/uploads.py); the event streams are served apart,
# without an OS thread each (games/live/asgi.py).
application = after_answer(body_limit(streams_apart(lengths_apart(django_application, pages))))
