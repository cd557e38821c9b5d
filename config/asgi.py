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

from config.streams import streams_apart  # noqa: E402
from config.uploads import body_limit  # noqa: E402
from games.nudges import after_answer  # noqa: E402  (once Django is set up)

# A request's nudges go out once its answer is sent (games/nudges.py); a body over the limit is
# answered 413 while it is being received (config/uploads.py); the event streams are served apart,
# without an OS thread each (config/streams.py).
application = after_answer(body_limit(streams_apart(django_application)))
