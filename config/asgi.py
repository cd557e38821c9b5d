"""The ASGI application: pages, the API and the live event streams (games/events.py), served by
uvicorn (make run) or gunicorn with uvicorn workers (docker/)."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# WhiteNoise 6 serves static files with a synchronous iterator, which Django's ASGI handler reads in
# a thread and warns about on every file: expected here, so not logged each time.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")

django_application = get_asgi_application()

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from config.streams import streams_apart  # noqa: E402
from config.uploads import body_limit  # noqa: E402
from games.nudges import after_answer  # noqa: E402  (once Django is set up)

# A read (GET or HEAD without a body: a page, a panel, the API's reads): Django's WSGI handler on a
# pool of threads (a2wsgi). What it runs is synchronous; Django's ASGI handler starts a new thread
# for each request's sync code (its ThreadSensitiveContext) and hops to it and back several times:
# 3 ms of CPU a request on a 2-core machine, more than a panel costs (docs/benchmarks.md). Any other
# request keeps Django's ASGI handler, which receives the whole body before the view runs, so that
# config/uploads.py cuts an upload at the limit while it is being received, declared or chunked.
pages = WSGIMiddleware(get_wsgi_application(), workers=settings.PAGE_THREADS)  # type: ignore[arg-type]  # a response is an iterable of bytes


def _has_body(scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() not in (b"", b"0")):
            return True
    return False


READS = ("GET", "HEAD")


def reads_apart(others, reads):
    """ASGI middleware: a GET or HEAD without a body to ``reads``, anything else to ``others``."""

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope.get("method") in READS and not _has_body(scope):
            return await reads(scope, receive, send)
        return await others(scope, receive, send)

    return application


# A request's nudges go out once its answer is sent (games/nudges.py); a body over the limit is
# answered 413 while it is being received (config/uploads.py); the event streams are served apart,
# without an OS thread each (config/streams.py).
application = after_answer(body_limit(streams_apart(reads_apart(django_application, pages))))
